/*
 * routes.c - the table of every resource of API.md: method, pattern, handler, who may
 * call it, whether a token may come in the URL, and the largest body it takes. The HTTP
 * server (http/router.h) matches requests against it; nothing else holds a route.
 */
#include "api/routes.h"

#include "api/handlers.h"

static const struct route route_table[] = {
	{HTTP_POST, "/v1/games", handle_create_game, ROUTE_NO_GAME, 0, 0},
	{HTTP_POST, ROUTES_IMPORT_PATH, handle_import_game, ROUTE_NO_GAME, 0, ROUTES_IMPORT_BODY_LIMIT},
	{HTTP_GET, "/v1/games/:game", handle_get_game, ROUTE_ANYONE, 0, 0},
	{HTTP_GET, "/v1/games/:game/board", handle_get_board_negotiated, ROUTE_ANYONE, 0, 0},
	{HTTP_GET, "/v1/games/:game/board.svg", handle_get_board_svg, ROUTE_ANYONE, 0, 0},
	{HTTP_GET, "/v1/games/:game/board.png", handle_get_board_png, ROUTE_ANYONE, 0, 0},
	{HTTP_GET, "/v1/games/:game/actions", handle_get_actions, ROUTE_ANYONE, 0, 0},
	{HTTP_POST, "/v1/games/:game/moves", handle_post_move, ROUTE_SEAT, 0, 0},
	{HTTP_GET, "/v1/games/:game/moves", handle_get_moves, ROUTE_ANYONE, 0, 0},
	{HTTP_GET, "/v1/games/:game/stream", handle_get_stream, ROUTE_ANYONE, 1, 0},
	{HTTP_GET, "/v1/games/:game/players", handle_get_players, ROUTE_ANYONE, 0, 0},
	{HTTP_GET, "/v1/games/:game/export", handle_export_game, ROUTE_ANYONE, 0, 0},
	{HTTP_GET, "/v1/games/:game/summary", handle_get_summary, ROUTE_ANYONE, 0, 0},
	{HTTP_POST, "/v1/games/:game/messages", handle_post_message, ROUTE_SEAT, 0, 0},
	{HTTP_GET, "/v1/games/:game/messages", handle_get_messages, ROUTE_ANYONE, 0, 0},
	{HTTP_POST, "/v1/games/:game/trades", handle_post_trade, ROUTE_SEAT, 0, 0},
	{HTTP_GET, "/v1/games/:game/trades", handle_get_trades, ROUTE_ANYONE, 0, 0},
	{HTTP_POST, "/v1/games/:game/trades/:trade/accept", handle_accept_trade, ROUTE_SEAT, 0, 0},
	{HTTP_POST, "/v1/games/:game/trades/:trade/decline", handle_decline_trade, ROUTE_SEAT, 0, 0},
	{HTTP_POST, "/v1/games/:game/trades/:trade/confirm", handle_confirm_trade, ROUTE_SEAT, 0, 0},
	{HTTP_DELETE, "/v1/games/:game/trades/:trade", handle_withdraw_trade, ROUTE_SEAT, 0, 0},
	{HTTP_POST, "/v1/games/:game/webhooks", handle_post_webhook, ROUTE_SEAT_OR_ADMIN, 0, 0},
	{HTTP_GET, "/v1/games/:game/webhooks", handle_get_webhooks, ROUTE_SEAT_OR_ADMIN, 0, 0},
	{HTTP_DELETE, "/v1/games/:game/webhooks/:webhook", handle_delete_webhook, ROUTE_SEAT_OR_ADMIN, 0, 0},
	{HTTP_GET, "/v1/games/:game/webhooks/:webhook/deliveries", handle_get_webhook_deliveries, ROUTE_SEAT_OR_ADMIN,
	 0, 0},
	{HTTP_POST, "/v1/games/:game/webhooks/:webhook/secret", handle_rotate_webhook_secret, ROUTE_SEAT_OR_ADMIN, 0,
	 0},
	{HTTP_POST, "/v1/games/:game/mail", handle_post_mail, ROUTE_SEAT, 0, 0},
	{HTTP_GET, "/v1/games/:game/mail", handle_get_mail, ROUTE_SEAT, 0, 0},
	{HTTP_DELETE, "/v1/games/:game/mail", handle_delete_mail, ROUTE_SEAT, 0, 0},
	{HTTP_GET, "/v1/mail/confirm", handle_mail_confirm, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/mail/unsubscribe", handle_mail_unsubscribe_page, ROUTE_NO_GAME, 0, 0},
	{HTTP_POST, "/v1/mail/unsubscribe", handle_mail_unsubscribe, ROUTE_NO_GAME, 0, 0},
	{HTTP_POST, "/v1/players/me/mail", handle_post_mail, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/me/mail", handle_get_mail, ROUTE_NO_GAME, 0, 0},
	{HTTP_DELETE, "/v1/players/me/mail", handle_delete_mail, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/games", handle_get_lobby, ROUTE_NO_GAME, 0, 0},
	{HTTP_POST, "/v1/games/:game/join", handle_join_game, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/games/:game/seats", handle_get_seats, ROUTE_ANYONE, 0, 0},
	{HTTP_DELETE, "/v1/games/:game/seats/:seat", handle_remove_seat, ROUTE_NO_GAME, 0, 0},
	{HTTP_POST, "/v1/games/:game/seats/:seat/bot", handle_seat_bot, ROUTE_NO_GAME, 0, 0},
	{HTTP_POST, "/v1/games/:game/seats/:seat/away", handle_seat_away, ROUTE_SEAT, 0, 0},
	{HTTP_DELETE, "/v1/games/:game/seats/:seat/away", handle_seat_back, ROUTE_SEAT, 0, 0},
	{HTTP_POST, "/v1/games/:game/seats/:seat/token", handle_replace_seat_token, ROUTE_SEAT, 0, 0},
	{HTTP_POST, "/v1/players", handle_create_player, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/me/games", handle_get_my_games, ROUTE_NO_GAME, 0, 0},
	{HTTP_POST, "/v1/players/me/token", handle_replace_player_token, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/me/feed", handle_get_feed, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/me/stream", handle_get_feed_stream, ROUTE_NO_GAME, 1, 0},
	{HTTP_POST, "/v1/players/me/webhooks", handle_post_player_webhook, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/me/webhooks", handle_get_player_webhooks, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/me/webhooks/:webhook", handle_get_player_webhook, ROUTE_NO_GAME, 0, 0},
	{HTTP_DELETE, "/v1/players/me/webhooks/:webhook", handle_delete_player_webhook, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/me/webhooks/:webhook/deliveries", handle_get_player_webhook_deliveries, ROUTE_NO_GAME,
	 0, 0},
	{HTTP_POST, "/v1/players/me/webhooks/:webhook/secret", handle_rotate_player_webhook_secret, ROUTE_NO_GAME, 0,
	 0},
	{HTTP_GET, "/healthz", handle_healthz, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/readyz", handle_readyz, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/metrics", handle_metrics, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/openapi.json", handle_openapi, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/", handle_web_index, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/web/:file", handle_web_file, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/docs", handle_docs_index, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/docs/:file", handle_docs_file, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/redoc", handle_docs_redirect, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/swagger", handle_docs_redirect, ROUTE_NO_GAME, 0, 0},
	/* Issue 28 (api/handlers_ratings.c), last: the probe's draws for the routes above stay as they were. */
	{HTTP_POST, "/v1/games/:game/seats/:seat/resign", handle_resign, ROUTE_SEAT, 0, 0},
	{HTTP_POST, "/v1/games/:game/rematch", handle_rematch, ROUTE_SEAT_OR_ADMIN, 0, 0},
	{HTTP_DELETE, "/v1/players/me", handle_delete_player, ROUTE_NO_GAME, 0, 0},
	{HTTP_GET, "/v1/players/:player", handle_get_player, ROUTE_NO_GAME, 0, 0},
	/* Issue 28, substitutes (api/handlers_substitutes.c). */
	{HTTP_POST, "/v1/games/:game/seats/:seat/release", handle_release_seat, ROUTE_SEAT, 0, 0},
	{HTTP_POST, "/v1/games/:game/seats/:seat/substitute", handle_invite_substitute, ROUTE_SEAT_OR_ADMIN, 0, 0},
	/* Issue 28, correspondence clocks (api/handlers_clocks.c). */
	{HTTP_PUT, "/v1/games/:game/seats/:seat/quiet_hours", handle_put_quiet_hours, ROUTE_SEAT, 0, 0},
	{HTTP_DELETE, "/v1/games/:game/seats/:seat/quiet_hours", handle_delete_quiet_hours, ROUTE_SEAT, 0, 0},
	/* Issue 26, players' seeds (api/handlers_fairness.c). */
	{HTTP_PUT, "/v1/games/:game/seats/:seat/player_seed", handle_put_player_seed, ROUTE_SEAT, 0, 0},
};

#define ROUTE_COUNT ((int)(sizeof route_table / sizeof route_table[0]))

static const struct router router = {route_table, ROUTE_COUNT};

const struct router *routes(void)
{
	return &router;
}
