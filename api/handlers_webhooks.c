/*
 * handlers_webhooks.c - webhook registrations (see api/webhooks.h for delivery).
 */
#include "api/handlers.h"
#include "api/service.h"

void handle_post_webhook(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session, SERVICE_SEAT_OR_ADMIN))
		return;
	http_respond_problem(request, PROBLEM_ROUTE_NOT_FOUND, "webhooks are not available yet", NULL, -1);
}

void handle_get_webhooks(struct http_request *request)
{
	handle_post_webhook(request);
}

void handle_delete_webhook(struct http_request *request)
{
	handle_post_webhook(request);
}
