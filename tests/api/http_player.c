/*
 * http_player.c - random play over HTTP for the integration tests (see http_support.h).
 *
 * The player reads everything it needs over HTTP like any client: the view (who the game
 * waits for, open offers, the acting seat's own hand) and the acting seat's
 * GET .../actions, and sends the chosen action to the resource that makes it. Choices are
 * weighted by move type (then uniform within a type) so that games end in a few hundred
 * moves instead of the thousand of uniform play: building is preferred, a listed
 * confirm_trade is nearly always taken, and seats an open offer is addressed to answer it
 * soon. Templates are filled the way a client would: a discard of `count` cards drawn from
 * you.resources, an offer of cards the seat holds for a resource it does not give.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_support.h"

static const char *const move_types[] = {
	"build_settlement",
	"build_road",
	"build_city",
	"roll",
	"discard",
	"move_robber",
	"buy_development_card",
	"play_knight",
	"play_road_building",
	"play_year_of_plenty",
	"play_monopoly",
	"maritime_trade",
	"end_turn",
	"offer_trade",
	"accept_trade",
	"decline_trade",
	"confirm_trade",
	"withdraw_trade",
};
#define MOVE_TYPE_COUNT ((int)(sizeof move_types / sizeof move_types[0]))

/* How much more likely one type is chosen than another (per type, then uniform within),
 * tuned so that random games finish in a few hundred moves. */
static const int move_weights[] = {
	[0] = 60,    /* build_settlement */
	[1] = 12,    /* build_road */
	[2] = 80,    /* build_city */
	[3] = 10,    /* roll */
	[4] = 10,    /* discard */
	[5] = 10,    /* move_robber */
	[6] = 25,    /* buy_development_card */
	[7] = 6,     /* play_knight */
	[8] = 10,    /* play_road_building */
	[9] = 10,    /* play_year_of_plenty */
	[10] = 10,   /* play_monopoly */
	[11] = 4,    /* maritime_trade */
	[12] = 8,    /* end_turn */
	[13] = 3,    /* offer_trade (only with trades on) */
	[14] = 10,   /* accept_trade */
	[15] = 10,   /* decline_trade */
	[16] = 1000, /* confirm_trade: confirm when listed */
	[17] = 1,    /* withdraw_trade */
};

int http_move_type_index(const char *type)
{
	for (int i = 0; type && i < MOVE_TYPE_COUNT; i++)
		if (strcmp(move_types[i], type) == 0)
			return i;
	return -1;
}

const char *http_move_type_name(int index)
{
	return index >= 0 && index < MOVE_TYPE_COUNT ? move_types[index] : NULL;
}

void http_player_init(struct http_player *player, struct http_client *client, const struct http_game *game,
		      uint64_t seed, int trades)
{
	memset(player, 0, sizeof *player);
	player->client = client;
	player->game = game;
	rng_init(&player->rng, seed, 0);
	player->trades = trades;
}

void http_move_free(struct http_move *move)
{
	if (move->sent)
		json_decref(move->sent);
	http_response_free(&move->response);
	memset(move, 0, sizeof *move);
}

static const char *const resource_names[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};

static void read_hand(const json_t *view, int hand[RESOURCE_COUNT])
{
	json_t *resources = json_object_get(json_object_get(view, "you"), "resources");
	ck_assert_msg(json_is_object(resources), "the seat's view has you.resources");
	for (int r = 0; r < RESOURCE_COUNT; r++)
		hand[r] = (int)json_integer_value(json_object_get(resources, resource_names[r]));
}

/* `count` cards drawn at random from the hand. */
static json_t *random_cards(struct rng *rng, const int hand_in[RESOURCE_COUNT], int count)
{
	int hand[RESOURCE_COUNT];
	memcpy(hand, hand_in, sizeof hand);
	int taken[RESOURCE_COUNT] = {0};
	for (int i = 0; i < count; i++) {
		int total = 0;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			total += hand[r];
		ck_assert_msg(total > 0, "not enough cards to choose %d", count);
		int pick = (int)rng_below(rng, (uint32_t)total);
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			if (pick < hand[r]) {
				hand[r]--;
				taken[r]++;
				break;
			}
			pick -= hand[r];
		}
	}
	json_t *map = json_object();
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (taken[r])
			json_object_set_new(map, resource_names[r], json_integer(taken[r]));
	return map;
}

/* Fill an offer_trade template: give 1..2 cards the seat holds, want 1..2 of one resource
 * it does not give; now and then address it to some seats only. */
