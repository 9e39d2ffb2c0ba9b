/*
 * test_http_board.c - the board pictures over HTTP: GET /v1/games/{id}/board.png, .svg and
 * /board by Accept, against a real server and PostgreSQL, through Prism (the responses are
 * checked against openapi/openapi.yaml).
 *
 * The PNG is decoded with cairo and probed at points computed from the board projection
 * the server publishes (GET /board: px, py) through the picture's frame (render_layout()):
 * every hex shows its terrain's colour just off its centre, the robber stands on the hex
 * the game view names, each settlement and city sits at its node in its seat's colour and
 * each road in its seat's colour at its edge's middle; on the beginner board and on random
 * boards, before and after moves, and for history pictures (version=N). The SVG is parsed
 * as XML by xmllint: well-formed, 19 hexes, one group per piece and per harbor, labels
 * exactly when asked. The picture is the same bytes for a spectator, every seat and the
 * admin. Bad parameters answer 400 naming the parameter, versions beyond the log 404, and
 * If-None-Match 304. A burst of large pictures on a server with one drawing slot answers
 * 503 render_busy (Retry-After) for what it cannot draw, while /healthz keeps answering.
 */
#include <cairo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board.h"
#include "render/render.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

/* Beginner board, the preset opening, manual dice, seat 0 first: turn 1, seat 0 to roll. */
#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"
#define RANDOM_DRAFT "{\"layout\": \"random\", \"first_seat\": 0}"

static const char *const terrain_names[TERRAIN_COUNT] = {"hills", "forest", "pasture", "fields", "mountains", "desert"};

/* ---- fetching ---- */

/* GET `path` (with `suffix`) as `token`; expects 200 with `content_type`. The caller frees.
 * Through Prism for the contract's verdict on status and headers; a PNG's bytes are taken
 * straight from the server as well, since Prism passes bodies on as text. */
static void get_picture(const struct http_game *game, const char *suffix, const char *token, const char *content_type,
			struct http_response *out)
{
	char path[256];
	http_game_path(game, suffix, path, sizeof path);
	if (strcmp(content_type, "image/png") == 0) {
		http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, out);
		ck_assert_msg(out->status == 200, "GET %s: %s", path, http_describe(out));
		http_response_free(out);
		http_call(&http_fixture.direct, "GET", path, token, NULL, NULL, out);
	} else {
		http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, out);
	}
	ck_assert_msg(out->status == 200, "GET %s: %s", path, http_describe(out));
	char type[64];
	ck_assert_msg(http_response_header(out, "Content-Type", type, sizeof type) && strcmp(type, content_type) == 0,
		      "GET %s: content type %s", path, type);
}

struct reader {
	const unsigned char *bytes;
	size_t length;
	size_t at;
};

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int length)
{
	struct reader *reader = closure;
	if (reader->length - reader->at < length)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, reader->bytes + reader->at, length);
	reader->at += length;
	return CAIRO_STATUS_SUCCESS;
}

/* The PNG decoded by cairo; caller destroys. */
static cairo_surface_t *decode_png(const struct http_response *response)
{
	struct reader reader = {(const unsigned char *)response->body, response->body_length, 0};
	cairo_surface_t *surface = cairo_image_surface_create_from_png_stream(read_png, &reader);
	ck_assert_msg(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "the PNG does not decode (%zu bytes)",
		      response->body_length);
	cairo_surface_flush(surface);
	return surface;
}

static uint32_t pixel_at(cairo_surface_t *surface, double x, double y)
{
	int px = (int)(x + 0.5), py = (int)(y + 0.5);
	ck_assert(px >= 0 && py >= 0 && px < cairo_image_surface_get_width(surface) &&
		  py < cairo_image_surface_get_height(surface));
	const unsigned char *data = cairo_image_surface_get_data(surface);
	uint32_t value;
	memcpy(&value, data + (size_t)py * (size_t)cairo_image_surface_get_stride(surface) + (size_t)px * 4, 4);
	return value & 0xFFFFFF;
}

