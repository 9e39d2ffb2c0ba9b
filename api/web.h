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

#define WEB_CSP                                                                                               \
	"default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; " \
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

/* The API reference's policy (the files of openapi/docs, served at /docs): Redoc's script
 * and its start from this origin, the contract fetched from this origin (/openapi.json),
 * and the two things Redoc cannot do without, on these answers only: styles it inserts
 * itself (styled-components writes <style> elements and React sets style attributes) and
 * its search index, run in a worker it makes from a blob: URL. Nothing else: no inline
 * script, no eval, no other origin. web/tests/docs.mjs checks in a browser that the page
 * renders with no violation of it. */
#define DOCS_CSP                                                                                          \
	"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " \
	"connect-src 'self'; worker-src blob:; object-src 'none'; base-uri 'none'; form-action 'none'; "  \
	"frame-ancestors 'none'"

/* One embedded file (defined by the generated build/gen/web_files.c): its name in
 * web/dist (no folder), its bytes and their number. Static storage. */
struct web_file {
	const char *name;
	const char *bytes;
	size_t length;
};

extern const struct web_file web_files[];
extern const int web_file_count;

/* The API reference's files (build/gen/docs_files.c, from openapi/docs). */
extern const struct web_file docs_files[];
extern const int docs_file_count;

/* The content type of a file name by its extension ("text/javascript; charset=utf-8" for
 * .js ...); "application/octet-stream" for an unknown one. */
const char *web_content_type(const char *name);

/* The embedded file of the web client called `name`, or NULL. */
const struct web_file *web_find(const char *name);

#endif
