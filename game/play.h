/*
 * play.h - the game service: every game read and write, free of HTTP.
 *
 * The one path of ARCHITECTURE.md, for every caller (the HTTP handlers, the bot and
 * deadline workers, the webhook deliveries, later joins and imports):
 *
 *   load       play_load(): the process cache brought up to date from the log, or a full
 *              load (snapshot + tail) on a miss
 *   decide     rules_decide_seeded() on the loaded state
 *   append     game_repo_append(): one round trip that also writes the game's next timer
 *              and, for a request with an idempotency key, the key's answer
 *   render     the events as the viewer may see them (play_log_json(), play_event_json())
 *
 * play_move() is that path for every kind of move: a seat's move or trade (origin player,
 * with If-Match and an idempotency key when the caller has them), a bot's move or a
 * deadline's default move (origin bot or timeout). play_create() writes a new game the same
 * way. An append that loses the race for the next version is decided again on the fresh
 * state (PLAY_RETRIES times) unless the move is pinned to a version.
 *
 * Idempotency: a keyed move's answer is recorded whatever the outcome, on one path: with
 * the events in the append's transaction when the move is applied, alone when the rules
 * refuse it. The key's unique row admits one answer; every other request with the key gets
 * that answer (PLAY_REPLAYED), on any server.
 *
 * Nothing about a game lives only in memory: the cache holds copies of states that are in
 * the log, keyed by (game id, version), and token lookups, which are forgotten when a
 * token is replaced (play_forget_tokens(), told by every server's listener). What the
 * HTTP layer needs to know of appends (wake long-polls, count, wake the workers) reaches it
 * through the hooks given to play_init(), so this module includes nothing of api/.
 *
 * Threads: each thread owns one store connection (play_thread_store() of
 * game/play_internal.h, opened on first use: game/'s own, never seen above it). The cache
 * is shared, one mutex per slot.
 */
#ifndef CATAN_GAME_PLAY_H
#define CATAN_GAME_PLAY_H

#include <jansson.h>
#include <stdint.h>

#include "codec/options.h"
#include "db/store_events.h"
#include "db/store_idempotency.h"
#include "db/store_lobby.h"
#include "db/store_clocks.h"
#include "db/store_timers.h"
#include "engine/command.h"
#include "engine/error.h"
#include "engine/game.h"

#define PLAY_ADMIN (-2)	     /* the viewer who holds the admin token: sees as a spectator */
#define PLAY_UNREDACTED (-3) /* not a caller: the log as stored (a finished game's export) */
#define PLAY_NAME_SIZE 161   /* 40 characters of UTF-8 and the NUL */
#define PLAY_RETRIES 8
/* How long a bot chain's next move waits when the worker making the chain dies. */
#define PLAY_BOT_LEASE_MS 5000

/* A game as the service knows it: its state and what the store keeps beside the log. */
struct game_record {
	int64_t id;
	char id_text[STORE_ID_TEXT_SIZE];
	struct game state;
	int64_t seed;
	/* A provably fair game (game/fairness.h): the server seed its outcomes derive from. */
	int fair;
	uint8_t server_seed[STORE_SERVER_SEED_SIZE];
	struct codec_options options;
	char names[GAME_MAX_SEATS][PLAY_NAME_SIZE];
	uint8_t bots[GAME_MAX_SEATS]; /* played by the server (a bot seat, or a seat away) */
	uint8_t away[GAME_MAX_SEATS]; /* on holiday: handed to the bot by its player */
};

/* What the caller hears of the service's work. Every hook may be NULL. */
struct play_hooks {
	/* After an append committed: the game's new version and how many events it added;
	 * `bot_due` when a bot's move is due at once (wake the workers). */
	void (*appended)(int64_t game_id, int32_t version, int events, int bot_due);
	/* An append lost the race for its version (it is decided again). */
	void (*append_conflict)(void);
	/* A game was created with `events` events; `bot_due` as for appended. */
	void (*created)(int64_t game_id, int events, int bot_due);
	/* Something an operator should read: a corrupt row, an unparsable event. */
	void (*problem)(const char *what, const char *game_id_text, const char *detail);
};

