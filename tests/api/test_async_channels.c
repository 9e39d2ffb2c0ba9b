/*
 * test_async_channels.c - Discord and Slack channel webhooks as those services see them:
 * one chat message per turn change (and at the end), every one in order at least once,
 * through rate limits (429 with Retry-After, honoured: the next attempt waits at least the
 * asked time) and a receiver that fails for a while; a dead URL disabled after the bound;
 * mention texts that appear in the chat messages and nowhere else (views, the event log,
 * the webhook listings and delivery logs, a standard webhook's bodies); and registrations
 * with a bad format or bad mentions refused with a 400 naming the field.
 *
 * The receivers are tests/api/webhook_receiver.c, told to speak like the chat services
 * (webhook_receiver_throttle()); the bodies are checked for each service's shape here, in
 * the test's thread: Discord {"content" (at most 2000 characters), "embeds": [{"title",
 * "description", "url", "image": {"url"}}]}, Slack {"text", "blocks": [a mrkdwn section,
 * an image block with image_url and alt_text]}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/api/webhook_receiver.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"
#define DELIVERY_TIMEOUT_S 90
/* Each format's own mentions (a Slack id pings nobody on Discord, nor the other way round):
 * users for seats 0 and 1, a role (a Slack user group) for seat 2. */
#define MENTION_0 "<@80351110224678912>"
#define MENTION_1 "<@80351110224678913>"
#define MENTION_2 "<@&80351110224678914>"
#define MENTIONS "{\"0\": \"" MENTION_0 "\", \"1\": \"" MENTION_1 "\", \"2\": \"" MENTION_2 "\"}"
#define SLACK_MENTION_0 "<@U024BE7L0>"
#define SLACK_MENTION_1 "<@U024BE7L1>"
#define SLACK_MENTION_2 "<!subteam^SAZ94GDB8>"
#define SLACK_MENTIONS \
	"{\"0\": \"" SLACK_MENTION_0 "\", \"1\": \"" SLACK_MENTION_1 "\", \"2\": \"" SLACK_MENTION_2 "\"}"
/* CHANNEL_MAX_FAILURES of the test server: above the failures in a row that the "fails for
 * a while" receiver causes (two 503s; 429s do not count). */
#define DEAD_BOUND 4
#define DEAD_BOUND_TEXT "4"

struct hook {
	struct webhook_receiver *receiver;
	char id[32];
};

/* Register a receiver of its own with the admin token; `extra` is more members of the body
 * (", \"format\": \"discord\"" ...). */
static void hook_register(const struct http_game *game, const char *extra, struct hook *hook)
{
	hook->receiver = webhook_receiver_start();
	char body[1024], path[160];
	snprintf(body, sizeof body, "{\"url\": \"%s\"%s}", webhook_receiver_url(hook->receiver), extra);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(game, "/webhooks", path, sizeof path),
		  game->admin_token, body, NULL, &response);
	ck_assert_msg(response.status == 201, "register: %s", http_describe(&response));
	ck_assert_msg(!strstr(response.body, "<@"), "the answer shows no mention: %s", response.body);
	snprintf(hook->id, sizeof hook->id, "%s", json_string_value(json_object_get(response.json, "id")));
	/* Only a standard webhook signs, so only it is answered with a secret. */
	const char *secret = json_string_value(json_object_get(response.json, "secret"));
	const char *format = json_string_value(json_object_get(response.json, "format"));
	ck_assert_msg(format && (secret != NULL) == (strcmp(format, "standard") == 0),
		      "a secret for a standard webhook only: %s", response.body);
	if (secret)
		webhook_receiver_set_secret(hook->receiver, secret);
	http_response_free(&response);
}

/* The game's webhook `id` as GET .../webhooks lists it to the admin. New reference. */
static json_t *listed(const struct http_game *game, const char *id, char **text)
{
	char path[160];
	json_t *body = http_get_ok(&http_fixture.checked, http_game_path(game, "/webhooks", path, sizeof path),
				   game->admin_token);
	if (text)
		*text = json_dumps(body, JSON_COMPACT);
	json_t *found = NULL;
	size_t i;
	json_t *webhook;
	json_array_foreach(json_object_get(body, "webhooks"), i,
			   webhook) if (strcmp(json_string_value(json_object_get(webhook, "id")), id) == 0) found =
		json_incref(webhook);
	json_decref(body);
	ck_assert_msg(found != NULL, "webhook %s is listed", id);
	return found;
}

static void wait_all_delivered(const struct http_game *game, const struct hook *hooks, int count)
{
	double deadline = http_clock() + DELIVERY_TIMEOUT_S * http_slowdown();
	for (int h = 0; h < count; h++) {
		for (;;) {
			json_t *webhook = listed(game, hooks[h].id, NULL);
			long pending = (long)json_integer_value(json_object_get(webhook, "pending"));
			json_decref(webhook);
			if (pending == 0)
				break;
			ck_assert_msg(http_clock() < deadline, "webhook %s: %ld appends still to deliver", hooks[h].id,
				      pending);
			http_pause(0.1);
		}
	}
}

/* A roll of 2, or the end of the turn, in turn order: every one changes whom the game
 * waits for or its phase. The new version. */
static long idle_move(const struct http_game *game, int step)
{
	int seat = (step / 2) % game->seats;
	return http_post_move_ok(&http_fixture.checked, game, seat,
				 step % 2 ? "{\"type\": \"end_turn\"}" : "{\"type\": \"roll\", \"dice\": [1, 1]}");
}

/* The version a chat message is about: its picture's ?version=N. */
static long version_of(const char *image_url)
{
	const char *at = image_url ? strstr(image_url, "board.png?version=") : NULL;
	return at ? strtol(at + strlen("board.png?version="), NULL, 10) : -1;
}

/* UTF-8 code points. */
static size_t points(const char *text)
{
	size_t count = 0;
	for (; *text; text++)
		count += ((unsigned char)*text & 0xC0) != 0x80;
	return count;
}

/* Check one message's shape for `format` as the service would; its version, its headline
 * into headline (borrowed from body). */
