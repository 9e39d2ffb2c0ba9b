/*
 * handlers.h - one function per route (routes.c). Each parses its input, calls the engine
 * through api/service.h, and renders through codec/shapes.h; each queues exactly one response
 * (or parks the request, see api/notify.h).
 */
#ifndef CATAN_API_HANDLERS_H
#define CATAN_API_HANDLERS_H

#include <jansson.h>
#include <stdint.h>

#include "game/auth.h"
#include "game/play.h"
#include "game/webhooks.h"
#include "http/http.h"

struct session; /* api/service.h */

/* The longest wait of a long-poll (GET /moves, GET /actions), in seconds. */
#define HANDLERS_WAIT_MAX_S 60

/* handlers_create.c: POST /v1/games, and what an import shares with it. */
void handle_create_game(struct http_request *request);
/* The secrets of a new game, shown once in its 201 answer: the admin token and a token per
 * seat with their hashes, and the game they make for play_create() (or lobby_create(),
 * play_import()), whose pointers point into this struct and the arguments given. */
struct handlers_new_game {
	char admin_token[AUTH_TOKEN_LENGTH + 1];
	char tokens[GAME_MAX_SEATS][AUTH_TOKEN_LENGTH + 1];
	uint8_t admin_hash[AUTH_HASH_SIZE];
	uint8_t token_hashes[GAME_MAX_SEATS][AUTH_HASH_SIZE];
	struct play_new_game game;
};
/* Draw them for a game of `options` (options->game.seats seats; the seed `seed` when
 * has_seed, else a random one), seats named names[s] with bots[s] and players[s] (NULL:
 * none), borrowed while *out is used: 1, or 0 with 500 queued (no randomness). */
int handlers_new_game(struct http_request *request, const struct codec_options *options, int has_seed, int64_t seed,
		      const char (*names)[PLAY_NAME_SIZE], const int *bots, const int64_t *players,
		      struct handlers_new_game *out);
/* Answer 201 for the game just made (session->game loaded): its id, version, admin token,
 * seats with their tokens, and its view, at Location /v1/games/{id}; or a problem. */
void handlers_respond_created(struct http_request *request, const struct session *session,
			      const struct handlers_new_game *secrets);
/* Creation's admission (CREATE_KEY, the per-client quota CREATE_RATE_IP): 0 with a problem
 * queued; handlers_created() pays that quota when the answer queued is a 201 (a game was
 * made) and the caller had no creation key. */
int handlers_may_create(struct http_request *request);
void handlers_created(struct http_request *request);
/* The gate of games without a human seat, for creation and import alike: 1 when some seat
 * of bots[0 .. seats) is not a bot, or the request carries the creation key, or
 * ALL_BOT_GAMES=1; else 0 with 403 create_key_required naming `players` queued. */
int handlers_bots_only_allowed(struct http_request *request, const int *bots, int seats);
/* 1 when the request carries the server's creation key (CREATE_KEY) as its bearer token:
 * an operator's request, to which no per-client quota applies. */
int handlers_has_create_key(struct http_request *request);

/* handlers_games.c: reading a game: its view, the board, the players, the caller's legal
 * actions. */
void handle_get_game(struct http_request *request);
/* The game view of GET /v1/games/{id} for the session: a new reference, or NULL with a
 * problem queued. */
json_t *handlers_game_view(struct http_request *request, const struct session *session);

/* api/handlers_lobby.c: waiting games, joining, the admin's seat changes, the lobby. */
void handle_get_lobby(struct http_request *request);
void handle_join_game(struct http_request *request);
void handle_remove_seat(struct http_request *request);
void handle_seat_bot(struct http_request *request);
void handle_get_seats(struct http_request *request);
/* Answer 200 with the waiting game `game_id` as GET .../seats shows it (status
 * "waiting", seats, options; no board, no state): 1, or 0 with nothing queued when the
 * game no longer waits (it started), or 1 with a problem queued on a store failure. */
int handlers_respond_waiting(struct http_request *request, int64_t game_id);

/* api/handlers_substitutes.c: a seat whose player left, and its substitute (issue 28). */
void handle_release_seat(struct http_request *request);
void handle_invite_substitute(struct http_request *request);
/* The join of a started game: the substitute of the seat whose substitute invite has hash
 * `invite_hash` takes it with the token `token` (hash `token_hash`), bound to `player` (0:
 * none). 1 with the answer queued; 0 with nothing queued when no seat has that invite. */
int handlers_join_as_substitute(struct http_request *request, int64_t game_id, const uint8_t *invite_hash,
				const char *name, const char *token, const uint8_t *token_hash, int64_t player);
/* The seats of a started game that need a substitute into `seats` (GET .../seats): 1, or 0
 * with the store's problem queued. */
int handlers_put_substitutes(struct http_request *request, int64_t game_id, json_t *seats);
/* Each seat's `needs_substitute` into the game view's `players` (GET /v1/games/{id} and
 * .../players at the current version): true while the seat's player has left it and the
 * bot holds it awaiting a substitute; false in a game over. It changes only with an event
 * (seat_released, seat_substituted), so with the version and the view's tag. 1, or 0 with
 * the store's problem queued. */