/* Start the service on `database_url` (NULL: libpq's defaults). */
void play_init(const char *database_url, const struct play_hooks *hooks);

/* Write the appends of events alone of every thread through one committer of `connections`
 * connections, at most `max_batch` appends per statement (db/committer.h; play_init()
 * starts one of STORE_COMMITTER_CONNECTIONS and STORE_COMMITTER_MAX_BATCH), or with 0 each
 * on its thread's own connection. Call before any thread has used the store. */
void play_set_group_commit(int connections, int max_batch);

/* Refuse new writes from now on (PLAY_STOPPING); then release everything. */
void play_shutdown_begin(void);
void play_shutdown(void);

/* ---- Reading ---- */

/* The game, brought up to date with the log (`fresh`), or as cached when it is cached
 * (not fresh: a move decides on it and a stale copy shows up as an append conflict). */
enum store_status play_load(int64_t game_id, int fresh, struct game_record *out);

/* 1 and *out set when the process cache holds a copy of the game (of any version). */
int play_cached(int64_t game_id, struct game_record *out);

/* Bring game->state up to the log's last version. */
enum store_status play_refresh(struct game_record *game);

/* The game's log rows after version `after`, at most `limit` (free with store_log_free). */
enum store_status play_read_log(int64_t game_id, int32_t after, int limit, struct store_log *out);

/* ---- Reads a standby may answer (game/play_standby.c) ---- */

/* Send the reads below to a standby through `url` (DATABASE_READ_URL; NULL or "": every
 * read on the primary). Call once at start, after play_init(), before the threads read. */
void play_set_read_url(const char *url);

/* 1 when a read URL is set. */
int play_has_standby(void);

/* Close this thread's read store and forget the read URL: at the end, once no other thread
 * reads (before play_shutdown()). */
void play_standby_shutdown(void);

/* The game from the read store, at a version of at least `floor` (what the caller and this
 * process know): STORE_OK and *out set; any other status (STORE_CONFLICT: the standby has
 * not replayed `floor` yet; STORE_UNAVAILABLE: no read store, or it failed) and the caller
 * reads from the primary (play_load()). Only for reads whose answer may lag the primary. */
enum store_status play_load_standby(int64_t game_id, int32_t floor, struct game_record *out);

/* play_read_log() from the read store when it has every row after `after` through
 * `through` (at most `limit`), else from the primary: a finished game's export. */
enum store_status play_read_log_standby(int64_t game_id, int32_t after, int limit, int32_t through,
					struct store_log *out);

/* The game's state as it stood at `version` (snapshot + events). */
enum store_status play_state_at(int64_t game_id, int32_t version, struct game *out);

/* 1 when the database answers (readiness). */
int play_database_ready(void);

/* The seat (or STORE_SEAT_ADMIN) whose token has this hash; STORE_NOT_FOUND when none. */
enum store_status play_find_token(int64_t game_id, const uint8_t hash[STORE_HASH_SIZE], int *seat);

/* Forget the cached token lookups of game `game_id` (0: of every game), so the next
 * play_find_token() asks the database: a token was replaced (here, or on another server,
 * heard through LISTENER_TOKENS). */
void play_forget_tokens(int64_t game_id);

/* Replace the token of seat `seat` of game `game_id` by the token of hash `hash`
 * (store_replace_seat_token()); the old one stops at once, here and on every server.
 * STORE_NOT_FOUND when the seat has no token (a bot's). */
enum store_status play_replace_seat_token(int64_t game_id, int seat, const uint8_t hash[STORE_HASH_SIZE]);

/* ---- Writing ---- */

