/*
 * webhooks.c - delivery threads, signing, and the bodies receivers get.
 *
 * Bodies:
 *   {"type": "event", "game_id": "...", "version": N, "event": <log entry as the receiver may
 *    see it>}
 *   {"type": "your_turn", "game_id": "...", "version": N, "seat": S, "summary": "...",
 *    "waiting_for": [...], "board_url": "<PUBLIC_URL>/v1/games/<id>/board.png?version=N"}
 *   (the summary ends with "Board: <board_url>", so a chat bot posting it shows the picture)
 *   {"type": "message", "game_id": "...", "message": <the table-talk message as GET
 *    .../messages shows it (game/messages.h messages_json)>}
 * Headers: webhook-id ("msg_<outbox row>_<seq>" for an event, "msg_<outbox row>_turn" for a
 * note, "msg_<outbox row>_m<message seq>" for a message: the same on every retry), webhook-timestamp (Unix seconds), webhook-signature
 * ("v1,<base64 HMAC-SHA256 of id.timestamp.body>"), content-type application/json.
 *
 * An outbox row covers the events of one append. Progress (next_seq) is saved after each
 * acknowledged event, so a crash re-sends at most the event in flight. A 2xx answer is an
 * acknowledgement; anything else (or no answer within the timeout) is a failure, retried
 * after webhooks_backoff_ms(attempts).
 *
 * A player's webhook (0006_player_webhooks.sql) is delivered as a webhook of the player's
 * seat in the row's game: the claim resolves that seat from seats(game_id, player_id), so
 * everything below (redaction, your_turn notes, chat messages) is the seat webhook's.
 *
 * A posted message is an outbox row of its own (message_seq set; 0009_message_deliveries.sql),
 * written only for standard webhooks that are not your_turn_only, in the posting
 * transaction: claimed oldest first like every row, it reaches the receiver after the events
 * of the appends before it and before those of later ones. It is one signed delivery, logged
 * as kind "message" with the message's seq, retried like an event.
 *
 * Chat formats (discord, slack; api/channels.h) use the same rows, claims and log: a row
 * becomes at most one unsigned chat message (when the append changed whom the game waits
 * for, or ended it), logged as kind "channel". A 429 answer's Retry-After (or Discord's
 * JSON retry_after) is the row's next due time instead of the backoff; every other failure
 * counts in webhooks.failures, and the CHANNEL_MAX_FAILURES-th in a row disables the
 * webhook (its pending rows dropped, a "disabled" entry in its log saying why).
 */
#include "api/webhooks.h"

#include <curl/curl.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "http/access_log.h"
#include "base/backoff.h"
#include "api/channels.h"
#include "api/destination.h"
#include "api/mail.h"
#include "base/counters.h"
#include "game/play.h"
#include "api/service.h"
#include "api/summary.h"
#include "base/xalloc.h"
#include "codec/log.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "game/messages.h"
#include "game/outbox.h"

/* One row per claim, leased for LEASE_MS and extended after each acknowledged event: a
 * worker that dies holds a row at most that long, and a row's worst case (one event timing
 * out, then its your_turn note) fits well inside the lease. */
#define CLAIM_BATCH 1
#define LEASE_MS 15000
#define POLL_MS 200
#define CONNECT_TIMEOUT_MS 3000
#define TOTAL_TIMEOUT_MS 5000
#define DELIVERY_BACKOFF_MAX_MS (3600 * 1000)

static atomic_int running;
static int allow_private; /* WEBHOOK_ALLOW_PRIVATE: see api/destination.h */
static pthread_t *threads;
static int thread_count;