static int colour_close(uint32_t a, uint32_t b)
{
	for (int shift = 0; shift < 24; shift += 8) {
		int d = (int)((a >> shift) & 0xFF) - (int)((b >> shift) & 0xFF);
		if (d < -3 || d > 3)
			return 0;
	}
	return 1;
}

/* ---- the published projection, as the picture frames it ---- */

struct projected {
	json_t *board; /* GET /board */
	json_t *view;  /* GET /v1/games/{id} as a spectator */
	struct render_layout layout;
};

static void projected_load(const struct http_game *game, int size, struct projected *out)
{
	char path[128];
	out->board = http_get_ok(&http_fixture.checked, http_game_path(game, "/board", path, sizeof path), NULL);
	out->view = http_get_ok(&http_fixture.checked, game->path, NULL);
	struct render_options options = {RENDER_FORMAT_PNG, RENDER_THEME_LIGHT, size, 0};
	render_layout(&options, &out->layout);
}

static void projected_free(struct projected *projected)
{
	json_decref(projected->board);
	json_decref(projected->view);
}

static double number_of(const json_t *object, const char *key)
{
	json_t *value = json_object_get(object, key);
	ck_assert_msg(json_is_number(value), "%s is not a number", key);
	return json_number_value(value);
}

/* The pixel of the projection point of entry `id` of board list `list`, moved by (dx, dy)
 * projection units. */
static struct geometry_point pixel_of(const struct projected *projected, const char *list, int id, double dx, double dy)
{
	json_t *entry = json_array_get(json_object_get(projected->board, list), (size_t)id);
	struct geometry_point point = {number_of(entry, "px") + dx, number_of(entry, "py") + dy};
	return render_to_pixels(&projected->layout, point);
}

static int terrain_index(const char *name)
{
	for (int t = 0; t < TERRAIN_COUNT; t++)
		if (strcmp(name, terrain_names[t]) == 0)
			return t;
	ck_abort_msg("unknown terrain %s", name);
	return -1;
}

/* Every fact of the picture the game view states, probed in the PNG. Returns how many
 * pieces were checked. */
static int check_png_against_view(cairo_surface_t *png, const struct projected *projected)
{
	ck_assert_int_eq(cairo_image_surface_get_width(png), projected->layout.width);
	ck_assert_int_eq(cairo_image_surface_get_height(png), projected->layout.height);
	json_t *hexes = json_object_get(projected->board, "hexes");
	int robber = (int)json_integer_value(json_object_get(projected->view, "robber"));
	for (int hex = 0; hex < 19; hex++) {
		int terrain = terrain_index(
			json_string_value(json_object_get(json_array_get(hexes, (size_t)hex), "terrain")));
		struct geometry_point probe =
			pixel_of(projected, "hexes", hex, RENDER_TERRAIN_PROBE_X, RENDER_TERRAIN_PROBE_Y);
		uint32_t seen = pixel_at(png, probe.x, probe.y);
		ck_assert_msg(colour_close(seen, render_terrain_colour(RENDER_THEME_LIGHT, terrain)),
			      "hex %d (%s) shows %06x at (%.0f, %.0f), not its terrain colour %06x", hex,
			      terrain_names[terrain], seen, probe.x, probe.y,
			      render_terrain_colour(RENDER_THEME_LIGHT, terrain));
		struct geometry_point body = pixel_of(projected, "hexes", hex, RENDER_ROBBER_X, RENDER_ROBBER_Y);
		int robber_here = colour_close(pixel_at(png, body.x, body.y), render_robber_colour(RENDER_THEME_LIGHT));
		ck_assert_msg(robber_here == (hex == robber), "the robber is %s hex %d (the view says hex %d)",
			      robber_here ? "drawn on" : "missing from", hex, robber);
	}
	int pieces = 0;
	size_t index;
	json_t *piece;
	json_array_foreach(json_object_get(projected->view, "buildings"), index, piece)
	{
		int node = (int)json_integer_value(json_object_get(piece, "node"));
		int seat = (int)json_integer_value(json_object_get(piece, "seat"));
		struct geometry_point at = pixel_of(projected, "nodes", node, 0, 0);
		uint32_t seen = pixel_at(png, at.x, at.y);
		ck_assert_msg(colour_close(seen, render_seat_colour(seat)), "the %s of seat %d at node %d shows %06x",
			      json_string_value(json_object_get(piece, "kind")), seat, node, seen);
		pieces++;
	}
	json_array_foreach(json_object_get(projected->view, "roads"), index, piece)
	{
		int edge = (int)json_integer_value(json_object_get(piece, "edge"));
		int seat = (int)json_integer_value(json_object_get(piece, "seat"));
		json_t *ends = json_object_get(json_array_get(json_object_get(projected->board, "edges"), (size_t)edge),
					       "nodes");
		struct geometry_point a =
			pixel_of(projected, "nodes", (int)json_integer_value(json_array_get(ends, 0)), 0, 0);
		struct geometry_point b =
			pixel_of(projected, "nodes", (int)json_integer_value(json_array_get(ends, 1)), 0, 0);
		uint32_t seen = pixel_at(png, (a.x + b.x) / 2, (a.y + b.y) / 2);
		ck_assert_msg(colour_close(seen, render_seat_colour(seat)), "the road of seat %d at edge %d shows %06x",
			      seat, edge, seen);
		pieces++;
	}
	return pieces;
}

