/*
 * handlers_system.c - liveness, readiness, metrics and the OpenAPI document.
 */
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/openapi_json.h"
#include "api/service.h"
#include "http/metrics.h"

void handle_healthz(struct http_request *request)
{
	http_respond_json(request, 200, json_pack("{s:s}", "status", "ok"), -1);
}

/* Ready when the database answers: any answer about a game that cannot exist will do. */
void handle_readyz(struct http_request *request)
{
	if (play_database_ready()) {
		http_respond_json(request, 200, json_pack("{s:s}", "status", "ready"), -1);
		return;
	}
	http_add_header(request, "Retry-After", "1");
	http_respond_problem(request, PROBLEM_DATABASE_UNAVAILABLE, "the database does not answer", NULL, -1);
}

void handle_metrics(struct http_request *request)
{
	char *text = metrics_render();
	http_respond_raw(request, 200, "text/plain; version=0.0.4; charset=utf-8", text, strlen(text));
	free(text);
}

void handle_openapi(struct http_request *request)
{
	http_respond_raw(request, 200, "application/json; charset=utf-8", openapi_json, openapi_json_length);
}
