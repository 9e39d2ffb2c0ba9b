/*
 * mail_smtp.c - one mail over SMTP with libcurl (deliver/mail_smtp.h): the envelope, the
 * upload of the message, timeouts, credentials only over TLS, and a coarse reason on
 * failure. It was deliver/mail.c's transport; the answers to mailed moves use it too.
 */
#include "deliver/mail_smtp.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "deliver/mail_message.h"

#define CONNECT_TIMEOUT_MS 5000
#define TOTAL_TIMEOUT_MS 20000

struct reader {
	const char *data;
	size_t left;
};

static size_t read_message(char *buffer, size_t size, size_t count, void *user)
{
	struct reader *reader = user;
	size_t room = size * count;
	size_t take = reader->left < room ? reader->left : room;
	memcpy(buffer, reader->data, take);
	reader->data += take;
	reader->left -= take;
	return take;
}

int mail_smtp_send(CURL *curl, const struct mail_smtp *smtp, const char *to, const char *message, char *error,
		   size_t error_size, long *reply, int *duration_ms)
{
	char from[MAIL_ADDRESS_MAX + 3], rcpt[MAIL_ADDRESS_MAX + 3];
	snprintf(from, sizeof from, "<%s>", smtp->from);
	snprintf(rcpt, sizeof rcpt, "<%s>", to);
	struct curl_slist *recipients = curl_slist_append(NULL, rcpt);
	struct reader reader = {message, strlen(message)};
	curl_easy_reset(curl);
	curl_easy_setopt(curl, CURLOPT_URL, smtp->url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_message);
	curl_easy_setopt(curl, CURLOPT_READDATA, &reader);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)TOTAL_TIMEOUT_MS);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	if (smtp->user) {
		curl_easy_setopt(curl, CURLOPT_USERNAME, smtp->user);
		curl_easy_setopt(curl, CURLOPT_PASSWORD, smtp->password ? smtp->password : "");
		/* Credentials never go over a plain connection: STARTTLS is required. */
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	} else {
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
	}
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	CURLcode code = curl_easy_perform(curl);
	clock_gettime(CLOCK_MONOTONIC, &end);
	*duration_ms = (int)((end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000);
	*reply = 0;
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, reply);
	curl_slist_free_all(recipients);
	error[0] = '\0';
	if (code == CURLE_OK)
		return 1;
	if (*reply >= 400)
		snprintf(error, error_size, "the mail relay refused the mail (SMTP %ld)", *reply);
	else if (code == CURLE_OPERATION_TIMEDOUT)
		snprintf(error, error_size, "the mail relay did not answer in time");
	else if (code == CURLE_LOGIN_DENIED)
		snprintf(error, error_size, "the mail relay refused the credentials");
	else
		snprintf(error, error_size, "the mail relay could not be reached");
	return 0;
}
