/*
 * test_render_names.c - player text in the board pictures (render/): a seat name is drawn,
 * never written into the SVG document. cairo's SVG surface writes text as glyph outlines
 * (<symbol id="glyph..."> paths and <use> of them), and the element names render/marks.h
 * adds are fixed ids and classes: so a name holding markup (<script>, a closing </svg>, an
 * entity, a quote that would end an attribute, a mention) reaches the document as shapes
 * only, and the picture needs no XML escape of its own (codec/escape.h's escape_markup()
 * is for the formats that do write text). Pinned here so that a change of drawing path
 * that would put names in as <text> fails.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/games.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "render/render.h"
#include "tests/check_main.h"

static int contains(const unsigned char *bytes, size_t length, const char *needle)
{
	size_t size = strlen(needle);
	for (size_t i = 0; i + size <= length; i++)
		if (memcmp(bytes + i, needle, size) == 0)
			return 1;
	return 0;
}

START_TEST(test_hostile_seat_names_reach_the_svg_as_glyphs_only)
{
	static struct games_record record;
	static struct game state;
	static struct game_view view;
	ck_assert(games_record_play(&record, 4, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_SPIRAL, 0, 11));
	memset(&state, 0, sizeof state);
	for (int i = 0; i < record.count && i < 300; i++)
		apply_event(&state, &record.events[i]);
	view_game(&state, VIEW_SPECTATOR, &view);
	static const char *const names[4] = {"</svg><script>alert(1)</script>", "x\" onload=\"alert(2)",
					     "&amp;&lt;&#x3c;<![CDATA[", "<@&111> [y](https://evil.example/)"};
	struct render_scene scene;
	memset(&scene, 0, sizeof scene);
	scene.view = &view;
	scene.waiting_for = legal_waiting_for(&state);
	for (int seat = 0; seat < 4; seat++)
		scene.names[seat] = names[seat];
	unsigned labels[] = {0, 7};
	for (int l = 0; l < 2; l++) {
		struct render_options options = {RENDER_FORMAT_SVG, RENDER_THEME_LIGHT, RENDER_SIZE_DEFAULT, labels[l]};
		unsigned char *svg;
		size_t length;
		ck_assert(render_board(&scene, &options, &svg, &length));
		static const char *const never[] = {"<script", "</svg><", "onload", "alert", "CDATA", "&amp;amp;",
						    "&#x3c;",  "<@&111>", "evil",   "<text", NULL};
		for (int i = 0; never[i]; i++)
			ck_assert_msg(!contains(svg, length, never[i]), "the SVG holds \"%s\" of a name", never[i]);
		/* The document is whole: one root, closed once. */
		size_t closes = 0;
		for (size_t i = 0; i + 6 <= length; i++)
			closes += memcmp(svg + i, "</svg>", 6) == 0;
		ck_assert(contains(svg, length, "<svg"));
		ck_assert_uint_eq(closes, 1);
		/* And the names are drawn (the test can fail): without them the picture differs. */
		struct render_scene nameless = scene;
		memset(nameless.names, 0, sizeof nameless.names);
		unsigned char *plain;
		size_t plain_length;
		ck_assert(render_board(&nameless, &options, &plain, &plain_length));
		ck_assert_msg(plain_length != length || memcmp(plain, svg, length) != 0, "the names are drawn");
		free(plain);
		free(svg);
	}
	games_record_free(&record);
}
END_TEST

Suite *test_suite(void)
{
	/* The font caches released as each test's process exits (as test_render.c does), so the
	 * leak checker of the sanitizer pass sees only what the renderer leaves. */
	atexit(render_shutdown);
	Suite *suite = suite_create("render_names");
	TCase *tcase = tcase_create("names");
	tcase_set_timeout(tcase, 60);
	tcase_add_test(tcase, test_hostile_seat_names_reach_the_svg_as_glyphs_only);
	suite_add_tcase(suite, tcase);
	return suite;
}