/* A node or edge where the view has no piece shows no seat colour in the picture. */
static void check_node_empty(cairo_surface_t *png, const struct projected *projected, int node)
{
	struct geometry_point at = pixel_of(projected, "nodes", node, 0, 0);
	uint32_t seen = pixel_at(png, at.x, at.y);
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++)
		ck_assert_msg(!colour_close(seen, render_seat_colour(seat)), "node %d shows seat %d's colour", node,
			      seat);
}

/* ---- moves ---- */

/* The first of the seat's actions of `type`, as a move body (new reference), or NULL. */
static json_t *first_action(const struct http_game *game, int seat, const char *type)
{
	char path[128];
	json_t *actions = http_get_ok(&http_fixture.checked, http_game_path(game, "/actions", path, sizeof path),
				      game->tokens[seat]);
	json_t *found = NULL;
	size_t index;
	json_t *action;
	json_array_foreach(json_object_get(actions, "actions"), index, action)
	{
		if (!found && strcmp(json_string_value(json_object_get(action, "type")), type) == 0)
			found = json_deep_copy(action);
	}
	json_decref(actions);
	if (found)
		json_object_del(found, "rate"); /* (maritime only) */
	return found;
}

static long play(const struct http_game *game, int seat, const char *type, int *id_out, const char *id_member)
{
	json_t *body = first_action(game, seat, type);
	ck_assert_msg(body != NULL, "seat %d has no %s action", seat, type);
	if (id_out)
		*id_out = (int)json_integer_value(json_object_get(body, id_member));
	char *text = json_dumps(body, JSON_COMPACT);
	long version = http_post_move_ok(&http_fixture.checked, game, seat, text);
	free(text);
	json_decref(body);
	return version;
}

/* ---- tests ---- */

START_TEST(test_png_shows_terrain_robber_and_pieces_at_the_published_projection_on_the_beginner_board)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_response response;
	get_picture(&game, "/board.png", NULL, "image/png", &response);
	struct projected projected;
	projected_load(&game, RENDER_SIZE_DEFAULT, &projected);
	cairo_surface_t *png = decode_png(&response);
	int pieces = check_png_against_view(png, &projected);
	ck_assert_int_eq(pieces, 12); /* the preset opening: 2 settlements and 2 roads per seat */
	/* the terrain colours differ, so a hex drawn with the wrong terrain fails above */
	for (int a = 0; a < TERRAIN_COUNT; a++)
		for (int b = a + 1; b < TERRAIN_COUNT; b++)
			ck_assert(!colour_close(render_terrain_colour(RENDER_THEME_LIGHT, a),
						render_terrain_colour(RENDER_THEME_LIGHT, b)));
	cairo_surface_destroy(png);
	projected_free(&projected);
	http_response_free(&response);

	/* another size keeps the same frame rule */
	get_picture(&game, "/board.png?size=480", NULL, "image/png", &response);
	projected_load(&game, 480, &projected);
	png = decode_png(&response);
	ck_assert_int_eq(check_png_against_view(png, &projected), 12);
	cairo_surface_destroy(png);
	projected_free(&projected);
	http_response_free(&response);
}
END_TEST