void webhooks_sign(const uint8_t *key, size_t key_size, const char *id, long long timestamp, const char *body,
		   size_t body_size, char *out, size_t out_size)
{
	char *head = xasprintf("%s.%lld.", id, timestamp);
	size_t head_size = strlen(head);
	unsigned char *message = xmalloc(head_size + body_size);
	memcpy(message, head, head_size);
	memcpy(message + head_size, body, body_size);
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mac_size = 0;
	HMAC(EVP_sha256(), key, (int)key_size, message, head_size + body_size, mac, &mac_size);
	unsigned char encoded[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
	EVP_EncodeBlock(encoded, mac, (int)mac_size);
	snprintf(out, out_size, "v1,%s", encoded);
	free(message);
	free(head);
}

void webhooks_secret_text(const uint8_t key[32], char out[WEBHOOKS_SECRET_TEXT_SIZE])
{
	unsigned char encoded[48];
	EVP_EncodeBlock(encoded, key, 32);
	snprintf(out, WEBHOOKS_SECRET_TEXT_SIZE, "whsec_%s", encoded);
}

void webhooks_format_id(int64_t id, char out[24])
{
	char hex[STORE_ID_TEXT_SIZE];
	store_format_id(id, hex);
	snprintf(out, 24, "wh_%s", hex);
}

int webhooks_parse_id(const char *text, int64_t *id)
{
	return strncmp(text, "wh_", 3) == 0 && store_parse_id(text + 3, id);
}

int64_t webhooks_backoff_ms(int attempt)
{
	if (attempt < 1)
		attempt = 1;
	if (attempt > 22)
		return DELIVERY_BACKOFF_MAX_MS;
	int64_t delay = (int64_t)1000 << (attempt - 1);
	return delay < DELIVERY_BACKOFF_MAX_MS ? delay : DELIVERY_BACKOFF_MAX_MS;
}

static size_t discard_body(char *data, size_t size, size_t count, void *user)
{
	(void)data;
	(void)user;
	return size * count;
}

/* libcurl's socket opener: the last word on where a delivery may go, judged on the address
 * DNS gave for this very connection (so a name cannot be re-pointed at an inner address
 * between the check and the connect). */
static curl_socket_t open_checked(void *refused, curlsocktype purpose, struct curl_sockaddr *address)
{
	(void)purpose;
	if (!destination_address_allowed(&address->addr, allow_private)) {
		*(int *)refused = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(address->family, address->socktype, address->protocol);
}

/* A failure as the delivery log shows it: coarse, so the log cannot serve to probe what
 * answers where (no addresses, ports or libcurl messages). */
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

/* What came back besides the status: the Retry-After header and the start of the body
 * (read for a chat service's rate-limit answer). */
struct answer {
	char retry_after[32];
	char body[2048];
	size_t body_size;
};

static size_t keep_body(char *data, size_t size, size_t count, void *user)
{
	struct answer *answer = user;
	size_t bytes = size * count;
	size_t room = sizeof answer->body - 1 - answer->body_size;
	size_t take = bytes < room ? bytes : room;
	memcpy(answer->body + answer->body_size, data, take);
	answer->body_size += take;
	answer->body[answer->body_size] = '\0';
	return bytes;
}

/* POST `body` with `headers` to url; the receiver's HTTP status, or 0 with *error set when
 * none came. With `answer`, what came back is kept there. */
static long perform(CURL *curl, const char *url, struct curl_slist *headers, const char *body, char *error,
		    size_t error_size, int *duration_ms, struct answer *answer)
{
	curl_easy_reset(curl);
	curl_easy_setopt(curl, CURLOPT_URL, url);
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
	int refused = 0;
	curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_checked);
	curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &refused);
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
		snprintf(error, error_size, "%s", coarse_reason(code, refused));
	if (code == CURLE_OK && (status < 200 || status > 299))
		snprintf(error, error_size, "the receiver answered %ld", status);
	struct curl_header *header;
	if (answer && code == CURLE_OK &&
	    curl_easy_header(curl, "Retry-After", 0, CURLH_HEADER, -1, &header) == CURLHE_OK)
		snprintf(answer->retry_after, sizeof answer->retry_after, "%s", header->value);
	return status;
}

/* POST a signed body; the receiver's HTTP status, or 0 with *error set when none came. */
static long post(CURL *curl, const struct store_delivery *delivery, const char *message_id, const char *body,
		 char *error, size_t error_size, int *duration_ms)
{
	long long timestamp = (long long)time(NULL);
	char signature[128], header_id[96], header_time[64], header_signature[160];
	webhooks_sign(delivery->secret, STORE_WEBHOOK_SECRET_SIZE, message_id, timestamp, body, strlen(body), signature,
		      sizeof signature);
	snprintf(header_id, sizeof header_id, "webhook-id: %s", message_id);
	snprintf(header_time, sizeof header_time, "webhook-timestamp: %lld", timestamp);
	snprintf(header_signature, sizeof header_signature, "webhook-signature: %s", signature);
	struct curl_slist *headers = NULL;
	headers = curl_slist_append(headers, "Content-Type: application/json");
	headers = curl_slist_append(headers, "User-Agent: catan-server webhooks");
	headers = curl_slist_append(headers, header_id);
	headers = curl_slist_append(headers, header_time);
	headers = curl_slist_append(headers, header_signature);
	long status = perform(curl, delivery->url, headers, body, error, error_size, duration_ms, NULL);
	curl_slist_free_all(headers);
	return status;
}

