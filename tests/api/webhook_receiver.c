/*
 * webhook_receiver.c - the tests' webhook receiver (see webhook_receiver.h).
 *
 * libmicrohttpd runs one thread per connection, so a request held unanswered (the "never
 * answers" receiver, or a slow one) blocks only its own connection. Each request's body is
 * gathered in its connection's context; when it is complete, the request is appended to
 * the receiver's list (under the lock) and answered as the receiver is set at that moment.
 * Held requests wait on a condition variable that webhook_receiver_stop() broadcasts, so
 * stopping never waits for a client that gave up long ago.
 *
 * Verification uses OpenSSL directly (base64 decoding of the key, HMAC-SHA256, base64
 * encoding, constant-time comparison), independently of the server's code.
 */
#include "tests/api/webhook_receiver.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "tests/api/http_support.h"

#define TIMESTAMP_TOLERANCE_S 300
#define BODY_MAX (1 << 20)

struct raw_request {
	char method[8];
	char path[128];
	char id[128];
	char timestamp[32];
	char signature[512];
	char content_type[64];
	char *body;
	size_t body_size;
	double at;
	time_t wall;
	long answered;
};

struct webhook_receiver {
	struct MHD_Daemon *daemon;
	char url[64];
	pthread_mutex_t lock;
	pthread_cond_t changed;
	char secret[128];
	long status;
	int delay_ms;
	int stopping;
	int holding;
	int throttle_every, throttle_seen; /* every n-th request answered 429 (0: never) */
	char throttle_header[32];	   /* its Retry-After ("" : none) */
	char throttle_body[256];	   /* its body */
	struct raw_request *requests;
	int count, capacity;
};

/* A request being read: its headers, then its body as it comes. */
struct pending_request {
	struct raw_request raw;
	size_t capacity;
	int too_large;
};

static void copy_header(struct MHD_Connection *connection, const char *name, char *out, size_t size)
{
	const char *value = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
	snprintf(out, size, "%s", value ? value : "");
}

/* Record a complete request; its index. */
static int record(struct webhook_receiver *receiver, struct pending_request *pending)
{
	pthread_mutex_lock(&receiver->lock);
	if (receiver->count == receiver->capacity) {
		receiver->capacity = receiver->capacity ? receiver->capacity * 2 : 64;
		struct raw_request *grown = realloc(receiver->requests, sizeof *grown * (size_t)receiver->capacity);
		if (!grown)
			abort();
		receiver->requests = grown;
	}
	int index = receiver->count++;
	receiver->requests[index] = pending->raw;
	pending->raw.body = NULL; /* now the receiver's */
	pthread_cond_broadcast(&receiver->changed);
	pthread_mutex_unlock(&receiver->lock);
	return index;
}

static enum MHD_Result answer_with(struct MHD_Connection *connection, unsigned int status, const char *retry_after,
				   const char *body)
{
	struct MHD_Response *response =
		MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	if (retry_after && *retry_after)
		MHD_add_response_header(response, "Retry-After", retry_after);
	if (*body)
		MHD_add_response_header(response, "Content-Type", "application/json");
	enum MHD_Result result = MHD_queue_response(connection, status, response);
	MHD_destroy_response(response);
	return result;
}

static enum MHD_Result answer(struct MHD_Connection *connection, unsigned int status)
{
	return answer_with(connection, status, NULL, "");
}

static void wait_ms(struct webhook_receiver *receiver, int milliseconds)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += milliseconds / 1000;
	until.tv_nsec += (long)(milliseconds % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (!receiver->stopping && pthread_cond_timedwait(&receiver->changed, &receiver->lock, &until) == 0)
		;
}

