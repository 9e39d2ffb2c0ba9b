/*
 * routes.c - the table of every resource of API.md and a small segment matcher.
 */
#include "api/routes.h"

#include <stdio.h>
#include <string.h>

#include "api/handlers.h"
#include "base/xalloc.h"

static const struct route route_table[] = {
	{HTTP_POST, "/v1/games", handle_create_game, ROUTE_NO_GAME, 0},
	{HTTP_POST, HTTP_IMPORT_PATH, handle_import_game, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/games/:game", handle_get_game, ROUTE_ANYONE, 0},
	{HTTP_GET, "/v1/games/:game/board", handle_get_board_negotiated, ROUTE_ANYONE, 0},
	{HTTP_GET, "/v1/games/:game/board.svg", handle_get_board_svg, ROUTE_ANYONE, 0},
	{HTTP_GET, "/v1/games/:game/board.png", handle_get_board_png, ROUTE_ANYONE, 0},
	{HTTP_GET, "/v1/games/:game/actions", handle_get_actions, ROUTE_ANYONE, 0},
	{HTTP_POST, "/v1/games/:game/moves", handle_post_move, ROUTE_SEAT, 0},
	{HTTP_GET, "/v1/games/:game/moves", handle_get_moves, ROUTE_ANYONE, 0},
	{HTTP_GET, "/v1/games/:game/stream", handle_get_stream, ROUTE_ANYONE, 1},
	{HTTP_GET, "/v1/games/:game/players", handle_get_players, ROUTE_ANYONE, 0},
	{HTTP_GET, "/v1/games/:game/export", handle_export_game, ROUTE_ANYONE, 0},
	{HTTP_POST, "/v1/games/:game/messages", handle_post_message, ROUTE_SEAT, 0},
	{HTTP_GET, "/v1/games/:game/messages", handle_get_messages, ROUTE_ANYONE, 0},
	{HTTP_POST, "/v1/games/:game/trades", handle_post_trade, ROUTE_SEAT, 0},
	{HTTP_GET, "/v1/games/:game/trades", handle_get_trades, ROUTE_ANYONE, 0},
	{HTTP_POST, "/v1/games/:game/trades/:trade/accept", handle_accept_trade, ROUTE_SEAT, 0},
	{HTTP_POST, "/v1/games/:game/trades/:trade/decline", handle_decline_trade, ROUTE_SEAT, 0},
	{HTTP_POST, "/v1/games/:game/trades/:trade/confirm", handle_confirm_trade, ROUTE_SEAT, 0},
	{HTTP_DELETE, "/v1/games/:game/trades/:trade", handle_withdraw_trade, ROUTE_SEAT, 0},
	{HTTP_POST, "/v1/games/:game/webhooks", handle_post_webhook, ROUTE_SEAT_OR_ADMIN, 0},
	{HTTP_GET, "/v1/games/:game/webhooks", handle_get_webhooks, ROUTE_SEAT_OR_ADMIN, 0},
	{HTTP_DELETE, "/v1/games/:game/webhooks/:webhook", handle_delete_webhook, ROUTE_SEAT_OR_ADMIN, 0},
	{HTTP_GET, "/v1/games/:game/webhooks/:webhook/deliveries", handle_get_webhook_deliveries, ROUTE_SEAT_OR_ADMIN, 0},
	{HTTP_POST, "/v1/games/:game/mail", handle_post_mail, ROUTE_SEAT, 0},
	{HTTP_GET, "/v1/games/:game/mail", handle_get_mail, ROUTE_SEAT, 0},
	{HTTP_DELETE, "/v1/games/:game/mail", handle_delete_mail, ROUTE_SEAT, 0},
	{HTTP_GET, "/v1/mail/confirm", handle_mail_confirm, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/mail/unsubscribe", handle_mail_unsubscribe_page, ROUTE_NO_GAME, 0},
	{HTTP_POST, "/v1/mail/unsubscribe", handle_mail_unsubscribe, ROUTE_NO_GAME, 0},
	{HTTP_POST, "/v1/players/me/mail", handle_post_player_mail, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/players/me/mail", handle_get_player_mail, ROUTE_NO_GAME, 0},
	{HTTP_DELETE, "/v1/players/me/mail", handle_delete_player_mail, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/games", handle_get_lobby, ROUTE_NO_GAME, 0},
	{HTTP_POST, "/v1/games/:game/join", handle_join_game, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/games/:game/seats", handle_get_seats, ROUTE_ANYONE, 0},
	{HTTP_DELETE, "/v1/games/:game/seats/:seat", handle_remove_seat, ROUTE_NO_GAME, 0},
	{HTTP_POST, "/v1/games/:game/seats/:seat/bot", handle_seat_bot, ROUTE_NO_GAME, 0},
	{HTTP_POST, "/v1/games/:game/seats/:seat/away", handle_seat_away, ROUTE_SEAT, 0},
	{HTTP_DELETE, "/v1/games/:game/seats/:seat/away", handle_seat_back, ROUTE_SEAT, 0},
	{HTTP_POST, "/v1/players", handle_create_player, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/players/me/games", handle_get_my_games, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/players/me/feed", handle_get_feed, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/players/me/stream", handle_get_feed_stream, ROUTE_NO_GAME, 1},
	{HTTP_POST, "/v1/players/me/webhooks", handle_post_player_webhook, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/players/me/webhooks", handle_get_player_webhooks, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/players/me/webhooks/:webhook", handle_get_player_webhook, ROUTE_NO_GAME, 0},
	{HTTP_DELETE, "/v1/players/me/webhooks/:webhook", handle_delete_player_webhook, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/v1/players/me/webhooks/:webhook/deliveries", handle_get_player_webhook_deliveries, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/healthz", handle_healthz, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/readyz", handle_readyz, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/metrics", handle_metrics, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/openapi.json", handle_openapi, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/", handle_web_index, ROUTE_NO_GAME, 0},
	{HTTP_GET, "/web/:file", handle_web_file, ROUTE_NO_GAME, 0},
};

#define ROUTE_COUNT ((int)(sizeof route_table / sizeof route_table[0]))

/* Match `path` against `pattern`; on success store the captures (owned copies). */
static int match(const char *pattern, const char *path, char *params[HTTP_MAX_PARAMS])
{
	char *captured[HTTP_MAX_PARAMS] = {NULL};
	int count = 0;
	const char *p = pattern, *s = path;
	while (*p && *s) {
		if (*p != '/' || *s != '/')
			goto fail;
		p++;
		s++;
		const char *p_end = strchr(p, '/');
		const char *s_end = strchr(s, '/');
		size_t p_length = p_end ? (size_t)(p_end - p) : strlen(p);
		size_t s_length = s_end ? (size_t)(s_end - s) : strlen(s);
		if (*p == ':') {
			if (s_length == 0 || s_length > 64 || count >= HTTP_MAX_PARAMS)
				goto fail;
			captured[count++] = xstrndup(s, s_length);
		} else if (p_length != s_length || strncmp(p, s, p_length) != 0) {
			goto fail;
		}
		p += p_length;
		s += s_length;
	}
	if (*p || *s)
		goto fail;
	for (int i = 0; i < HTTP_MAX_PARAMS; i++)
		params[i] = captured[i];
	return 1;
fail:
	for (int i = 0; i < count; i++)
		free(captured[i]);
	return 0;
}

const struct route *routes_match(enum http_method method, const char *path, char *params[HTTP_MAX_PARAMS],
				 unsigned *allowed)
{
	enum http_method wanted = method == HTTP_HEAD ? HTTP_GET : method;
	*allowed = 0;
	for (int i = 0; i < ROUTE_COUNT; i++) {
		char *scratch[HTTP_MAX_PARAMS] = {NULL};
		if (!match(route_table[i].pattern, path, scratch))
			continue;
		if (route_table[i].method == wanted) {
			for (int k = 0; k < HTTP_MAX_PARAMS; k++)
				params[k] = scratch[k];
			return &route_table[i];
		}
		*allowed |= 1u << route_table[i].method;
		if (route_table[i].method == HTTP_GET)
			*allowed |= 1u << HTTP_HEAD;
		for (int k = 0; k < HTTP_MAX_PARAMS; k++)
			free(scratch[k]);
	}
	return NULL;
}

static const char *const method_names[HTTP_OTHER] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};

const char *routes_method_name(enum http_method method)
{
	return (unsigned)method < HTTP_OTHER ? method_names[method] : "";
}

enum http_method routes_method_of(const char *name)
{
	for (int m = 0; m < HTTP_OTHER; m++)
		if (strcmp(method_names[m], name) == 0)
			return (enum http_method)m;
	return HTTP_OTHER;
}

void routes_allow_header(unsigned allowed, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (int m = 0; m < HTTP_OTHER; m++) {
		if (!(allowed >> m & 1u))
			continue;
		int written = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
				       routes_method_name((enum http_method)m));
		if (written < 0 || (size_t)written >= size - used)
			break;
		used += (size_t)written;
	}
}

int routes_count(void)
{
	return ROUTE_COUNT;
}

const struct route *routes_at(int index)
{
	return index >= 0 && index < ROUTE_COUNT ? &route_table[index] : NULL;
}

int routes_index(const struct route *route)
{
	return route ? (int)(route - route_table) : -1;
}