int handlers_put_needs_substitute(struct http_request *request, const struct game_record *game, json_t *players);

/* api/handlers_players.c: players across games. */
void handle_create_player(struct http_request *request);
void handle_get_my_games(struct http_request *request);

void handle_get_board(struct http_request *request);
void handle_get_players(struct http_request *request);
void handle_get_actions(struct http_request *request);
/* The Actions body (version, seat, waiting_for, actions) of the session's game for its
 * viewer, as GET /actions answers it; also the `actions` of a seat's your_turn. New
 * reference. */
json_t *handlers_actions_json(const struct session *session);

/* handlers_history.c: history views and the export. handlers_history_at() reads the
 * request's ?version=N: 0 when there is none (the session is left as it is), 1 when the
 * session's state is now the game at version N (and the answer's Cache-Control is set:
 * immutable), -1 with a problem queued (400 naming version, 404 version_not_found). */
int handlers_history_at(struct http_request *request, struct session *session);
void handle_export_game(struct http_request *request);

/* handlers_summary.c: GET /v1/games/{id}/summary, a finished game in figures. */
void handle_get_summary(struct http_request *request);

/* handlers_tokens.c: a seat's or a player's token replaced (the old one stops at once). */
void handle_replace_seat_token(struct http_request *request);
void handle_replace_player_token(struct http_request *request);

/* handlers_import.c: POST /v1/games/import. */
void handle_import_game(struct http_request *request);

/* api/handlers_webhooks.c: registering webhooks of a game, and what player webhooks
 * (api/handlers_player_webhooks.c) share with them. */
struct store_webhook; /* db/store_webhooks.h */
/* A registration's body: url borrowed from the body, mentions owned (free()). */
struct handlers_webhook_request {
	const char *url;
	int your_turn_only;
	int format;				   /* enum store_webhook_format */
	char *mentions;				   /* the mentions object as JSON text, or NULL */
	int digest_hours;			   /* 0: a chat message per turn; else a digest at most this often */
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE]; /* the new signing secret, random */
};
/* Read a registration body (url, events, format, mentions; mentions keyed by seats below
 * `seats`; events "your_turn" only when `for_seat`) and draw its secret: 1, or 0 with a
 * 400 naming the field (or a 500: no randomness) queued (out->mentions then NULL). */
int handlers_read_webhook(struct http_request *request, const json_t *body, int seats, int for_seat,
			  struct handlers_webhook_request *out);
/* The API's id of a webhook ("wh_" + 16 hex digits); and the id of the route's :webhook
 * parameter `param` (may be NULL): 1 and *id, or 0 with 404 webhook_not_found queued. */
void handlers_webhook_id_text(int64_t id, char out[24]);
int handlers_webhook_param(struct http_request *request, const char *param, int64_t *id);
/* A webhook as listings show it (no secret, no mentions). New reference. */
json_t *handlers_webhook_json(const struct store_webhook *webhook);
/* Answer 201 with `answer` (stolen) plus, for a standard webhook (`format`), the secret
 * shown once, at `location`. */
void handlers_webhook_created(struct http_request *request, json_t *answer, const uint8_t *secret, int format,
			      const char *location);
/* Rotating a standard webhook's secret (0019_webhook_secrets_and_digests.sql): the overlap
 * when the body names none, and the longest it may name. */
#define HANDLERS_SECRET_OVERLAP_S 86400
#define HANDLERS_SECRET_OVERLAP_MAX_S (7 * 86400)
/* Read a rotation's body (none, {} or {"overlap_seconds"}): 1 and *overlap_s, or 0 with a
 * 400 naming the member queued. */
int handlers_read_rotation(struct http_request *request, int *overlap_s);
/* Rotate the secret of webhook `id` of `owner` (a game's id, or a player's when
 * of_player), found by the caller with its `format`: 200 {id, secret,
 * previous_secret_expires_at, overlap_seconds}, 409 webhook_not_signed for a chat
 * webhook, 404 when it went in between. */
void handlers_webhook_rotate(struct http_request *request, int64_t owner, int of_player, int64_t id, int format,
			     int overlap_s);
/* Answer the delivery log of webhook `id` (the caller checked it is the caller's; ?limit). */
void handlers_webhook_deliveries(struct http_request *request, int64_t id);
/* The place of webhook `id` among webhooks[0 .. count) (borrowed) registered by `owner` (a
 * seat, STORE_WEBHOOK_ADMIN, or HANDLERS_ANY_OWNER), or -1 with 404 webhook_not_found
 * queued ("no such webhook of yours" and `where`). */
#define HANDLERS_ANY_OWNER (-100)
int handlers_webhook_find(struct http_request *request, const struct store_webhook *webhooks, int count, int64_t id,
			  int owner, const char *where);
/* Answer a webhook's removal by its store status: 204, 404 webhook_not_found or the failure. */
void handlers_webhook_deleted(struct http_request *request, enum store_status status);

