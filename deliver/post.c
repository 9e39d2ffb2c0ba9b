/*
 * post.c - the HTTP POST of every webhook format (deliver_post(), deliver_internal.h):
 * libcurl with short timeouts, no redirects, http and https only, and a socket opener that
 * has the last word on where the request goes.
 *
 * The opener judges the address DNS gave for this very connection (deliver/destination.h),
 * so a name cannot be re-pointed at an inner address between a check and the connect. A
 * failure is told to the delivery log coarsely, so the log cannot serve to probe what
 * answers where: no addresses, ports or libcurl messages.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "deliver/deliver_internal.h"
#include "deliver/destination.h"

#define CONNECT_TIMEOUT_MS 3000
#define TOTAL_TIMEOUT_MS 5000

/* The socket opener's word: whether private targets are allowed, and whether it refused. */
struct opener {
	int allow_private;
	int refused;
};

static size_t discard_body(char *data, size_t size, size_t count, void *user)
{
	(void)data;
	(void)user;
	return size * count;
}

static curl_socket_t open_checked(void *context, curlsocktype purpose, struct curl_sockaddr *address)
{
	(void)purpose;
	struct opener *opener = context;
	if (!destination_address_allowed(&address->addr, opener->allow_private)) {
		opener->refused = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(address->family, address->socktype, address->protocol);
}

static const char *coarse_reason(CURLcode code, int refused)
{
	if (refused)
		return "the destination address is not allowed (private, loopback or reserved)";
	switch (code) {
	case CURLE_COULDNT_RESOLVE_HOST:
		return "the host name could not be resolved";
	case CURLE_OPERATION_TIMEDOUT:
		return "the receiver did not answer in time";
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
		return "the TLS handshake failed";
	default:
		return "the receiver could not be reached";
	}
}

static size_t keep_body(char *data, size_t size, size_t count, void *user)
{
	struct deliver_answer *answer = user;
	size_t bytes = size * count;
	size_t room = sizeof answer->body - 1 - answer->body_size;
	size_t take = bytes < room ? bytes : room;
	memcpy(answer->body + answer->body_size, data, take);
	answer->body_size += take;
	answer->body[answer->body_size] = '\0';
	return bytes;
}

long deliver_post(struct deliver_job *job, struct curl_slist *headers, const char *body, char *error, size_t error_size,
		  int *duration_ms, struct deliver_answer *answer)
{
	CURL *curl = job->curl;
	curl_easy_reset(curl);
	curl_easy_setopt(curl, CURLOPT_URL, job->row->url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)TOTAL_TIMEOUT_MS);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	if (answer) {
		memset(answer, 0, sizeof *answer);
		curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_body);
		curl_easy_setopt(curl, CURLOPT_WRITEDATA, answer);
	} else {
		curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard_body);
	}
	struct opener opener = {job->config->allow_private, 0};
	curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_checked);
	curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &opener);
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	CURLcode code = curl_easy_perform(curl);
	clock_gettime(CLOCK_MONOTONIC, &end);
	*duration_ms = (int)((end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000);
	long status = 0;
	error[0] = '\0';
	if (code == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	else
		snprintf(error, error_size, "%s", coarse_reason(code, opener.refused));
	if (code == CURLE_OK && (status < 200 || status > 299))
		snprintf(error, error_size, "the receiver answered %ld", status);
	struct curl_header *header;
	if (answer && code == CURLE_OK &&
	    curl_easy_header(curl, "Retry-After", 0, CURLH_HEADER, -1, &header) == CURLHE_OK)
		snprintf(answer->retry_after, sizeof answer->retry_after, "%s", header->value);
	return status;
}