START_TEST(test_robber_move_shows_at_its_hex_and_history_pictures_show_the_board_as_it_was)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	long before = http_game_version(&http_fixture.checked, &game);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}");
	int hex;
	long after = play(&game, 0, "move_robber", &hex, "hex");
	ck_assert_int_gt(after, before);

	struct projected projected;
	projected_load(&game, RENDER_SIZE_DEFAULT, &projected);
	ck_assert_int_eq(json_integer_value(json_object_get(projected.view, "robber")), hex);
	struct http_response response;
	get_picture(&game, "/board.png", NULL, "image/png", &response);
	cairo_surface_t *png = decode_png(&response);
	check_png_against_view(png, &projected);
	cairo_surface_destroy(png);
	http_response_free(&response);

	/* version=N: the robber back in the desert (where the view of version N had it) */
	char suffix[64];
	snprintf(suffix, sizeof suffix, "/board.png?version=%ld", before);
	get_picture(&game, suffix, NULL, "image/png", &response);
	char cache[128];
	ck_assert(http_response_header(&response, "Cache-Control", cache, sizeof cache));
	ck_assert_str_eq(cache, "public, max-age=31536000, immutable");
	/* the desert of the beginner board is hex 9; the roll and the robber move left the pieces */
	json_t *now = projected.view;
	projected.view = json_pack("{s:O, s:O, s:i}", "buildings", json_object_get(now, "buildings"), "roads",
				   json_object_get(now, "roads"), "robber", 9);
	json_decref(now);
	png = decode_png(&response);
	check_png_against_view(png, &projected);
	cairo_surface_destroy(png);
	http_response_free(&response);
	projected_free(&projected);
}
END_TEST

START_TEST(test_random_boards_show_each_placement_and_earlier_versions_do_not)
{
	for (int round = 0; round < 2; round++) {
		struct http_game game;
		http_game_create(&http_fixture.checked, 3, RANDOM_DRAFT, &game);
		int node[3], edge[3];
		long version_before_seat_2 = 0;
		for (int seat = 0; seat < 3; seat++) {
			if (seat == 2)
				version_before_seat_2 = http_game_version(&http_fixture.checked, &game);
			play(&game, seat, "build_settlement", &node[seat], "node");
			play(&game, seat, "build_road", &edge[seat], "edge");
			struct projected projected;
			projected_load(&game, RENDER_SIZE_DEFAULT, &projected);
			struct http_response response;
			get_picture(&game, "/board.png", NULL, "image/png", &response);
			cairo_surface_t *png = decode_png(&response);
			ck_assert_int_eq(check_png_against_view(png, &projected), 2 * (seat + 1));
			cairo_surface_destroy(png);
			http_response_free(&response);
			projected_free(&projected);
		}
		/* before seat 2 placed: its node is empty in the history picture */
		char suffix[64];
		snprintf(suffix, sizeof suffix, "/board.png?version=%ld", version_before_seat_2);
		struct http_response response;
		get_picture(&game, suffix, NULL, "image/png", &response);
		struct projected projected;
		projected_load(&game, RENDER_SIZE_DEFAULT, &projected);
		cairo_surface_t *png = decode_png(&response);
		check_node_empty(png, &projected, node[2]);
		/* the pieces of seats 0 and 1 are there */
		json_t *buildings = json_array(), *roads = json_array();
		for (int seat = 0; seat < 2; seat++) {
			json_array_append_new(buildings, json_pack("{s:i, s:i, s:s}", "node", node[seat], "seat", seat,
								   "kind", "settlement"));
			json_array_append_new(roads, json_pack("{s:i, s:i}", "edge", edge[seat], "seat", seat));
		}
		json_object_set_new(projected.view, "buildings", buildings);
		json_object_set_new(projected.view, "roads", roads);
		ck_assert_int_eq(check_png_against_view(png, &projected), 4);
		cairo_surface_destroy(png);
		http_response_free(&response);
		projected_free(&projected);
	}
}
END_TEST

