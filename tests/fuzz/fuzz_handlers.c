/*
 * fuzz_handlers.c - handlers that do nothing, so api/routes.c (whose table names every
 * handler of api/handlers.h) links into the request path's fuzz target without the
 * service, the store and libmicrohttpd behind the real ones.
 */
#include "api/handlers.h"

void handle_create_game(struct http_request *request)
{
	(void)request;
}

void handle_get_game(struct http_request *request)
{
	(void)request;
}

void handle_get_board(struct http_request *request)
{
	(void)request;
}

void handle_get_board_svg(struct http_request *request)
{
	(void)request;
}

void handle_get_board_png(struct http_request *request)
{
	(void)request;
}

void handle_get_board_negotiated(struct http_request *request)
{
	(void)request;
}

void handle_get_players(struct http_request *request)
{
	(void)request;
}

void handle_get_actions(struct http_request *request)
{
	(void)request;
}

void handle_post_move(struct http_request *request)
{
	(void)request;
}

void handle_get_moves(struct http_request *request)
{
	(void)request;
}

void handle_get_stream(struct http_request *request)
{
	(void)request;
}

void handle_post_trade(struct http_request *request)
{
	(void)request;
}

void handle_get_trades(struct http_request *request)
{
	(void)request;
}

void handle_accept_trade(struct http_request *request)
{
	(void)request;
}

void handle_decline_trade(struct http_request *request)
{
	(void)request;
}

void handle_confirm_trade(struct http_request *request)
{
	(void)request;
}

void handle_withdraw_trade(struct http_request *request)
{
	(void)request;
}

void handle_post_webhook(struct http_request *request)
{
	(void)request;
}

void handle_get_webhooks(struct http_request *request)
{
	(void)request;
}

void handle_delete_webhook(struct http_request *request)
{
	(void)request;
}

void handle_rotate_webhook_secret(struct http_request *request)
{
	(void)request;
}

void handle_rotate_player_webhook_secret(struct http_request *request)
{
	(void)request;
}

void handle_post_mail(struct http_request *request)
{
	(void)request;
}

void handle_get_mail(struct http_request *request)
{
	(void)request;
}

void handle_delete_mail(struct http_request *request)
{
	(void)request;
}

void handle_mail_confirm(struct http_request *request)
{
	(void)request;
}

void handle_mail_unsubscribe_page(struct http_request *request)
{
	(void)request;
}

void handle_mail_unsubscribe(struct http_request *request)
{
	(void)request;
}

void handle_get_webhook_deliveries(struct http_request *request)
{
	(void)request;
}

void handle_healthz(struct http_request *request)
{
	(void)request;
}

void handle_readyz(struct http_request *request)
{
	(void)request;
}

void handle_metrics(struct http_request *request)
{
	(void)request;
}

void handle_openapi(struct http_request *request)
{
	(void)request;
}

void handle_web_index(struct http_request *request)
{
	(void)request;
}

void handle_web_file(struct http_request *request)
{
	(void)request;
}

void handle_docs_index(struct http_request *request)
{
	(void)request;
}

void handle_docs_file(struct http_request *request)
{
	(void)request;
}

void handle_docs_redirect(struct http_request *request)
{
	(void)request;
}

void handle_create_player(struct http_request *request)
{
	(void)request;
}

void handle_export_game(struct http_request *request)
{
	(void)request;
}

void handle_get_lobby(struct http_request *request)
{
	(void)request;
}

void handle_get_messages(struct http_request *request)
{
	(void)request;
}

void handle_get_my_games(struct http_request *request)
{
	(void)request;
}

void handle_get_feed(struct http_request *request)
{
	(void)request;
}

void handle_get_feed_stream(struct http_request *request)
{
	(void)request;
}

void handle_get_seats(struct http_request *request)
{
	(void)request;
}

void handle_import_game(struct http_request *request)
{
	(void)request;
}

void handle_join_game(struct http_request *request)
{
	(void)request;
}

void handle_post_message(struct http_request *request)
{
	(void)request;
}

void handle_remove_seat(struct http_request *request)
{
	(void)request;
}

void handle_seat_bot(struct http_request *request)
{
	(void)request;
}

void handle_post_player_webhook(struct http_request *request)
{
	(void)request;
}

void handle_get_player_webhooks(struct http_request *request)
{
	(void)request;
}

void handle_get_player_webhook(struct http_request *request)
{
	(void)request;
}

void handle_delete_player_webhook(struct http_request *request)
{
	(void)request;
}

void handle_get_player_webhook_deliveries(struct http_request *request)
{
	(void)request;
}

void handle_seat_away(struct http_request *request)
{
	(void)request;
}

void handle_seat_back(struct http_request *request)
{
	(void)request;
}

void handle_get_player(struct http_request *request)
{
	(void)request;
}

void handle_resign(struct http_request *request)
{
	(void)request;
}

void handle_rematch(struct http_request *request)
{
	(void)request;
}

void handle_delete_player(struct http_request *request)
{
	(void)request;
}

void handle_release_seat(struct http_request *request)
{
	(void)request;
}

void handle_put_quiet_hours(struct http_request *request)
{
	(void)request;
}

void handle_invite_substitute(struct http_request *request)
{
	(void)request;
}

void handle_delete_quiet_hours(struct http_request *request)
{
	(void)request;
}

void handle_get_summary(struct http_request *request)
{
	(void)request;
}

void handle_replace_seat_token(struct http_request *request)
{
	(void)request;
}

void handle_replace_player_token(struct http_request *request)
{
	(void)request;
}

void handle_put_player_seed(struct http_request *request)
{
	(void)request;
}