static long check_shape(const char *format, const struct webhook_delivery *d, const struct http_game *game,
			const char **headline)
{
	ck_assert_msg(strcmp(d->method, "POST") == 0 && strncmp(d->content_type, "application/json", 16) == 0,
		      "a chat message is a POST of JSON: %s %s", d->method, d->content_type);
	ck_assert_msg(d->id[0] == '\0', "chat messages carry no webhook-id: %s", d->id);
	json_t *body = d->body;
	ck_assert_msg(json_is_object(body), "a chat message is a JSON object: %s", d->text);
	char game_link[160];
	snprintf(game_link, sizeof game_link, "/#game=%s", game->id);
	const char *image;
	if (strcmp(format, "discord") == 0) {
		const char *content = json_string_value(json_object_get(body, "content"));
		ck_assert_msg(content && *content && points(content) <= 2000, "discord content: %s", d->text);
		json_t *embeds = json_object_get(body, "embeds");
		ck_assert_msg(json_is_array(embeds) && json_array_size(embeds) == 1, "one embed: %s", d->text);
		json_t *embed = json_array_get(embeds, 0);
		ck_assert_msg(json_is_string(json_object_get(embed, "title")) &&
				      json_is_string(json_object_get(embed, "description")),
			      "an embed with title and description: %s", d->text);
		const char *url = json_string_value(json_object_get(embed, "url"));
		ck_assert_msg(url && strstr(url, game_link) && !strstr(url, "token"), "the game link: %s", d->text);
		image = json_string_value(json_object_get(json_object_get(embed, "image"), "url"));
		*headline = content;
	} else {
		const char *text = json_string_value(json_object_get(body, "text"));
		ck_assert_msg(text && *text, "slack text: %s", d->text);
		json_t *blocks = json_object_get(body, "blocks");
		ck_assert_msg(json_is_array(blocks) && json_array_size(blocks) == 2, "two blocks: %s", d->text);
		json_t *section = json_array_get(blocks, 0), *picture = json_array_get(blocks, 1);
		ck_assert_msg(
			strcmp(json_string_value(json_object_get(section, "type")), "section") == 0 &&
				strcmp(json_string_value(json_object_get(json_object_get(section, "text"), "type")),
				       "mrkdwn") == 0,
			"a mrkdwn section: %s", d->text);
		const char *words = json_string_value(json_object_get(json_object_get(section, "text"), "text"));
		ck_assert_msg(words && strstr(words, game_link), "the section links the game: %s", d->text);
		ck_assert_msg(strcmp(json_string_value(json_object_get(picture, "type")), "image") == 0 &&
				      json_string_length(json_object_get(picture, "alt_text")) > 0,
			      "an image block with alt_text: %s", d->text);
		image = json_string_value(json_object_get(picture, "image_url"));
		*headline = text;
	}
	ck_assert_msg(image && strncmp(image, "http", 4) == 0 && strstr(image, game->id), "the board picture: %s",
		      d->text);
	return version_of(image);
}

/* The acknowledged messages of a chat receiver, checked: each version of `expected` (in
 * order) first acknowledged in that order, nothing else; the mentions of the waited-for
 * seat present. Also the smallest gap between a 429 and the next request, into *min_gap
 * (seconds; 1e9 when there was no 429), and the number of 429 answers. */
static void assert_messages(const struct hook *hook, const char *format, const struct http_game *game,
			    const long *expected, int expected_count, double *min_gap, int *throttled)
{
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(hook->receiver, &count);
	int next = 0;
	long last = -1;
	*min_gap = 1e9;
	*throttled = 0;
	for (int i = 0; i < count; i++) {
		const char *headline;
		long version = check_shape(format, &all[i], game, &headline);
		if (all[i].answered == 429) {
			(*throttled)++;
			if (i + 1 < count && all[i + 1].at - all[i].at < *min_gap)
				*min_gap = all[i + 1].at - all[i].at;
		}
		if (all[i].answered != 200)
			continue;
		ck_assert_msg(version >= last, "%s: messages in order (version %ld after %ld)", format, version, last);
		if (version == last)
			continue; /* a duplicate: at least once */
		ck_assert_msg(next < expected_count && version == expected[next],
			      "%s: message %d is about version %ld, expected %ld", format, next, version,
			      next < expected_count ? expected[next] : -1);
		/* One message per turn: the end_turn of step 2k + 1 hands over to seat k + 1. */
		int seat = (next + 1) % game->seats;
		int slack = strcmp(format, "slack") == 0;
		const char *mention = seat == 0	  ? (slack ? SLACK_MENTION_0 : MENTION_0)
				      : seat == 1 ? (slack ? SLACK_MENTION_1 : MENTION_1)
						  : (slack ? SLACK_MENTION_2 : MENTION_2);
		ck_assert_msg(strstr(headline, mention) == headline, "%s: version %ld names seat %d first: %s", format,
			      version, seat, headline);
		last = version;
		next++;
	}
	ck_assert_msg(next == expected_count, "%s: %d of %d turn changes arrived", format, next, expected_count);
	webhook_deliveries_free(all, count);
}

/* Every body a chat receiver got, validated against the spec's schema `name`
 * (DiscordMessage or SlackMessage) by tests/api/validate_json.js. */
static void assert_bodies_keep_to_the_spec(const struct hook *hook, const char *name)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[256], command[600];
	snprintf(path, sizeof path, "%s/catan-chat-bodies-%ld.txt", tmp, (long)getpid());
	FILE *file = fopen(path, "w");
	ck_assert(file != NULL);
	int n;
	struct webhook_delivery *all = webhook_receiver_deliveries(hook->receiver, &n);
	for (int i = 0; i < n; i++)
		fprintf(file, "%s\t%s\n", name, all[i].text);
	webhook_deliveries_free(all, n);
	fclose(file);
	snprintf(command, sizeof command, "node tests/api/validate_json.js openapi/openapi.json < %s >&2", path);
	int status = system(command);
	ck_assert_msg(status == 0, "%d %s bodies in %s break the spec (validate_json.js said so above)", n, name, path);
	unlink(path);
}

