/*
 * webhook_receiver.h - a webhook receiver for the HTTP tests: a small HTTP server
 * (libmicrohttpd, one thread per connection) on 127.0.0.1 that records every request it
 * gets and answers as the test says: a status (after an optional delay), or never.
 *
 * Each delivery is checked as a Standard Webhooks consumer would check it: the headers
 * webhook-id, webhook-timestamp and webhook-signature are present, the timestamp is within
 * five minutes of the clock, and one of the space-separated "v1,<base64>" signatures is the
 * HMAC-SHA256, keyed with the base64 key of the "whsec_" secret, of "id.timestamp.body".
 * Deliveries are recorded raw and checked when the test reads them, with the secret it has
 * set by then: a delivery may arrive before the test has read the secret from the
 * registration's answer.
 *
 * The receiver's threads never call Check (an assertion outside the test's own thread
 * cannot fail the test); the functions below do, from the test's thread.
 */
#ifndef CATAN_TESTS_API_WEBHOOK_RECEIVER_H
#define CATAN_TESTS_API_WEBHOOK_RECEIVER_H

#include <jansson.h>
#include <stddef.h>

#define WEBHOOK_RECEIVER_HANG 0 /* as the status to answer: never answer (until stopped) */

struct webhook_receiver;

/* One request the receiver got. */
struct webhook_delivery {
	char method[8];
	char path[128];
	char id[128];	     /* webhook-id ("" when absent) */
	long long timestamp; /* webhook-timestamp (0 when absent) */
	char content_type[64];
	int signature_valid; /* verified with the receiver's secret when read */
	char problem[200];   /* why it is not valid ("" when it is) */
	char *text;	     /* the raw body, NUL-terminated */
	json_t *body;	     /* the body parsed, or NULL */
	double at;	     /* http_clock() when it arrived */
	long answered;	     /* the status it got (0: none yet, or never) */
};

/* Start a receiver on a free port; it answers 200 until told otherwise. Caller stops it
 * with webhook_receiver_stop(). */
struct webhook_receiver *webhook_receiver_start(void);

/* Release the requests it holds (answering them 200), stop and free it. */
void webhook_receiver_stop(struct webhook_receiver *receiver);

/* Its URL ("http://127.0.0.1:PORT/hook"); borrowed, valid until stopped. */
const char *webhook_receiver_url(const struct webhook_receiver *receiver);

/* The secret ("whsec_<base64>") deliveries are verified with. */
void webhook_receiver_set_secret(struct webhook_receiver *receiver, const char *secret);

/* Answer the requests that arrive from now on with `status` after `delay_ms`, or never
 * (WEBHOOK_RECEIVER_HANG). */
void webhook_receiver_answer(struct webhook_receiver *receiver, long status, int delay_ms);

/* Speak like a rate-limited chat service: from now on every `every`-th request (0: none)
 * is answered 429 with the header Retry-After: retry_after (NULL: no header) and the JSON
 * `body` (NULL: empty; e.g. Discord's {"retry_after": 1.5}), whatever the answer set. */
void webhook_receiver_throttle(struct webhook_receiver *receiver, int every, const char *retry_after, const char *body);

/* Number of requests received so far, and how many are being held unanswered now. */
int webhook_receiver_count(struct webhook_receiver *receiver);
int webhook_receiver_holding(struct webhook_receiver *receiver);

/* Wait until at least `count` requests arrived or `timeout_s` passed; the number received. */
int webhook_receiver_wait(struct webhook_receiver *receiver, int count, double timeout_s);

/* A copy of the requests received so far, oldest first, each verified with the current
 * secret. Caller frees with webhook_deliveries_free(). */
struct webhook_delivery *webhook_receiver_deliveries(struct webhook_receiver *receiver, int *count);
void webhook_deliveries_free(struct webhook_delivery *deliveries, int count);

/* Fail the test unless every delivery in deliveries[0..count) is a signed POST of JSON. */
void webhook_deliveries_assert_signed(const struct webhook_delivery *deliveries, int count);

/* Verify one signed message as a receiver does: 1 when `signatures` (the header value)
 * holds a "v1," signature of "id.timestamp.body" with the key of `secret`; else 0 with the
 * reason in problem (when problem is not NULL). */
int webhook_verify(const char *secret, const char *id, const char *timestamp, const char *body, size_t body_size,
		   const char *signatures, char *problem, size_t problem_size);

#endif