enum play_outcome {
	PLAY_APPLIED,	   /* appended: result->version, result->answer */
	PLAY_REFUSED,	   /* the rules refused: result->refused; recorded with the key */
	PLAY_REPLAYED,	   /* the key's recorded answer: result->replay */
	PLAY_KEY_REUSED,   /* the key was used for another request */
	PLAY_STALE,	   /* pinned to another version than the game's (result->version) */
	PLAY_RACED,	   /* lost the race for the next version PLAY_RETRIES times */
	PLAY_STORE_FAILED, /* result->store_status */
	PLAY_STOPPING	   /* the service is shutting down */
};

struct play_move {
	int seat; /* who moves */
	const struct command *command;
	int origin;  /* STORE_ORIGIN_PLAYER, _MAIL (a seat's own moves), _BOT or _TIMEOUT */
	int viewer;  /* whose view the answer renders: the seat, VIEW_SPECTATOR or PLAY_ADMIN */
	long pinned; /* apply only at this version (If-Match), -1: at any */
	/* An answer to an offer (accept, decline): the offer's id, and then the pin is scoped
	 * to it: it holds while that offer, open at the pinned version, is still open, since
	 * the moves in between (other seats' answers) change nothing the answer depends on.
	 * 0 for every other move (the pin is the game's version). */
	int pinned_offer;
	int keep_lease;		  /* a bot chain goes on: its next move is a lease, not due at once */
	int render;		  /* build result->answer (a player's move); 0 for the server's own */
	int success_status;	  /* kept with the key for an applied move */
	const char *offer_member; /* a second member naming a new offer's id besides "trade", or NULL */
	/* An idempotency key (scoped to its sender by the caller) and the hash of the request,
	 * or NULL. With a key, refusal_body() renders a refusal's answer to record (a new
	 * string the service frees; *status its status). */
	const char *key;
	const uint8_t *request_hash;
	char *(*refusal_body)(void *context, enum error error, long version, int *status);
	void *context;
};

struct play_result {
	enum play_outcome outcome;
	enum error refused;
	enum store_status store_status;
	long version; /* the game's version after the move, or now */
	/* PLAY_APPLIED: the game now waits for people to answer the active bot's trade offer
	 * (options.offer_wait_s); the bot's next move is due when they have or the wait is
	 * over, so a chain of bot moves stops here. */
	int bot_waits;
	char *answer;				/* PLAY_APPLIED with render: {version, events[, trade]}; caller frees */
	struct store_idempotency_record replay; /* PLAY_REPLAYED; caller frees replay.response */
};

/* Make a move on `game` (loaded with play_load(); brought up to date as needed). */
void play_move(struct game_record *game, const struct play_move *move, struct play_result *result);

/* A new game. */
struct play_new_game {
	const struct codec_options *options; /* options.game.seats set */
	int64_t seed;
	/* Provably fair (game/fairness.h): the outcomes derive from server_seed, not from seed
	 * (which still keys the bots' choices). Ignored by play_import(). */
	int fair;
	uint8_t server_seed[STORE_SERVER_SEED_SIZE];
	const char *names[GAME_MAX_SEATS];
	const int *bots; /* per seat */
	const uint8_t (*token_hashes)[STORE_HASH_SIZE];
	const uint8_t *admin_token_hash;
	const int64_t *players; /* per seat: the player it is bound to, 0 none; NULL: none */
};

/* Where game's random outcomes come from (game/fairness.h). */
struct event_list;
struct fairness;
void play_fairness(const struct game_record *game, struct fairness *out);

/* What a reader may learn of game's fairness (codec/fairness.h): the commitment, and the
 * server seed once the game is over. */
struct codec_fairness;
void play_fairness_public(const struct game_record *game, struct codec_fairness *out);

/* A new game's start (rules_start()) with its fairness: the seed of version 0, and the
 * scheme and commitment written into the game_created event. */
enum error play_start(const struct play_new_game *new_game, struct event_list *events, struct game *after);

/* Create and store a game: ERROR_OK with *out loaded, or the rules' refusal of the options
 * (*status STORE_OK), or ERROR_OK with *status telling why it was not stored. */
enum error play_create(const struct play_new_game *new_game, struct game_record *out, enum store_status *status);

