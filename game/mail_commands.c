/*
 * mail_commands.c - the vocabulary of play by mail: lines of a reply read as engine
 * commands, and a seat's legal moves written as lines of the same vocabulary.
 *
 * Reading is a small hand-written scanner over one line: the words are split on spaces,
 * tabs and commas, lowered (ASCII only: a name's other bytes are compared as they are),
 * and the first word (or two: "buy card", "end turn") picks the command. Every number is
 * a decimal of at most three digits; anything else where a number belongs is an error of
 * its own, so the reply can say what was wrong with the line. Names of seats are the rest
 * of the line after "to", "steal" or "with" (a name may hold spaces), matched whole, or as
 * the only name that starts so, or as "seat N".
 *
 * Invariants: mail_commands_parse() never reads past the line's NUL and never writes
 * outside *command; a command it returns has only the fields of its type set (the others
 * as command_init() leaves them), so the rules judge it exactly as an HTTP move of the same
 * JSON. The state is only read: to fill in a victim or a partner when the legal moves leave
 * one choice, and to know whether the dice are entered.
 *
 * Listing (mail_commands_list()) groups the legal moves by kind and writes each kind on
 * one line with its ids, so a mail of a setup turn says "settle 3, 4, 7 ..." once rather
 * than 54 lines; a robber's hexes carry their names ("8 (ore 8)") and victims.
 */
#include "game/mail_commands.h"

#include <stdio.h>
#include <string.h>

#include "codec/places.h"
#include "codec/text.h"
#include "engine/legal.h"
#include "engine/resource.h"

#define WORDS_MAX 48
#define WORD_MAX 64

static const char *const messages[] = {
#define MAIL_COMMANDS_MESSAGE(name, message) message,
	MAIL_COMMANDS_ERRORS(MAIL_COMMANDS_MESSAGE)
#undef MAIL_COMMANDS_MESSAGE
};

static const char *const error_names[] = {
#define MAIL_COMMANDS_NAME(name, message) #name,
	MAIL_COMMANDS_ERRORS(MAIL_COMMANDS_NAME)
#undef MAIL_COMMANDS_NAME
};

const char *mail_commands_error_name(enum mail_commands_error error)
{
	if ((int)error < 0 || error >= MAIL_COMMANDS_ERROR_COUNT)
		return "UNKNOWN_ERROR";
	return error_names[error] + strlen("MAIL_COMMANDS_");
}

const char *mail_commands_message(enum mail_commands_error error)
{
	if ((int)error < 0 || error >= MAIL_COMMANDS_ERROR_COUNT)
		return "unknown";
	return messages[error];
}

/* ---- Lines ------------------------------------------------------------------------------ */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

int mail_commands_next_line(const char **cursor, char *out, size_t size)
{
	const char *at = *cursor;
	if (!at || !*at)
		return 0;
	const char *end = strchr(at, '\n');
	size_t length = end ? (size_t)(end - at) : strlen(at);
	*cursor = end ? end + 1 : at + length;
	while (length > 0 && is_space(*at)) {
		at++;
		length--;
	}
	while (length > 0 && (is_space(at[length - 1]) || at[length - 1] == '.' || at[length - 1] == ','))
		length--;
	if (size == 0)
		return 1;
	if (length >= size)
		length = size - 1;
	memcpy(out, at, length);
	out[length] = '\0';
	return 1;
}

int mail_commands_blank(const char *line)
{
	for (; *line; line++)
		if (!is_space(*line))
			return 0;
	return 1;
}

/* ---- Words ------------------------------------------------------------------------------ */

struct words {
	int count;
	char word[WORDS_MAX][WORD_MAX]; /* lowered */
	const char *rest[WORDS_MAX];	/* the line from this word on, as written */
};

