/*
 * web.h - the reference web client (web/dist), compiled into the server and served at `/`
 * (index.html) and `/web/<file>` (its modules, style sheet and icons).
 *
 * The files are the committed build of web/ (web/README.md): api/api.mk turns every file of
 * web/dist into C with scripts/embed_web.sh, so building the server needs no npm. The
 * handlers (api/handlers.h: handle_web_index, handle_web_file) are in api/web.c. Each
 * answer carries the file's content type, an ETag (a hash of its bytes; If-None-Match ->
 * 304), `Cache-Control: no-cache` (always revalidated: the names carry no hash, so a new
 * server's files are never mixed with an old one's) and the client's strict
 * Content-Security-Policy (WEB_CSP: scripts, styles and connections of this origin only,
 * nothing inline).
 */
#ifndef CATAN_API_WEB_H
#define CATAN_API_WEB_H

#include <stddef.h>

#define WEB_CSP                                                                                                   \
	"default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; "    \
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

/* One embedded file (defined by the generated build/gen/web_files.c): its name in
 * web/dist (no folder), its bytes and their number. Static storage. */
struct web_file {
	const char *name;
	const char *bytes;
	size_t length;
};

extern const struct web_file web_files[];
extern const int web_file_count;

/* The content type of a file name by its extension ("text/javascript; charset=utf-8" for
 * .js ...); "application/octet-stream" for an unknown one. */
const char *web_content_type(const char *name);

/* The embedded file called `name`, or NULL. */
const struct web_file *web_find(const char *name);

#endif
