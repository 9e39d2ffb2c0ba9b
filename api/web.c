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
	{".html", "text/html; charset=utf-8"},
	{".js", "text/javascript; charset=utf-8"},
	{".css", "text/css; charset=utf-8"},
	{".svg", "image/svg+xml"},
	{".json", "application/json; charset=utf-8"},
	{".txt", "text/plain; charset=utf-8"},
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

const struct web_file *web_find(const char *name)
{
	for (int i = 0; i < web_file_count; i++)
		if (strcmp(web_files[i].name, name) == 0)
			return &web_files[i];
	return NULL;
}

/* The ETags, by index in web_files, made once. */
#define WEB_MAX_FILES 64
static char etags[WEB_MAX_FILES][24];
static pthread_once_t etags_once = PTHREAD_ONCE_INIT;

static void make_etags(void)
{
	for (int i = 0; i < web_file_count && i < WEB_MAX_FILES; i++) {
		uint64_t hash = UINT64_C(0xcbf29ce484222325);
		for (size_t k = 0; k < web_files[i].length; k++)
			hash = (hash ^ (unsigned char)web_files[i].bytes[k]) * UINT64_C(0x100000001b3);
		snprintf(etags[i], sizeof etags[i], "\"%016llx\"", (unsigned long long)hash);
	}
}

static void serve(struct http_request *request, const struct web_file *file)
{
	int index = file ? (int)(file - web_files) : -1;
	if (index < 0 || index >= WEB_MAX_FILES) {
		http_respond_problem(request, PROBLEM_ROUTE_NOT_FOUND, NULL, NULL, -1);
		return;
	}
	pthread_once(&etags_once, make_etags);
	http_add_header(request, "Content-Security-Policy", WEB_CSP);
	http_add_header(request, "Cache-Control", "no-cache");
	http_respond_bytes(request, 200, web_content_type(file->name), file->bytes, file->length, etags[index]);
}

void handle_web_index(struct http_request *request)
{
	serve(request, web_find("index.html"));
}

void handle_web_file(struct http_request *request)
{
	serve(request, web_find(request->params[0]));
}