/* Split `line`; 0 when it has too many words or too long a word. */
static int split(const char *line, struct words *words)
{
	words->count = 0;
	const char *at = line;
	for (;;) {
		while (*at && (is_space(*at) || *at == ','))
			at++;
		if (!*at)
			return 1;
		if (words->count == WORDS_MAX)
			return 0;
		const char *start = at;
		while (*at && !is_space(*at) && *at != ',')
			at++;
		size_t length = (size_t)(at - start);
		if (length >= WORD_MAX)
			return 0;
		char *word = words->word[words->count];
		for (size_t i = 0; i < length; i++) {
			char c = start[i];
			word[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
		}
		word[length] = '\0';
		words->rest[words->count] = start;
		words->count++;
	}
}

static int is(const struct words *words, int index, const char *word)
{
	return index < words->count && strcmp(words->word[index], word) == 0;
}

/* A number 0..999 (1), else 0. A leading '#' is allowed ("accept #3"). */
static int number(const struct words *words, int index, int *out)
{
	if (index >= words->count)
		return 0;
	const char *word = words->word[index];
	if (*word == '#')
		word++;
	size_t length = strlen(word);
	if (length == 0 || length > 3)
		return 0;
	int value = 0;
	for (size_t i = 0; i < length; i++) {
		if (word[i] < '0' || word[i] > '9')
			return 0;
		value = value * 10 + (word[i] - '0');
	}
	*out = value;
	return 1;
}

static const struct {
	const char *word;
	int resource;
} resource_words[] = {
	{"brick", RESOURCE_BRICK},  {"bricks", RESOURCE_BRICK}, {"lumber", RESOURCE_LUMBER}, {"wood", RESOURCE_LUMBER},
	{"woods", RESOURCE_LUMBER}, {"wool", RESOURCE_WOOL},	{"wools", RESOURCE_WOOL},    {"sheep", RESOURCE_WOOL},
	{"grain", RESOURCE_GRAIN},  {"grains", RESOURCE_GRAIN}, {"wheat", RESOURCE_GRAIN},   {"ore", RESOURCE_ORE},
	{"ores", RESOURCE_ORE},
};

static int resource(const struct words *words, int index)
{
	if (index >= words->count)
		return -1;
	for (size_t i = 0; i < sizeof resource_words / sizeof resource_words[0]; i++)
		if (strcmp(words->word[index], resource_words[i].word) == 0)
			return resource_words[i].resource;
	return -1;
}

/* The seat named by `text` (up to its end, trailing spaces ignored): a name whole, the only
 * name starting so, or "seat N". */
static enum mail_commands_error seat_named(const char *text, size_t length, const struct game *game,
					   const char *const names[GAME_MAX_SEATS], int *seat)
{
	while (length > 0 && is_space(text[length - 1]))
		length--;
	if (length == 0)
		return MAIL_COMMANDS_SEAT;
	int seats = game->options.seats;
	for (int s = 0; s < seats; s++)
		if (names[s] && strlen(names[s]) == length && text_same_ascii_case(names[s], text, length)) {
			*seat = s;
			return MAIL_COMMANDS_OK;
		}
	if (length >= 6 && text_same_ascii_case(text, "seat ", 5)) {
		int value = 0, digits = 0;
		for (size_t i = 5; i < length && digits < 3; i++, digits++) {
			if (text[i] < '0' || text[i] > '9')
				return MAIL_COMMANDS_SEAT;
			value = value * 10 + (text[i] - '0');
		}
		if (digits == (int)(length - 5) && value < seats) {
			*seat = value;
			return MAIL_COMMANDS_OK;
		}
		return MAIL_COMMANDS_SEAT;
	}
	int found = -1;
	for (int s = 0; s < seats; s++)
		if (names[s] && strlen(names[s]) > length && text_same_ascii_case(names[s], text, length)) {
			if (found >= 0)
				return MAIL_COMMANDS_SEAT_AMBIGUOUS;
			found = s;
		}
	if (found < 0)
		return MAIL_COMMANDS_SEAT;
	*seat = found;
	return MAIL_COMMANDS_OK;
}

/* Counted resources from word `*index` on ("2 ore 1 wool", "1 brick and 1 wool"), until a
 * word that is not a count; at least one. */
static enum mail_commands_error counts(const struct words *words, int *index, uint8_t out[RESOURCE_COUNT])
{
	int read = 0;
	for (;;) {
		if (is(words, *index, "and") && read > 0)
			(*index)++;
		int amount;
		if (!number(words, *index, &amount))
			return read > 0 ? MAIL_COMMANDS_OK : MAIL_COMMANDS_NUMBER;
		if (amount == 0) /* "0 ore" gives nothing: a count is at least 1 */
			return MAIL_COMMANDS_NUMBER;
		int kind = resource(words, *index + 1);
		if (kind < 0)
			return MAIL_COMMANDS_RESOURCE;
		if (out[kind] + amount > 255)
			return MAIL_COMMANDS_NUMBER;
		out[kind] = (uint8_t)(out[kind] + amount);
		*index += 2;
		read++;
	}
}

/* The victim of a robber's move to `hex`: named after "steal", else the only one the legal
 * moves allow (or none). */
static enum mail_commands_error victim_of(const struct words *words, int index, const struct game *game, int seat,
					  const char *const names[GAME_MAX_SEATS], int type, int hex,
					  struct command *command)
{
	if (index < words->count) {
		if (!is(words, index, "steal") && !is(words, index, "from"))
			return MAIL_COMMANDS_EXTRA;
		index++;
		if (is(words, index, "from"))
			index++;
		if (index >= words->count)
			return MAIL_COMMANDS_VICTIM;
		int victim;
		enum mail_commands_error error =
			seat_named(words->rest[index], strlen(words->rest[index]), game, names, &victim);
		if (error == MAIL_COMMANDS_OK)
			command->victim = (int8_t)victim;
		return error;
	}
	static _Thread_local struct command moves[LEGAL_MOVES_MAX];
	int count = legal_moves_except_offers(game, seat, moves, LEGAL_MOVES_MAX);
	int victims = 0, victim = -1;
	for (int i = 0; i < count && i < LEGAL_MOVES_MAX; i++)
		if (moves[i].type == type && moves[i].hex == hex && moves[i].victim >= 0 && moves[i].victim != victim) {
			victims++;
			victim = moves[i].victim;
		}
	if (victims > 1)
		return MAIL_COMMANDS_VICTIM;
	command->victim = (int8_t)victim;
	return MAIL_COMMANDS_OK;
}

/* A command of one id ("road 19"): the id into *value, nothing after it. */
static enum mail_commands_error one_id(const struct words *words, int index, int *value)
{
	if (!number(words, index, value))
		return MAIL_COMMANDS_NUMBER;
	return index + 1 == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
}

/* ---- Reading ---------------------------------------------------------------------------- */

static enum mail_commands_error parse_words(const struct words *words, const struct game *game, int seat,
					    const char *const names[GAME_MAX_SEATS], struct command *command)
{
	int at = 1, value;
	enum mail_commands_error error;
	if (is(words, 0, "build") || is(words, 0, "play"))
		at = 2; /* "build road 19", "play knight 8", "play monopoly ore" */
	const char *verb = at == 2 ? (words->count > 1 ? words->word[1] : "") : words->word[0];
	if (!strcmp(verb, "road")) {
		command_init(command, COMMAND_BUILD_ROAD);
		if ((error = one_id(words, at, &value)) != MAIL_COMMANDS_OK)
			return error;
		command->edge = (int8_t)(value > 127 ? 127 : value);
		return MAIL_COMMANDS_OK;
	}
	if (!strcmp(verb, "settle") || !strcmp(verb, "settlement")) {
		command_init(command, COMMAND_BUILD_SETTLEMENT);
		if ((error = one_id(words, at, &value)) != MAIL_COMMANDS_OK)
			return error;
		command->node = (int8_t)(value > 127 ? 127 : value);
		return MAIL_COMMANDS_OK;
	}
	if (!strcmp(verb, "city")) {
		command_init(command, COMMAND_BUILD_CITY);
		if ((error = one_id(words, at, &value)) != MAIL_COMMANDS_OK)
			return error;
		command->node = (int8_t)(value > 127 ? 127 : value);
		return MAIL_COMMANDS_OK;
	}
	if (!strcmp(verb, "roll")) {
		command_init(command, COMMAND_ROLL);
		if (words->count == 1) {
			if (game->options.dice == GAME_DICE_MANUAL)
				return MAIL_COMMANDS_DICE;
			return MAIL_COMMANDS_OK;
		}
		int a, b;
		if (!number(words, 1, &a) || !number(words, 2, &b) || a < 1 || a > 6 || b < 1 || b > 6)
			return MAIL_COMMANDS_DICE;
		if (words->count > 3)
			return MAIL_COMMANDS_EXTRA;
		command->dice[0] = (uint8_t)a;
		command->dice[1] = (uint8_t)b;
		return MAIL_COMMANDS_OK;
	}
	if (!strcmp(verb, "buy")) {
		command_init(command, COMMAND_BUY_DEVELOPMENT_CARD);
		/* "buy", "buy card", "buy a card", "buy development card", "buy a development card" */
		int i = 1;
		if (is(words, i, "a"))
			i++;
		if (is(words, i, "development") || is(words, i, "dev"))
			i++;
		if (is(words, i, "card"))
			i++;
		return i == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
	}
	if (!strcmp(verb, "end") || !strcmp(verb, "done") || !strcmp(verb, "pass")) {
		command_init(command, COMMAND_END_TURN);
		int i = 1;
		if (is(words, i, "turn") || is(words, i, "my"))
			i++;
		if (is(words, i, "turn"))
			i++;
		return i == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
	}
	if (!strcmp(verb, "discard")) {
		command_init(command, COMMAND_DISCARD);
		int i = 1;
		if ((error = counts(words, &i, command->resources)) != MAIL_COMMANDS_OK)
			return error;
		return i == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
	}
	if (!strcmp(verb, "robber") || !strcmp(verb, "knight")) {
		int type = !strcmp(verb, "robber") ? COMMAND_MOVE_ROBBER : COMMAND_PLAY_KNIGHT;
		command_init(command, type);
		int i = at;
		if (is(words, i, "to"))
			i++;
		/* "robber ore 8 ..." (the hex's name before its id, as the issue writes it) */
		if (resource(words, i) >= 0 || is(words, i, "desert"))
			i++;
		if (!number(words, i, &value))
			return MAIL_COMMANDS_NUMBER;
		command->hex = (int8_t)(value > 127 ? 127 : value);
		return victim_of(words, i + 1, game, seat, names, type, command->hex, command);
	}
	if (!strcmp(verb, "roads")) {
		command_init(command, COMMAND_PLAY_ROAD_BUILDING);
		int i = at;
		while (i < words->count && command->edge_count < 2) {
			if (is(words, i, "and")) {
				i++;
				continue;
			}
			if (!number(words, i, &value))
				return MAIL_COMMANDS_NUMBER;
			command->edges[command->edge_count++] = (int8_t)(value > 127 ? 127 : value);
			i++;
		}
		return i == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
	}
	if (!strcmp(verb, "plenty")) {
		command_init(command, COMMAND_PLAY_YEAR_OF_PLENTY);
		int i = at, taken = 0;
		while (i < words->count) {
			if (is(words, i, "and")) {
				i++;
				continue;
			}
			int kind = resource(words, i);
			if (kind < 0 || taken == 2)
				return kind < 0 ? MAIL_COMMANDS_RESOURCE : MAIL_COMMANDS_EXTRA;
			command->resources[kind]++;
			taken++;
			i++;
		}
		return taken ? MAIL_COMMANDS_OK : MAIL_COMMANDS_RESOURCE;
	}
	if (!strcmp(verb, "monopoly")) {
		command_init(command, COMMAND_PLAY_MONOPOLY);
		int kind = resource(words, at);
		if (kind < 0)
			return MAIL_COMMANDS_RESOURCE;
		command->resource = (uint8_t)kind;
		return at + 1 == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
	}
	if (!strcmp(verb, "trade") || !strcmp(verb, "offer")) {
		int maritime = !strcmp(verb, "trade");
		command_init(command, maritime ? COMMAND_MARITIME_TRADE : COMMAND_OFFER_TRADE);
		int i = 1;
		if ((error = counts(words, &i, command->give)) != MAIL_COMMANDS_OK)
			return error;
		if (!is(words, i, "for"))
			return i < words->count ? MAIL_COMMANDS_EXTRA : MAIL_COMMANDS_NUMBER;
		i++;
		if ((error = counts(words, &i, command->want)) != MAIL_COMMANDS_OK)
			return error;
		if (maritime || i == words->count)
			return i == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
		if (!is(words, i, "to"))
			return MAIL_COMMANDS_EXTRA;
		i++;
		if (i >= words->count)
			return MAIL_COMMANDS_SEAT;
		/* "to Bob, Cy and Dee": names split on commas and " and " */
		const char *names_text = words->rest[i];
		uint8_t mask = 0;
		while (*names_text) {
			const char *comma = strchr(names_text, ',');
			const char *and = strstr(names_text, " and ");
			const char *end = comma && (!and || comma < and) ? comma : and;
			size_t length = end ? (size_t)(end - names_text) : strlen(names_text);
			while (length > 0 && is_space(*names_text)) {
				names_text++;
				length--;
			}
			if (length > 0) {
				int to;
				if ((error = seat_named(names_text, length, game, names, &to)) != MAIL_COMMANDS_OK)
					return error;
				mask |= (uint8_t)(1u << to);
			}
			if (!end)
				break;
			names_text = end + (end == comma ? 1 : 5);
		}
		command->to = mask;
		return MAIL_COMMANDS_OK;
	}
	if (!strcmp(verb, "accept") || !strcmp(verb, "decline") || !strcmp(verb, "withdraw") ||
	    !strcmp(verb, "confirm")) {
		int type = !strcmp(verb, "accept")     ? COMMAND_ACCEPT_TRADE
			   : !strcmp(verb, "decline")  ? COMMAND_DECLINE_TRADE
			   : !strcmp(verb, "withdraw") ? COMMAND_WITHDRAW_TRADE
						       : COMMAND_CONFIRM_TRADE;
		command_init(command, type);
		int i = 1;
		if (is(words, i, "offer") || is(words, i, "trade"))
			i++;
		if (!number(words, i, &value))
			return MAIL_COMMANDS_NUMBER;
		command->trade = (uint16_t)value;
		i++;
		if (type != COMMAND_CONFIRM_TRADE)
			return i == words->count ? MAIL_COMMANDS_OK : MAIL_COMMANDS_EXTRA;
		if (i < words->count) {
			if (!is(words, i, "with"))
				return MAIL_COMMANDS_EXTRA;
			if (i + 1 >= words->count)
				return MAIL_COMMANDS_PARTNER;
			int with;
			if ((error = seat_named(words->rest[i + 1], strlen(words->rest[i + 1]), game, names, &with)) !=
			    MAIL_COMMANDS_OK)
				return error;
			command->with = (int8_t)with;
			return MAIL_COMMANDS_OK;
		}
		/* No partner named: the only seat that accepted, if one did. */
		static _Thread_local struct command moves[LEGAL_MOVES_MAX];
		int count = legal_moves_except_offers(game, seat, moves, LEGAL_MOVES_MAX);
		int partners = 0;
		for (int m = 0; m < count && m < LEGAL_MOVES_MAX; m++)
			if (moves[m].type == COMMAND_CONFIRM_TRADE && moves[m].trade == command->trade) {
				partners++;
				command->with = moves[m].with;
			}
		if (partners > 1)
			return MAIL_COMMANDS_PARTNER;
		return MAIL_COMMANDS_OK;
	}
	return MAIL_COMMANDS_UNKNOWN;
}

enum mail_commands_error mail_commands_parse(const char *line, const struct game *game, int seat,
					     const char *const names[GAME_MAX_SEATS], struct command *command)
{
	command_init(command, COMMAND_END_TURN);
	if (strlen(line) >= MAIL_COMMANDS_LINE_MAX)
		return MAIL_COMMANDS_TOO_LONG;
	static _Thread_local struct words words;
	if (!split(line, &words))
		return MAIL_COMMANDS_TOO_LONG;
	if (words.count == 0)
		return MAIL_COMMANDS_UNKNOWN;
	return parse_words(&words, game, seat, names, command);
}

/* ---- Writing ---------------------------------------------------------------------------- */

static void add(char *out, size_t size, size_t *used, const char *format, const char *text, int value)
{
	if (*used >= size)
		return;
	int wrote = text ? snprintf(out + *used, size - *used, format, text)
			 : snprintf(out + *used, size - *used, format, value);
	if (wrote > 0)
		*used += (size_t)wrote < size - *used ? (size_t)wrote : size - *used - 1;
}

static void add_counts(char *out, size_t size, size_t *used, const uint8_t counts_of[RESOURCE_COUNT])
{
	int first = 1;
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		if (!counts_of[r])
			continue;
		add(out, size, used, first ? "%d" : " %d", NULL, counts_of[r]);
		add(out, size, used, " %s", resource_name(r), 0);
		first = 0;
	}
}