static int viewer_of(const struct store_delivery *delivery)
{
	return delivery->seat >= 0 ? delivery->seat : VIEW_SPECTATOR;
}

static char *event_body(const struct game_record *record, const struct store_delivery *delivery,
			const struct store_event_row *row)
{
	struct store_log one = {1, (struct store_event_row *)row};
	json_t *entries = play_log_json(record, viewer_of(delivery), &one);
	json_t *body = json_pack("{s:s, s:s, s:i, s:O}", "type", "event", "game_id", record->id_text, "version",
				 (int)row->seq, "event", json_array_get(entries, 0));
	json_decref(entries);
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	return text;
}

/* The server's public base URL, without a trailing slash: PUBLIC_URL, or http://LISTEN:PORT
 * like the server's start banner when it is unset. */
void webhooks_public_base(char *out, size_t size)
{
	const struct config *config = service_config();
	if (config && config->public_url && *config->public_url) {
		snprintf(out, size, "%s", config->public_url);
		size_t length = strlen(out);
		while (length > 0 && out[length - 1] == '/')
			out[--length] = '\0';
	} else {
		const char *host = config && config->listen_address ? config->listen_address : "127.0.0.1";
		snprintf(out, size, "http://%s:%d", strcmp(host, "0.0.0.0") == 0 ? "localhost" : host,
			 config ? config->port : 8080);
	}
}

/* The absolute address of the PNG of the game at `version`, for a chat service or a mail
 * to show without a token. */
void webhooks_board_url(const struct game_record *record, int32_t version, char *out, size_t size)
{
	char base[512];
	webhooks_public_base(base, sizeof base);
	snprintf(out, size, "%s/v1/games/%s/board.png?version=%d", base, record->id_text, (int)version);
}

/* The last WEBHOOKS_RECENT_EVENTS events up to `version` as `viewer` sees them, oldest first, into
 * recent; their number. */
int webhooks_recent_events(int64_t game_id, int32_t version, int viewer, struct event *recent)
{
	int count = 0;
	struct store_log tail;
	int32_t after = version > WEBHOOKS_RECENT_EVENTS ? version - WEBHOOKS_RECENT_EVENTS : 0;
	if (play_read_log(game_id, after, version - after, &tail) == STORE_OK) {
		for (int i = 0; i < tail.count && count < WEBHOOKS_RECENT_EVENTS; i++) {
			struct event event;
			struct codec_error error;
			if (codec_payload_parse(tail.rows[i].type, tail.rows[i].payload, tail.rows[i].payload_size, &event,
						&error))
				view_event(&event, viewer, &recent[count++]);
		}
		store_log_free(&tail);
	}
	return count;
}

/* The your_turn note when, after these events, the game waits for the webhook's seat and
 * someone else (or the server) made them; NULL when there is nothing to say. */
