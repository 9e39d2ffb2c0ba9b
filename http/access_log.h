/*
 * access_log.h - one JSON object per finished request on stderr (the server's own lines:
 * base/log.h).
 */
#ifndef CATAN_HTTP_ACCESS_LOG_H
#define CATAN_HTTP_ACCESS_LOG_H

#include <stddef.h>

/* What the line of one finished request says; every string borrowed for the call. */
struct access_log_line {
	const char *request_id;
	const char *method;
	const char *path; /* the client's bytes, without the query string */
	int status;
	double seconds;
	const char *ip;	   /* the client (http/client.h) */
	const char *via;   /* the trusted proxy it came through, "" none */
	size_t bytes;	   /* of the answer */
	const char *route; /* the pattern matched, NULL none */
	const char *game;  /* the game it was about, "" none */
	int seat;	   /* the seat it acted as: -1 none, -2 the game's admin */
	const char *code;  /* the problem answered, NULL none */
	int aborted;	   /* the connection ended early */
};

/* Write the line. */
void access_log_write(const struct access_log_line *line);

#endif
