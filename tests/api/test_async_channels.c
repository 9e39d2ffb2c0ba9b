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
		/* Roll (even step) leaves the roller in the main phase; end_turn hands over. */
		int seat = (int)((next + 1) / 2) % game->seats;
		int slack = strcmp(format, "slack") == 0;
		const char *mention = seat == 0   ? (slack ? SLACK_MENTION_0 : MENTION_0)
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
	enum { MOVES = 8 };
	long versions[MOVES];
	for (int step = 0; step < 3; step++)
		versions[step] = idle_move(&game, step);
	http_pause(2.5);
	webhook_receiver_answer(slack.receiver, 200, 0);
	for (int step = 3; step < MOVES; step++)
		versions[step] = idle_move(&game, step);
	struct hook both[] = {discord, slack};
	wait_all_delivered(&game, both, 2);
	double gap_discord, gap_slack;
	int throttled_discord, throttled_slack;
	assert_messages(&discord, "discord", &game, versions, MOVES, &gap_discord, &throttled_discord);
	assert_messages(&slack, "slack", &game, versions, MOVES, &gap_slack, &throttled_slack);
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
	ck_assert_msg(count >= MOVES, "%d Discord messages for %d turn changes", count, MOVES);
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
	ck_assert_msg(count >= MOVES, "%d Slack messages for %d turn changes", count, MOVES);
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
	idle_move(&game, 1);
	idle_move(&game, 2);
	http_pause(2.0);
	ck_assert_int_eq(webhook_receiver_count(dead.receiver), DEAD_BOUND);
	webhook = listed(&game, dead.id, NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(webhook, "pending")), 0);
	json_decref(webhook);
	webhook_receiver_stop(dead.receiver);
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
	suite_add_tcase(suite, channels);
	return suite;
}
