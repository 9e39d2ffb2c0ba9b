/*
 * job.c - what the formats of deliver/ share (deliver_internal.h): saying what became of
 * a row (deliver.c records it), logging attempts, the links every notice carries, and the
 * last moves a note or a mail tells. Nothing here knows the formats or the loop: they both
 * call it, and it calls only the game service.
 */
#include <stdio.h>
#include <string.h>

#include "base/counters.h"
#include "base/xalloc.h"
#include "codec/log.h"
#include "deliver/deliver_internal.h"
#include "engine/view.h"

/* ---- What send() says ---- */

static void say(struct deliver_job *job, enum deliver_outcome outcome, int32_t next_seq, int64_t later_ms)
{
	job->outcome = outcome;
	job->next_seq = next_seq;
	job->later_ms = later_ms;
}

void deliver_done(struct deliver_job *job, int32_t next_seq)
{
	say(job, DELIVER_DONE, next_seq, 0);
}

void deliver_retry(struct deliver_job *job, int32_t next_seq)
{
	say(job, DELIVER_RETRY, next_seq, 0);
}

void deliver_later(struct deliver_job *job, int32_t next_seq, int64_t ms)
{
	say(job, DELIVER_LATER, next_seq, ms);
}

void deliver_gone(struct deliver_job *job)
{
	say(job, DELIVER_GONE, job->row->next_seq, 0);
}

void deliver_progress(struct deliver_job *job, int32_t next_seq)
{
	outbox_update(job->row->outbox_id, 0, next_seq, DELIVER_LEASE_MS);
}
void deliver_attempt(struct deliver_job *job, int32_t seq, const char *kind, int status, int duration_ms,
		     const char *error)
{
	outbox_log(job->row->webhook_id, job->row->outbox_id, seq, job->row->attempts, status, duration_ms, kind,
		   error);
	counters_add(error ? COUNTERS_WEBHOOK_FAILED : COUNTERS_WEBHOOK_DELIVERED, 1);
}

void deliver_note(struct deliver_job *job, int32_t seq, const char *kind, const char *text)
{
	outbox_log(job->row->webhook_id, job->row->outbox_id, seq, job->row->attempts, 0, 0, kind, text);
}

/* ---- What the formats share ---- */

void deliver_public_base(const struct deliver_job *job, char *out, size_t size)
{
	const struct deliver_config *config = job->config;
	if (config->public_url && *config->public_url) {
		snprintf(out, size, "%s", config->public_url);
		size_t length = strlen(out);
		while (length > 0 && out[length - 1] == '/')
			out[--length] = '\0';
	} else {
		const char *host = config->listen_address ? config->listen_address : "127.0.0.1";
		snprintf(out, size, "http://%s:%d", strcmp(host, "0.0.0.0") == 0 ? "localhost" : host, config->port);
	}
}

void deliver_board_url(const struct deliver_job *job, const struct game_record *record, int32_t version, char *out,
		       size_t size)
{
	char base[512];
	deliver_public_base(job, base, sizeof base);
	snprintf(out, size, "%s/v1/games/%s/board.png?version=%d", base, record->id_text, (int)version);
}

void deliver_game_url(const struct deliver_job *job, const struct game_record *record, char *out, size_t size)
{
	char base[512];
	deliver_public_base(job, base, sizeof base);
	snprintf(out, size, "%s/#game=%s", base, record->id_text);
}

int deliver_recent_events(int64_t game_id, int32_t version, int viewer, struct event *recent)
{
	int count = 0;
	struct store_log tail;
	int32_t after = version > DELIVER_RECENT_EVENTS ? version - DELIVER_RECENT_EVENTS : 0;
	if (play_read_log(game_id, after, version - after, &tail) == STORE_OK) {
		for (int i = 0; i < tail.count && count < DELIVER_RECENT_EVENTS; i++) {
			struct event event;
			struct codec_error error;
			if (codec_payload_parse(tail.rows[i].type, tail.rows[i].payload, tail.rows[i].payload_size,
						&event, &error))
				view_event(&event, viewer, &recent[count++]);
		}
		store_log_free(&tail);
	}
	return count;
}

/* The rows of `tail` from `from` on, parsed and seen as `viewer` sees them, into events
 * (room for every row); rows that do not parse are left out. The number written. */
static int viewed_events(const struct store_log *tail, int from, int viewer, struct event *events)
{
	int count = 0;
	for (int i = from; i < tail->count; i++) {
		struct event event;
		struct codec_error error;
		if (codec_payload_parse(tail->rows[i].type, tail->rows[i].payload, tail->rows[i].payload_size, &event,
					&error))
			view_event(&event, viewer, &events[count++]);
	}
	return count;
}

int deliver_events_since_turn(int64_t game_id, int32_t version, int seat, int viewer, struct event **out, int *omitted)
{
	*out = NULL;
	*omitted = 0;
	/* One more than the bound: the end of the seat's turn just before the window counts. */
	int32_t after = version > DELIVER_SINCE_MAX + 1 ? version - DELIVER_SINCE_MAX - 1 : 0;
	struct store_log tail;
	if (play_read_log(game_id, after, version - after, &tail) != STORE_OK)
		return -1;
	int from = -1;
	for (int i = tail.count; i-- > 0 && from < 0;)
		if (tail.rows[i].type == EVENT_TURN_ENDED && tail.rows[i].actor == seat)
			from = i + 1;
	if (from < 0) {
		/* No end of the seat's turn in the window: the whole window, after what it misses. */
		from = tail.count > DELIVER_SINCE_MAX ? tail.count - DELIVER_SINCE_MAX : 0;
		if (after > 0 || from > 0)
			*omitted = -1;
	}
	struct event *events = xcalloc((size_t)(tail.count - from + 1), sizeof *events);
	int count = viewed_events(&tail, from, viewer, events);
	store_log_free(&tail);
	*out = events;
	return count;
}

int deliver_events_after(int64_t game_id, int32_t after, int32_t version, int viewer, struct event **out, int *omitted)
{
	*out = NULL;
	*omitted = 0;
	if (version - after > DELIVER_SINCE_MAX) {
		after = version - DELIVER_SINCE_MAX;
		*omitted = -1;
	}
	if (version <= after)
		return 0;
	struct store_log tail;
	if (play_read_log(game_id, after, version - after, &tail) != STORE_OK)
		return -1;
	struct event *events = xcalloc((size_t)tail.count + 1, sizeof *events);
	int count = viewed_events(&tail, 0, viewer, events);
	store_log_free(&tail);
	*out = events;
	return count;
}

int deliver_prompted(const struct store_log *log, int seat)
{
	for (int i = 0; i < log->count; i++)
		if (log->rows[i].actor != seat ||
		    (log->rows[i].origin != STORE_ORIGIN_PLAYER && log->rows[i].origin != STORE_ORIGIN_MAIL))
			return 1;
	return 0;
}
