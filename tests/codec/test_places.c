/*
 * test_places.c - the names of places (codec/places.h) and their publication in the
 * board JSON (codec/shapes.h): the beginner board read as a person would, every name
 * unique on hundreds of random boards and never cut short, the 2025 edition's words in a
 * 2025 game.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "codec/places.h"
#include "codec/shapes.h"
#include "engine/board.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "tests/check_main.h"

static const char *hex_name(const struct board_layout *board, int edition, int hex)
{
	static char name[PLACES_NAME_SIZE];
	places_hex(board, edition, hex, name, sizeof name);
	return name;
}

/* The hex of the beginner board at (row 1..5, position 1..) of BEGINNER.md. */
static int beginner_hex(int row, int position)
{
	static const int first_q[5] = {0, -1, -2, -2, -2};
	int r = row - 3, q = first_q[row - 1] + position - 1;
	for (int hex = 0; hex < BOARD_HEXES; hex++)
		if (board_hex_q[hex] == q && board_hex_r[hex] == r)
			return hex;
	ck_abort_msg("no hex at row %d position %d", row, position);
	return -1;
}

/* The node both hexes of `a` and `b` share with `c` (-1 for the sea), by the tables. */
static int corner_of(int a, int b, int c)
{
	for (int node = 0; node < BOARD_NODES; node++) {
		int has_a = 0, has_b = 0, has_c = c < 0, count = 0;
		for (int i = 0; i < 3; i++) {
			int hex = board_node_hexes[node][i];
			if (hex < 0)
				continue;
			count++;
			has_a |= hex == a;
			has_b |= hex == b;
			has_c |= hex == c;
		}
		if (has_a && has_b && has_c && count == (c < 0 ? 2 : 3))
			return node;
	}
	return -1;
}

START_TEST(test_beginner_board_names_read_as_terrain_number_and_coast)
{
	struct board_layout board;
	board_beginner(&board);
	char name[PLACES_NAME_SIZE];
	int ore10 = beginner_hex(1, 1), wool2 = beginner_hex(1, 2), grain12 = beginner_hex(2, 1);
	int brick6 = beginner_hex(2, 2), desert = beginner_hex(3, 3), ore8 = beginner_hex(3, 5);
	ck_assert_str_eq(hex_name(&board, GAME_EDITION_CLASSIC, ore10), "the ore 10");
	ck_assert_str_eq(hex_name(&board, GAME_EDITION_CLASSIC, grain12), "the grain 12");
	ck_assert_str_eq(hex_name(&board, GAME_EDITION_2025, grain12), "the wheat 12");
	ck_assert_str_eq(hex_name(&board, GAME_EDITION_CLASSIC, beginner_hex(3, 2)), "the lumber 11");
	ck_assert_str_eq(hex_name(&board, GAME_EDITION_2025, beginner_hex(3, 2)), "the wood 11");
	ck_assert_str_eq(hex_name(&board, GAME_EDITION_CLASSIC, desert), "the desert");
	ck_assert_str_eq(hex_name(&board, GAME_EDITION_CLASSIC, ore8), "the ore 8");

	/* three hexes meet: named in id order (reading order) */
	int node = corner_of(ore10, wool2, brick6);
	ck_assert_int_ge(node, 0);
	places_node(&board, GAME_EDITION_CLASSIC, node, name, sizeof name);
	ck_assert_str_eq(name, "the corner of ore 10, wool 2 and brick 6");
	/* two hexes and the sea */
	node = corner_of(ore10, wool2, -1);
	ck_assert_int_ge(node, 0);
	places_node(&board, GAME_EDITION_CLASSIC, node, name, sizeof name);
	ck_assert_msg(strncmp(name, "the corner of ore 10, wool 2 and the coast", 42) == 0, "%s", name);
	/* the north corner of the ore 10 touches it alone */
	places_node(&board, GAME_EDITION_CLASSIC, board_hex_nodes[ore10][0], name, sizeof name);
	ck_assert_msg(strncmp(name, "the north corner of ore 10, on the coast", 40) == 0, "%s", name);

	/* a path between two hexes, a path on the coast (side 0 is north-east) */
	for (int k = 0; k < 6; k++) {
		int edge = board_hex_edges[ore10][k];
		places_edge(&board, GAME_EDITION_CLASSIC, edge, name, sizeof name);
		if (board_hex_neighbors[ore10][k] == wool2)
			ck_assert_str_eq(name, "the path between ore 10 and wool 2");
		if (k == 5)
			ck_assert_str_eq(name, "the path on the north-west coast of ore 10");
	}

	/* harbors: a 2:1 by its resource, a 3:1 by the hex it lies off (BEGINNER.md slots) */
	places_harbor(&board, GAME_EDITION_CLASSIC, 0, name, sizeof name);
	ck_assert_str_eq(name, "the 3:1 harbor by ore 10");
	places_harbor(&board, GAME_EDITION_CLASSIC, 1, name, sizeof name);
	ck_assert_str_eq(name, "the 2:1 wool harbor");
	places_harbor(&board, GAME_EDITION_CLASSIC, 5, name, sizeof name);
	ck_assert_str_eq(name, "the 2:1 lumber harbor");
	places_harbor(&board, GAME_EDITION_2025, 5, name, sizeof name);
	ck_assert_str_eq(name, "the 2:1 wood harbor");
	/* a harbor's corner says so */
	places_node(&board, GAME_EDITION_CLASSIC, board_harbor_nodes[1][0], name, sizeof name);
	ck_assert_msg(strstr(name, ", at the 2:1 wool harbor") != NULL, "%s", name);

	/* out of range: empty */
	places_node(&board, GAME_EDITION_CLASSIC, BOARD_NODES, name, sizeof name);
	ck_assert_str_eq(name, "");
	ck_assert_ptr_null(places_resource_word(RESOURCE_COUNT, GAME_EDITION_CLASSIC));
}
END_TEST

