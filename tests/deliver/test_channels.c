/*
 * test_channels.c - the chat messages of Discord and Slack webhooks (deliver/channels.c) on
 * engine states alone: when a channel hears of the game, what the messages say and how
 * they are shaped, names that cannot forge a mention, the rate-limit answers read, and the
 * rules for mentions. No server, no database (tests/api/test_async_channels.c has them).
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "codec/places.h"
#include "deliver/channels.h"
#include "deliver/summary.h"
#include "db/store_webhooks.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static struct game started(void)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	return game;
}

static struct channels_turn about(const struct event *recent, int recent_count)
{
	struct channels_turn turn = {"0123456789abcdef",
				     {"Alice", "<!channel> & co", NULL, NULL},
				     "https://catan.example.org/v1/games/0123456789abcdef/board.png?version=40",
				     "https://catan.example.org/#game=0123456789abcdef",
				     40,
				     {CHANNELS_TURN, 1u << 1, {0}}, /* seat 1's turn */
				     recent,
				     recent_count,
				     0};
	return turn;
}

START_TEST(test_a_channel_hears_of_each_turn_of_a_person_discards_offers_to_others_and_the_end_only)
{
	static const uint8_t no_bots[GAME_MAX_SEATS] = {0}, seat_1_bot[GAME_MAX_SEATS] = {0, 1, 0, 0};
	struct channels_moment moment;
	struct game before = started(), after = before;
	ck_assert_int_eq(channels_moment_of(&before, &after, no_bots, -1, &moment), 0);
	support_roll(&after, 1, 1); /* roll -> main: the same turn, a sub-step of its seat */
	ck_assert_int_eq(channels_moment_of(&before, &after, no_bots, -1, &moment), 0);
	struct game next = after;
	support_next_turn(&next, 1, 1); /* end turn and roll: seat 1's turn */
	ck_assert_int_eq(channels_moment_of(&after, &next, no_bots, -1, &moment), 1);
	ck_assert_int_eq(moment.kind, CHANNELS_TURN);
	ck_assert_int_eq(moment.seats, 1u << 1);
	ck_assert_int_eq(channels_moment_of(&after, &next, no_bots, 1, &moment), 1);
	ck_assert_int_eq(channels_moment_of(&after, &next, no_bots, 0, &moment), 0);	 /* seat 0's your_turn hook */
	ck_assert_int_eq(channels_moment_of(&after, &next, seat_1_bot, -1, &moment), 0); /* a bot's turn: nothing */
	/* A 7: the seats other than the roller that owe a discard, people only. */
	struct game seven = next;
	seven.phase = GAME_PHASE_DISCARD;
	seven.players[0].discard_owed = 4;
	seven.players[1].discard_owed = 5;
	ck_assert_int_eq(channels_moment_of(&next, &seven, no_bots, -1, &moment), 1);
	ck_assert_int_eq(moment.kind, CHANNELS_DISCARD);
	ck_assert_int_eq(moment.seats, 1u << 0);
	static const uint8_t seat_0_bot[GAME_MAX_SEATS] = {1, 0, 0, 0};
	ck_assert_int_eq(channels_moment_of(&next, &seven, seat_0_bot, -1, &moment), 0);
	/* A new offer of seat 1's to seats 0 and 2: those two; its answers post nothing. */
	struct game offered = next;
	offered.offers[0] = (struct game_offer){.id = 7, .from = 1, .to = 1u << 0 | 1u << 2};
	offered.offers[0].give[RESOURCE_ORE] = 1;
	ck_assert_int_eq(channels_moment_of(&next, &offered, no_bots, -1, &moment), 1);
	ck_assert_int_eq(moment.kind, CHANNELS_OFFER);
	ck_assert_int_eq(moment.seats, 1u << 0 | 1u << 2);
	ck_assert_int_eq(moment.offer.id, 7);
	struct game answered = offered;
	answered.offers[0].declined = 1u << 0;
	ck_assert_int_eq(channels_moment_of(&offered, &answered, no_bots, -1, &moment), 0);
	struct game over = next;
	over.phase = GAME_PHASE_FINISHED;
	over.winner = 2;
	ck_assert_int_eq(channels_moment_of(&next, &over, no_bots, 0, &moment), 1);
	ck_assert_int_eq(moment.kind, CHANNELS_END);
	ck_assert_int_eq(channels_moment_of(&over, &over, no_bots, -1, &moment), 0);
}
END_TEST

