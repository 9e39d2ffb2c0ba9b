/*
 * test_async_bots.c - bot seats: the server plays them as soon as the game waits for them,
 * through the same decide path as any player, alongside seats played over HTTP.
 *
 * A hundred complete games of 3 or 4 seats with 1 to 4 bot seats (placed at random), the
 * other seats played by the tests' random player by their tokens (tests/api/http_player.c,
 * which long-polls while only bots have something to do), all reach a winner. In every
 * game the store's log says who made each append: a bot seat's moves, and only a bot
 * seat's, have origin "bot"; every offer a human makes to a bot is answered by it. A game
 * of four bots plays itself to the end; its time from creation to winner is printed.
 *
 * Games run on several threads at once, each with its own connection, half of them through
 * the Prism proxy (every response checked against the spec), half directly.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MIXED_GAMES 100
#define THREADS 8
#define MAX_MOVES 5000
#define GAME_TIMEOUT_S 120
#define ANSWER_WITHIN_S 2.0 /* a bot's answer to an offer, on a loaded server */
#define STALL_S 1.0	    /* the longest pause between two moves of a game of bots */

static const char *string_of(const json_t *object, const char *member)
{
	const char *value = json_string_value(json_object_get(object, member));
	return value ? value : "";
}

static long integer_of(const json_t *object, const char *member)
{
	return (long)json_integer_value(json_object_get(object, member));
}

/* ---- What the store says a game was ---- */

struct bot_tally {
	long bot_moves, player_moves;
	long offers_to_bots;   /* offers made by players to bot seats */
	long answered_by_bots; /* ... answered by every bot addressed before they closed */
	long offers_by_bots;
	double slowest_answer;	   /* the longest a bot took to answer an offer */
	double longest_unanswered; /* the longest an offer stayed open to a bot that never answered */
};

/* Every append's origin agrees with its seat: "bot" exactly for the bot seats' moves. And
 * offers made to bot seats: how soon each bot answered, or how long the offer stayed open
 * when the player closed it first (confirming with another seat, withdrawing, ending the
 * turn: players do not wait for answers). */
static void check_origins(const struct http_game *game, struct bot_tally *tally)
{
	json_t *rows = http_truth_rows(game->id, 0);
	struct open_offer {
		int id;
		unsigned to, answered;
		double at;
	} offers[64];
	int offer_count = 0;
	size_t index;
	json_t *row;
	json_array_foreach(rows, index, row)
	{
		if (index == 0)
			continue; /* game_created */
		int actor = (int)integer_of(row, "actor");
		const char *origin = string_of(row, "origin");
		double at = json_real_value(json_object_get(row, "at"));
		json_t *event = json_object_get(row, "event");
		const char *type = string_of(event, "type");
		int bot = actor >= 0 && (game->bots >> actor & 1u);
		ck_assert_msg(strcmp(origin, bot ? "bot" : "player") == 0,
			      "game %s version %zu: %s of %s seat %d from %s", game->id, index + 1, type,
			      bot ? "bot" : "player", actor, origin);
		if (bot)
			tally->bot_moves++;
		else
			tally->player_moves++;
		int trade = (int)integer_of(event, "trade");
		if (strcmp(type, "trade_offered") == 0) {
			unsigned to = 0;
			size_t k;
			json_t *seat;
			json_array_foreach(json_object_get(event, "to"), k, seat) to |= 1u << json_integer_value(seat);
			if (bot) {
				tally->offers_by_bots++;
			} else if (to & game->bots) {
				ck_assert_msg(offer_count < 64, "too many open offers");
				offers[offer_count++] = (struct open_offer){trade, to & game->bots, 0, at};
				tally->offers_to_bots++;
			}
			continue;
		}
		int answer = strcmp(type, "trade_accepted") == 0 || strcmp(type, "trade_declined") == 0;
		int turn_over = strcmp(type, "turn_ended") == 0 || strcmp(type, "game_won") == 0;
		int closed = strcmp(type, "trade_completed") == 0 || strcmp(type, "trade_withdrawn") == 0;
		for (int i = 0; i < offer_count; i++) {
			struct open_offer *offer = &offers[i];
			if (answer && offer->id == trade && (offer->to >> actor & 1u)) {
				offer->answered |= 1u << actor;
				if (at - offer->at > tally->slowest_answer)
					tally->slowest_answer = at - offer->at;
			}
			if (turn_over || (closed && offer->id == trade)) {
				if (offer->answered == offer->to)
					tally->answered_by_bots++;
				else if (at - offer->at > tally->longest_unanswered)
					tally->longest_unanswered = at - offer->at;
				*offer = offers[--offer_count];
				i--;
			}
		}
	}
	json_decref(rows);
}

