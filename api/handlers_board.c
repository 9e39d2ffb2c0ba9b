/*
 * handlers_board.c - the board as a picture: GET /v1/games/{id}/board.svg, /board.png, and
 * /board with Accept: image/svg+xml or image/png (JSON stays the default there).
 *
 * A picture is public: every caller (no token, any seat, the admin) gets the same bytes,
 * drawn by render/ from the spectator's view of the game at a version, the seat names,
 * whose move the game waits for and the last events as a spectator sees them. Parameters:
 * version=N (the game as it stood after N events: 404 version_not_found beyond the log),
 * labels=nodes,edges,hexes (any subset), size (pixel width, 320..2048, default 1024) and
 * theme=light|dark; a bad one answers 400 naming it.
 *
 * Caching: a picture is fixed by (game, version, options), so its ETag is built from them
 * without drawing ("picture-<version>-<options>"), If-None-Match answers 304 before any
 * drawing, and a drawn picture goes into render/picture_cache.h for the next caller. A picture
 * of a named version never changes (Cache-Control: immutable); the current one is
 * revalidated (no-cache + ETag). The database is read first (state, the last events) and
 * released before drawing: rendering holds no transaction and no lock.
 *
 * Cost: size is bounded (320..2048) and a picture is drawn only in one of the server's
 * RENDER_CONCURRENCY drawing slots (render/render_slots.h), waited for at most RENDER_WAIT_MS;
 * when none comes free the answer is 503 render_busy with Retry-After: 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "codec/log.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "http/headers.h"
#include "render/picture_cache.h"
#include "render/render.h"
#include "render/render_slots.h"

/* Events read back to find the last move: a move adds at most a few consequences. */
#define RECENT_EVENTS 8

static const char *const content_types[2] = {"image/svg+xml", "image/png"};

/* The q value of one media range's parameters ("; q=0.5"), 1 when absent, -1 malformed. */
static double media_q(const char *params, size_t length)
{
	const char *at = params, *end = params + length;
	while (at < end) {
		while (at < end && (*at == ';' || *at == ' ' || *at == '\t'))
			at++;
		if (end - at >= 2 && (at[0] == 'q' || at[0] == 'Q') && at[1] == '=') {
			char number[8] = "";
			size_t n =
				(size_t)(end - at - 2) < sizeof number - 1 ? (size_t)(end - at - 2) : sizeof number - 1;
			memcpy(number, at + 2, n);
			char *stop;
			double q = strtod(number, &stop);
			return stop == number || q < 0 || q > 1 ? -1 : q;
		}
		while (at < end && *at != ';')
			at++;
	}
	return 1;
}

static int media_is(const char *range, size_t length, const char *type)
{
	return strlen(type) == length && strncasecmp(range, type, length) == 0;
}

/* Which picture an Accept header prefers to JSON: 1 with *format set, or 0 (JSON) when
 * JSON, a wildcard covering it, or nothing is preferred. Ties go to JSON, the default. */
static int accept_picture(const char *accept, enum render_format *format)
{
	if (!accept)
		return 0;
	double json = 0, svg = 0, png = 0;
	const char *at = accept;
	while (*at) {
		const char *comma = strchr(at, ',');
		size_t item = comma ? (size_t)(comma - at) : strlen(at);
		const char *start = at;
		while (start < at + item && (*start == ' ' || *start == '\t'))
			start++;
		const char *semicolon = memchr(start, ';', (size_t)(at + item - start));
		size_t range = (size_t)((semicolon ? semicolon : at + item) - start);
		while (range > 0 && (start[range - 1] == ' ' || start[range - 1] == '\t'))
			range--;
		double q = semicolon ? media_q(semicolon, (size_t)(at + item - semicolon)) : 1;
		if (q > 0) {
			if (media_is(start, range, "application/json") || media_is(start, range, "application/*") ||
			    media_is(start, range, "*/*"))
				json = q > json ? q : json;
			else if (media_is(start, range, "image/svg+xml"))
				svg = q > svg ? q : svg;
			else if (media_is(start, range, "image/png") || media_is(start, range, "image/*"))
				png = q > png ? q : png;
		}
		if (!comma)
			break;
		at = comma + 1;
	}
	if (svg <= json && png <= json)
		return 0;
	*format = svg > png ? RENDER_FORMAT_SVG : RENDER_FORMAT_PNG;
	return 1;
}

/* The options of the query string into *options and *version (0: the current one): 1, or
 * 0 with a 400 queued naming the parameter. */
static int read_options(struct http_request *request, struct render_options *options, long *version)
{
	*version = 0;
	if (http_query(request, "version")) {
		*version = http_query_integer(request, "version", 0, 1, INT32_MAX);
		if (*version < 0)
			return 0;
	}
	long size = http_query_integer(request, "size", RENDER_SIZE_DEFAULT, RENDER_SIZE_MIN, RENDER_SIZE_MAX);
	if (size < 0)
		return 0;
	options->size = (int)size;
	const char *theme = http_query(request, "theme");
	options->theme = RENDER_THEME_LIGHT;
	if (theme && !render_theme_parse(theme, &options->theme)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "theme must be light or dark", "theme", -1);
		return 0;
	}
	const char *labels = http_query(request, "labels");
	options->labels = 0;
	if (labels && !render_labels_parse(labels, &options->labels)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "labels must be a comma-separated subset of nodes, edges, hexes", "labels", -1);
		return 0;
	}
	return 1;
}