START_TEST(test_a_discord_message_mentions_the_seat_and_keeps_to_discords_shape)
{
	struct game game = started();
	support_roll(&game, 1, 1);
	support_next_turn(&game, 1, 1); /* seat 1, main phase */
	struct channels_turn turn = about(NULL, 0);
	char *text = channels_message(STORE_FORMAT_DISCORD, "{\"1\": \"<@42>\", \"0\": \"<@41>\"}", &game, &turn);
	json_t *body = json_loads(text, 0, NULL);
	ck_assert_msg(body != NULL, "JSON: %s", text);
	const char *content = json_string_value(json_object_get(body, "content"));
	ck_assert_msg(content && strncmp(content, "<@42> ", 6) == 0, "the mention first: %s", text);
	ck_assert_msg(!strstr(content, "<@41>"), "only the waited-for seat is pinged: %s", text);
	ck_assert_msg(strstr(content, "trade, build or play a card"), "what the game waits for: %s", text);
	ck_assert_msg(strlen(content) <= CHANNELS_DISCORD_CONTENT_MAX, "at most 2000: %s", text);
	json_t *embed = json_array_get(json_object_get(body, "embeds"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(embed, "url")), turn.game_url);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(embed, "image"), "url")), turn.board_url);
	ck_assert_str_eq(json_string_value(json_object_get(embed, "description")),
			 "**Since your last turn**\nNothing that concerns you happened since your last turn.");
	const char *title = json_string_value(json_object_get(embed, "title"));
	ck_assert_msg(title && strstr(title, "<!channel>") == NULL && strstr(title, "version") == NULL &&
			      strncmp(title, "Turn ", 5) == 0,
		      "a title names the turn, no version: %s", text);
	/* Discord pings exactly the mention the message holds, nothing it might parse. */
	json_t *allowed = json_object_get(body, "allowed_mentions");
	ck_assert_msg(json_is_array(json_object_get(allowed, "parse")) &&
			      json_array_size(json_object_get(allowed, "parse")) == 0,
		      "parse nothing: %s", text);
	json_t *users = json_object_get(allowed, "users"), *roles = json_object_get(allowed, "roles");
	ck_assert_msg(json_array_size(users) == 1 && strcmp(json_string_value(json_array_get(users, 0)), "42") == 0 &&
			      json_is_array(roles) && json_array_size(roles) == 0 && !strstr(text, "everyone"),
		      "users [42], roles []: %s", text);
	json_decref(body);
	free(text);
}
END_TEST

START_TEST(test_a_slack_message_escapes_names_but_not_mentions_and_shows_the_picture)
{
	struct game game = started();
	support_roll(&game, 1, 1);
	support_next_turn(&game, 1, 1);
	struct event recent[1];
	memset(recent, 0, sizeof recent);
	recent[0].type = EVENT_TURN_ENDED;
	recent[0].seat = 0;
	struct channels_turn turn = about(recent, 1);
	char *text = channels_message(STORE_FORMAT_SLACK, "{\"1\": \"<@U024BE7LH>\"}", &game, &turn);
	json_t *body = json_loads(text, 0, NULL);
	ck_assert_msg(body != NULL, "JSON: %s", text);
	const char *fallback = json_string_value(json_object_get(body, "text"));
	ck_assert_msg(fallback && strncmp(fallback, "<@U024BE7LH> *&lt;!channel&gt; &amp; co*", 40) == 0,
		      "mention as is, name escaped: %s", text);
	ck_assert_msg(!strstr(text, "<!channel>"), "a name cannot ping the channel: %s", text);
	json_t *blocks = json_object_get(body, "blocks");
	const char *section =
		json_string_value(json_object_get(json_object_get(json_array_get(blocks, 0), "text"), "text"));
	ck_assert_msg(section && strstr(section, "Alice ended the turn.") && strstr(section, turn.game_url),
		      "last moves and link: %s", text);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(blocks, 1), "image_url")), turn.board_url);
	json_decref(body);
	free(text);
}
END_TEST

/* A turn's message names places by the one rule GET /board publishes (codec/places.h) and
 * tells the seat what concerns it: its production, not the others'; not the offers. */