static void tally_add(struct bot_tally *sum, const struct bot_tally *one)
{
	sum->bot_moves += one->bot_moves;
	sum->player_moves += one->player_moves;
	sum->offers_to_bots += one->offers_to_bots;
	sum->answered_by_bots += one->answered_by_bots;
	sum->offers_by_bots += one->offers_by_bots;
	sum->slowest_answer = one->slowest_answer > sum->slowest_answer ? one->slowest_answer : sum->slowest_answer;
	sum->longest_unanswered =
		one->longest_unanswered > sum->longest_unanswered ? one->longest_unanswered : sum->longest_unanswered;
}

/* ---- Mixed games ---- */

struct mixed_run {
	atomic_int next;
	uint64_t seed;
	pthread_mutex_t lock;
	struct bot_tally tally;
	int finished, moves, races, all_bot_games;
	int by_bots[GAME_MAX_SEATS + 1];
	double slowest;
};

static uint8_t random_bots(struct rng *rng, int seats, int count)
{
	uint8_t bots = 0;
	while (__builtin_popcount(bots) < count)
		bots |= (uint8_t)(1u << rng_below(rng, (uint32_t)seats));
	return bots;
}

static void play_mixed_game(struct mixed_run *run, int index, struct http_client *with)
{
	struct rng rng;
	rng_init(&rng, run->seed, (uint64_t)index + 1);
	int seats = 3 + index % 2;
	int bot_count = 1 + (index / 2) % seats;
	uint8_t bots = random_bots(&rng, seats, bot_count);
	char players[512], body[768];
	http_players_json(seats, bots, players, sizeof players);
	snprintf(body, sizeof body, "{\"players\": %s, \"options\": {\"layout\": \"random\"}}", players);
	double started = http_clock();
	struct http_game game;
	http_game_create_body(with, body, &game);
	ck_assert_int_eq(game.bots, bots);
	int moves = 0, races = 0;
	if (bot_count == seats) {
		ck_assert_msg(http_game_wait_finished(with, &game, GAME_TIMEOUT_S), "all-bot game %s did not finish",
			      game.id);
	} else {
		struct http_player player;
		http_player_init(&player, with, &game, run->seed ^ (uint64_t)index, 1);
		player.humans = (uint8_t)(((1u << seats) - 1) & ~bots);
		moves = http_player_finish(&player, MAX_MOVES);
		races = player.races;
	}
	double took = http_clock() - started;
	json_t *view = http_get_ok(with, game.path, NULL);
	ck_assert_str_eq(string_of(view, "status"), "finished");
	int winner = (int)integer_of(view, "winner");
	ck_assert_msg(winner >= 0 && winner < seats, "game %s has no winner", game.id);
	json_decref(view);
	struct bot_tally tally = {0};
	check_origins(&game, &tally);
	ck_assert_msg(tally.bot_moves > 0, "game %s: no bot moved", game.id);

	pthread_mutex_lock(&run->lock);
	run->finished++;
	run->moves += moves;
	run->races += races;
	run->all_bot_games += bot_count == seats;
	run->by_bots[bot_count]++;
	tally_add(&run->tally, &tally);
	run->slowest = took > run->slowest ? took : run->slowest;
	pthread_mutex_unlock(&run->lock);
}

static void *play_games(void *argument)
{
	struct mixed_run *run = argument;
	int index;
	while ((index = atomic_fetch_add(&run->next, 1)) < MIXED_GAMES) {
		struct http_client own;
		http_client_init(&own, index % 2 ? http_fixture.server.url : http_fixture.proxy.url, index % 2 == 0);
		play_mixed_game(run, index, &own);
		http_client_cleanup(&own);
	}
	return NULL;
}