static void fill_offer(struct http_player *player, json_t *action, const json_t *view, int seat, int active)
{
	int hand[RESOURCE_COUNT];
	read_hand(view, hand);
	int total = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		total += hand[r];
	int give_count = total >= 2 && rng_below(&player->rng, 2) ? 2 : 1;
	json_t *give = random_cards(&player->rng, hand, give_count);
	int options[RESOURCE_COUNT], option_count = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (!json_object_get(give, resource_names[r]))
			options[option_count++] = r;
	int want = options[rng_below(&player->rng, (uint32_t)option_count)];
	json_object_set_new(action, "give", give);
	json_object_set_new(action, "want",
			    json_pack("{s:i}", resource_names[want], 1 + (int)rng_below(&player->rng, 2)));
	if (active && !json_object_get(action, "to") && rng_below(&player->rng, 3) == 0) {
		json_t *to = json_array();
		for (int s = 0; s < player->game->seats; s++)
			if (s != seat && (json_array_size(to) == 0 || rng_below(&player->rng, 2)))
				json_array_append_new(to, json_integer(s));
		json_object_set_new(action, "to", to);
	}
	/* An inactive seat sometimes answers an offer addressed to it with a counter-offer. */
	size_t index;
	json_t *trade;
	json_array_foreach(json_object_get(view, "trades"), index, trade)
	{
		int addressed = 0;
		size_t k;
		json_t *to;
		json_array_foreach(json_object_get(trade, "to"), k, to) addressed |= json_integer_value(to) == seat;
		if (active || !addressed || rng_below(&player->rng, 2))
			continue;
		json_object_set_new(action, "counter_to",
				    json_integer(json_integer_value(json_object_get(trade, "id"))));
		break;
	}
}

/* The seats that still owe an answer to an open offer. */
static int unanswered_seats(const json_t *view, int seats[GAME_MAX_SEATS])
{
	int count = 0;
	int mask = 0;
	size_t index;
	json_t *trade;
	json_array_foreach(json_object_get(view, "trades"), index, trade)
	{
		int answered = 0;
		size_t k;
		json_t *seat;
		json_array_foreach(json_object_get(trade, "accepted"), k, seat) answered |= 1
											    << json_integer_value(seat);
		json_array_foreach(json_object_get(trade, "declined"), k, seat) answered |= 1
											    << json_integer_value(seat);
		json_array_foreach(json_object_get(trade, "to"), k, seat)
		{
			int s = (int)json_integer_value(seat);
			if (!(answered >> s & 1) && !(mask >> s & 1)) {
				mask |= 1 << s;
				seats[count++] = s;
			}
		}
	}
	return count;
}

/* The seat's actions (new reference), and the version they were listed at. */
static json_t *actions_of(struct http_player *player, int seat, long *version)
{
	char path[192];
	json_t *body = http_get_ok(player->client, http_game_read_path(player->game, "/actions", path, sizeof path),
				   player->game->tokens[seat]);
	json_t *actions = json_incref(json_object_get(body, "actions"));
	ck_assert_msg(json_is_array(actions), "actions is an array");
	ck_assert_int_eq(json_integer_value(json_object_get(body, "seat")), seat);
	*version = (long)json_integer_value(json_object_get(body, "version"));
	http_game_note_version(player->game, *version);
	json_decref(body);
	return actions;
}

/* A weighted random action (borrowed from `actions`). */
static json_t *choose_action(struct http_player *player, json_t *actions)
{
	int weight_of_type[MOVE_TYPE_COUNT] = {0};
	size_t index;
	json_t *action;
	json_array_foreach(actions, index, action)
	{
		const char *type = json_string_value(json_object_get(action, "type"));
		int t = http_move_type_index(type);
		ck_assert_msg(t >= 0, "unknown action type %s", type ? type : "(none)");
		if (t == 13 && !player->trades)
			continue;
		weight_of_type[t] = move_weights[t];
	}
	int total = 0;
	for (int t = 0; t < MOVE_TYPE_COUNT; t++)
		total += weight_of_type[t];
	if (total == 0)
		return NULL;
	int pick = (int)rng_below(&player->rng, (uint32_t)total);
	int chosen = 0;
	for (int t = 0; t < MOVE_TYPE_COUNT; t++) {
		if (pick < weight_of_type[t]) {
			chosen = t;
			break;
		}
		pick -= weight_of_type[t];
	}
	int of_type = 0;
	json_array_foreach(actions, index, action) of_type +=
		strcmp(json_string_value(json_object_get(action, "type")), move_types[chosen]) == 0;
	int nth = (int)rng_below(&player->rng, (uint32_t)of_type);
	json_array_foreach(actions, index, action)
	{
		if (strcmp(json_string_value(json_object_get(action, "type")), move_types[chosen]) == 0 && nth-- == 0)
			return action;
	}
	return NULL;
}