/* ---- SVG ---- */

/* xmllint's answer to an XPath count over `svg`, or -1 when the document is not
 * well-formed XML. */
static long xpath_count(const struct http_response *svg, const char *xpath)
{
	char path[] = "/tmp/catan-board-XXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	ck_assert(write(fd, svg->body, svg->body_length) == (ssize_t)svg->body_length);
	close(fd);
	char command[512];
	snprintf(command, sizeof command, "xmllint --nonet --xpath '%s' %s 2>/dev/null", xpath, path);
	FILE *pipe = popen(command, "r");
	ck_assert(pipe != NULL);
	char answer[64] = "";
	char *got = fgets(answer, sizeof answer, pipe);
	int status = pclose(pipe);
	unlink(path);
	if (!got || status != 0)
		return -1;
	return strtol(answer, NULL, 10);
}

static long count_class(const struct http_response *svg, const char *class_prefix)
{
	char xpath[160];
	snprintf(xpath, sizeof xpath, "count(//*[local-name()=\"g\" and starts-with(@class, \"%s\")])", class_prefix);
	return xpath_count(svg, xpath);
}

START_TEST(test_svg_is_well_formed_with_one_group_per_hex_harbor_and_piece_and_labels_when_asked)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 4, FIXED_START, &game);
	struct http_response svg;
	get_picture(&game, "/board.svg", NULL, "image/svg+xml", &svg);
	ck_assert_int_eq(xpath_count(&svg, "count(/*[local-name()=\"svg\"])"), 1);
	ck_assert_int_eq(count_class(&svg, "hex "), 19);
	ck_assert_int_eq(count_class(&svg, "harbor "), 9);
	ck_assert_int_eq(count_class(&svg, "piece settlement"), 8);
	ck_assert_int_eq(count_class(&svg, "piece city"), 0);
	ck_assert_int_eq(count_class(&svg, "piece road"), 8);
	ck_assert_int_eq(count_class(&svg, "piece settlement seat-2"), 2);
	ck_assert_int_eq(count_class(&svg, "robber"), 1);
	ck_assert_int_eq(count_class(&svg, "label"), 0);
	http_response_free(&svg);

	static const struct {
		const char *query;
		long nodes, edges, hexes;
	} asked[] = {{"?labels=nodes", 54, 0, 0},
		     {"?labels=edges", 0, 72, 0},
		     {"?labels=hexes,nodes", 54, 0, 19},
		     {"?labels=nodes,edges,hexes", 54, 72, 19},
		     {"?labels=", 0, 0, 0}};
	for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++) {
		char suffix[64];
		snprintf(suffix, sizeof suffix, "/board.svg%s", asked[i].query);
		get_picture(&game, suffix, NULL, "image/svg+xml", &svg);
		ck_assert_msg(count_class(&svg, "label label-node") == asked[i].nodes &&
				      count_class(&svg, "label label-edge") == asked[i].edges &&
				      count_class(&svg, "label label-hex") == asked[i].hexes,
			      "labels for %s", asked[i].query);
		ck_assert_int_eq(count_class(&svg, "hex "), 19);
		http_response_free(&svg);
	}
}
END_TEST

/* ---- the same for everyone; caching ---- */