/* A waiting game was started by a join or a seat change (game/lobby.h): tell the hooks
 * as for an append of `version` events. */
void play_started(int64_t game_id, int32_t version);

/* An imported game (POST /v1/games/import): the game of `new_game` (its options, seed,
 * seats and tokens) whose log is events[0 .. count), already judged by import_verify()
 * (game/import.h), which cut it into groups[0 .. group_count) (the first is the creation);
 * origins[g] is each group's STORE_ORIGIN_*. Each event is stored with its group's seat as
 * the actor (none for the creation) and its origin, so the stored log has the same events,
 * actors and origins as the game exported. The whole game is written in one transaction
 * (game_repo_import: the games row, the seats, every event, a snapshot of the end and the
 * timer), so a failure leaves nothing behind and no worker sees the game before its last
 * event. *out is the game loaded. */
struct event;
struct import_group;
enum store_status play_import(const struct play_new_game *new_game, const struct event *events,
			      const struct import_group *groups, int group_count, const int *origins,
			      struct game_record *out);

/* Holidays: seat `seat` of `game` hands itself to the server's bot (`away` 1: the bot moves
 * for it at once whenever the game waits for it) or takes itself back (0: the game waits
 * for the seat again). The seat's change, a seat_away or seat_back event (which the rules
 * ignore) and the game's timer are one transaction (store_set_away); decided again on the
 * new version when a move took it first. *version is the game's version after (or now). */
enum play_away {
	PLAY_AWAY_DONE,
	PLAY_AWAY_NO_SEAT,	/* no such seat */
	PLAY_AWAY_BOT_SEAT,	/* created as a bot: nobody to go away or come back */
	PLAY_AWAY_UNCHANGED,	/* already away (or already back) */
	PLAY_AWAY_FINISHED,	/* the game is over */
	PLAY_AWAY_RACED,	/* lost the race for the next version PLAY_RETRIES times */
	PLAY_AWAY_STORE_FAILED, /* *status says why */
	PLAY_AWAY_STOPPING,
	PLAY_AWAY_ALLOWANCE_SPENT, /* the seat's holiday allowance of 365 days is spent */
	/* Substitutes (game/substitutes.h): */
	PLAY_AWAY_WRONG_INVITE,	  /* not the seat's substitute invite (or the seat is not listed) */
	PLAY_AWAY_NOT_NEEDED,	  /* the seat needs no substitute (taken already, or never left) */
	PLAY_AWAY_ALREADY_SEATED, /* the substitute's player holds another seat of the game */
	PLAY_AWAY_RATED		  /* a rated game's seats stay their players' (resign instead) */
};
enum play_away play_set_away(struct game_record *game, int seat, int away, long *version, enum store_status *status);

/* Resigning (issue 28): seat `seat` becomes a bot seat for the rest of the game, with a
 * `resigned` event (which the rules ignore), in one transaction as play_set_away()'s
 * (store_seat_resign()). PLAY_AWAY_BOT_SEAT: a bot seat already (created as one, or resigned);
 * a seat away on holiday may resign. */
enum play_away play_resign(struct game_record *game, int seat, long *version, enum store_status *status);

/* ---- The server's own moves ---- */

/* The seats of the game that bots play, as a mask. */
uint8_t play_bot_seats(const struct game_record *game);

/* When a bot's trade offer goes to people (seats the server does not play), the bot's turn
 * waits for them: the game's timer is the bot's next move, due when each of them has
 * answered (accepted, declined, countered: an append, which sets the timer due at once)
 * or options.offer_wait_s after the wait began, whichever is sooner; answers coming in
 * keep that due time (STORE_TIMER_BOT_KEEP), so they never prolong the wait. The timer is
 * a row like any other (no thread waits), so any server makes the move, across restarts.
 * The first move the bot makes when it comes due ends the wait, answered or not. Offers
 * among bots are answered at once and never wait. */

