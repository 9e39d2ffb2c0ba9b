/*
 * standard.c - the standard format: signed Standard Webhooks deliveries of a game's
 * events, "your turn" notes and table talk (a row of deliver/deliver.c's table).
 *
 * Bodies:
 *   {"type": "event", "game_id": "...", "version": N, "event": <log entry as the receiver may
 *    see it>}
 *   {"type": "your_turn", "game_id": "...", "version": N, "seat": S, "summary": "...",
 *    "waiting_for": [...], "board_url": "<PUBLIC_URL>/v1/games/<id>/board.png?version=N",
 *    "actions": <the seat's Actions body at N, as GET .../actions answers it>}
 *   (the summary ends with "Board: <board_url>", so a chat bot posting it shows the picture)
 *   {"type": "message", "game_id": "...", "message": <the table-talk message as GET
 *    .../messages shows it (game/messages.h messages_json)>}
 * Headers: webhook-id ("msg_<outbox row>_<seq>" for an event, "msg_<outbox row>_turn" for a
 * note, "msg_<outbox row>_m<message seq>" for a message: the same on every retry),
 * webhook-timestamp (Unix seconds), webhook-signature ("v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>"; during a secret rotation's overlap, 0019_webhook_secrets_and_digests.sql,
 * "v1,<with the new secret> v1,<with the old>"), content-type application/json.
 *
 * Events are redacted like the event log for the registering seat (a spectator's view for
 * the admin's webhooks); a seat's webhook also gets a note when, after the events of the
 * row, the game waits for that seat and someone else (or the server) made them. An outbox
 * row covers the events of one append; progress is saved after each acknowledged event, so
 * a crash re-sends at most the event in flight. A 2xx answer is an acknowledgement;
 * anything else (or no answer within the timeout) is a failure, retried with the backoff.
 *
 * A posted message is an outbox row of its own (message_seq set;
 * 0009_message_deliveries.sql), written only for standard webhooks that are not
 * your_turn_only, in the posting transaction: claimed oldest first like every row, it
 * reaches the receiver after the events of the appends before it and before those of
 * later ones. It is one signed delivery, logged as kind "message" with the message's seq.
 */
#include <jansson.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/xalloc.h"
#include "deliver/deliver_internal.h"
#include "deliver/summary.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "game/actions.h"
#include "game/messages.h"