START_TEST(test_every_turn_change_reaches_discord_and_slack_in_order_through_rate_limits_and_failures)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct hook discord, slack;
	hook_register(&game, ", \"format\": \"discord\", \"mentions\": " MENTIONS, &discord);
	hook_register(&game, ", \"format\": \"slack\", \"mentions\": " SLACK_MENTIONS, &slack);
	/* Discord says when in its JSON body, Slack in the header; every third request. */
	webhook_receiver_throttle(discord.receiver, 3, NULL,
				  "{\"message\": \"You are being rate limited.\", "
				  "\"retry_after\": 1.5, \"global\": false}");
	webhook_receiver_throttle(slack.receiver, 3, "1", "");
	/* Slack fails for a while first. */
	webhook_receiver_answer(slack.receiver, 503, 0);
	enum { MOVES = 12 };
	long versions[MOVES / 2]; /* the turns: each end_turn's version */
	for (int step = 0; step < 4; step++) {
		long version = idle_move(&game, step);
		if (step % 2)
			versions[step / 2] = version;
	}
	http_pause(2.5);
	webhook_receiver_answer(slack.receiver, 200, 0);
	for (int step = 4; step < MOVES; step++) {
		long version = idle_move(&game, step);
		if (step % 2)
			versions[step / 2] = version;
	}
	struct hook both[] = {discord, slack};
	wait_all_delivered(&game, both, 2);
	double gap_discord, gap_slack;
	int throttled_discord, throttled_slack;
	assert_messages(&discord, "discord", &game, versions, MOVES / 2, &gap_discord, &throttled_discord);
	assert_messages(&slack, "slack", &game, versions, MOVES / 2, &gap_slack, &throttled_slack);
	assert_bodies_keep_to_the_spec(&discord, "DiscordMessage");
	assert_bodies_keep_to_the_spec(&slack, "SlackMessage");
	ck_assert_msg(throttled_discord >= 2 && throttled_slack >= 2, "rate limited %d and %d times", throttled_discord,
		      throttled_slack);
	ck_assert_msg(gap_discord >= 1.5, "discord's retry_after 1.5 s honoured: the shortest gap was %.3f s",
		      gap_discord);
	ck_assert_msg(gap_slack >= 1.0, "Retry-After: 1 honoured: the shortest gap was %.3f s", gap_slack);
	printf("channels: %d + %d rate-limited answers; shortest gaps after them %.3f s (asked 1.5) and %.3f s "
	       "(asked 1)\n",
	       throttled_discord, throttled_slack, gap_discord, gap_slack);
	/* The delivery log says why the attempts failed. */
	char path[200];
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries?limit=500", game.path, slack.id);
	json_t *log = http_get_ok(&http_fixture.checked, path, game.admin_token);
	char *log_text = json_dumps(log, JSON_COMPACT);
	ck_assert_msg(strstr(log_text, "\"kind\":\"channel\"") && strstr(log_text, "the receiver answered 503") &&
			      strstr(log_text, "rate limited: retry after 1000 ms"),
		      "the log: %s", log_text);
	free(log_text);
	json_decref(log);
	json_t *webhook = listed(&game, discord.id, NULL);
	ck_assert(json_is_false(json_object_get(webhook, "disabled")));
	ck_assert_str_eq(json_string_value(json_object_get(webhook, "format")), "discord");
	json_decref(webhook);
	webhook_receiver_stop(discord.receiver);
	webhook_receiver_stop(slack.receiver);
}
END_TEST

/* Fail unless `text` holds no mention. */
static void assert_no_mention(const char *where, const char *text)
{
	ck_assert_msg(!strstr(text, MENTION_0) && !strstr(text, MENTION_1) && !strstr(text, MENTION_2) &&
			      !strstr(text, "80351110224678912") && !strstr(text, "80351110224678914") &&
			      !strstr(text, "U024BE7L") && !strstr(text, "SAZ94GDB8"),
		      "%s shows a mention: %s", where, text);
}

static void assert_get_has_no_mention(const struct http_game *game, const char *suffix, const char *token)
{
	char path[200];
	http_game_path(game, suffix, path, sizeof path);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "GET %s: %s", path, http_describe(&response));
	assert_no_mention(path, response.body);
	http_response_free(&response);
}

START_TEST(test_mentions_appear_in_chat_messages_and_nowhere_else)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct hook discord, standard;
	hook_register(&game, ", \"format\": \"discord\", \"mentions\": " MENTIONS, &discord);
	hook_register(&game, "", &standard);
	for (int step = 0; step < 4; step++)
		idle_move(&game, step);
	struct hook both[] = {discord, standard};
	wait_all_delivered(&game, both, 2);
	/* The chat messages carry them (the test can fail)... */
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(discord.receiver, &count);
	int mentioned = 0;
	for (int i = 0; i < count; i++)
		mentioned += strstr(all[i].text, MENTION_0) != NULL || strstr(all[i].text, MENTION_1) != NULL;
	webhook_deliveries_free(all, count);
	ck_assert_msg(mentioned > 0, "the chat messages name the seats with their mentions");
	/* ... and nothing else does. */
	all = webhook_receiver_deliveries(standard.receiver, &count);
	ck_assert_msg(count >= 4, "the standard webhook got the events (%d)", count);
	webhook_deliveries_assert_signed(all, count);
	for (int i = 0; i < count; i++)
		assert_no_mention("a standard webhook's delivery", all[i].text);
	webhook_deliveries_free(all, count);
	const char *tokens[] = {game.admin_token, game.tokens[0], game.tokens[1], game.tokens[2], NULL};
	for (int t = 0; t < 5; t++) {
		assert_get_has_no_mention(&game, "", tokens[t]);
		assert_get_has_no_mention(&game, "/moves", tokens[t]);
		assert_get_has_no_mention(&game, "/players", tokens[t]);
		assert_get_has_no_mention(&game, "/actions", tokens[t]);
	}
	char *text;
	json_decref(listed(&game, discord.id, &text));
	assert_no_mention("the webhook list", text);
	free(text);
	char suffix[120];
	snprintf(suffix, sizeof suffix, "/webhooks/%s/deliveries", discord.id);
	assert_get_has_no_mention(&game, suffix, game.admin_token);
	/* The event log as the store holds it. */
	json_t *rows = http_truth_rows(game.id, 0);
	text = json_dumps(rows, JSON_COMPACT);
	assert_no_mention("the event log", text);
	free(text);
	json_decref(rows);
	webhook_receiver_stop(discord.receiver);
	webhook_receiver_stop(standard.receiver);
}
END_TEST