static const char *name_of(const char *const names[GAME_MAX_SEATS], int seat, char *buffer, size_t size)
{
	if (seat >= 0 && seat < GAME_MAX_SEATS && names[seat] && names[seat][0])
		return names[seat];
	snprintf(buffer, size, "seat %d", seat);
	return buffer;
}

void mail_commands_format(const struct command *command, const char *const names[GAME_MAX_SEATS], char *out,
			  size_t size)
{
	size_t used = 0;
	char seat_name[16];
	if (size == 0)
		return;
	out[0] = '\0';
	switch (command->type) {
	case COMMAND_BUILD_ROAD:
		add(out, size, &used, "road %d", NULL, command->edge);
		break;
	case COMMAND_BUILD_SETTLEMENT:
		add(out, size, &used, "settle %d", NULL, command->node);
		break;
	case COMMAND_BUILD_CITY:
		add(out, size, &used, "city %d", NULL, command->node);
		break;
	case COMMAND_ROLL:
		add(out, size, &used, "roll", NULL, 0);
		if (command->dice[0]) {
			add(out, size, &used, " %d", NULL, command->dice[0]);
			add(out, size, &used, " %d", NULL, command->dice[1]);
		}
		break;
	case COMMAND_BUY_DEVELOPMENT_CARD:
		add(out, size, &used, "buy card", NULL, 0);
		break;
	case COMMAND_END_TURN:
		add(out, size, &used, "end", NULL, 0);
		break;
	case COMMAND_DISCARD:
		add(out, size, &used, "discard ", NULL, 0);
		add_counts(out, size, &used, command->resources);
		break;
	case COMMAND_MOVE_ROBBER:
	case COMMAND_PLAY_KNIGHT:
		add(out, size, &used, command->type == COMMAND_MOVE_ROBBER ? "robber %d" : "knight %d", NULL,
		    command->hex);
		if (command->victim >= 0)
			add(out, size, &used, " steal %s", name_of(names, command->victim, seat_name, sizeof seat_name),
			    0);
		break;
	case COMMAND_PLAY_ROAD_BUILDING:
		add(out, size, &used, "roads", NULL, 0);
		for (int i = 0; i < command->edge_count && i < 2; i++)
			add(out, size, &used, " %d", NULL, command->edges[i]);
		break;
	case COMMAND_PLAY_YEAR_OF_PLENTY:
		add(out, size, &used, "plenty", NULL, 0);
		for (int r = 0; r < RESOURCE_COUNT; r++)
			for (int n = 0; n < command->resources[r] && n < 2; n++)
				add(out, size, &used, " %s", resource_name(r), 0);
		break;
	case COMMAND_PLAY_MONOPOLY:
		add(out, size, &used, "monopoly %s", resource_name(command->resource), 0);
		break;
	case COMMAND_MARITIME_TRADE:
	case COMMAND_OFFER_TRADE:
		add(out, size, &used, command->type == COMMAND_MARITIME_TRADE ? "trade " : "offer ", NULL, 0);
		add_counts(out, size, &used, command->give);
		add(out, size, &used, " for ", NULL, 0);
		add_counts(out, size, &used, command->want);
		if (command->type == COMMAND_OFFER_TRADE && command->to) {
			int first = 1;
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				if (command->to >> s & 1u) {
					add(out, size, &used, first ? " to %s" : ", %s",
					    name_of(names, s, seat_name, sizeof seat_name), 0);
					first = 0;
				}
		}
		break;
	case COMMAND_ACCEPT_TRADE:
		add(out, size, &used, "accept %d", NULL, command->trade);
		break;
	case COMMAND_DECLINE_TRADE:
		add(out, size, &used, "decline %d", NULL, command->trade);
		break;
	case COMMAND_WITHDRAW_TRADE:
		add(out, size, &used, "withdraw %d", NULL, command->trade);
		break;
	case COMMAND_CONFIRM_TRADE:
		add(out, size, &used, "confirm %d", NULL, command->trade);
		if (command->with >= 0)
			add(out, size, &used, " with %s", name_of(names, command->with, seat_name, sizeof seat_name),
			    0);
		break;
	default:
		add(out, size, &used, "?", NULL, 0);
	}
}