static enum MHD_Result on_request(void *context, struct MHD_Connection *connection, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_data_size,
				  void **request_context)
{
	(void)version;
	struct webhook_receiver *receiver = context;
	struct pending_request *pending = *request_context;
	if (!pending) {
		pending = calloc(1, sizeof *pending);
		if (!pending)
			abort();
		snprintf(pending->raw.method, sizeof pending->raw.method, "%s", method);
		snprintf(pending->raw.path, sizeof pending->raw.path, "%s", url);
		copy_header(connection, "webhook-id", pending->raw.id, sizeof pending->raw.id);
		copy_header(connection, "webhook-timestamp", pending->raw.timestamp, sizeof pending->raw.timestamp);
		copy_header(connection, "webhook-signature", pending->raw.signature, sizeof pending->raw.signature);
		copy_header(connection, "Content-Type", pending->raw.content_type, sizeof pending->raw.content_type);
		*request_context = pending;
		return MHD_YES;
	}
	if (*upload_data_size) {
		size_t size = *upload_data_size;
		if (pending->raw.body_size + size + 1 > BODY_MAX) {
			pending->too_large = 1;
		} else {
			if (pending->raw.body_size + size + 1 > pending->capacity) {
				pending->capacity = (pending->raw.body_size + size + 1) * 2;
				char *grown = realloc(pending->raw.body, pending->capacity);
				if (!grown)
					abort();
				pending->raw.body = grown;
			}
			memcpy(pending->raw.body + pending->raw.body_size, upload_data, size);
			pending->raw.body_size += size;
			pending->raw.body[pending->raw.body_size] = '\0';
		}
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (pending->too_large)
		return answer(connection, 413);
	if (!pending->raw.body) {
		pending->raw.body = strdup("");
		if (!pending->raw.body)
			abort();
	}
	pending->raw.at = http_clock();
	pending->raw.wall = time(NULL);
	int index = record(receiver, pending);

	pthread_mutex_lock(&receiver->lock);
	long status = receiver->status;
	int delay_ms = receiver->delay_ms;
	if (receiver->throttle_every > 0 && ++receiver->throttle_seen % receiver->throttle_every == 0) {
		char retry_after[32], body[256];
		snprintf(retry_after, sizeof retry_after, "%s", receiver->throttle_header);
		snprintf(body, sizeof body, "%s", receiver->throttle_body);
		receiver->requests[index].answered = 429;
		pthread_mutex_unlock(&receiver->lock);
		return answer_with(connection, 429, retry_after, body);
	}
	if (status == WEBHOOK_RECEIVER_HANG) {
		receiver->holding++;
		while (!receiver->stopping)
			pthread_cond_wait(&receiver->changed, &receiver->lock);
		receiver->holding--;
		status = 200;
	} else if (delay_ms > 0) {
		wait_ms(receiver, delay_ms);
	}
	receiver->requests[index].answered = status;
	pthread_mutex_unlock(&receiver->lock);
	return answer(connection, (unsigned int)status);
}

static void on_completed(void *context, struct MHD_Connection *connection, void **request_context,
			 enum MHD_RequestTerminationCode code)
{
	(void)context, (void)connection, (void)code;
	struct pending_request *pending = *request_context;
	if (pending) {
		free(pending->raw.body);
		free(pending);
		*request_context = NULL;
	}
}

struct webhook_receiver *webhook_receiver_start(void)
{
	struct webhook_receiver *receiver = calloc(1, sizeof *receiver);
	ck_assert(receiver != NULL);
	pthread_mutex_init(&receiver->lock, NULL);
	pthread_cond_init(&receiver->changed, NULL);
	receiver->status = 200;
	struct sockaddr_in address;
	memset(&address, 0, sizeof address);
	address.sin_family = AF_INET;
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	address.sin_port = 0;
	receiver->daemon = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL,
					    NULL, on_request, receiver, MHD_OPTION_SOCK_ADDR,
					    (struct sockaddr *)&address, MHD_OPTION_NOTIFY_COMPLETED, on_completed,
					    receiver, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)120, MHD_OPTION_END);
	ck_assert_msg(receiver->daemon != NULL, "the webhook receiver did not start: %s", strerror(errno));
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(receiver->daemon, MHD_DAEMON_INFO_BIND_PORT);
	ck_assert(info != NULL && info->port > 0);
	snprintf(receiver->url, sizeof receiver->url, "http://127.0.0.1:%u/hook", (unsigned int)info->port);
	return receiver;
}