/* ---- Hostile names (issue 20, item 4) ---- */

#define HOSTILE_0 "<@&111111>"
#define HOSTILE_1 "[Open the game](https://evil.example/)"
#define HOSTILE_2 "@everyone <!channel>"
#define ZWSP "\xe2\x80\x8b"

/* The ids a Discord message may ping, as its allowed_mentions says, checked to parse
 * nothing from the text; "users" and "roles" into the two arrays' texts. */
static void allowed_ids(const json_t *body, const char *text, char *users, char *roles, size_t size)
{
	json_t *allowed = json_object_get(body, "allowed_mentions");
	ck_assert_msg(json_is_object(allowed) && json_object_size(allowed) == 3, "allowed_mentions: %s", text);
	json_t *parse = json_object_get(allowed, "parse");
	ck_assert_msg(json_is_array(parse) && json_array_size(parse) == 0, "Discord parses no mention: %s", text);
	char *dumped = json_dumps(json_object_get(allowed, "users"), JSON_COMPACT);
	snprintf(users, size, "%s", dumped ? dumped : "");
	free(dumped);
	dumped = json_dumps(json_object_get(allowed, "roles"), JSON_COMPACT);
	snprintf(roles, size, "%s", dumped ? dumped : "");
	free(dumped);
}

START_TEST(test_hostile_names_reach_discord_and_slack_escaped_with_exactly_the_registered_mentions)
{
	struct http_game game;
	json_t *request = json_pack("{s:[{s:s}, {s:s}, {s:s}], s:{s:s, s:s, s:s, s:i}}", "players", "name", HOSTILE_0,
				    "name", HOSTILE_1, "name", HOSTILE_2, "options", "layout", "beginner", "start",
				    "fixed", "dice", "manual", "first_seat", 0);
	char *body = json_dumps(request, JSON_COMPACT);
	json_decref(request);
	http_game_create_body(&http_fixture.checked, body, &game);
	free(body);
	struct hook discord, slack;
	hook_register(&game, ", \"format\": \"discord\", \"mentions\": " MENTIONS, &discord);
	hook_register(&game, ", \"format\": \"slack\", \"mentions\": " SLACK_MENTIONS, &slack);
	enum { MOVES = 6 };
	for (int step = 0; step < MOVES; step++)
		idle_move(&game, step);
	struct hook both[] = {discord, slack};
	wait_all_delivered(&game, both, 2);

	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(discord.receiver, &count);
	ck_assert_msg(count >= MOVES / 2, "%d Discord messages for %d turns", count, MOVES / 2);
	int seen[3] = {0};
	for (int i = 0; i < count; i++) {
		const char *headline;
		check_shape("discord", &all[i], &game, &headline);
		const char *text = all[i].text;
		/* Not a raw hostile name anywhere in the body: content, embed, everything. */
		ck_assert_msg(!strstr(text, HOSTILE_0) && !strstr(text, "](") && !strstr(text, "https://evil") &&
				      !strstr(text, "@everyone") && !strstr(text, "<!channel>"),
			      "a raw name in a Discord message: %s", text);
		const char *description = json_string_value(
			json_object_get(json_array_get(json_object_get(all[i].body, "embeds"), 0), "description"));
		ck_assert_msg(description && !strstr(description, HOSTILE_0), "%s", text);
		/* Whom it names, escaped, and the one mention registered for that seat. */
		char users[128], roles[128];
		allowed_ids(all[i].body, text, users, roles, sizeof users);
		if (strstr(headline, "**\\<@" ZWSP "\\&111111\\>**")) {
			seen[0]++;
			ck_assert_msg(strncmp(headline, MENTION_0 " ", strlen(MENTION_0) + 1) == 0 &&
					      strcmp(users, "[\"80351110224678912\"]") == 0 && strcmp(roles, "[]") == 0,
				      "seat 0: its user, nobody else: %s", text);
		} else if (strstr(headline, "**\\[Open the game\\]\\(https\\:\\/\\/evil\\.example\\/\\)**")) {
			seen[1]++;
			ck_assert_msg(strncmp(headline, MENTION_1 " ", strlen(MENTION_1) + 1) == 0 &&
					      strcmp(users, "[\"80351110224678913\"]") == 0 && strcmp(roles, "[]") == 0,
				      "seat 1: its user, nobody else: %s", text);
		} else if (strstr(headline, "**@" ZWSP "everyone \\<\\!channel\\>**")) {
			seen[2]++;
			ck_assert_msg(strncmp(headline, MENTION_2 " ", strlen(MENTION_2) + 1) == 0 &&
					      strcmp(users, "[]") == 0 && strcmp(roles, "[\"80351110224678914\"]") == 0,
				      "seat 2: its role, nobody else: %s", text);
		} else {
			ck_abort_msg("a headline naming no seat as escaped: %s", text);
		}
	}
	webhook_deliveries_free(all, count);
	ck_assert_msg(seen[0] && seen[1] && seen[2], "every seat named: %d %d %d", seen[0], seen[1], seen[2]);
	assert_bodies_keep_to_the_spec(&discord, "DiscordMessage");

	all = webhook_receiver_deliveries(slack.receiver, &count);
	ck_assert_msg(count >= MOVES / 2, "%d Slack messages for %d turns", count, MOVES / 2);
	int named = 0;
	for (int i = 0; i < count; i++) {
		const char *headline;
		check_shape("slack", &all[i], &game, &headline);
		const char *section = json_string_value(json_object_get(
			json_object_get(json_array_get(json_object_get(all[i].body, "blocks"), 0), "text"), "text"));
		ck_assert_msg(!strstr(all[i].text, "<!channel>") && !strstr(all[i].text, HOSTILE_0) &&
				      !strstr(all[i].text, "@everyone"),
			      "a raw name in a Slack message: %s", all[i].text);
		/* Control sequences: the registered mention and the game link, nothing a name made. */
		int opened = 0;
		for (const char *c = section; *c; c++)
			opened += *c == '<';
		ck_assert_msg(opened == 2, "two control sequences (the mention, the game link): %s", section);
		named += strstr(headline, "*&lt;@" ZWSP "&amp;111111&gt;*") != NULL ||
			 strstr(headline, "*@" ZWSP "everyone &lt;!channel&gt;*") != NULL;
	}
	webhook_deliveries_free(all, count);
	ck_assert_msg(named > 0, "the names arrive escaped for Slack");
	assert_bodies_keep_to_the_spec(&slack, "SlackMessage");
	webhook_receiver_stop(discord.receiver);
	webhook_receiver_stop(slack.receiver);
}
END_TEST