START_TEST(test_pictures_are_byte_identical_for_a_spectator_every_seat_and_the_admin)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 4, FIXED_START, &game);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	const char *suffixes[] = {"/board.png", "/board.svg?labels=nodes", "/board.png?theme=dark&size=640"};
	const char *types[] = {"image/png", "image/svg+xml", "image/png"};
	for (int k = 0; k < 3; k++) {
		struct http_response spectator;
		get_picture(&game, suffixes[k], NULL, types[k], &spectator);
		char tag[96], other_tag[96];
		ck_assert(http_response_header(&spectator, "ETag", tag, sizeof tag));
		for (int who = 0; who <= game.seats; who++) {
			const char *token = who < game.seats ? game.tokens[who] : game.admin_token;
			struct http_response other;
			get_picture(&game, suffixes[k], token, types[k], &other);
			ck_assert_msg(other.body_length == spectator.body_length &&
					      memcmp(other.body, spectator.body, other.body_length) == 0,
				      "%s differs for %s", suffixes[k], who < game.seats ? "a seat" : "the admin");
			ck_assert(http_response_header(&other, "ETag", other_tag, sizeof other_tag));
			ck_assert_str_eq(other_tag, tag);
			http_response_free(&other);
		}
		http_response_free(&spectator);
	}
}
END_TEST

START_TEST(test_if_none_match_answers_304_until_a_move_and_accept_picks_the_picture)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_response first;
	get_picture(&game, "/board.png", NULL, "image/png", &first);
	char tag[96], cache[96];
	ck_assert(http_response_header(&first, "ETag", tag, sizeof tag));
	ck_assert(http_response_header(&first, "Cache-Control", cache, sizeof cache));
	ck_assert_str_eq(cache, "no-cache");
	char path[128], line[160];
	http_game_path(&game, "/board.png", path, sizeof path);
	snprintf(line, sizeof line, "If-None-Match: %s", tag);
	const char *conditional[] = {line, NULL};
	struct http_response again;
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, conditional, &again);
	ck_assert_msg(again.status == 304 && again.body_length == 0, "%s", http_describe(&again));
	http_response_free(&again);

	/* /board with an image Accept type: the same picture; JSON stays the default */
	char board[128];
	http_game_path(&game, "/board", board, sizeof board);
	const char *accept_png[] = {"Accept: image/png", NULL};
	http_call(&http_fixture.checked, "GET", board, NULL, NULL, accept_png, &again);
	ck_assert_int_eq(again.status, 200);
	http_response_free(&again);
	http_call(&http_fixture.direct, "GET", board, NULL, NULL, accept_png, &again);
	ck_assert_int_eq(again.status, 200);
	ck_assert(again.body_length == first.body_length && memcmp(again.body, first.body, first.body_length) == 0);
	ck_assert_msg(strstr(again.headers, "Vary: Accept") != NULL, "the answer of /board depends on Accept: %s",
		      again.headers);
	http_response_free(&again);
	const char *accept_svg[] = {"Accept: application/json;q=0.5, image/svg+xml", NULL};
	http_call(&http_fixture.checked, "GET", board, NULL, NULL, accept_svg, &again);
	char type[64];
	ck_assert(again.status == 200 && http_response_header(&again, "Content-Type", type, sizeof type));
	ck_assert_str_eq(type, "image/svg+xml");
	http_response_free(&again);
	const char *accept_json[] = {"Accept: application/json, image/png", NULL};
	http_call(&http_fixture.checked, "GET", board, NULL, NULL, accept_json, &again);
	ck_assert_msg(again.status == 200 && again.json && json_object_get(again.json, "projection"), "%s",
		      http_describe(&again));
	http_response_free(&again);
	http_call(&http_fixture.checked, "GET", board, NULL, NULL, NULL, &again);
	ck_assert(again.status == 200 && again.json);
	http_response_free(&again);

	/* a move makes a new picture: the old tag no longer matches */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, conditional, &again);
	ck_assert_msg(again.status == 200, "%s", http_describe(&again));
	char new_tag[96];
	ck_assert(http_response_header(&again, "ETag", new_tag, sizeof new_tag));
	ck_assert_str_ne(new_tag, tag);
	http_response_free(&again);
	http_response_free(&first);
}
END_TEST