START_TEST(test_a_turn_message_names_places_as_the_board_does_and_tells_what_concerns_the_seat)
{
	struct game game = started();
	support_roll(&game, 1, 1);
	support_next_turn(&game, 1, 1); /* seat 1's turn */
	struct event recent[4];
	memset(recent, 0, sizeof recent);
	recent[0].type = EVENT_SETTLEMENT_BUILT;
	recent[0].seat = 0;
	recent[0].node = 20;
	recent[1].type = EVENT_RESOURCES_PRODUCED;
	recent[1].gains[0][RESOURCE_ORE] = 2;
	recent[1].gains[1][RESOURCE_WOOL] = 1;
	recent[2].type = EVENT_TRADE_OFFERED;
	recent[2].seat = 0;
	recent[2].trade = 4;
	recent[3].type = EVENT_ROBBER_MOVED;
	recent[3].seat = 0;
	recent[3].hex = 7;
	struct channels_turn turn = about(recent, 4);
	char *text = channels_message(STORE_FORMAT_DISCORD, NULL, &game, &turn);
	json_t *body = json_loads(text, 0, NULL);
	const char *description =
		json_string_value(json_object_get(json_array_get(json_object_get(body, "embeds"), 0), "description"));
	char node[PLACES_NAME_SIZE], hex[PLACES_NAME_SIZE], expected[2 * PLACES_NAME_SIZE];
	places_node(&game.board, game.options.edition, 20, node, sizeof node);
	places_hex(&game.board, game.options.edition, 7, hex, sizeof hex);
	snprintf(expected, sizeof expected, "- Alice built a settlement at %s.", node);
	ck_assert_msg(description && strstr(description, expected), "%s in: %s", expected, text);
	snprintf(expected, sizeof expected, "- Alice moved the robber to %s.", hex);
	ck_assert_msg(strstr(description, expected), "%s in: %s", expected, text);
	ck_assert_msg(strstr(description, "got 1 wool.") && !strstr(description, "2 ore"),
		      "the seat's production only: %s", text);
	ck_assert_msg(!strstr(description, "offer"), "no offers: %s", text);
	ck_assert_msg(!strstr(description, "intersection") && !strstr(description, "hex 7"), "no ids: %s", text);
	json_decref(body);
	free(text);
}
END_TEST

START_TEST(test_the_end_of_the_game_names_the_winner)
{
	struct game game = started();
	game.phase = GAME_PHASE_FINISHED;
	game.winner = 0;
	struct channels_turn turn = about(NULL, 0);
	turn.moment = (struct channels_moment){CHANNELS_END, 1u << 0, {0}};
	char *text = channels_message(STORE_FORMAT_DISCORD, "{\"0\": \"<@41>\"}", &game, &turn);
	ck_assert_msg(strstr(text, "\"content\":\"<@41> **Alice** won the game with"), "%s", text);
	ck_assert_msg(strstr(text, "Final points: Alice ") && strstr(text, "\"title\":\"Game over\""), "%s", text);
	free(text);
}
END_TEST