static char *your_turn_body(const struct game_record *record, const struct store_delivery *delivery,
			    const struct store_log *log)
{
	int seat = delivery->seat;
	if (seat < 0 || log->count == 0)
		return NULL;
	int prompted = 0;
	for (int i = 0; i < log->count; i++)
		if (log->rows[i].actor != seat || log->rows[i].origin != STORE_ORIGIN_PLAYER)
			prompted = 1;
	if (!prompted)
		return NULL;
	struct game state;
	const struct game *at = &record->state;
	if ((int32_t)record->state.version != delivery->last_seq) {
		if (play_state_at(record->id, delivery->last_seq, &state) != STORE_OK)
			return NULL;
		at = &state;
	}
	uint8_t waiting = legal_waiting_for(at);
	int asked = 0;
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &at->offers[i];
		if (offer->id && (offer->to >> seat & 1u) && !((offer->accepted | offer->declined) >> seat & 1u))
			asked = 1;
	}
	if (!(waiting >> seat & 1u) && !asked)
		return NULL;
	/* The last moves before the note, whichever appends made them. */
	struct event recent[WEBHOOKS_RECENT_EVENTS];
	int recent_count = webhooks_recent_events(record->id, delivery->last_seq, seat, recent);
	const char *names[GAME_MAX_SEATS];
	play_names(record, names);
	char *sentences = summary_your_turn(at, seat, names, recent, recent_count);
	char url[700];
	webhooks_board_url(record, delivery->last_seq, url, sizeof url);
	char *summary = xasprintf("%s Board: %s", sentences, url);
	free(sentences);
	json_t *seats = json_array();
	for (int s = 0; s < at->options.seats; s++)
		if (waiting >> s & 1u)
			json_array_append_new(seats, json_integer(s));
	json_t *body = json_pack("{s:s, s:s, s:i, s:i, s:s, s:o, s:s}", "type", "your_turn", "game_id", record->id_text,
				 "version", (int)delivery->last_seq, "seat", seat, "summary", summary,
				 "waiting_for", seats, "board_url", url);
	free(summary);
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	return text;
}

/* One attempt: log it; 1 when acknowledged. */
static int send_one(CURL *curl, const struct store_delivery *delivery, const char *message_id, int32_t seq,
		    const char *kind, const char *body)
{
	char error[192];
	int duration_ms;
	long status = post(curl, delivery, message_id, body, error, sizeof error, &duration_ms);
	int acknowledged = status >= 200 && status <= 299;
	outbox_log(delivery->webhook_id, delivery->outbox_id, seq, delivery->attempts,
			   (int)status, duration_ms, kind, acknowledged ? NULL : error);
	counters_add(acknowledged ? COUNTERS_WEBHOOK_DELIVERED : COUNTERS_WEBHOOK_FAILED, 1);
	return acknowledged;
}

static void retry_later(const struct store_delivery *delivery, int32_t next_seq)
{
	outbox_update(delivery->outbox_id, 0, next_seq, webhooks_backoff_ms(delivery->attempts));
}

/* A chat webhook's outbox row: one message when the append changed whom the game waits
 * for (or ended it), else nothing. A failure counts towards disabling the webhook; a
 * rate-limit answer's Retry-After sets the earliest next attempt. */