void deliver_sign(const uint8_t *key, size_t key_size, const char *id, long long timestamp, const char *body,
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

void deliver_secret_text(const uint8_t key[32], char out[DELIVER_SECRET_TEXT_SIZE])
{
	unsigned char encoded[48];
	EVP_EncodeBlock(encoded, key, 32);
	snprintf(out, DELIVER_SECRET_TEXT_SIZE, "whsec_%s", encoded);
}

/* POST a signed body and log the attempt about `seq` as `kind`: 1 when acknowledged. */
static int send_signed(struct deliver_job *job, const char *message_id, int32_t seq, const char *kind, const char *body)
{
	long long timestamp = (long long)time(NULL);
	char signature[256], previous[128], header_id[96], header_time[64], header_signature[300];
	deliver_sign(job->row->secret, STORE_WEBHOOK_SECRET_SIZE, message_id, timestamp, body, strlen(body), signature,
		     sizeof signature);
	if (job->row->has_previous_secret) {
		/* During a rotation's overlap, the old secret's signature too, after the new one's. */
		deliver_sign(job->row->previous_secret, STORE_WEBHOOK_SECRET_SIZE, message_id, timestamp, body,
			     strlen(body), previous, sizeof previous);
		size_t used = strlen(signature);
		snprintf(signature + used, sizeof signature - used, " %s", previous);
	}
	snprintf(header_id, sizeof header_id, "webhook-id: %s", message_id);
	snprintf(header_time, sizeof header_time, "webhook-timestamp: %lld", timestamp);
	snprintf(header_signature, sizeof header_signature, "webhook-signature: %s", signature);
	struct curl_slist *headers = NULL;
	headers = curl_slist_append(headers, "Content-Type: application/json");
	headers = curl_slist_append(headers, "User-Agent: catan-server webhooks");
	headers = curl_slist_append(headers, header_id);
	headers = curl_slist_append(headers, header_time);
	headers = curl_slist_append(headers, header_signature);
	char error[192];
	int duration_ms;
	long status = deliver_post(job, headers, body, error, sizeof error, &duration_ms, NULL);
	curl_slist_free_all(headers);
	int acknowledged = status >= 200 && status <= 299;
	deliver_attempt(job, seq, kind, (int)status, duration_ms, acknowledged ? NULL : error);
	return acknowledged;
}

static char *dump(json_t *body)
{
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	return text;
}

static int viewer_of(const struct store_delivery *row)
{
	return row->seat >= 0 ? row->seat : VIEW_SPECTATOR;
}

static char *event_body(const struct game_record *record, const struct store_delivery *row,
			const struct store_event_row *event)
{
	struct store_log one = {1, (struct store_event_row *)event};
	json_t *entries = play_log_json(record, viewer_of(row), &one);
	json_t *body = json_pack("{s:s, s:s, s:i, s:O}", "type", "event", "game_id", record->id_text, "version",
				 (int)event->seq, "event", json_array_get(entries, 0));
	json_decref(entries);
	return dump(body);
}

/* The your_turn note when, after these events, the game waits for the webhook's seat and
 * someone else (or the server) made them; NULL when there is nothing to say. */
static char *your_turn_body(const struct deliver_job *job, const struct game_record *record,
			    const struct store_log *log)
{
	const struct store_delivery *row = job->row;
	int seat = row->seat;
	if (seat < 0 || log->count == 0 || !deliver_prompted(log, seat))
		return NULL;
	struct game state;
	const struct game *at = &record->state;
	if ((int32_t)record->state.version != row->last_seq) {
		if (play_state_at(record->id, row->last_seq, &state) != STORE_OK)
			return NULL;
		at = &state;
	}
	if (!play_seat_due(at, seat))
		return NULL;
	uint8_t waiting = legal_waiting_for(at);
	/* The last moves before the note, whichever appends made them. */
	struct event recent[DELIVER_RECENT_EVENTS];
	int recent_count = deliver_recent_events(record->id, row->last_seq, seat, recent);
	const char *names[GAME_MAX_SEATS];
	play_names(record, names);
	char *sentences = summary_your_turn(at, seat, names, recent, recent_count);
	char url[700];
	deliver_board_url(job, record, row->last_seq, url, sizeof url);
	char *summary = xasprintf("%s Board: %s", sentences, url);
	free(sentences);
	json_t *seats = json_array();
	for (int s = 0; s < at->options.seats; s++)
		if (waiting >> s & 1u)
			json_array_append_new(seats, json_integer(s));
	json_t *body = json_pack("{s:s, s:s, s:i, s:i, s:s, s:o, s:s, s:o}", "type", "your_turn", "game_id",
				 record->id_text, "version", (int)row->last_seq, "seat", seat, "summary", summary,
				 "waiting_for", seats, "board_url", url, "actions", actions_body_json(at, seat));
	free(summary);
	return dump(body);
}

/* A table-talk message's row: one signed delivery, retried like an event. A row that
 * cannot be delivered as a message (the webhook is your_turn_only, or the message is gone)
 * is dropped. */
static void send_message(struct deliver_job *job)
{
	const struct store_delivery *row = job->row;
	if (row->your_turn_only) {
		deliver_done(job, row->next_seq);
		return;
	}
	struct game_record record;
	struct store_messages messages;
	if (play_load(row->game_id, 1, &record) != STORE_OK ||
	    messages_read(row->game_id, row->message_seq - 1, 1, &messages) != STORE_OK) {
		deliver_retry(job, row->next_seq);
		return;
	}
	if (messages.count != 1 || messages.rows[0].seq != row->message_seq) {
		store_messages_free(&messages);
		deliver_done(job, row->next_seq);
		return;
	}
	json_t *body = json_pack("{s:s, s:s, s:o}", "type", "message", "game_id", record.id_text, "message",
				 messages_json(&record, &messages.rows[0], NULL));
	store_messages_free(&messages);
	char *text = dump(body);
	char message_id[64];
	snprintf(message_id, sizeof message_id, "msg_%lld_m%d", (long long)row->outbox_id, (int)row->message_seq);
	int acknowledged = send_signed(job, message_id, row->message_seq, "message", text);
	free(text);
	if (acknowledged)
		deliver_done(job, row->next_seq);
	else
		deliver_retry(job, row->next_seq);
}

/* An append's row: each event not yet acknowledged, then the note. */
static void send_standard(struct deliver_job *job)
{
	const struct store_delivery *row = job->row;
	if (row->message_seq > 0) {
		send_message(job);
		return;
	}
	struct game_record record;
	if (play_load(row->game_id, 1, &record) != STORE_OK) {
		deliver_retry(job, row->next_seq);
		return;
	}
	struct store_log log;
	int32_t from = row->your_turn_only ? row->first_seq : row->next_seq;
	int limit = row->last_seq - from + 1;
	if (limit < 1 || play_read_log(row->game_id, from - 1, limit, &log) != STORE_OK) {
		deliver_retry(job, row->next_seq);
		return;
	}
	char message_id[64];
	int32_t next = row->next_seq;
	for (int i = 0; i < log.count && !row->your_turn_only; i++) {
		const struct store_event_row *event = &log.rows[i];
		char *body = event_body(&record, row, event);
		snprintf(message_id, sizeof message_id, "msg_%lld_%d", (long long)row->outbox_id, (int)event->seq);
		int acknowledged = send_signed(job, message_id, event->seq, "event", body);
		free(body);
		if (!acknowledged) {
			deliver_retry(job, event->seq);
			store_log_free(&log);
			return;
		}
		next = event->seq + 1;
		if (next <= row->last_seq)
			deliver_progress(job, next);
	}
	/* The note reads the whole append's events, so fetch them when the events were sent in
	 * an earlier attempt. */
	if (!row->your_turn_only && row->next_seq != row->first_seq) {
		store_log_free(&log);
		if (play_read_log(row->game_id, row->first_seq - 1, row->last_seq - row->first_seq + 1, &log) !=
		    STORE_OK) {
			deliver_retry(job, next);
			return;
		}
	}
	char *note = your_turn_body(job, &record, &log);
	store_log_free(&log);
	if (note) {
		snprintf(message_id, sizeof message_id, "msg_%lld_turn", (long long)row->outbox_id);
		int acknowledged = send_signed(job, message_id, row->last_seq, "your_turn", note);
		free(note);
		if (!acknowledged) {
			deliver_retry(job, next);
			return;
		}
	}
	deliver_done(job, next);
}

const struct deliver_format deliver_standard = {STORE_FORMAT_STANDARD, "standard", 0, send_standard};