START_TEST(test_a_hundred_games_with_1_to_4_bot_seats_beside_random_players_all_end_with_a_winner)
{
	struct mixed_run run;
	memset(&run, 0, sizeof run);
	atomic_init(&run.next, 0);
	pthread_mutex_init(&run.lock, NULL);
	run.seed = http_random64();
	double started = http_clock();
	pthread_t threads[THREADS];
	for (int t = 0; t < THREADS; t++)
		pthread_create(&threads[t], NULL, play_games, &run);
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	pthread_mutex_destroy(&run.lock);
	fprintf(stderr,
		"%d games (seed %llu; with 1/2/3/4 bots: %d/%d/%d/%d, %d all bots) in %.1f s, slowest %.1f s: %ld bot "
		"moves, %ld player moves (%d HTTP moves, %d raced by a bot); players' offers to bots %ld, answered by "
		"every bot addressed %ld (slowest answer %.0f ms; the others closed by the player after at most %.0f "
		"ms); bots' offers %ld\n",
		run.finished, (unsigned long long)run.seed, run.by_bots[1], run.by_bots[2], run.by_bots[3],
		run.by_bots[4], run.all_bot_games, http_clock() - started, run.slowest, run.tally.bot_moves,
		run.tally.player_moves, run.moves, run.races, run.tally.offers_to_bots, run.tally.answered_by_bots,
		run.tally.slowest_answer * 1000, run.tally.longest_unanswered * 1000, run.tally.offers_by_bots);
	ck_assert_int_eq(run.finished, MIXED_GAMES);
	ck_assert_msg(run.tally.offers_to_bots >= 20, "only %ld offers to bots: nothing to check",
		      run.tally.offers_to_bots);
	/* Bots answer within milliseconds; an offer the player closed before they answered was
	 * open no longer than that, whatever the load. */
	ck_assert_msg(run.tally.answered_by_bots * 4 >= run.tally.offers_to_bots,
		      "bots answered only %ld of the %ld offers made to them", run.tally.answered_by_bots,
		      run.tally.offers_to_bots);
	ck_assert_msg(run.tally.longest_unanswered < ANSWER_WITHIN_S * http_slowdown(),
		      "an offer to a bot stayed open %.2f s without its answer", run.tally.longest_unanswered);
}
END_TEST

/* An offer made to bot seats is answered by each of them at once, by the bot. (Ann answers
 * nothing the bots offer her: offer_wait_s 0 has them carry on at once; their waits for
 * people are test_async_bot_offers.c's.) */
START_TEST(test_bot_seats_answer_an_offer_addressed_to_them_at_once)
{
	struct http_game game;
	http_game_create_body(
		&http_fixture.checked,
		"{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bo\", \"bot\": true}, {\"name\": \"Cy\", "
		"\"bot\": true}], \"options\": {\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": "
		"\"manual\", \"first_seat\": 0, \"offer_wait_s\": 0}}",
		&game);
	ck_assert_int_eq(game.bots, 6);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	json_t *view = http_get_ok(&http_fixture.checked, game.path, game.tokens[0]);
	json_t *hand = json_object_get(json_object_get(view, "you"), "resources");
	const char *give = NULL;
	static const char *const names[] = {"brick", "lumber", "wool", "grain", "ore"};
	for (int r = 0; r < 5 && !give; r++)
		if (integer_of(hand, names[r]) > 0)
			give = names[r];
	ck_assert_msg(give != NULL, "seat 0 holds no card to offer");
	char body[128], path[160];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}, \"to\": [1, 2]}", give,
		 strcmp(give, "ore") ? "ore" : "grain");
	json_decref(view);
	struct http_response response;
	double offered = http_clock();
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/trades", path, sizeof path), game.tokens[0],
		  body, NULL, &response);
	ck_assert_msg(response.status == 201, "offer: %s", http_describe(&response));
	long version = integer_of(response.json, "version");
	int trade = (int)integer_of(response.json, "id");
	http_response_free(&response);
	/* Both answers, by the bots, come without anyone else moving. */
	unsigned answered = 0;
	while (answered != 6u) {
		ck_assert_msg(http_clock() - offered < 10, "the bots answered %x of 6 within 10 s", answered);
		version = http_game_wait(&http_fixture.checked, &game, version, 5);
		json_t *rows = http_truth_rows(game.id, 0);
		size_t index;
		json_t *row;
		answered = 0;
		json_array_foreach(rows, index, row)
		{
			json_t *event = json_object_get(row, "event");
			const char *type = string_of(event, "type");
			if ((strcmp(type, "trade_accepted") == 0 || strcmp(type, "trade_declined") == 0) &&
			    integer_of(event, "trade") == trade) {
				ck_assert_str_eq(string_of(row, "origin"), "bot");
				answered |= 1u << integer_of(row, "actor");
			}
		}
		json_decref(rows);
	}
	fprintf(stderr, "two bots answered an offer within %.0f ms\n", (http_clock() - offered) * 1000);
	/* The turn is still seat 0's: the bots only answered. */
	view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert_int_eq(integer_of(json_object_get(view, "turn"), "seat"), 0);
	json_decref(view);
	/* Ending it hands the game to the bots, who play their turns and give it back. */
	long ended = http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"end_turn\"}");
	for (;;) {
		view = http_get_ok(&http_fixture.checked, game.path, NULL);
		int seat = (int)integer_of(json_object_get(view, "turn"), "seat");
		long now = integer_of(view, "version");
		json_decref(view);
		if (seat == 0 && now > ended)
			break;
		ck_assert_msg(http_clock() - offered < 20, "the bots did not give the turn back");
		http_game_wait(&http_fixture.checked, &game, now, 5);
	}
}
END_TEST