/* The last events up to `version` as a spectator sees them, oldest first. */
static int recent_events(int64_t game_id, int32_t version, struct event *out)
{
	int32_t after = version > RECENT_EVENTS ? version - RECENT_EVENTS : 0;
	struct store_log log;
	int count = 0;
	if (play_read_log(game_id, after, version - after, &log) != STORE_OK)
		return 0;
	for (int i = 0; i < log.count && count < RECENT_EVENTS; i++) {
		struct event event;
		struct codec_error error;
		if (codec_payload_parse(log.rows[i].type, log.rows[i].payload, log.rows[i].payload_size, &event,
					&error))
			view_event(&event, VIEW_SPECTATOR, &out[count++]);
	}
	store_log_free(&log);
	return count;
}

enum drawn { DRAWN, DRAW_FAILED, DRAW_BUSY };

/* Draw the picture of `state` (the game at that version) in one of the server's drawing
 * slots (render/render_slots.h): DRAWN with *bytes (caller frees), or DRAW_BUSY with a 503
 * queued when no slot came free in time, or DRAW_FAILED (nothing queued). */
static enum drawn draw(struct http_request *request, const struct game_record *game, const struct game *state,
		       const struct render_options *options, unsigned char **bytes, size_t *length)
{
	struct event recent[RECENT_EVENTS];
	int recent_count = recent_events(game->id, (int32_t)state->version, recent);
	/* Everything the renderer gets is public: a spectator's view, names, the waiting seats. */
	struct game_view view;
	view_game(state, VIEW_SPECTATOR, &view);
	struct render_scene scene = {.view = &view, .waiting_for = legal_waiting_for(state)};
	play_names(game, scene.names);
	render_last_move_of(recent, recent_count, &scene.last_move);
	enum render_slot slot = render_slots_acquire();
	if (slot != RENDER_SLOT_TAKEN) {
		http_add_header(request, "Retry-After", "1");
		http_respond_problem(request, PROBLEM_RENDER_BUSY,
				     slot == RENDER_SLOT_TIMED_OUT
					     ? "every drawing slot stayed busy: retry shortly (RENDER_CONCURRENCY)"
					     : "too many pictures are waiting to be drawn: retry shortly",
				     NULL, -1);
		return DRAW_BUSY;
	}
	int drawn = render_board(&scene, options, bytes, length);
	render_slots_release();
	return drawn ? DRAWN : DRAW_FAILED;
}

static void respond_picture(struct http_request *request, enum render_format format)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	struct render_options options = {.format = format};
	long version;
	if (!read_options(request, &options, &version))
		return;
	long current = (long)session.game.state.version;
	if (version > current) {
		char detail[96];
		snprintf(detail, sizeof detail, "the game is at version %ld", current);
		http_respond_problem(request, PROBLEM_VERSION_NOT_FOUND, detail, "version", current);
		return;
	}
	long at = version ? version : current;
	char etag[64];
	snprintf(etag, sizeof etag, "\"picture-%ld-%c%d%c%u\"", at, format == RENDER_FORMAT_SVG ? 's' : 'p',
		 options.size, options.theme == RENDER_THEME_DARK ? 'd' : 'l', options.labels);
	/* (only on the picture and its 304: a problem must not be cached for a year) */
	const char *cache_control = version ? "public, max-age=31536000, immutable" : "no-cache";
	if (headers_if_none_match(http_header(request, "If-None-Match"), etag)) {
		/* Answered without drawing: the tag says everything the picture depends on. */
		http_add_header(request, "Cache-Control", cache_control);
		http_respond_bytes(request, 200, content_types[format], "", 0, etag);
		return;
	}
	struct picture_key key = {session.game.id,	   (int32_t)at,
				  (uint8_t)format,	   (uint8_t)options.theme,
				  (uint8_t)options.labels, (uint16_t)options.size};
	unsigned char *bytes;
	size_t length;
	if (!picture_cache_get(&key, &bytes, &length)) {
		struct game past;
		const struct game *state = &session.game.state;
		if (at != current) {
			enum store_status status = play_state_at(session.game.id, (int32_t)at, &past);
			if (status != STORE_OK) {
				service_store_error(request, status);
				return;
			}
			state = &past;
		}
		enum drawn drawn = draw(request, &session.game, state, &options, &bytes, &length);
		if (drawn == DRAW_BUSY)
			return;
		if (drawn == DRAW_FAILED) {
			http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "the picture could not be drawn", NULL,
					     -1);
			return;
		}
		picture_cache_put(&key, bytes, length);
	}
	http_add_header(request, "Cache-Control", cache_control);
	http_respond_bytes(request, 200, content_types[format], bytes, length, etag);
	free(bytes);
}

void handle_get_board_svg(struct http_request *request)
{
	respond_picture(request, RENDER_FORMAT_SVG);
}

void handle_get_board_png(struct http_request *request)
{
	respond_picture(request, RENDER_FORMAT_PNG);
}

void handle_get_board_negotiated(struct http_request *request)
{
	enum render_format format;
	/* the answer depends on Accept: a shared cache must not hand a picture to a JSON client */
	http_add_header(request, "Vary", "Accept");
	if (accept_picture(http_header(request, "Accept"), &format))
		respond_picture(request, format);
	else
		handle_get_board(request);
}