START_TEST(test_rate_limit_answers_are_read_from_the_header_or_discords_body)
{
	ck_assert_int_eq(channels_retry_after_ms("3", NULL, 0), 3000);
	ck_assert_int_eq(channels_retry_after_ms(" 1.5 ", NULL, 0), 1500);
	const char *discord =
		"{\"message\": \"You are being rate limited.\", \"retry_after\": 0.25, \"global\": false}";
	ck_assert_int_eq(channels_retry_after_ms(NULL, discord, strlen(discord)), 250);
	ck_assert_int_eq(channels_retry_after_ms("2", discord, strlen(discord)), 2000);
	ck_assert_int_eq(channels_retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT", NULL, 0), -1);
	ck_assert_int_eq(channels_retry_after_ms(NULL, "not json", 8), -1);
	ck_assert_int_eq(channels_retry_after_ms("-1", NULL, 0), -1);
	ck_assert_int_eq(channels_retry_after_ms("999999", NULL, 0), 3600 * 1000);
}
END_TEST

START_TEST(test_mentions_are_seats_of_the_game_with_mentions_of_the_format)
{
	char why[200];
	struct {
		int format;
		const char *mentions;
	} good[] = {
		{STORE_FORMAT_DISCORD, "{}"},
		{STORE_FORMAT_DISCORD, "{\"0\": \"<@1>\", \"1\": \"<@!80351110224678912>\", \"2\": \"<@&2>\"}"},
		{STORE_FORMAT_SLACK, "{\"0\": \"<@U1>\", \"1\": \"<@W024BE7LH>\", \"2\": \"<!subteam^SAZ94GDB8>\"}"},
		{-1, NULL}};
	for (int i = 0; good[i].mentions; i++) {
		json_t *value = json_loads(good[i].mentions, 0, NULL);
		ck_assert_msg(channels_mentions_valid(value, 3, good[i].format, why, sizeof why), "%s: %s",
			      good[i].mentions, why);
		json_decref(value);
	}
	const char *bad[] = {
		"[]", "\"<@1>\"", "{\"3\": \"<@1>\"}", "{\"00\": \"<@1>\"}", "{\"0\": 1}", "{\"0\": \"\"}",
		"{\"0\": \"a\\tb\"}", "{\"0\": \"12345678901234567890123456789012345678901234567890123456789012345\"}",
		/* Text that is not one mention of the format: nothing else reaches a message. */
		"{\"1\": \"@here\"}", "{\"1\": \"@everyone\"}", "{\"1\": \"<@1> <@2>\"}", "{\"1\": \"<@1>x\"}",
		"{\"1\": \"<@>\"}", "{\"1\": \"<@&>\"}", "{\"1\": \"<#1>\"}", "{\"1\": \"<!channel>\"}",
		"{\"1\": \"[x](https://evil)\"}", "{\"1\": \"<@123456789012345678901234567>\"}", NULL};
	int formats[] = {STORE_FORMAT_DISCORD, STORE_FORMAT_SLACK};
	for (int f = 0; f < 2; f++) {
		for (int i = 0; bad[i]; i++) {
			json_t *value = json_loads(bad[i], JSON_DECODE_ANY, NULL);
			ck_assert_msg(value != NULL, "%s", bad[i]);
			ck_assert_msg(!channels_mentions_valid(value, 3, formats[f], why, sizeof why), "%s is refused",
				      bad[i]);
			ck_assert_msg(strstr(why, "mentions"), "the rule names the field: %s", why);
			json_decref(value);
		}
	}
	/* Each format's mentions are not the other's. */
	json_t *slack_user = json_loads("{\"0\": \"<@U024BE7LH>\"}", 0, NULL);
	json_t *discord_user = json_loads("{\"0\": \"<@80351110224678912>\"}", 0, NULL);
	ck_assert(!channels_mentions_valid(slack_user, 3, STORE_FORMAT_DISCORD, why, sizeof why));
	ck_assert(!channels_mentions_valid(discord_user, 3, STORE_FORMAT_SLACK, why, sizeof why));
	ck_assert(!channels_mentions_valid(discord_user, 3, STORE_FORMAT_STANDARD, why, sizeof why));
	json_decref(slack_user);
	json_decref(discord_user);
}
END_TEST

/* Hostile names (codec/escape.h has the table of every hostile input; these are the ones a
 * message must show harmless). */
static struct channels_turn hostile_about(const struct event *recent, int recent_count)
{
	struct channels_turn turn = {"0123456789abcdef",
				     {"<@&111>", "[Open the game](https://evil.example/)", "@everyone", NULL},
				     "https://catan.example.org/v1/games/0123456789abcdef/board.png?version=40",
				     "https://catan.example.org/#game=0123456789abcdef",
				     40,
				     {CHANNELS_TURN, 1u << 1, {0}}, /* seat 1's turn */
				     recent,
				     recent_count,
				     0};
	return turn;
}

/* The last moves: each hostile seat in a sentence. */
static int hostile_moves(struct event *recent)
{
	memset(recent, 0, 3 * sizeof *recent);
	recent[0].type = EVENT_TURN_ENDED;
	recent[0].seat = 0;
	recent[1].type = EVENT_RESOURCE_STOLEN;
	recent[1].seat = 1;
	recent[1].other = 2;
	recent[1].resource = RESOURCE_COUNT;
	recent[2].type = EVENT_DICE_ROLLED;
	recent[2].seat = 1;
	recent[2].dice[0] = 3;
	recent[2].dice[1] = 4;
	return 3;
}

START_TEST(test_a_hostile_name_pings_nobody_and_links_nowhere_in_discord)
{
	struct game game = started();
	support_roll(&game, 1, 1);
	support_next_turn(&game, 1, 1); /* seat 1, main phase */
	struct event recent[3];
	struct channels_turn turn = hostile_about(recent, hostile_moves(recent));
	/* Seat 1's registered mention is a role; seat 0 a user, not waited for; a stored text
	 * that is no mention (registered before the rule) is left out. */
	char *text = channels_message(STORE_FORMAT_DISCORD, "{\"0\": \"<@41>\", \"1\": \"<@&42>\", \"2\": \"@here\"}",
				      &game, &turn);
	json_t *body = json_loads(text, 0, NULL);
	ck_assert_msg(body != NULL, "JSON: %s", text);
	const char *content = json_string_value(json_object_get(body, "content"));
	const char *description =
		json_string_value(json_object_get(json_array_get(json_object_get(body, "embeds"), 0), "description"));
	ck_assert_msg(content && strncmp(content, "<@&42> **", 9) == 0, "the registered role first: %s", text);
	const char *parts[] = {content, description};
	for (int p = 0; p < 2; p++) {
		ck_assert_msg(!strstr(parts[p], "<@&111>") && !strstr(parts[p], "](") &&
				      !strstr(parts[p], "https://evil") && !strstr(parts[p], "@everyone") &&
				      !strstr(parts[p], "@here"),
			      "no raw mention, link or ping: %s", parts[p]);
	}
	ck_assert_msg(strstr(content, "**\\[Open the game\\]\\(https\\:\\/\\/evil\\.example\\/\\)**"),
		      "the name shown escaped, in bold: %s", content);
	ck_assert_msg(strstr(description, "- \\<@\xe2\x80\x8b\\&111\\> ended the turn.") &&
			      strstr(description, "stole a card from @\xe2\x80\x8b"
						  "everyone."),
		      "names escaped in the last moves: %s", description);
	json_t *allowed = json_object_get(body, "allowed_mentions");
	json_t *roles = json_object_get(allowed, "roles");
	ck_assert_msg(json_array_size(json_object_get(allowed, "parse")) == 0 &&
			      json_array_size(json_object_get(allowed, "users")) == 0 && json_array_size(roles) == 1 &&
			      strcmp(json_string_value(json_array_get(roles, 0)), "42") == 0,
		      "exactly role 42 may be pinged: %s", text);
	json_decref(body);
	free(text);
	/* The winner's mention, and a nickname mention written as a user's. */
	game.phase = GAME_PHASE_FINISHED;
	game.winner = 2;
	turn.moment = (struct channels_moment){CHANNELS_END, 1u << 2, {0}};
	text = channels_message(STORE_FORMAT_DISCORD, "{\"2\": \"<@!43>\"}", &game, &turn);
	ck_assert_msg(strstr(text, "\"content\":\"<@43> **@\xe2\x80\x8b"
				   "everyone** won the game") &&
			      strstr(text, "\"allowed_mentions\":{\"parse\":[],\"users\":[\"43\"],\"roles\":[]}"),
		      "%s", text);
	free(text);
}
END_TEST

START_TEST(test_a_hostile_name_forges_no_slack_control_sequence)
{
	struct game game = started();
	support_roll(&game, 1, 1);
	support_next_turn(&game, 1, 1);
	struct event recent[3];
	struct channels_turn turn = hostile_about(recent, hostile_moves(recent));
	turn.names[1] = "<https://evil|Open> <!channel>";
	char *text = channels_message(STORE_FORMAT_SLACK, "{\"1\": \"<!subteam^S42>\", \"0\": \"<@1>\"}", &game, &turn);
	json_t *body = json_loads(text, 0, NULL);
	ck_assert_msg(body != NULL, "JSON: %s", text);
	const char *fallback = json_string_value(json_object_get(body, "text"));
	const char *headline = "<!subteam^S42> *&lt;https://evil|Open&gt; &lt;!channel&gt;*: your turn";
	ck_assert_msg(fallback && strncmp(fallback, headline, strlen(headline)) == 0,
		      "the group mentioned, the name escaped: %s", text);
	const char *section = json_string_value(
		json_object_get(json_object_get(json_array_get(json_object_get(body, "blocks"), 0), "text"), "text"));
	ck_assert_msg(section && strstr(section, "- &lt;@\xe2\x80\x8b&amp;111&gt; ended the turn.") &&
			      !strstr(section, "<!channel>") && !strstr(section, "<https://evil"),
		      "no control sequence from a name: %s", section);
	/* Only the service's own link and the mention are sequences. */
	int opened = 0;
	for (const char *c = section; *c; c++)
		opened += *c == '<';
	ck_assert_msg(opened == 2, "two sequences (the mention and the game link): %s", section);
	json_decref(body);
	free(text);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("channels");
	TCase *tcase = tcase_create("channels");
	tcase_add_test(tcase, test_a_turn_message_names_places_as_the_board_does_and_tells_what_concerns_the_seat);
	tcase_add_test(tcase, test_a_channel_hears_of_each_turn_of_a_person_discards_offers_to_others_and_the_end_only);
	tcase_add_test(tcase, test_a_discord_message_mentions_the_seat_and_keeps_to_discords_shape);
	tcase_add_test(tcase, test_a_slack_message_escapes_names_but_not_mentions_and_shows_the_picture);
	tcase_add_test(tcase, test_the_end_of_the_game_names_the_winner);
	tcase_add_test(tcase, test_rate_limit_answers_are_read_from_the_header_or_discords_body);
	tcase_add_test(tcase, test_mentions_are_seats_of_the_game_with_mentions_of_the_format);
	tcase_add_test(tcase, test_a_hostile_name_pings_nobody_and_links_nowhere_in_discord);
	tcase_add_test(tcase, test_a_hostile_name_forges_no_slack_control_sequence);
	suite_add_tcase(suite, tcase);
	return suite;
}