/* Four bots, no player: the game runs to its end by itself, persisted event by event,
 * without a pause between moves. Some games are longer than the moves a worker makes in
 * one go (game/worker.c lets go of a game after CHAIN_LIMIT, 500, moves): seeded games known
 * to be that long come first, then random ones until one of them was. */
START_TEST(test_a_game_of_four_bots_finishes_by_itself)
{
	enum { GAMES = 3, GAMES_MAX = 12, CHAIN_MOVES = 500 };
	static const int long_seeds[] = {13, 6, 2};
	double took[GAMES_MAX];
	long events = 0, bot_appends = 0;
	int games = 0, long_games = 0;
	long observed_before = http_metric(&http_fixture.direct, "catan_bot_move_lateness_seconds_count");
	ck_assert_msg(observed_before >= 0, "/metrics has the bots' lateness histogram");
	while (games < GAMES || (long_games == 0 && games < GAMES_MAX)) {
		char players[512], seed[48] = "", body[768];
		http_players_json(4, 0xf, players, sizeof players);
		if (games < (int)(sizeof long_seeds / sizeof long_seeds[0]))
			snprintf(seed, sizeof seed, ", \"seed\": %d", long_seeds[games]);
		snprintf(body, sizeof body, "{\"players\": %s, \"options\": {\"layout\": \"random\"%s}}", players,
			 seed);
		double started = http_clock();
		struct http_game game;
		http_game_create_body(&http_fixture.direct, body, &game);
		ck_assert_msg(http_game_wait_finished(&http_fixture.direct, &game, GAME_TIMEOUT_S),
			      "4-bot game %s did not finish", game.id);
		took[games] = http_clock() - started;
		struct bot_tally tally = {0};
		check_origins(&game, &tally);
		ck_assert_int_eq(tally.player_moves, 0);
		events += tally.bot_moves + 1;
		json_t *view = http_get_ok(&http_fixture.direct, game.path, NULL);
		ck_assert(integer_of(view, "winner") >= 0);
		json_decref(view);
		/* No move waits for a timer's lease to run out. */
		json_t *rows = http_truth_rows(game.id, 0);
		double gap = 0;
		long appends = 0, at_version = 0;
		for (size_t i = 1; i < json_array_size(rows); i++) {
			double before = json_real_value(json_object_get(json_array_get(rows, i - 1), "at"));
			double now = json_real_value(json_object_get(json_array_get(rows, i), "at"));
			appends += now != before;
			if (now - before > gap) {
				gap = now - before;
				at_version = (long)i + 1;
			}
		}
		json_decref(rows);
		fprintf(stderr, "4-bot game %s: %ld appends in %.0f ms; longest pause %.0f ms, before version %ld\n",
			game.id, appends, took[games] * 1000, gap * 1000, at_version);
		ck_assert_msg(gap < STALL_S * http_slowdown(), "game %s paused %.2f s before version %ld", game.id, gap,
			      at_version);
		long_games += appends > CHAIN_MOVES;
		bot_appends += appends;
		games++;
	}
	/* Every bot move is timed from the moment it fell due (game/worker.c). */
	long observed = http_metric(&http_fixture.direct, "catan_bot_move_lateness_seconds_count") - observed_before;
	ck_assert_msg(observed >= bot_appends, "%ld bot moves timed of %ld appended", observed, bot_appends);
	ck_assert_msg(long_games > 0, "no game of more than %d moves in %d games", CHAIN_MOVES, games);
	double median = http_median(took, games);
	fprintf(stderr, "4-bot game: %.0f ms from creation to winner (median of %d; %ld events per game)\n",
		median * 1000, games, events / games);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_bots");
	TCase *bots = tcase_create("bots");
	http_fixture_add(bots, HTTP_FIXTURE_VALIDATE_REQUESTS, NULL);
	tcase_set_timeout(bots, 240);
	tcase_add_test(bots, test_a_game_of_four_bots_finishes_by_itself);
	tcase_add_test(bots, test_bot_seats_answer_an_offer_addressed_to_them_at_once);
	tcase_add_test(bots, test_a_hundred_games_with_1_to_4_bot_seats_beside_random_players_all_end_with_a_winner);
	suite_add_tcase(suite, bots);
	return suite;
}
