/*
 * access_log.h - one JSON object per finished request on stderr (the server's own lines:
 * base/log.h).
 */
#ifndef CATAN_HTTP_ACCESS_LOG_H
#define CATAN_HTTP_ACCESS_LOG_H

#include "http/http.h"

/* Write the line for a finished request; `aborted` when the connection ended early. */
void access_log_write(const struct http_request *request, double seconds, int aborted);

#endif