/* ---- Listing ---------------------------------------------------------------------------- */

/* The ids of the moves of `type` (node, edge or first road-building edge), each once,
 * ascending, as "3, 4 or 7". */
static void list_ids(const struct command *moves, int count, int type, struct xtext *out)
{
	uint8_t seen[128] = {0};
	for (int i = 0; i < count; i++) {
		if (moves[i].type != type)
			continue;
		int id = type == COMMAND_BUILD_ROAD	      ? moves[i].edge
			 : type == COMMAND_PLAY_ROAD_BUILDING ? moves[i].edges[0]
							      : moves[i].node;
		if (id >= 0 && id < 128)
			seen[id] = 1;
	}
	int total = 0, written = 0;
	for (int id = 0; id < 128; id++)
		total += seen[id];
	for (int id = 0; id < 128; id++) {
		if (!seen[id])
			continue;
		written++;
		xtext_add(out, "%s%d", written == 1 ? "" : written == total ? " or " : ", ", id);
	}
}

static int has(const struct command *moves, int count, int type)
{
	for (int i = 0; i < count; i++)
		if (moves[i].type == type)
			return 1;
	return 0;
}

/* The robber's hexes (a move or a knight) with their names and victims. */
static void list_robber(const struct game *game, const struct command *moves, int count, int type,
			const char *const names[GAME_MAX_SEATS], struct xtext *out)
{
	int first = 1;
	char seat_name[16];
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		uint8_t victims = 0;
		int any = 0;
		for (int i = 0; i < count; i++)
			if (moves[i].type == type && moves[i].hex == hex) {
				any = 1;
				if (moves[i].victim >= 0)
					victims |= (uint8_t)(1u << moves[i].victim);
			}
		if (!any)
			continue;
		char place[PLACES_NAME_SIZE];
		places_hex(&game->board, game->options.edition, hex, place, sizeof place);
		xtext_add(out, "%s%d (%s", first ? "" : ", ", hex, place);
		int named = 0;
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			if (victims >> s & 1u)
				xtext_add(out, "%s%s", named++ ? " or " : ": steal ",
					  name_of(names, s, seat_name, sizeof seat_name));
		xtext_add(out, ")");
		first = 0;
	}
}