START_TEST(test_bad_parameters_are_400_naming_them_and_unknown_versions_and_games_404)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.checked, &game);
	static const struct {
		const char *query;
		const char *field;
	} bad[] = {{"size=319", "size"},	{"size=2049", "size"},
		   {"size=big", "size"},	{"size=-5", "size"},
		   {"theme=blue", "theme"},	{"theme=", "theme"},
		   {"labels=roads", "labels"},	{"labels=nodes,nodes", "labels"},
		   {"labels=nodes,", "labels"}, {"version=0", "version"},
		   {"version=x", "version"},	{"version=-1", "version"}};
	const char *formats[] = {"/board.png", "/board.svg"};
	for (int f = 0; f < 2; f++)
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			char suffix[96], path[160];
			snprintf(suffix, sizeof suffix, "%s?%s", formats[f], bad[i].query);
			http_game_path(&game, suffix, path, sizeof path);
			/* straight to the server: Prism would refuse some of these itself */
			struct http_response response;
			http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
			http_assert_problem(&response, 400, "invalid_field");
			ck_assert_msg(json_is_string(json_object_get(response.json, "field")) &&
					      strcmp(json_string_value(json_object_get(response.json, "field")),
						     bad[i].field) == 0,
				      "%s: %s", suffix, http_describe(&response));
			http_response_free(&response);
		}
	char suffix[96], path[160];
	snprintf(suffix, sizeof suffix, "/board.png?version=%ld", version + 1);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", http_game_path(&game, suffix, path, sizeof path), NULL, NULL, NULL,
		  &response);
	http_assert_problem(&response, 404, "version_not_found");
	char cache[96];
	ck_assert_msg(!http_response_header(&response, "Cache-Control", cache, sizeof cache) ||
			      strstr(cache, "immutable") == NULL,
		      "a problem is not cached: %s", cache);
	http_response_free(&response);
	snprintf(suffix, sizeof suffix, "/board.svg?version=%ld", version);
	get_picture(&game, suffix, NULL, "image/svg+xml", &response);
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", "/v1/games/0123456789abcdef/board.png", NULL, NULL, NULL, &response);
	http_assert_problem(&response, 404, "game_not_found");
	http_response_free(&response);
}
END_TEST

/* ---- the cost of drawing is bounded ---- */

#define BURST_CLIENTS 16
#define BURST_ROUNDS 5

struct burster {
	const char *base;
	const char *game_path;
	int first_size;
	pthread_barrier_t *barrier;
	/* results, checked by the test's own thread (Check's assertions belong to it) */
	int ok, busy, other;
	int busy_without_retry_after;
	char other_description[256];
};

static void *burst(void *argument)
{
	struct burster *burster = argument;
	pthread_barrier_wait(burster->barrier);
	for (int round = 0; round < BURST_ROUNDS; round++) {
		/* a new connection each time: the server's threads each take some (a kept-alive
		 * connection stays with the thread that accepted it) */
		struct http_client client;
		http_client_init(&client, burster->base, 0);
		/* a size nobody asked for yet: never in the picture cache */
		char path[160];
		snprintf(path, sizeof path, "%s/board.png?size=%d", burster->game_path, burster->first_size - round);
		struct http_response response;
		http_call(&client, "GET", path, NULL, NULL, NULL, &response);
		char value[64];
		json_t *code = response.json ? json_object_get(response.json, "code") : NULL;
		if (response.status == 200 && http_response_header(&response, "Content-Type", value, sizeof value) &&
		    strcmp(value, "image/png") == 0) {
			burster->ok++;
		} else if (response.status == 503 && json_is_string(code) &&
			   strcmp(json_string_value(code), "render_busy") == 0) {
			burster->busy++;
			if (!http_response_header(&response, "Retry-After", value, sizeof value))
				burster->busy_without_retry_after++;
		} else {
			burster->other++;
			snprintf(burster->other_description, sizeof burster->other_description, "%s",
				 http_describe(&response));
		}
		http_response_free(&response);
		http_client_cleanup(&client);
	}
	return NULL;
}