static void deliver_chat(CURL *curl, const struct store_delivery *delivery)
{
	struct game_record record;
	struct game before, after;
	if (play_load(delivery->game_id, 1, &record) != STORE_OK ||
	    play_state_at(delivery->game_id, delivery->first_seq - 1, &before) != STORE_OK ||
	    play_state_at(delivery->game_id, delivery->last_seq, &after) != STORE_OK) {
		retry_later(delivery, delivery->next_seq);
		return;
	}
	int only_seat = delivery->your_turn_only ? delivery->seat : -1;
	if (!channels_worth_a_message(&before, &after, only_seat)) {
		outbox_update(delivery->outbox_id, 1, delivery->last_seq + 1, 0);
		return;
	}
	struct event recent[WEBHOOKS_RECENT_EVENTS];
	char base[512], board[700], game_url[700];
	struct channels_turn turn = {record.id_text, {NULL}, board, game_url, delivery->last_seq, recent, 0};
	turn.recent_count = webhooks_recent_events(record.id, delivery->last_seq, VIEW_SPECTATOR, recent);
	play_names(&record, turn.names);
	webhooks_board_url(&record, delivery->last_seq, board, sizeof board);
	webhooks_public_base(base, sizeof base);
	snprintf(game_url, sizeof game_url, "%s/#game=%s", base, record.id_text);
	char *body = channels_message(delivery->format, delivery->mentions, &after, &turn);

	struct curl_slist *headers = NULL;
	headers = curl_slist_append(headers, "Content-Type: application/json");
	headers = curl_slist_append(headers, "User-Agent: catan-server webhooks");
	char error[192];
	int duration_ms;
	struct answer answer;
	long status = perform(curl, delivery->url, headers, body, error, sizeof error, &duration_ms, &answer);
	curl_slist_free_all(headers);
	free(body);
	int acknowledged = status >= 200 && status <= 299;
	int64_t retry_ms = -1;
	if (status == 429) {
		retry_ms = channels_retry_after_ms(answer.retry_after[0] ? answer.retry_after : NULL, answer.body,
						   answer.body_size);
		if (retry_ms >= 0) {
			size_t used = strlen(error);
			snprintf(error + used, sizeof error - used, " (rate limited: retry after %lld ms)",
				 (long long)retry_ms);
		}
	}
	outbox_log(delivery->webhook_id, delivery->outbox_id, delivery->last_seq,
			   delivery->attempts, (int)status, duration_ms, "channel", acknowledged ? NULL : error);
	counters_add(acknowledged ? COUNTERS_WEBHOOK_DELIVERED : COUNTERS_WEBHOOK_FAILED, 1);
	const struct config *config = service_config();
	int max_failures = config && config->channel_max_failures > 0 ? config->channel_max_failures : 10;
	char reason[200];
	snprintf(reason, sizeof reason, "disabled after %d failed attempts in a row (the last: %.120s)", max_failures,
		 acknowledged ? "" : error);
	/* A rate-limit answer is the service alive and asking for patience: it neither counts
	 * towards disabling the webhook nor resets the count. */
	int disabled = 0;
	if (status != 429)
		outbox_channel_result(delivery->webhook_id, acknowledged, max_failures, reason, &disabled);
	if (acknowledged) {
		outbox_update(delivery->outbox_id, 1, delivery->last_seq + 1, 0);
	} else if (disabled) {
		outbox_log(delivery->webhook_id, delivery->outbox_id, delivery->last_seq,
				   delivery->attempts, 0, 0, "disabled", reason);
	} else {
		int64_t backoff = webhooks_backoff_ms(delivery->attempts);
		outbox_update(delivery->outbox_id, 0, delivery->next_seq,
				      retry_ms >= 0 ? retry_ms : backoff);
	}
}

/* A table-talk message's row: one signed delivery, retried like an event. A row that
 * cannot be delivered as a message (the webhook is not a standard one, or the message is
 * gone) is dropped. */
static void deliver_message(CURL *curl, const struct store_delivery *delivery)
{
	if (delivery->format != STORE_FORMAT_STANDARD || delivery->your_turn_only) {
		outbox_update(delivery->outbox_id, 1, delivery->next_seq, 0);
		return;
	}
	struct game_record record;
	struct store_messages messages;
	if (play_load(delivery->game_id, 1, &record) != STORE_OK) {
		retry_later(delivery, delivery->next_seq);
		return;
	}
	if (messages_read(delivery->game_id, delivery->message_seq - 1, 1, &messages) != STORE_OK) {
		retry_later(delivery, delivery->next_seq);
		return;
	}
	if (messages.count != 1 || messages.rows[0].seq != delivery->message_seq) {
		store_messages_free(&messages);
		outbox_update(delivery->outbox_id, 1, delivery->next_seq, 0);
		return;
	}
	json_t *body = json_pack("{s:s, s:s, s:o}", "type", "message", "game_id", record.id_text, "message",
				 messages_json(&record, &messages.rows[0], NULL));
	store_messages_free(&messages);
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	char message_id[64];
	snprintf(message_id, sizeof message_id, "msg_%lld_m%d", (long long)delivery->outbox_id,
		 (int)delivery->message_seq);
	int acknowledged = send_one(curl, delivery, message_id, delivery->message_seq, "message", text);
	free(text);
	if (acknowledged)
		outbox_update(delivery->outbox_id, 1, delivery->next_seq, 0);
	else
		retry_later(delivery, delivery->next_seq);
}