static int moves_for(const struct http_player *player, int seat)
{
	return !player->humans || (player->humans >> seat & 1u);
}

/* Keep the seats the player moves for; their number. */
static int keep_own(const struct http_player *player, int seats[], int count)
{
	int kept = 0;
	for (int i = 0; i < count; i++)
		if (moves_for(player, seats[i]))
			seats[kept++] = seats[i];
	return kept;
}

#define STEP_AGAIN (-1)

/* One step as http_player_step(), or STEP_AGAIN when the player moves for some seats only
 * and none of them could move (after a long-poll) or a bot moved under it. */
static int step_once(struct http_player *player, struct http_move *move)
{
	const struct http_game *game = player->game;
	struct http_client *client = player->client;
	for (int s = 0; !moves_for(player, player->last_seat) && s < game->seats; s++)
		player->last_seat = s;
	int seat = player->last_seat;
	char read_path[192];
	json_t *view =
		http_get_ok(client, http_game_read_path(game, NULL, read_path, sizeof read_path), game->tokens[seat]);
	const char *status = json_string_value(json_object_get(view, "status"));
	ck_assert_msg(status != NULL, "the view has a status");
	if (strcmp(status, "finished") == 0) {
		json_decref(view);
		return 0;
	}
	long read_version = (long)json_integer_value(json_object_get(view, "version"));
	http_game_note_version(game, read_version);
	int waiting[GAME_MAX_SEATS], waiting_count = 0;
	size_t index;
	json_t *value;
	json_array_foreach(json_object_get(json_object_get(view, "pending"), "seats"), index,
			   value) if (waiting_count < GAME_MAX_SEATS) waiting[waiting_count++] =
		(int)json_integer_value(value);
	ck_assert_msg(waiting_count > 0, "a game in progress waits for someone");
	int answering[GAME_MAX_SEATS];
	int answering_count = unanswered_seats(view, answering);
	waiting_count = keep_own(player, waiting, waiting_count);
	answering_count = keep_own(player, answering, answering_count);
	if (waiting_count == 0 && answering_count == 0) {
		/* Only the server's bots have something to do: wait for their moves. */
		json_decref(view);
		http_game_wait(client, game, read_version, 10);
		return STEP_AGAIN;
	}
	int chosen = answering_count && (waiting_count == 0 || rng_below(&player->rng, 10) < 8)
			     ? answering[rng_below(&player->rng, (uint32_t)answering_count)]
			     : waiting[rng_below(&player->rng, (uint32_t)waiting_count)];
	long actions_version;
	json_t *actions = actions_of(player, chosen, &actions_version);
	if (json_array_size(actions) == 0 && waiting_count && chosen != waiting[0]) {
		json_decref(actions);
		chosen = waiting[0];
		actions = actions_of(player, chosen, &actions_version);
	}
	if (actions_version != read_version) {
		/* A bot moved between the two reads: the hand in the view may not be the hand the
		 * actions were listed for (an offer template with no card to give). Read again. */
		json_decref(actions);
		json_decref(view);
		player->races++;
		return STEP_AGAIN;
	}
	if (json_array_size(actions) == 0 && player->humans && http_game_version(client, game) > read_version) {
		json_decref(actions);
		json_decref(view);
		player->races++;
		return STEP_AGAIN;
	}
	ck_assert_msg(json_array_size(actions) > 0, "seat %d, which the game waits for, has no actions", chosen);
	json_t *picked = choose_action(player, actions);
	ck_assert_msg(picked != NULL, "no action to choose for seat %d", chosen);
	json_t *action = json_deep_copy(picked);
	json_decref(actions);
	if (chosen != seat) {
		json_decref(view);
		view = http_get_ok(client, http_game_read_path(game, NULL, read_path, sizeof read_path),
				   game->tokens[chosen]);
		seat = chosen;
	}
	player->last_seat = seat;

	const char *type = json_string_value(json_object_get(action, "type"));
	int type_index = http_move_type_index(type);
	if (json_is_true(json_object_get(action, "template"))) {
		/* The recipe of the contract (Action): keep type, to and counter_to, drop template,
		 * count and hand, add the choice. */
		json_object_del(action, "template");
		json_object_del(action, "hand");
		if (type_index == 4) {
			int hand[RESOURCE_COUNT];
			read_hand(view, hand);
			int count = (int)json_integer_value(json_object_get(action, "count"));
			ck_assert_msg(count > 0, "a discard template carries its count");
			json_object_del(action, "count");
			json_object_del(action, "hand");
			json_object_set_new(action, "resources", random_cards(&player->rng, hand, count));
		} else if (type_index == 13) {
			int active = json_integer_value(json_object_get(json_object_get(view, "turn"), "seat")) == seat;
			fill_offer(player, action, view, seat, active);
		} else if (type_index == 3) {
			json_object_set_new(action, "dice",
					    json_pack("[i, i]", 1 + (int)rng_below(&player->rng, 6),
						      1 + (int)rng_below(&player->rng, 6)));
		} else {
			ck_abort_msg("unexpected template %s", type);
		}
	}
	json_decref(view);

	/* Where the action goes: trades have resources of their own. */
	char path[128];
	const char *method = "POST";
	json_t *body = action;
	int trade = (int)json_integer_value(json_object_get(action, "trade"));
	char suffix[48];
	if (type_index == 13) {
		json_object_del(action, "type");
		if (json_integer_value(json_object_get(action, "counter_to")) == 0)
			json_object_del(action, "counter_to");
		http_game_path(game, "/trades", path, sizeof path);
		if (json_object_get(action, "counter_to"))
			player->counter_offers++;
		else
			player->offers++;
	} else if (type_index >= 14) {
		static const char *const verbs[] = {"accept", "decline", "confirm", NULL};
		json_object_del(action, "type");
		json_object_del(action, "trade");
		if (type_index == 17) {
			method = "DELETE";
			snprintf(suffix, sizeof suffix, "/trades/%d", trade);
			body = NULL;
			player->withdrawals++;
		} else {
			snprintf(suffix, sizeof suffix, "/trades/%d/%s", trade, verbs[type_index - 14]);
			if (json_object_size(action) == 0)
				body = NULL;
			player->accepts += type_index == 14;
			player->declines += type_index == 15;
			player->confirms += type_index == 16;
		}
		http_game_path(game, suffix, path, sizeof path);
	} else {
		http_game_path(game, "/moves", path, sizeof path);
	}
	struct http_response response;
	http_call_json(client, method, path, game->tokens[seat], body, NULL, &response);
	if ((response.status == 404 || response.status == 409 || response.status == 422) && player->humans &&
	    http_game_version(client, game) > read_version) {
		http_response_free(&response);
		json_decref(action);
		player->races++;
		return STEP_AGAIN;
	}
	if (response.status < 200 || response.status > 299) {
		char *sent = body ? json_dumps(body, JSON_COMPACT) : NULL;
		ck_abort_msg("seat %d %s %s %s: %s", seat, method, path, sent ? sent : "", http_describe(&response));
	}
	ck_assert_msg(response.json && json_is_integer(json_object_get(response.json, "version")),
		      "a move answers its version: %s", http_describe(&response));
	http_game_note_version(game, (long)json_integer_value(json_object_get(response.json, "version")));
	player->moves++;
	if (type_index >= 0 && type_index < 32)
		player->type_counts[type_index]++;
	if (move) {
		memset(move, 0, sizeof *move);
		move->seat = seat;
		snprintf(move->method, sizeof move->method, "%s", method);
		snprintf(move->path, sizeof move->path, "%s", path);
		move->sent = body ? json_incref(body) : NULL;
		move->response = response;
	} else {
		http_response_free(&response);
	}
	json_decref(action);
	return 1;
}