/* api/handlers_player_webhooks.c: a player's webhooks (/v1/players/me/webhooks). */
void handle_post_player_webhook(struct http_request *request);
void handle_get_player_webhooks(struct http_request *request);
void handle_get_player_webhook(struct http_request *request);
void handle_delete_player_webhook(struct http_request *request);
void handle_rotate_player_webhook_secret(struct http_request *request);
void handle_get_player_webhook_deliveries(struct http_request *request);
/* The player of the request's bearer token, or of ?token= on a route that takes it (a
 * stream, for EventSource; 400 naming `token` elsewhere) (api/handlers_players.c): 1 and
 * *out, or 0 with a problem queued. */
struct store_player; /* db/store_lobby.h */
int handlers_authenticate_player(struct http_request *request, struct store_player *out);
/* The same, with the token's hash into token_hash (a stream checks it again later). */
int handlers_authenticate_player_hash(struct http_request *request, struct store_player *out,
				      uint8_t token_hash[AUTH_HASH_SIZE]);

/* api/handlers_ratings.c: a player's profile, resigning, a rematch, deleting a player. */
void handle_get_player(struct http_request *request);
void handle_resign(struct http_request *request);
void handle_rematch(struct http_request *request);
void handle_delete_player(struct http_request *request);

/* api/handlers_clocks.c: a seat's quiet hours set and cleared; their JSON as the views
 * show them ({timezone, from, to}, times "HH:MM"; a new reference). */
void handle_put_quiet_hours(struct http_request *request);
void handle_delete_quiet_hours(struct http_request *request);
json_t *handlers_quiet_hours_json(const char *zone, int from_min, int to_min);

/* api/handlers_holidays.c: a seat handed to the bot and taken back. */
void handle_seat_away(struct http_request *request);
void handle_seat_back(struct http_request *request);
/* Answer an outcome of a seat's change (play_set_away(), play_resign()) that every such
 * change answers alike: no such seat, a finished game, a lost race (with `version`), a
 * stopping server, a store failure (`status`). 1 when answered; 0 for the outcomes the
 * caller words itself (done, a bot seat, unchanged, the allowance spent, a substitute's). */
int handlers_seat_change_failed(struct http_request *request, enum play_away outcome, long version,
				enum store_status status);

/* handlers_messages.c: table talk */
void handle_post_message(struct http_request *request);
void handle_get_messages(struct http_request *request);

/* handlers_board.c: the board as a picture; /board with an image Accept type */
void handle_get_board_svg(struct http_request *request);
void handle_get_board_png(struct http_request *request);
void handle_get_board_negotiated(struct http_request *request);

/* handlers_moves.c */
void handle_post_move(struct http_request *request);
void handle_get_moves(struct http_request *request);
void handle_get_stream(struct http_request *request);
/* The note that the game waits for the session's seat, {type: "your_turn", version, seat,
 * actions: <the Actions body>}, when the game stands at `version` and waits for that
 * seat; else NULL (see handlers_moves.c). Brings session->game.state up to date. New
 * reference. */
json_t *handlers_your_turn_json(struct session *session, int32_t version);

/* handlers_feed.c: the player's feed, by long-poll and as a stream */
void handle_get_feed(struct http_request *request);
void handle_get_feed_stream(struct http_request *request);

/* handlers_trades.c */
void handle_post_trade(struct http_request *request);
void handle_get_trades(struct http_request *request);
void handle_accept_trade(struct http_request *request);
void handle_decline_trade(struct http_request *request);
void handle_confirm_trade(struct http_request *request);
void handle_withdraw_trade(struct http_request *request);

/* handlers_webhooks.c */
void handle_post_webhook(struct http_request *request);
void handle_get_webhooks(struct http_request *request);
void handle_delete_webhook(struct http_request *request);
void handle_rotate_webhook_secret(struct http_request *request);
void handle_get_webhook_deliveries(struct http_request *request);

/* handlers_mail.c: a seat's mail address (.../mail), or a player's for all the player's
 * seats (/v1/players/me/mail: the same handlers, told apart by the route), and the links
 * of the mails (deliver/mail_message.h) */
void handle_post_mail(struct http_request *request);
void handle_get_mail(struct http_request *request);
void handle_delete_mail(struct http_request *request);
void handle_mail_confirm(struct http_request *request);
void handle_mail_unsubscribe_page(struct http_request *request);
void handle_mail_unsubscribe(struct http_request *request);

/* handlers_system.c */
void handle_healthz(struct http_request *request);
void handle_readyz(struct http_request *request);
void handle_metrics(struct http_request *request);

/* web.c: GET / answers the web client's index.html, GET /web/:file its other files (404
 * route_not_found for a name it does not have). */
void handle_web_index(struct http_request *request);
void handle_web_file(struct http_request *request);
void handle_openapi(struct http_request *request);
/* web.c too: GET /docs answers the API reference's page, GET /docs/:file its other files;
 * GET /redoc and /swagger answer 301 to /docs. */
void handle_docs_index(struct http_request *request);
void handle_docs_file(struct http_request *request);
void handle_docs_redirect(struct http_request *request);

#endif