static void expect_400(const struct http_game *game, const char *token, const char *body, const char *field)
{
	char path[160];
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(game, "/webhooks", path, sizeof path), token, body,
		  NULL, &response);
	http_assert_problem(&response, 400, "invalid_field");
	const char *named = json_string_value(json_object_get(response.json, "field"));
	ck_assert_msg(named && strcmp(named, field) == 0, "%s: the problem names %s: %s", body, field,
		      http_describe(&response));
	assert_no_mention("a problem", response.body);
	http_response_free(&response);
}

START_TEST(test_a_bad_format_or_bad_mentions_are_400_naming_the_field_and_register_nothing)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	const char *url = "\"url\": \"http://127.0.0.1:9/hook\"";
	char body[512];
	const char *formats[] = {"\"teams\"", "42", "\"Discord\"", "\"\"", "[\"slack\"]", "\"mail\""};
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		snprintf(body, sizeof body, "{%s, \"format\": %s}", url, formats[i]);
		expect_400(&game, game.admin_token, body, "format");
	}
	char long_mention[80];
	memset(long_mention, 'x', 65);
	long_mention[65] = '\0';
	const char *mentions[] = {"[\"<@1>\"]",
				  "\"<@1>\"",
				  "{\"3\": \"<@1>\"}",
				  "{\"-1\": \"<@1>\"}",
				  "{\"seat0\": \"<@1>\"}",
				  "{\"0\": 123}",
				  "{\"0\": \"\"}",
				  "{\"0\": \"<@1>\\n@everyone\"}",
				  NULL};
	for (int i = 0; mentions[i]; i++) {
		snprintf(body, sizeof body, "{%s, \"format\": \"discord\", \"mentions\": %s}", url, mentions[i]);
		expect_400(&game, game.admin_token, body, "mentions");
	}
	snprintf(body, sizeof body, "{%s, \"format\": \"slack\", \"mentions\": {\"1\": \"%s\"}}", url, long_mention);
	expect_400(&game, game.tokens[1], body, "mentions");
	/* Mentions belong to chat messages: a standard webhook has none. */
	snprintf(body, sizeof body, "{%s, \"mentions\": {\"0\": \"<@1>\"}}", url);
	expect_400(&game, game.admin_token, body, "mentions");
	snprintf(body, sizeof body, "{%s, \"format\": \"standard\", \"mentions\": {\"0\": \"<@1>\"}}", url);
	expect_400(&game, game.tokens[0], body, "mentions");
	char path[160];
	json_t *list = http_get_ok(&http_fixture.checked, http_game_path(&game, "/webhooks", path, sizeof path),
				   game.admin_token);
	ck_assert_msg(json_array_size(json_object_get(list, "webhooks")) == 0, "nothing registered");
	json_decref(list);
	/* The good ones register, and show their format. */
	struct hook slack;
	hook_register(&game, ", \"format\": \"slack\", \"mentions\": {\"2\": \"<@U1>\"}, \"events\": \"all\"", &slack);
	json_t *webhook = listed(&game, slack.id, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(webhook, "format")), "slack");
	ck_assert(json_object_get(webhook, "mentions") == NULL);
	json_decref(webhook);
	webhook_receiver_stop(slack.receiver);
}
END_TEST

START_TEST(test_a_chat_url_that_keeps_failing_is_disabled_after_the_bound_and_says_why)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct hook dead;
	hook_register(&game, ", \"format\": \"discord\"", &dead);
	webhook_receiver_answer(dead.receiver, 404, 0);
	idle_move(&game, 0);
	idle_move(&game, 1); /* seat 1's turn: a message */
	double deadline = http_clock() + 30 * http_slowdown();
	json_t *webhook;
	for (;;) {
		webhook = listed(&game, dead.id, NULL);
		if (json_is_true(json_object_get(webhook, "disabled")))
			break;
		json_decref(webhook);
		ck_assert_msg(http_clock() < deadline, "the dead webhook is not disabled after 30 s");
		http_pause(0.2);
	}
	const char *reason = json_string_value(json_object_get(webhook, "disabled_reason"));
	ck_assert_msg(reason && strstr(reason, DEAD_BOUND_TEXT " failed attempts") && strstr(reason, "answered 404"),
		      "reason: %s", reason ? reason : "(none)");
	ck_assert(json_is_string(json_object_get(webhook, "disabled_at")));
	ck_assert_int_eq(json_integer_value(json_object_get(webhook, "pending")), 0);
	json_decref(webhook);
	ck_assert_int_eq(webhook_receiver_count(dead.receiver), DEAD_BOUND);
	char path[200];
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries?limit=500", game.path, dead.id);
	json_t *log = http_get_ok(&http_fixture.checked, path, game.admin_token);
	json_t *entries = json_object_get(log, "deliveries");
	ck_assert_int_eq(json_array_size(entries), DEAD_BOUND + 1);
	json_t *newest = json_array_get(entries, 0);
	ck_assert_str_eq(json_string_value(json_object_get(newest, "kind")), "disabled");
	ck_assert_msg(strstr(json_string_value(json_object_get(newest, "error")), "disabled after " DEAD_BOUND_TEXT),
		      "why: %s", json_string_value(json_object_get(newest, "error")));
	json_decref(log);
	/* Nothing more reaches it, and nothing piles up for it. */
	webhook_receiver_answer(dead.receiver, 200, 0);
	idle_move(&game, 2);
	idle_move(&game, 3);
	http_pause(2.0);
	ck_assert_int_eq(webhook_receiver_count(dead.receiver), DEAD_BOUND);
	webhook = listed(&game, dead.id, NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(webhook, "pending")), 0);
	json_decref(webhook);
	webhook_receiver_stop(dead.receiver);
}
END_TEST