void mail_commands_list(const struct game *game, int seat, const char *const names[GAME_MAX_SEATS], struct xtext *out)
{
	static _Thread_local struct command moves[LEGAL_MOVES_MAX];
	int count = legal_moves(game, seat, moves, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	char line[160], seat_name[16];
	if (has(moves, count, COMMAND_ROLL))
		xtext_add(out, "  %s\n",
			  game->options.dice == GAME_DICE_MANUAL ? "roll <die> <die>   (e.g. roll 3 4)" : "roll");
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_DISCARD) {
			xtext_add(out, "  discard <%d cards>   (e.g. discard 2 ore 1 wool)\n", moves[i].count);
			break;
		}
	if (has(moves, count, COMMAND_MOVE_ROBBER)) {
		xtext_add(out, "  robber <hex> [steal <name>]: ");
		list_robber(game, moves, count, COMMAND_MOVE_ROBBER, names, out);
		xtext_add(out, "\n");
	}
	if (has(moves, count, COMMAND_BUILD_SETTLEMENT)) {
		xtext_add(out, "  settle ");
		list_ids(moves, count, COMMAND_BUILD_SETTLEMENT, out);
		xtext_add(out, "\n");
	}
	if (has(moves, count, COMMAND_BUILD_CITY)) {
		xtext_add(out, "  city ");
		list_ids(moves, count, COMMAND_BUILD_CITY, out);
		xtext_add(out, "\n");
	}
	if (has(moves, count, COMMAND_BUILD_ROAD)) {
		xtext_add(out, "  road ");
		list_ids(moves, count, COMMAND_BUILD_ROAD, out);
		xtext_add(out, "\n");
	}
	if (has(moves, count, COMMAND_BUY_DEVELOPMENT_CARD))
		xtext_add(out, "  buy card\n");
	if (has(moves, count, COMMAND_PLAY_KNIGHT)) {
		xtext_add(out, "  knight <hex> [steal <name>]: ");
		list_robber(game, moves, count, COMMAND_PLAY_KNIGHT, names, out);
		xtext_add(out, "\n");
	}
	if (has(moves, count, COMMAND_PLAY_ROAD_BUILDING)) {
		xtext_add(out, "  roads <road> <road>   (the first one of ");
		list_ids(moves, count, COMMAND_PLAY_ROAD_BUILDING, out);
		xtext_add(out, ")\n");
	}
	if (has(moves, count, COMMAND_PLAY_YEAR_OF_PLENTY))
		xtext_add(out, "  plenty <resource> <resource>   (e.g. plenty ore wool)\n");
	if (has(moves, count, COMMAND_PLAY_MONOPOLY))
		xtext_add(out, "  monopoly <resource>   (e.g. monopoly ore)\n");
	/* Maritime trades: one line per resource given, at its best rate. */
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		int rate = 0;
		for (int i = 0; i < count; i++)
			if (moves[i].type == COMMAND_MARITIME_TRADE && moves[i].give[r] &&
			    (!rate || moves[i].give[r] < rate))
				rate = moves[i].give[r];
		if (rate)
			xtext_add(out, "  trade %d %s for 1 <resource>\n", rate, resource_name(r));
	}
	if (has(moves, count, COMMAND_OFFER_TRADE))
		xtext_add(out, "  offer <cards> for <cards> [to <name>]   (e.g. offer 1 brick for 1 grain)\n");
	for (int i = 0; i < count; i++) {
		const struct command *move = &moves[i];
		if (move->type != COMMAND_ACCEPT_TRADE && move->type != COMMAND_DECLINE_TRADE &&
		    move->type != COMMAND_CONFIRM_TRADE && move->type != COMMAND_WITHDRAW_TRADE)
			continue;
		mail_commands_format(move, names, line, sizeof line);
		const struct game_offer *offer = game_find_offer(game, move->trade);
		if (offer && (move->type == COMMAND_ACCEPT_TRADE || move->type == COMMAND_WITHDRAW_TRADE)) {
			char give[64], want[64];
			size_t used = 0;
			give[0] = want[0] = '\0';
			add_counts(give, sizeof give, &used, offer->give);
			used = 0;
			add_counts(want, sizeof want, &used, offer->want);
			xtext_add(out, "  %s   (%s offers %s for %s)\n", line,
				  name_of(names, offer->from, seat_name, sizeof seat_name), give, want);
		} else {
			xtext_add(out, "  %s\n", line);
		}
	}
	if (has(moves, count, COMMAND_END_TURN))
		xtext_add(out, "  end\n");
}