void webhook_receiver_stop(struct webhook_receiver *receiver)
{
	if (!receiver)
		return;
	pthread_mutex_lock(&receiver->lock);
	receiver->stopping = 1;
	pthread_cond_broadcast(&receiver->changed);
	pthread_mutex_unlock(&receiver->lock);
	MHD_stop_daemon(receiver->daemon);
	for (int i = 0; i < receiver->count; i++)
		free(receiver->requests[i].body);
	free(receiver->requests);
	pthread_cond_destroy(&receiver->changed);
	pthread_mutex_destroy(&receiver->lock);
	free(receiver);
}

const char *webhook_receiver_url(const struct webhook_receiver *receiver)
{
	return receiver->url;
}

void webhook_receiver_set_secret(struct webhook_receiver *receiver, const char *secret)
{
	pthread_mutex_lock(&receiver->lock);
	snprintf(receiver->secret, sizeof receiver->secret, "%s", secret);
	pthread_mutex_unlock(&receiver->lock);
}

void webhook_receiver_throttle(struct webhook_receiver *receiver, int every, const char *retry_after, const char *body)
{
	pthread_mutex_lock(&receiver->lock);
	receiver->throttle_every = every;
	receiver->throttle_seen = 0;
	snprintf(receiver->throttle_header, sizeof receiver->throttle_header, "%s", retry_after ? retry_after : "");
	snprintf(receiver->throttle_body, sizeof receiver->throttle_body, "%s", body ? body : "");
	pthread_mutex_unlock(&receiver->lock);
}

void webhook_receiver_answer(struct webhook_receiver *receiver, long status, int delay_ms)
{
	pthread_mutex_lock(&receiver->lock);
	receiver->status = status;
	receiver->delay_ms = delay_ms;
	pthread_mutex_unlock(&receiver->lock);
}

int webhook_receiver_count(struct webhook_receiver *receiver)
{
	pthread_mutex_lock(&receiver->lock);
	int count = receiver->count;
	pthread_mutex_unlock(&receiver->lock);
	return count;
}

int webhook_receiver_holding(struct webhook_receiver *receiver)
{
	pthread_mutex_lock(&receiver->lock);
	int holding = receiver->holding;
	pthread_mutex_unlock(&receiver->lock);
	return holding;
}

int webhook_receiver_wait(struct webhook_receiver *receiver, int count, double timeout_s)
{
	double deadline = http_clock() + timeout_s;
	int got;
	while ((got = webhook_receiver_count(receiver)) < count && http_clock() < deadline)
		http_pause(0.02);
	return got;
}

/* ---- Verification ---- */

/* Standard base64 decoding of `text` into out (at most out_size bytes); the length, or -1. */
static int base64_decode(const char *text, unsigned char *out, size_t out_size)
{
	size_t length = strlen(text);
	if (length == 0 || length % 4 != 0 || length / 4 * 3 > out_size)
		return -1;
	int decoded = EVP_DecodeBlock(out, (const unsigned char *)text, (int)length);
	if (decoded < 0)
		return -1;
	if (text[length - 1] == '=')
		decoded--;
	if (text[length - 2] == '=')
		decoded--;
	return decoded;
}