/* ---- A game with a bot, counted (issue 23) ---- */

#define BOT_MENTION "<@80351110224678919>"
#define SLACK_BOT_MENTION "<@U024BE7L9>"

/* Discard `count` cards of the seat's hand. */
static void discard(const struct http_game *game, int seat, int count)
{
	json_t *view = http_get_ok(&http_fixture.checked, game->path, game->tokens[seat]);
	json_t *hand = json_object_get(json_object_get(view, "you"), "resources");
	json_t *resources = json_object();
	const char *key;
	json_t *held;
	json_object_foreach(hand, key, held)
	{
		int take = (int)json_integer_value(held) < count ? (int)json_integer_value(held) : count;
		if (take > 0)
			json_object_set_new(resources, key, json_integer(take));
		count -= take;
	}
	json_decref(view);
	json_t *body = json_pack("{s:s, s:o}", "type", "discard", "resources", resources);
	char *text = json_dumps(body, JSON_COMPACT);
	http_post_move_ok(&http_fixture.checked, game, seat, text);
	free(text);
	json_decref(body);
}

/* Wait until the game waits for `seat` to roll (the bot's turn played), discarding for
 * the people when the bot rolls a 7. */
static void wait_turn_of(const struct http_game *game, int seat)
{
	double deadline = http_clock() + DELIVERY_TIMEOUT_S * http_slowdown();
	for (;;) {
		json_t *view = http_get_ok(&http_fixture.checked, game->path, NULL);
		json_t *turn = json_object_get(view, "turn");
		int at = (int)json_integer_value(json_object_get(turn, "seat"));
		int rolled = json_is_true(json_object_get(turn, "rolled"));
		size_t index;
		json_t *owed;
		json_array_foreach(json_object_get(json_object_get(view, "pending"), "discards"), index, owed)
		{
			int who = (int)json_integer_value(json_object_get(owed, "seat"));
			if (who < 3)
				discard(game, who, (int)json_integer_value(json_object_get(owed, "count")));
		}
		json_decref(view);
		if (at == seat && !rolled)
			return;
		ck_assert_msg(http_clock() < deadline, "the bot's turn is not over after %d s", DELIVERY_TIMEOUT_S);
		http_pause(0.1);
	}
}

/* Post the seat's first open move of `type` whose `member` is `value`. */
static void play_action(const struct http_game *game, int seat, const char *type, const char *member, long value)
{
	char path[160];
	json_t *actions = http_get_ok(&http_fixture.checked, http_game_path(game, "/actions", path, sizeof path),
				      game->tokens[seat]);
	json_t *found = NULL;
	size_t index;
	json_t *action;
	json_array_foreach(json_object_get(actions, "actions"), index, action)
	{
		if (!found && strcmp(json_string_value(json_object_get(action, "type")), type) == 0 &&
		    json_integer_value(json_object_get(action, member)) == value)
			found = json_deep_copy(action);
	}
	json_decref(actions);
	ck_assert_msg(found != NULL, "seat %d may %s (%s %ld)", seat, type, member, value);
	char *text = json_dumps(found, JSON_COMPACT);
	http_post_move_ok(&http_fixture.checked, game, seat, text);
	free(text);
	json_decref(found);
}

/* Seat 0 offers one card it holds to seats 1 and 2, then withdraws the offer. */
static void offer_and_withdraw(const struct http_game *game)
{
	json_t *view = http_get_ok(&http_fixture.checked, game->path, game->tokens[0]);
	json_t *hand = json_object_get(json_object_get(view, "you"), "resources");
	const char *give = NULL, *key;
	json_t *count;
	json_object_foreach(hand, key, count) if (!give && json_integer_value(count) > 0) give = key;
	ck_assert_msg(give != NULL, "seat 0 holds a card to offer");
	char body[200], path[160], suffix[64];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}, \"to\": [1, 2]}", give,
		 strcmp(give, "ore") ? "ore" : "brick");
	json_decref(view);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(game, "/trades", path, sizeof path), game->tokens[0],
		  body, NULL, &response);
	ck_assert_msg(response.status == 201, "offer: %s", http_describe(&response));
	snprintf(suffix, sizeof suffix, "/trades/%d", (int)json_integer_value(json_object_get(response.json, "trade")));
	http_response_free(&response);
	http_call(&http_fixture.checked, "DELETE", http_game_path(game, suffix, path, sizeof path), game->tokens[0],
		  NULL, NULL, &response);
	ck_assert_msg(response.status / 100 == 2, "withdraw: %s", http_describe(&response));
	http_response_free(&response);
}

/* What the log holds that may call people mid-turn: offers addressed to a person other
 * than the seat whose turn it is, and 7s rolled. */
static void count_calls(const struct http_game *game, long after, int *offers, int *sevens)
{
	json_t *rows = http_truth_rows(game->id, after); /* from a turn's start: a roll comes first */
	*offers = *sevens = 0;
	int turn_seat = 0;
	size_t index;
	json_t *row;
	json_array_foreach(rows, index, row)
	{
		json_t *event = json_object_get(row, "event");
		const char *type = json_string_value(json_object_get(event, "type"));
		if (strcmp(type, "dice_rolled") == 0) {
			turn_seat = (int)json_integer_value(json_object_get(event, "seat"));
			json_t *dice = json_object_get(event, "dice");
			if (json_integer_value(json_array_get(dice, 0)) + json_integer_value(json_array_get(dice, 1)) ==
			    7)
				(*sevens)++;
		}
		if (strcmp(type, "trade_offered") == 0) {
			json_t *to = json_object_get(event, "to");
			size_t i;
			json_t *seat;
			int people = 0;
			json_array_foreach(to, i, seat) people +=
				json_integer_value(seat) != 3 && json_integer_value(seat) != turn_seat;
			*offers += people > 0;
		}
	}
	json_decref(rows);
}