/* Plain checks in the loops: each passing ck_assert costs a write to Check's pipe. */
static void check_unique(char (*names)[PLACES_NAME_SIZE], int count, const char *what, int board_index)
{
	for (int i = 0; i < count; i++) {
		size_t length = strlen(names[i]);
		if (length == 0 || length >= PLACES_NAME_SIZE - 1)
			ck_abort_msg("board %d %s %d: length %zu", board_index, what, i, length);
		for (size_t c = 0; c < length; c++)
			if ((unsigned char)names[i][c] < 0x20 || (unsigned char)names[i][c] >= 0x7f)
				ck_abort_msg("board %d %s %d is not printable ASCII", board_index, what, i);
		for (int k = 0; k < i; k++)
			if (strcmp(names[i], names[k]) == 0)
				ck_abort_msg("board %d: %s %d and %d are both \"%s\"", board_index, what, k, i,
					     names[i]);
	}
}

/* Random boards share names of terrain and number (two forest 10s): the clock face tells
 * them apart, and every corner and path of the board still has a name of its own. */
START_TEST(test_every_name_is_unique_on_random_boards)
{
	static char hexes[BOARD_HEXES][PLACES_NAME_SIZE], nodes[BOARD_NODES][PLACES_NAME_SIZE];
	static char edges[BOARD_EDGES][PLACES_NAME_SIZE], harbors[BOARD_HARBORS][PLACES_NAME_SIZE];
	int qualified = 0;
	for (int index = 0; index < 600; index++) {
		struct board_layout board;
		struct rng rng;
		rng_init(&rng, 77u + (uint64_t)index, 3);
		board_random(&board, index % 2 ? BOARD_NUMBERS_RANDOM : BOARD_NUMBERS_SPIRAL, &rng);
		int edition = index % 3 == 0 ? GAME_EDITION_2025 : GAME_EDITION_CLASSIC;
		for (int h = 0; h < BOARD_HEXES; h++) {
			places_hex(&board, edition, h, hexes[h], sizeof hexes[h]);
			qualified += strstr(hexes[h], "o'clock") != NULL || strstr(hexes[h], "in the middle") != NULL;
		}
		for (int n = 0; n < BOARD_NODES; n++)
			places_node(&board, edition, n, nodes[n], sizeof nodes[n]);
		for (int e = 0; e < BOARD_EDGES; e++)
			places_edge(&board, edition, e, edges[e], sizeof edges[e]);
		for (int s = 0; s < BOARD_HARBORS; s++)
			places_harbor(&board, edition, s, harbors[s], sizeof harbors[s]);
		check_unique(hexes, BOARD_HEXES, "hex", index);
		check_unique(nodes, BOARD_NODES, "node", index);
		check_unique(edges, BOARD_EDGES, "edge", index);
		check_unique(harbors, BOARD_HARBORS, "harbor", index);
	}
	/* the boards did put the rule for shared names to work */
	ck_assert_int_gt(qualified, 100);
}
END_TEST

/* A buffer too small is cut, never overrun, and still a string. */
START_TEST(test_a_short_buffer_is_cut_and_terminated)
{
	struct board_layout board;
	board_beginner(&board);
	char small[12];
	memset(small, 'x', sizeof small);
	places_node(&board, GAME_EDITION_CLASSIC, 20, small, sizeof small);
	ck_assert_uint_eq(strlen(small), sizeof small - 1);
	places_hex(&board, GAME_EDITION_CLASSIC, 0, small, 0); /* writes nothing */
}
END_TEST

/* GET .../board carries the same names, in the words of the game's edition. */
START_TEST(test_board_json_names_every_place)
{
	struct board_layout board;
	board_beginner(&board);
	json_t *json = codec_board_to_json(&board, GAME_EDITION_2025);
	char name[PLACES_NAME_SIZE];
	static const struct {
		const char *list;
		int count;
		void (*of)(const struct board_layout *, int, int, char *, size_t);
	} kinds[] = {{"hexes", BOARD_HEXES, places_hex},
		     {"nodes", BOARD_NODES, places_node},
		     {"edges", BOARD_EDGES, places_edge},
		     {"harbors", BOARD_HARBORS, places_harbor}};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		json_t *list = json_object_get(json, kinds[k].list);
		ck_assert_uint_eq(json_array_size(list), (size_t)kinds[k].count);
		for (int i = 0; i < kinds[k].count; i++) {
			kinds[k].of(&board, GAME_EDITION_2025, i, name, sizeof name);
			const char *published =
				json_string_value(json_object_get(json_array_get(list, (size_t)i), "name"));
			ck_assert_msg(published != NULL, "%s %d has no name", kinds[k].list, i);
			ck_assert_str_eq(published, name);
		}
	}
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(json_object_get(json, "hexes"), (size_t)beginner_hex(3, 2)), "name")),
			 "the wood 11");
	json_decref(json);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("places");
	TCase *tc = tcase_create("names");
	tcase_add_test(tc, test_beginner_board_names_read_as_terrain_number_and_coast);
	tcase_add_test(tc, test_every_name_is_unique_on_random_boards);
	tcase_add_test(tc, test_a_short_buffer_is_cut_and_terminated);
	tcase_add_test(tc, test_board_json_names_every_place);
	suite_add_tcase(suite, tc);
	return suite;
}