/* 1 when nobody is at the table: every seat is played by the server's bot and at least
 * one of them is a person's seat away on holiday (a game created with bots only is not
 * unattended: it was admitted as such). An unattended game is no free CPU: its bots move
 * one decision per turn clock (turn_timeout_s), as a present human's deadline would let
 * the game go on, and without a turn clock the game pauses (no timer at all) until a
 * seat comes back (seat_back sets the bot's timer at once again). */
int play_unattended(const struct game_record *game);

/* Whether unattended games are paced: 1, the default. 0 on a server that admits games of
 * bots only from anyone (ALL_BOT_GAMES=1): there a game whose people all went on holiday
 * plays at the speed of a game created with bots, since pacing it would protect nothing. */
void play_set_unattended_pacing(int on);

/* The seats' correspondence clocks (game/seat_clocks.h) at the game's current version, as
 * the views show them: each seat's bank and quiet hours, and the current deadline. */
struct play_clocks {
	int used;	     /* 0: the game has no clocks (no turn_timeout_s): the rest is 0 */
	int64_t deadline_us; /* as play_deadline() */
	int64_t bank_ms[GAME_MAX_SEATS];
	int quiet[GAME_MAX_SEATS]; /* the seat has quiet hours: */
	char zone[GAME_MAX_SEATS][STORE_ZONE_NAME_SIZE];
	int from_min[GAME_MAX_SEATS], to_min[GAME_MAX_SEATS];
};

/* Read them into *out (one statement); out->used 0 for a game without a turn clock. */
enum store_status play_clocks(const struct game_record *game, struct play_clocks *out);

/* Set (zone non-NULL: a tz database name the server has) or clear the quiet hours of
 * `seat`: a quiet_hours_set or quiet_hours_cleared event (which the rules ignore) appended
 * on the latest version with the seat's columns and the game's timer (carried to the new
 * version; a deadline moved when the game waits for that seat) in one transaction
 * (store_set_quiet_hours), decided again when a move took the version first. The wait the
 * seats' clocks run against is not restarted (game/seat_clocks.h). *version is the game's
 * version after (or now). PLAY_QUIET_NO_SEAT for a seat the game does not have. */
enum play_quiet {
	PLAY_QUIET_DONE,
	PLAY_QUIET_NO_SEAT,
	PLAY_QUIET_FINISHED, /* the game is over (or not started) */
	PLAY_QUIET_RACED,    /* lost the race for the next version PLAY_RETRIES times */
	PLAY_QUIET_STOPPING,
	PLAY_QUIET_STORE_FAILED /* *status says why */
};
enum play_quiet play_set_quiet_hours(struct game_record *game, int seat, const char *zone, int from_min, int to_min,
				     long *version, enum store_status *status);

/* When the game's current wait times out and the server makes the default move
 * (microseconds since 1970, UTC) into *deadline_us: the time of its last event plus
 * turn_timeout_s and the waiting seats' banks, pushed by their quiet hours (the deadline
 * timer is set in the same transaction as that event, game/seat_clocks.h), while
 * the game is in progress and waits for a seat the server does not play; 0 when there is
 * none (no turn_timeout_s, a bot to move, the game over). Reads the last event's row. */
enum store_status play_deadline(const struct game_record *game, int64_t *deadline_us);

/* ---- Rendering ---- */

/* The log entries of rows as `viewer` may see them: each the event object plus "version",
 * "created_at" and "origin". New reference. */
json_t *play_log_json(const struct game_record *game, int viewer, const struct store_log *log);

/* An RFC 3339 UTC time with microseconds ("2026-11-29T20:07:46.668745Z"). */
void play_format_time(int64_t microseconds, char *out, size_t size);

/* 1 when `state` is in play and waits for `seat`: its move (legal_waiting_for), or its
 * answer to an open offer made to it (accept or decline), which the offerer may be waiting
 * for. Whoever waits for a seat's actions (GET .../actions?wait, your_turn notes) is told. */
int play_seat_due(const struct game *state, int seat);

/* Names of seats as a NULL-padded array for the codec. */
void play_names(const struct game_record *game, const char *names[GAME_MAX_SEATS]);

#endif