START_TEST(test_a_game_with_a_bot_posts_one_message_per_human_turn_plus_discards_and_offers_none_for_the_bot)
{
	struct http_game game;
	http_game_create_body(&http_fixture.checked,
			      "{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bob\"}, {\"name\": \"Cid\"}, "
			      "{\"name\": \"Dan\", \"bot\": true}], \"options\": {\"layout\": \"beginner\", "
			      "\"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0, \"offer_wait_s\": 0}}",
			      &game);
	ck_assert_int_eq(game.bots, 8);
	struct hook discord, slack;
	hook_register(&game,
		      ", \"format\": \"discord\", \"mentions\": {\"0\": \"" MENTION_0 "\", \"1\": \"" MENTION_1
		      "\", \"2\": \"" MENTION_2 "\", \"3\": \"" BOT_MENTION "\"}",
		      &discord);
	hook_register(&game,
		      ", \"format\": \"slack\", \"mentions\": {\"0\": \"" SLACK_MENTION_0
		      "\", \"1\": \"" SLACK_MENTION_1 "\", \"2\": \"" SLACK_MENTION_2 "\", \"3\": \"" SLACK_BOT_MENTION
		      "\"}",
		      &slack);
	long registered = http_game_version(&http_fixture.checked, &game);
	enum { ROUNDS = 10 };
	int human_turns = 0; /* turns of a person begun after the registration */
	for (int round = 0; round < ROUNDS; round++) {
		for (int seat = 0; seat < 3; seat++) {
			if (round == 0 && seat == 0) {
				/* A 7, the robber on Bob, then an offer to Bob and Cid, withdrawn. */
				http_post_move_ok(&http_fixture.checked, &game, 0,
						  "{\"type\": \"roll\", \"dice\": [3, 4]}");
				play_action(&game, 0, "move_robber", "victim", 1);
				offer_and_withdraw(&game);
			} else {
				http_post_move_ok(&http_fixture.checked, &game, seat,
						  "{\"type\": \"roll\", \"dice\": [1, 1]}");
			}
			http_post_move_ok(&http_fixture.checked, &game, seat, "{\"type\": \"end_turn\"}");
			human_turns += seat < 2; /* Bob's and Cid's turns begin with these */
		}
		wait_turn_of(&game, 0); /* Dan, the bot, plays seat 3 */
		human_turns++;		/* Ann's turn begins with the bot's end of turn */
	}
	struct hook both[] = {discord, slack};
	wait_all_delivered(&game, both, 2);
	int offers, sevens;
	count_calls(&game, registered, &offers, &sevens);
	const struct hook *hooks[] = {&discord, &slack};
	const char *formats[] = {"discord", "slack"};
	int turns_seen[2] = {0}, others_seen[2] = {0};
	for (int h = 0; h < 2; h++) {
		int count;
		struct webhook_delivery *all = webhook_receiver_deliveries(hooks[h]->receiver, &count);
		long last = -1;
		for (int i = 0; i < count; i++) {
			if (all[i].answered != 200)
				continue;
			const char *headline;
			long version = check_shape(formats[h], &all[i], &game, &headline);
			if (version == last)
				continue; /* at least once */
			last = version;
			const char *text = all[i].text;
			ck_assert_msg(!strstr(text, BOT_MENTION) && !strstr(text, SLACK_BOT_MENTION) &&
					      !strstr(text, "80351110224678919") && !strstr(text, "U024BE7L9"),
				      "%s: the bot is never pinged: %s", formats[h], text);
			for (int seat = 0; seat < 4; seat++)
				ck_assert_msg(!strstr(text, game.tokens[seat][0] ? game.tokens[seat] : "\x01"),
					      "%s: no token in a message", formats[h]);
			ck_assert_msg(!strstr(text, game.admin_token), "%s: no admin token in a message", formats[h]);
			const char *title;
			if (h == 0) {
				json_t *embeds = json_object_get(all[i].body, "embeds");
				ck_assert_msg(json_array_size(embeds) <= 10, "at most 10 embeds: %s", text);
				json_t *embed = json_array_get(embeds, 0);
				title = json_string_value(json_object_get(embed, "title"));
				ck_assert_msg(points(headline) <= 2000 && title && points(title) <= 256 &&
						      points(json_string_value(
							      json_object_get(embed, "description"))) <= 4096,
					      "within Discord's limits: %s", text);
			} else {
				json_t *blocks = json_object_get(all[i].body, "blocks");
				const char *section = json_string_value(
					json_object_get(json_object_get(json_array_get(blocks, 0), "text"), "text"));
				ck_assert_msg(section && points(section) <= 3000, "a Slack section of at most 3000: %s",
					      text);
				title = json_string_value(
					json_object_get(json_object_get(json_array_get(blocks, 1), "title"), "text"));
				ck_assert_msg(title != NULL, "the image's title: %s", text);
			}
			ck_assert_msg(!strstr(title, "version"), "%s: no version in a title: %s", formats[h], text);
			if (strstr(title, "offer") || strstr(title, "discard")) {
				others_seen[h]++;
			} else {
				ck_assert_msg(!strstr(title, "Dan"), "%s: no message for the bot's turn: %s",
					      formats[h], text);
				turns_seen[h]++;
			}
		}
		webhook_deliveries_free(all, count);
		printf("channels, 4 seats (one a bot), %d rounds: %s got %d messages: %d turns of people (of %d), %d "
		       "discards and offers (%d offers to people, %d sevens)\n",
		       ROUNDS, formats[h], turns_seen[h] + others_seen[h], turns_seen[h], human_turns, others_seen[h],
		       offers, sevens);
		ck_assert_msg(turns_seen[h] == human_turns, "%s: %d turn messages for %d turns of people", formats[h],
			      turns_seen[h], human_turns);
		ck_assert_msg(others_seen[h] <= offers + sevens && others_seen[h] >= 1,
			      "%s: %d mid-turn messages for %d offers to people and %d sevens", formats[h],
			      others_seen[h], offers, sevens);
	}
	assert_bodies_keep_to_the_spec(&discord, "DiscordMessage");
	assert_bodies_keep_to_the_spec(&slack, "SlackMessage");
	/* No token in the server's log either. */
	FILE *file = fopen(http_fixture.server.log_path, "rb");
	ck_assert(file != NULL);
	static char log[1 << 22];
	size_t size = fread(log, 1, sizeof log - 1, file);
	log[size] = '\0';
	fclose(file);
	for (int seat = 0; seat < 3; seat++)
		ck_assert_msg(!strstr(log, game.tokens[seat]), "the server's log holds seat %d's token", seat);
	ck_assert_msg(!strstr(log, game.admin_token), "the server's log holds the admin token");
	webhook_receiver_stop(discord.receiver);
	webhook_receiver_stop(slack.receiver);
}
END_TEST