static void deliver(CURL *curl, const struct store_delivery *delivery)
{
	/* Mail first: a player's confirmation mail is about no game (api/mail.c). */
	if (delivery->format == STORE_FORMAT_MAIL) {
		mail_deliver(curl, delivery);
		return;
	}
	/* A player's webhook for a game the player no longer sits in (the claim found no
	 * seat): nothing of the game is the player's to see. */
	if (delivery->seat == STORE_WEBHOOK_UNSEATED) {
		outbox_update(delivery->outbox_id, 1, delivery->last_seq + 1, 0);
		return;
	}
	if (delivery->message_seq > 0) {
		deliver_message(curl, delivery);
		return;
	}
	if (delivery->format != STORE_FORMAT_STANDARD) {
		deliver_chat(curl, delivery);
		return;
	}
	struct game_record record;
	if (play_load(delivery->game_id, 1, &record) != STORE_OK) {
		retry_later(delivery, delivery->next_seq);
		return;
	}
	struct store_log log;
	int32_t from = delivery->your_turn_only ? delivery->first_seq : delivery->next_seq;
	int limit = delivery->last_seq - from + 1;
	if (limit < 1 || play_read_log(delivery->game_id, from - 1, limit, &log) != STORE_OK) {
		retry_later(delivery, delivery->next_seq);
		return;
	}
	char message_id[64];
	int32_t next = delivery->next_seq;
	for (int i = 0; i < log.count && !delivery->your_turn_only; i++) {
		const struct store_event_row *row = &log.rows[i];
		char *body = event_body(&record, delivery, row);
		snprintf(message_id, sizeof message_id, "msg_%lld_%d", (long long)delivery->outbox_id, (int)row->seq);
		int acknowledged = send_one(curl, delivery, message_id, row->seq, "event", body);
		free(body);
		if (!acknowledged) {
			retry_later(delivery, row->seq);
			store_log_free(&log);
			return;
		}
		next = row->seq + 1;
		if (next <= delivery->last_seq)
			outbox_update(delivery->outbox_id, 0, next, LEASE_MS);
	}
	/* The note reads the whole append's events, so fetch them when the events were sent in
	 * an earlier attempt. */
	if (!delivery->your_turn_only && delivery->next_seq != delivery->first_seq) {
		store_log_free(&log);
		if (play_read_log(delivery->game_id, delivery->first_seq - 1,
				      delivery->last_seq - delivery->first_seq + 1, &log) != STORE_OK) {
			retry_later(delivery, next);
			return;
		}
	}
	char *note = your_turn_body(&record, delivery, &log);
	store_log_free(&log);
	if (note) {
		snprintf(message_id, sizeof message_id, "msg_%lld_turn", (long long)delivery->outbox_id);
		int acknowledged = send_one(curl, delivery, message_id, delivery->last_seq, "your_turn", note);
		free(note);
		if (!acknowledged) {
			retry_later(delivery, next);
			return;
		}
	}
	outbox_update(delivery->outbox_id, 1, next, 0);
}

static void *work(void *unused)
{
	(void)unused;
	CURL *curl = curl_easy_init();
	if (!curl)
		abort();
	struct backoff backoff = {0, (unsigned)(uintptr_t)&backoff};
	while (atomic_load(&running)) {
		struct store_delivery *deliveries;
		int count = 0;
		enum store_status status =
			outbox_claim(CLAIM_BATCH, LEASE_MS, &deliveries, &count);
		int pause_ms = POLL_MS;
		if (status == STORE_OK) {
			backoff_succeeded(&backoff);
			for (int i = 0; i < count && atomic_load(&running); i++)
				deliver(curl, &deliveries[i]);
			store_deliveries_free(deliveries, count);
		} else {
			count = 0;
			pause_ms = backoff_failed(&backoff);
		}
		/* Sleep in short steps, so that stopping never waits for a whole backoff. */
		for (int slept = 0; count < CLAIM_BATCH && slept < pause_ms && atomic_load(&running); slept += 50) {
			struct timespec step = {0, 50 * 1000000L};
			nanosleep(&step, NULL);
		}
	}
	curl_easy_cleanup(curl);
	return NULL;
}

void webhooks_start(int count, int allow_private_targets)
{
	allow_private = allow_private_targets;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	atomic_store(&running, 1);
	thread_count = count;
	threads = xcalloc((size_t)(count ? count : 1), sizeof *threads);
	for (int i = 0; i < count; i++)
		if (pthread_create(&threads[i], NULL, work, NULL) != 0)
			abort();
}

void webhooks_stop(void)
{
	if (!atomic_exchange(&running, 0))
		return;
	for (int i = 0; i < thread_count; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	threads = NULL;
	thread_count = 0;
	curl_global_cleanup();
}