START_TEST(test_a_burst_of_large_pictures_gets_503_render_busy_while_healthz_answers)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	/* One drawing slot and four HTTP threads: at most two requests wait for the slot (half
	 * the threads), each up to the default 2 s; the fourth thread stays free. */
	static const char *const settings[] = {"RENDER_CONCURRENCY=1", "THREADS=4", NULL};
	struct http_server small;
	http_server_start(&small, settings);
	pthread_barrier_t barrier;
	pthread_barrier_init(&barrier, NULL, BURST_CLIENTS + 1);
	struct burster bursters[BURST_CLIENTS];
	pthread_t threads[BURST_CLIENTS];
	for (int i = 0; i < BURST_CLIENTS; i++) {
		bursters[i] = (struct burster){.base = small.url,
					       .game_path = game.path,
					       .barrier = &barrier,
					       .first_size = RENDER_SIZE_MAX - i * BURST_ROUNDS};
		pthread_create(&threads[i], NULL, burst, &bursters[i]);
	}
	struct http_client health;
	http_client_init(&health, small.url, 0);
	pthread_barrier_wait(&barrier);
	/* while the burst is drawn: the server answers what needs no picture, promptly */
	double slowest = 0;
	for (int i = 0; i < 5; i++) {
		usleep(40000);
		struct http_response response;
		http_call(&health, "GET", "/healthz", NULL, NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "/healthz during the burst: %s", http_describe(&response));
		slowest = response.seconds > slowest ? response.seconds : slowest;
		http_response_free(&response);
	}
	int ok = 0, busy = 0;
	for (int i = 0; i < BURST_CLIENTS; i++) {
		pthread_join(threads[i], NULL);
		ck_assert_msg(bursters[i].other == 0, "neither a picture nor render_busy: %s",
			      bursters[i].other_description);
		ck_assert_int_eq(bursters[i].busy_without_retry_after, 0);
		ok += bursters[i].ok;
		busy += bursters[i].busy;
	}
	pthread_barrier_destroy(&barrier);
	ck_assert_msg(ok >= 1 && busy >= 1, "%d pictures, %d render_busy", ok, busy);
	ck_assert_msg(slowest < 1.0, "/healthz took %.3f s during the burst", slowest);
	/* the burst over, the slot is free again */
	char path[160];
	snprintf(path, sizeof path, "%s/board.png?size=%d", game.path, RENDER_SIZE_MAX);
	struct http_response response;
	http_call(&health, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "after the burst: %s", http_describe(&response));
	http_response_free(&response);
	http_client_cleanup(&health);
	ck_assert_int_eq(http_server_stop(&small, 10), 0);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_board");
	TCase *pictures = tcase_create("pictures");
	http_fixture_add(pictures, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(pictures, 120);
	tcase_add_test(pictures,
		       test_png_shows_terrain_robber_and_pieces_at_the_published_projection_on_the_beginner_board);
	tcase_add_test(pictures, test_robber_move_shows_at_its_hex_and_history_pictures_show_the_board_as_it_was);
	tcase_add_test(pictures, test_random_boards_show_each_placement_and_earlier_versions_do_not);
	tcase_add_test(pictures, test_svg_is_well_formed_with_one_group_per_hex_harbor_and_piece_and_labels_when_asked);
	tcase_add_test(pictures, test_pictures_are_byte_identical_for_a_spectator_every_seat_and_the_admin);
	tcase_add_test(pictures, test_if_none_match_answers_304_until_a_move_and_accept_picks_the_picture);
	tcase_add_test(pictures, test_bad_parameters_are_400_naming_them_and_unknown_versions_and_games_404);
	tcase_add_test(pictures, test_a_burst_of_large_pictures_gets_503_render_busy_while_healthz_answers);
	suite_add_tcase(suite, pictures);
	return suite;
}