/* ---- A digest for slow games (issue 23) ---- */

START_TEST(test_a_digest_webhook_posts_at_most_once_per_interval_telling_everything_since_the_last)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	/* Refused: a digest of a standard webhook, digest_hours without a digest, out of range. */
	const char *bad[][2] = {
		{"{\"url\": \"https://example.org/h\", \"schedule\": \"digest\"}", "schedule"},
		{"{\"url\": \"https://example.org/h\", \"format\": \"discord\", \"schedule\": \"weekly\"}", "schedule"},
		{"{\"url\": \"https://example.org/h\", \"format\": \"discord\", \"digest_hours\": 2}", "digest_hours"},
		{"{\"url\": \"https://example.org/h\", \"format\": \"slack\", \"schedule\": \"digest\", "
		 "\"digest_hours\": 0}",
		 "digest_hours"},
		{"{\"url\": \"https://example.org/h\", \"format\": \"slack\", \"schedule\": \"digest\", "
		 "\"digest_hours\": 169}",
		 "digest_hours"}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		expect_400(&game, game.admin_token, bad[i][0], bad[i][1]);
	struct hook digest, every;
	hook_register(&game, ", \"format\": \"discord\", \"schedule\": \"digest\", \"digest_hours\": 1", &digest);
	hook_register(&game, ", \"format\": \"discord\"", &every);
	json_t *webhook = listed(&game, digest.id, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(webhook, "schedule")), "digest");
	ck_assert_int_eq(json_integer_value(json_object_get(webhook, "digest_hours")), 1);
	json_decref(webhook);
	webhook = listed(&game, every.id, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(webhook, "schedule")), "every_turn");
	ck_assert_msg(!json_object_get(webhook, "digest_hours"), "no digest_hours for every_turn");
	json_decref(webhook);
	/* The first move: the first digest at once. */
	idle_move(&game, 0);
	ck_assert_int_eq(webhook_receiver_wait(digest.receiver, 1, DELIVERY_TIMEOUT_S * http_slowdown()), 1);
	/* Three turns within the hour: nothing more, the rows wait. */
	long last = 0;
	for (int step = 1; step < 7; step++)
		last = idle_move(&game, step);
	struct hook one[] = {every};
	wait_all_delivered(&game, one, 1);
	http_pause(1.0);
	ck_assert_int_eq(webhook_receiver_count(digest.receiver), 1);
	webhook = listed(&game, digest.id, NULL);
	ck_assert_int_ge(json_integer_value(json_object_get(webhook, "pending")), 1);
	json_decref(webhook);
	/* An hour later (the clock moved by the database): one digest tells all of it. */
	char sql[300];
	snprintf(sql, sizeof sql,
		 "WITH w AS (UPDATE webhooks SET digest_sent_at = now() - interval '2 hours' WHERE id = x'%s'::bigint "
		 "RETURNING id) UPDATE webhook_outbox SET due_at = now() WHERE webhook_id IN (SELECT id FROM w)",
		 digest.id + 3);
	http_sql_number(sql);
	struct hook both[] = {digest};
	wait_all_delivered(&game, both, 1);
	http_pause(0.5);
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(digest.receiver, &count);
	ck_assert_msg(count == 2, "two digests, not %d", count);
	const char *headline;
	ck_assert_int_eq(check_shape("discord", &all[1], &game, &headline), last);
	json_t *embed = json_array_get(json_object_get(all[1].body, "embeds"), 0);
	const char *description = json_string_value(json_object_get(embed, "description"));
	int ends = 0;
	for (const char *at = strstr(description, "ended the turn."); at; at = strstr(at + 1, "ended the turn."))
		ends++;
	ck_assert_msg(strstr(description, "Since the last digest") && ends == 3,
		      "the digest tells the three turns since the last: %s", all[1].text);
	ck_assert_msg(strstr(headline, "Digest of game") && strstr(headline, MENTION_0) == NULL,
		      "a digest headline: %s", all[1].text);
	webhook_deliveries_free(all, count);
	assert_bodies_keep_to_the_spec(&digest, "DiscordMessage");
	webhook_receiver_stop(digest.receiver);
	webhook_receiver_stop(every.receiver);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_channels");
	TCase *channels = tcase_create("channels");
	static const char *const settings[] = {"CHANNEL_MAX_FAILURES=" DEAD_BOUND_TEXT, NULL};
	http_fixture_add(channels, HTTP_FIXTURE_PRISM, settings);
	tcase_set_timeout(channels, 240);
	tcase_add_test(channels, test_a_bad_format_or_bad_mentions_are_400_naming_the_field_and_register_nothing);
	tcase_add_test(channels,
		       test_every_turn_change_reaches_discord_and_slack_in_order_through_rate_limits_and_failures);
	tcase_add_test(channels, test_mentions_appear_in_chat_messages_and_nowhere_else);
	tcase_add_test(channels,
		       test_hostile_names_reach_discord_and_slack_escaped_with_exactly_the_registered_mentions);
	tcase_add_test(channels, test_a_chat_url_that_keeps_failing_is_disabled_after_the_bound_and_says_why);
	tcase_add_test(channels,
		       test_a_digest_webhook_posts_at_most_once_per_interval_telling_everything_since_the_last);
	tcase_add_test(
		channels,
		test_a_game_with_a_bot_posts_one_message_per_human_turn_plus_discards_and_offers_none_for_the_bot);
	suite_add_tcase(suite, channels);
	return suite;
}