int http_player_step(struct http_player *player, struct http_move *move)
{
	/* Each retry follows a change of the game (or a long-poll), so a few hundred in a row
	 * mean the player is stuck. */
	for (int attempt = 0; attempt < 500; attempt++) {
		int outcome = step_once(player, move);
		if (outcome != STEP_AGAIN)
			return outcome;
	}
	ck_abort_msg("game %s: the player found no move for its seats 500 times in a row", player->game->id);
	return 0;
}

int http_player_finish(struct http_player *player, int max_moves)
{
	int moves = 0;
	while (http_player_step(player, NULL)) {
		moves++;
		ck_assert_msg(moves <= max_moves, "game %s not finished after %d moves", player->game->id, max_moves);
	}
	char path[192];
	json_t *view = http_get_ok(player->client, http_game_read_path(player->game, NULL, path, sizeof path), NULL);
	ck_assert_str_eq(json_string_value(json_object_get(view, "status")), "finished");
	ck_assert_str_eq(json_string_value(json_object_get(view, "phase")), "finished");
	json_t *winner = json_object_get(view, "winner");
	ck_assert_msg(json_is_integer(winner) && json_integer_value(winner) >= 0 &&
			      json_integer_value(winner) < player->game->seats,
		      "a finished game has a winner");
	json_decref(view);
	return moves;
}
