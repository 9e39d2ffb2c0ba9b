/*
 * web.c - serving the embedded web client (api/web.h).
 *
 * The client is a handful of small text files, compiled into the binary the way the OpenAPI
 * document is, so a server is one file to deploy and always serves the client that was
 * built and tested with it. Nothing here reads the disk.
 *
 * Caching: every file is answered with `Cache-Control: no-cache` and a strong ETag, the
 * FNV-1a hash of its bytes (computed once, on first use). A browser keeps the files and asks
 * again each time with If-None-Match, which costs a 304 without a body: the file names are
 * fixed (the modules import each other by name), so a long max-age could pair an old
 * module with a new page after an upgrade. The answers are the same for every caller, so
 * public caches may keep them too.
 *
 * Security: the client's own Content-Security-Policy (WEB_CSP) replaces the API's
 * "allow nothing" one on these answers only. The page loads scripts and styles from this
 * origin alone and talks only to this origin; the build (web/build.mjs) and the browser
 * tests check that no inline script, inline style or style attribute is needed.
 *
 * The API reference (issue 23, item 4) is a second site of the same kind: the files of
 * openapi/docs (Redoc's standalone bundle, pinned in openapi/package-lock.json, and the
 * page that starts it on /openapi.json), served at /docs and /docs/<file> under their own
 * policy (DOCS_CSP: Redoc needs inline styles and a blob: worker, allowed there only).
 * /redoc and /swagger, where people look for it, answer 301 to /docs.
 */
#include "api/web.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api/handlers.h"

static const struct {
	const char *extension;
	const char *type;
} content_types[] = {
	{".html", "text/html; charset=utf-8"},	      {".js", "text/javascript; charset=utf-8"},
	{".css", "text/css; charset=utf-8"},	      {".svg", "image/svg+xml"},
	{".json", "application/json; charset=utf-8"}, {".txt", "text/plain; charset=utf-8"},
};

const char *web_content_type(const char *name)
{
	size_t length = strlen(name);
	for (size_t i = 0; i < sizeof content_types / sizeof content_types[0]; i++) {
		size_t extension = strlen(content_types[i].extension);
		if (length > extension && strcmp(name + length - extension, content_types[i].extension) == 0)
			return content_types[i].type;
	}
	return "application/octet-stream";
}

/* One site of embedded files: the files, their policy and their ETags (made once). */
#define WEB_MAX_FILES 64
struct site {
	const struct web_file *files;
	const int *count;
	const char *policy;
	char etags[WEB_MAX_FILES][24];
	pthread_once_t once;
};

static struct site web_site = {web_files, &web_file_count, WEB_CSP, {{0}}, PTHREAD_ONCE_INIT};
static struct site docs_site = {docs_files, &docs_file_count, DOCS_CSP, {{0}}, PTHREAD_ONCE_INIT};

static const struct web_file *site_find(const struct site *site, const char *name)
{
	for (int i = 0; i < *site->count; i++)
		if (strcmp(site->files[i].name, name) == 0)
			return &site->files[i];
	return NULL;
}

const struct web_file *web_find(const char *name)
{
	return site_find(&web_site, name);
}

static void make_etags(struct site *site)
{
	for (int i = 0; i < *site->count && i < WEB_MAX_FILES; i++) {
		uint64_t hash = UINT64_C(0xcbf29ce484222325);
		for (size_t k = 0; k < site->files[i].length; k++)
			hash = (hash ^ (unsigned char)site->files[i].bytes[k]) * UINT64_C(0x100000001b3);
		snprintf(site->etags[i], sizeof site->etags[i], "\"%016llx\"", (unsigned long long)hash);
	}
}

static void make_web_etags(void)
{
	make_etags(&web_site);
}

static void make_docs_etags(void)
{
	make_etags(&docs_site);
}

static void serve(struct http_request *request, struct site *site, const char *name)
{
	const struct web_file *file = site_find(site, name);
	int index = file ? (int)(file - site->files) : -1;
	if (index < 0 || index >= WEB_MAX_FILES) {
		http_respond_problem(request, PROBLEM_ROUTE_NOT_FOUND, NULL, NULL, -1);
		return;
	}
	pthread_once(&site->once, site == &web_site ? make_web_etags : make_docs_etags);
	http_add_header(request, "Content-Security-Policy", site->policy);
	http_add_header(request, "Cache-Control", "no-cache");
	http_respond_bytes(request, 200, web_content_type(file->name), file->bytes, file->length, site->etags[index]);
}

void handle_web_index(struct http_request *request)
{
	serve(request, &web_site, "index.html");
}

void handle_web_file(struct http_request *request)
{
	serve(request, &web_site, request->params[0]);
}

void handle_docs_index(struct http_request *request)
{
	serve(request, &docs_site, "index.html");
}

void handle_docs_file(struct http_request *request)
{
	serve(request, &docs_site, request->params[0]);
}

void handle_docs_redirect(struct http_request *request)
{
	http_add_header(request, "Location", "/docs");
	http_add_header(request, "Cache-Control", "max-age=86400");
	http_respond_empty(request, 301);
}
