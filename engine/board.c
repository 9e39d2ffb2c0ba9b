/*
 * board.c - the layouts placed on the fixed island: the beginner board and random boards.
 *
 * Random boards follow RULES.md section 2: the 19 terrain hexes and the 9 harbor pieces are
 * shuffled (Fisher-Yates over the caller's generator); number tokens go either in their
 * letter order A..R along the counterclockwise spiral from a random corner of the outer
 * ring, skipping the desert, or in a random order re-drawn until no two red tokens (6, 8)
 * touch. The spirals themselves are precomputed in board_tables.c.
 */
#include "board.h"

const uint8_t board_token_order[18] = {5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11};

static const uint8_t beginner_terrain[BOARD_HEXES] = {
	TERRAIN_MOUNTAINS, TERRAIN_PASTURE,   TERRAIN_FOREST, TERRAIN_FIELDS,	 TERRAIN_HILLS,
	TERRAIN_PASTURE,   TERRAIN_HILLS,     TERRAIN_FIELDS, TERRAIN_FOREST,	 TERRAIN_DESERT,
	TERRAIN_FOREST,	   TERRAIN_MOUNTAINS, TERRAIN_FOREST, TERRAIN_MOUNTAINS, TERRAIN_FIELDS,
	TERRAIN_PASTURE,   TERRAIN_HILLS,     TERRAIN_FIELDS, TERRAIN_PASTURE,
};

static const uint8_t beginner_numbers[BOARD_HEXES] = {
	10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11,
};

static const uint8_t beginner_harbors[BOARD_HARBORS] = {
	HARBOR_GENERIC,	 RESOURCE_WOOL,	 HARBOR_GENERIC, HARBOR_GENERIC, RESOURCE_BRICK,
	RESOURCE_LUMBER, HARBOR_GENERIC, RESOURCE_GRAIN, RESOURCE_ORE,
};

/* The component mix: how many of each terrain, token value and harbor piece exist. */
static const uint8_t terrain_supply[TERRAIN_COUNT] = {3, 4, 4, 4, 3, 1};
static const uint8_t harbor_supply[HARBOR_KIND_COUNT] = {1, 1, 1, 1, 1, 4};

void board_beginner(struct board_layout *out)
{
	for (int h = 0; h < BOARD_HEXES; h++) {
		out->terrain[h] = beginner_terrain[h];
		out->number[h] = beginner_numbers[h];
	}
	for (int s = 0; s < BOARD_HARBORS; s++)
		out->harbor[s] = beginner_harbors[s];
}

static void shuffle(uint8_t *items, int count, struct rng *rng)
{
	for (int i = count - 1; i > 0; i--) {
		int j = (int)rng_below(rng, (uint32_t)i + 1);
		uint8_t t = items[i];
		items[i] = items[j];
		items[j] = t;
	}
}

int board_desert(const struct board_layout *layout)
{
	for (int h = 0; h < BOARD_HEXES; h++)
		if (layout->terrain[h] == TERRAIN_DESERT)
			return h;
	return -1;
}

static int is_red(int number)
{
	return number == 6 || number == 8;
}

int board_red_numbers_adjacent(const struct board_layout *layout)
{
	for (int h = 0; h < BOARD_HEXES; h++) {
		if (!is_red(layout->number[h]))
			continue;
		for (int k = 0; k < 6; k++) {
			int n = board_hex_neighbors[h][k];
			if (n >= 0 && is_red(layout->number[n]))
				return 1;
		}
	}
	return 0;
}

static void place_numbers_spiral(struct board_layout *out, struct rng *rng)
{
	const int8_t *spiral = board_spirals[rng_below(rng, 6)];
	int token = 0;
	for (int i = 0; i < BOARD_HEXES; i++) {
		int h = spiral[i];
		out->number[h] = out->terrain[h] == TERRAIN_DESERT ? 0 : board_token_order[token++];
	}
}

static void place_numbers_random(struct board_layout *out, struct rng *rng)
{
	uint8_t tokens[18];
	do {
		for (int i = 0; i < 18; i++)
			tokens[i] = board_token_order[i];
		shuffle(tokens, 18, rng);
		int token = 0;
		for (int h = 0; h < BOARD_HEXES; h++)
			out->number[h] = out->terrain[h] == TERRAIN_DESERT ? 0 : tokens[token++];
	} while (board_red_numbers_adjacent(out));
}

void board_random(struct board_layout *out, enum board_numbers numbers, struct rng *rng)
{
	int h = 0;
	for (int t = 0; t < TERRAIN_COUNT; t++)
		for (int i = 0; i < terrain_supply[t]; i++)
			out->terrain[h++] = (uint8_t)t;
	shuffle(out->terrain, BOARD_HEXES, rng);

	int s = 0;
	for (int kind = 0; kind < HARBOR_KIND_COUNT; kind++)
		for (int i = 0; i < harbor_supply[kind]; i++)
			out->harbor[s++] = (uint8_t)kind;
	shuffle(out->harbor, BOARD_HARBORS, rng);

	if (numbers == BOARD_NUMBERS_RANDOM)
		place_numbers_random(out, rng);
	else
		place_numbers_spiral(out, rng);
}

int board_layout_valid(const struct board_layout *layout)
{
	int terrains[TERRAIN_COUNT] = {0};
	int harbors[HARBOR_KIND_COUNT] = {0};
	int tokens[13] = {0};
	int expected_tokens[13] = {0};

	for (int i = 0; i < 18; i++)
		expected_tokens[board_token_order[i]]++;
	for (int h = 0; h < BOARD_HEXES; h++) {
		int t = layout->terrain[h];
		int n = layout->number[h];
		if (t >= TERRAIN_COUNT || n > 12)
			return 0;
		terrains[t]++;
		if ((t == TERRAIN_DESERT) != (n == 0))
			return 0;
		tokens[n]++;
	}
	for (int s = 0; s < BOARD_HARBORS; s++) {
		if (layout->harbor[s] >= HARBOR_KIND_COUNT)
			return 0;
		harbors[layout->harbor[s]]++;
	}
	for (int t = 0; t < TERRAIN_COUNT; t++)
		if (terrains[t] != terrain_supply[t])
			return 0;
	for (int k = 0; k < HARBOR_KIND_COUNT; k++)
		if (harbors[k] != harbor_supply[k])
			return 0;
	for (int n = 1; n <= 12; n++)
		if (tokens[n] != expected_tokens[n])
			return 0;
	return 1;
}
