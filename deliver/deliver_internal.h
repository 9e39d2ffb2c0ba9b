/*
 * deliver_internal.h - what the formats of deliver/ share with the loop that drives them
 * (deliver/deliver.c), built the way curl builds its TLS backends (lib/vtls/vtls_int.h):
 * one struct deliver_format per kind of registration, a row of the table in deliver.c, and
 * the generic code the only caller of its send().
 *
 * A format's send() gets one claimed outbox row (a job) and does its work: it reads the
 * game through the game service, builds what the receiver gets, sends it (the HTTP POST of
 * deliver_post(), or its own transport), and logs each attempt with deliver_attempt(). It
 * writes nothing else: it says what became of the row with deliver_done(), deliver_retry()
 * or deliver_later(), and the loop records that, progress and backoff in one place.
 * Adding a kind of receiver is one file and one row.
 *
 * Internal to deliver/ (scripts/check-layers.sh refuses it elsewhere).
 */
#ifndef CATAN_DELIVER_DELIVER_INTERNAL_H
#define CATAN_DELIVER_DELIVER_INTERNAL_H

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>

#include "deliver/deliver.h"
#include "engine/event.h"
#include "game/outbox.h"
#include "game/play.h"

/* A claimed row's lease, extended after each acknowledged event: a thread that dies holds
 * a row at most this long. */
#define DELIVER_LEASE_MS 15000

/* The last events a note or a mail tells ("Last moves: ..."). */
#define DELIVER_RECENT_EVENTS 6

/* What becomes of a row after its send(). */
enum deliver_outcome {
	DELIVER_DONE,  /* removed: delivered, or nothing (more) to deliver */
	DELIVER_RETRY, /* due again after the backoff of its attempts, from next_seq */
	DELIVER_LATER, /* due again in later_ms, from next_seq (a rate limit, a mail's interval) */
	DELIVER_GONE   /* nothing to record: the row went with its webhook (a disabled channel) */
};

/* One claimed row being delivered; every pointer borrowed for the send. */
struct deliver_job {
	const struct store_delivery *row;
	CURL *curl;			     /* this thread's handle */
	const struct deliver_config *config; /* deliver_start()'s settings */
	/* What send() said (deliver_done() ...): the loop records it. */
	enum deliver_outcome outcome;
	int32_t next_seq;
	int64_t later_ms;
};

/* A kind of registration: its format (enum store_webhook_format), its name for logs, and
 * the work of one row. `unseated`: 1 when send() judges rows of a player who left the game
 * (STORE_WEBHOOK_UNSEATED) itself; for the others the loop drops those rows, since nothing
 * of the game is the player's to see any more. */
struct deliver_format {
	int format;
	const char *name;
	int unseated;
	void (*send)(struct deliver_job *job);
};

extern const struct deliver_format deliver_standard, deliver_discord, deliver_slack, deliver_mail;

/* ---- What send() says (deliver/job.c) ---- */

void deliver_done(struct deliver_job *job, int32_t next_seq);
void deliver_retry(struct deliver_job *job, int32_t next_seq);
void deliver_later(struct deliver_job *job, int32_t next_seq, int64_t ms);
void deliver_gone(struct deliver_job *job);

/* Within a row: events up to next_seq - 1 are acknowledged, and the row's lease is
 * extended (a crash re-sends at most the event in flight). */
void deliver_progress(struct deliver_job *job, int32_t next_seq);

/* Log one attempt about `seq` as `kind` ("event", "your_turn", "mail" ...): its answer's
 * status (0: none) and time, and `error` (NULL when it succeeded), counted in /metrics as
 * delivered or failed. deliver_note() logs an entry that is no attempt (not counted). */
void deliver_attempt(struct deliver_job *job, int32_t seq, const char *kind, int status, int duration_ms,
		     const char *error);
void deliver_note(struct deliver_job *job, int32_t seq, const char *kind, const char *text);

/* ---- What the formats share (deliver/job.c; deliver_post(): deliver/post.c) ---- */

/* The server's public base URL without a trailing slash (PUBLIC_URL, or http://LISTEN:PORT
 * like the server's start banner). */
void deliver_public_base(const struct deliver_job *job, char *out, size_t size);

/* The absolute address of the PNG of the game at `version`, for a chat service or a mail
 * to show without a token; and of the game in the web client (no token either). */
void deliver_board_url(const struct deliver_job *job, const struct game_record *record, int32_t version, char *out,
		       size_t size);
void deliver_game_url(const struct deliver_job *job, const struct game_record *record, char *out, size_t size);

/* The last DELIVER_RECENT_EVENTS events up to `version` as `viewer` sees them, oldest
 * first, into recent; their number (0 when they cannot be read). */
int deliver_recent_events(int64_t game_id, int32_t version, int viewer, struct event *recent);

/* The most events a mail lists since its reader's last turn (a longer stretch lists its
 * last ones and says how many came before). */
#define DELIVER_SINCE_MAX 400

/* The events after the end of `seat`'s last turn (its last turn_ended; the game's start
 * when it has none yet) up to `version`, as `viewer` sees them (the seat, or
 * VIEW_SPECTATOR), oldest first: *out (caller frees) and their number; *omitted is -1 when
 * earlier ones of that stretch are left out past DELIVER_SINCE_MAX. -1 when the log cannot
 * be read. */
int deliver_events_since_turn(int64_t game_id, int32_t version, int seat, int viewer, struct event **out, int *omitted);

/* The events after version `after` up to `version` as `viewer` sees them, oldest first:
 * *out (caller frees) and their number, at most DELIVER_SINCE_MAX (the last ones; *omitted
 * -1 when earlier ones are left out). -1 when the log cannot be read. */
int deliver_events_after(int64_t game_id, int32_t after, int32_t version, int viewer, struct event **out, int *omitted);

/* 1 when the events first..last of `log` were made by someone other than `seat` playing
 * itself (another seat, the server's bot, a deadline): an append worth telling the seat. */
int deliver_prompted(const struct store_log *log, int seat);

/* What came back from a POST besides the status: the Retry-After header and the start
 * of the body (for a chat service's rate-limit answer). */
struct deliver_answer {
	char retry_after[32];
	char body[2048];
	size_t body_size;
};

/* POST `body` with `headers` to the row's url, reaching only an address
 * deliver/destination.h allows: the receiver's HTTP status, or 0 with *error set (a
 * coarse reason, no address or libcurl text) when none came; a non-2xx status sets *error
 * too. With `answer`, what came back is kept there. */
long deliver_post(struct deliver_job *job, struct curl_slist *headers, const char *body, char *error, size_t error_size,
		  int *duration_ms, struct deliver_answer *answer);

#endif
