/*
 * chat.c - the discord and slack formats: chat messages for incoming webhooks (two rows of
 * deliver/deliver.c's table; the texts are deliver/channels.h's).
 *
 * They use the same rows, claims and log as every webhook: a row becomes at most one
 * unsigned chat message (channels_moment_of(): when the append began a person's turn,
 * asked people other than the seat whose turn it is for a discard or an answer to an
 * offer, or ended the game; bot seats and seats away are never called), logged as kind
 * "channel". A turn's message tells what happened since the end of that seat's last turn
 * (deliver_events_since_turn(), as a spectator sees it).
 *
 * A digest webhook (schedule "digest", 0019_webhook_secrets_and_digests.sql) posts at most
 * one message every digest_hours: a row that comes sooner is due again when the interval
 * is over, and then tells everything since the last digest up to the game's version of
 * that moment (and whom the game waits for); the rows behind it that it covered are
 * dropped unsent. Table talk is never posted to a channel (a message row is
 * dropped). A 429 answer's Retry-After (or Discord's JSON retry_after) is the row's next
 * due time instead of the backoff, and neither counts towards disabling the webhook nor
 * resets the count: it is the service alive and asking for patience. Every other failure
 * counts in webhooks.failures, and the CHANNEL_MAX_FAILURES-th in a row disables the
 * webhook (its pending rows dropped, a "disabled" entry in its log saying why).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deliver/channels.h"
#include "deliver/deliver_internal.h"
#include "engine/legal.h"
#include "engine/view.h"

/* POST a chat message and record what became of it: 1 when acknowledged (the caller
 * then says the row is done); otherwise the row is retried, due later (a rate limit) or
 * gone (the webhook disabled), all said here. */
static int post_chat(struct deliver_job *job, const char *body, int32_t seq)
{
	const struct store_delivery *row = job->row;
	struct curl_slist *headers = NULL;
	headers = curl_slist_append(headers, "Content-Type: application/json");
	headers = curl_slist_append(headers, "User-Agent: catan-server webhooks");
	char error[192];
	int duration_ms;
	struct deliver_answer answer;
	long status = deliver_post(job, headers, body, error, sizeof error, &duration_ms, &answer);
	curl_slist_free_all(headers);
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
	deliver_attempt(job, seq, "channel", (int)status, duration_ms, acknowledged ? NULL : error);
	int max_failures = job->config->channel_max_failures;
	char reason[200];
	snprintf(reason, sizeof reason, "disabled after %d failed attempts in a row (the last: %.120s)", max_failures,
		 acknowledged ? "" : error);
	int disabled = 0;
	if (status != 429)
		outbox_channel_result(row->webhook_id, acknowledged, max_failures, reason, &disabled);
	if (acknowledged)
		return 1;
	if (disabled) {
		deliver_note(job, seq, "disabled", reason);
		deliver_gone(job);
	} else if (retry_ms >= 0) {
		deliver_later(job, row->next_seq, retry_ms);
	} else {
		deliver_retry(job, row->next_seq);
	}
	return 0;
}

/* A digest webhook's row: nothing when an earlier digest told it; held until
 * digest_hours after the last digest; then one message telling everything since that
 * digest, up to the game's version of this moment. */
static void send_digest(struct deliver_job *job, const struct game_record *record)
{
	const struct store_delivery *row = job->row;
	if (row->last_seq <= row->digest_version) {
		deliver_done(job, row->last_seq + 1);
		return;
	}
	int64_t interval_ms = (int64_t)row->digest_hours * 3600 * 1000;
	if (row->digest_since_ms >= 0 && row->digest_since_ms < interval_ms) {
		deliver_later(job, row->next_seq, interval_ms - row->digest_since_ms);
		return;
	}
	const struct game *now = &record->state;
	int32_t version = (int32_t)now->version;
	struct channels_moment moment = {CHANNELS_DIGEST, 0, {0}};
	uint8_t waiting = now->phase == GAME_PHASE_FINISHED ? 0 : legal_waiting_for(now);
	for (int seat = 0; seat < now->options.seats; seat++)
		if ((waiting >> seat & 1u) && !record->bots[seat] && (!row->your_turn_only || seat == row->seat))
			moment.seats |= (uint8_t)(1u << seat);
	struct event *since = NULL;
	char board[700], game_url[700];
	struct channels_turn turn = {record->id_text, {NULL}, board, game_url, version, moment, NULL, 0, 0};
	turn.recent_count =
		deliver_events_after(record->id, row->digest_version, version, VIEW_SPECTATOR, &since, &turn.omitted);
	if (turn.recent_count < 0) {
		deliver_retry(job, row->next_seq);
		return;
	}
	turn.recent = since;
	play_names(record, turn.names);
	deliver_board_url(job, record, version, board, sizeof board);
	deliver_game_url(job, record, game_url, sizeof game_url);
	char *body = channels_message(row->format, row->mentions, now, &turn);
	free(since);
	int acknowledged = post_chat(job, body, version);
	free(body);
	if (acknowledged) {
		outbox_digest_sent(row->webhook_id, version);
		deliver_done(job, row->last_seq + 1);
	}
}

static void send_chat(struct deliver_job *job)
{
	const struct store_delivery *row = job->row;
	if (row->message_seq > 0) {
		deliver_done(job, row->next_seq);
		return;
	}
	struct game_record record;
	struct game before, after;
	if (play_load(row->game_id, 1, &record) != STORE_OK) {
		deliver_retry(job, row->next_seq);
		return;
	}
	if (row->digest_hours > 0) {
		send_digest(job, &record);
		return;
	}
	if (play_state_at(row->game_id, row->first_seq - 1, &before) != STORE_OK ||
	    play_state_at(row->game_id, row->last_seq, &after) != STORE_OK) {
		deliver_retry(job, row->next_seq);
		return;
	}
	int only_seat = row->your_turn_only ? row->seat : -1;
	struct channels_moment moment;
	if (!channels_moment_of(&before, &after, record.bots, only_seat, &moment)) {
		deliver_done(job, row->last_seq + 1);
		return;
	}
	struct event recent[DELIVER_RECENT_EVENTS], *since = NULL;
	char board[700], game_url[700];
	struct channels_turn turn = {record.id_text, {NULL}, board, game_url, row->last_seq, moment, recent, 0, 0};
	if (moment.kind == CHANNELS_TURN) {
		/* Everything since the end of that seat's last turn, as a spectator sees it. */
		turn.recent_count = deliver_events_since_turn(record.id, row->last_seq, after.turn_seat, VIEW_SPECTATOR,
							      &since, &turn.omitted);
		if (turn.recent_count < 0) {
			deliver_retry(job, row->next_seq);
			return;
		}
		turn.recent = since;
	} else if (moment.kind != CHANNELS_END) {
		turn.recent_count = deliver_recent_events(record.id, row->last_seq, VIEW_SPECTATOR, recent);
	}
	play_names(&record, turn.names);
	deliver_board_url(job, &record, row->last_seq, board, sizeof board);
	deliver_game_url(job, &record, game_url, sizeof game_url);
	char *body = channels_message(row->format, row->mentions, &after, &turn);
	free(since);
	int acknowledged = post_chat(job, body, row->last_seq);
	free(body);
	if (acknowledged)
		deliver_done(job, row->last_seq + 1);
}

const struct deliver_format deliver_discord = {STORE_FORMAT_DISCORD, "discord", 0, send_chat};
const struct deliver_format deliver_slack = {STORE_FORMAT_SLACK, "slack", 0, send_chat};