int webhook_verify(const char *secret, const char *id, const char *timestamp, const char *body, size_t body_size,
		   const char *signatures, char *problem, size_t problem_size)
{
	char ignored[8];
	if (!problem) {
		problem = ignored;
		problem_size = sizeof ignored;
	}
	problem[0] = '\0';
	unsigned char key[96];
	int key_size = strncmp(secret, "whsec_", 6) == 0 ? base64_decode(secret + 6, key, sizeof key) : -1;
	if (key_size <= 0) {
		snprintf(problem, problem_size, "the secret \"%.60s\" is not whsec_<base64>", secret);
		return 0;
	}
	if (!*id || !*timestamp || !*signatures) {
		snprintf(problem, problem_size,
			 "a webhook-id, webhook-timestamp or webhook-signature header is missing");
		return 0;
	}
	size_t head_size = strlen(id) + strlen(timestamp) + 2;
	unsigned char *message = malloc(head_size + body_size + 1);
	if (!message)
		abort();
	snprintf((char *)message, head_size + 1, "%s.%s.", id, timestamp);
	memcpy(message + head_size, body, body_size);
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mac_size = 0;
	HMAC(EVP_sha256(), key, key_size, message, head_size + body_size, mac, &mac_size);
	free(message);
	char expected[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
	EVP_EncodeBlock((unsigned char *)expected, mac, (int)mac_size);
	size_t expected_size = strlen(expected);

	/* Any one of the space-separated "v1,<base64>" entries may match. */
	const char *entry = signatures;
	while (*entry) {
		while (*entry == ' ')
			entry++;
		size_t length = strcspn(entry, " ");
		if (length > 3 && strncmp(entry, "v1,", 3) == 0 && length - 3 == expected_size &&
		    CRYPTO_memcmp(entry + 3, expected, expected_size) == 0)
			return 1;
		entry += length;
	}
	snprintf(problem, problem_size, "no signature in \"%.120s\" matches", signatures);
	return 0;
}

static void verify(const struct raw_request *raw, const char *secret, struct webhook_delivery *out)
{
	if (strcmp(raw->method, "POST") != 0) {
		snprintf(out->problem, sizeof out->problem, "a %s, not a POST", raw->method);
		return;
	}
	if (!*secret) {
		snprintf(out->problem, sizeof out->problem, "the test set no secret to verify with");
		return;
	}
	char *end = NULL;
	long long timestamp = strtoll(raw->timestamp, &end, 10);
	if (!*raw->timestamp || *end) {
		snprintf(out->problem, sizeof out->problem, "webhook-timestamp \"%.40s\" is not an integer",
			 raw->timestamp);
		return;
	}
	long long skew = timestamp - (long long)raw->wall;
	if (skew > TIMESTAMP_TOLERANCE_S || skew < -TIMESTAMP_TOLERANCE_S) {
		snprintf(out->problem, sizeof out->problem,
			 "webhook-timestamp %lld is %lld s from the receiver's clock", timestamp, skew);
		return;
	}
	out->signature_valid = webhook_verify(secret, raw->id, raw->timestamp, raw->body, raw->body_size,
					      raw->signature, out->problem, sizeof out->problem);
}

struct webhook_delivery *webhook_receiver_deliveries(struct webhook_receiver *receiver, int *count)
{
	pthread_mutex_lock(&receiver->lock);
	int n = receiver->count;
	struct webhook_delivery *out = calloc((size_t)(n ? n : 1), sizeof *out);
	if (!out)
		abort();
	for (int i = 0; i < n; i++) {
		const struct raw_request *raw = &receiver->requests[i];
		struct webhook_delivery *delivery = &out[i];
		snprintf(delivery->method, sizeof delivery->method, "%s", raw->method);
		snprintf(delivery->path, sizeof delivery->path, "%s", raw->path);
		snprintf(delivery->id, sizeof delivery->id, "%s", raw->id);
		snprintf(delivery->content_type, sizeof delivery->content_type, "%s", raw->content_type);
		delivery->timestamp = strtoll(raw->timestamp, NULL, 10);
		delivery->text = strdup(raw->body);
		if (!delivery->text)
			abort();
		delivery->body = json_loadb(raw->body, raw->body_size, 0, NULL);
		delivery->at = raw->at;
		delivery->answered = raw->answered;
		verify(raw, receiver->secret, delivery);
	}
	pthread_mutex_unlock(&receiver->lock);
	*count = n;
	return out;
}

void webhook_deliveries_free(struct webhook_delivery *deliveries, int count)
{
	for (int i = 0; deliveries && i < count; i++) {
		free(deliveries[i].text);
		if (deliveries[i].body)
			json_decref(deliveries[i].body);
	}
	free(deliveries);
}

void webhook_deliveries_assert_signed(const struct webhook_delivery *deliveries, int count)
{
	for (int i = 0; i < count; i++) {
		const struct webhook_delivery *delivery = &deliveries[i];
		ck_assert_msg(delivery->signature_valid,
			      "delivery %d (webhook-id %s) fails verification: %s; body %.300s", i, delivery->id,
			      delivery->problem, delivery->text);
		ck_assert_msg(strncasecmp(delivery->content_type, "application/json", 16) == 0,
			      "delivery %s has Content-Type %s", delivery->id, delivery->content_type);
		ck_assert_msg(json_is_object(delivery->body), "delivery %s is not a JSON object: %.300s", delivery->id,
			      delivery->text);
	}
}
