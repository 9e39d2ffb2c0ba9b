/*
 * fuzz_mail_commands.c - libFuzzer target: the command reader of play by mail
 * (game/mail_commands.c) on any text, against states of a real game.
 *
 * The first byte picks how far a random 4-seat game (seeded by the second) is played
 * before the text is read; the rest is the reply's text, read line by line for each seat
 * as catan-mail-in reads it. Oracles: every line gets an answer in the error table; a line
 * read as a command is written back by mail_commands_format() as a line that reads again
 * as the same command (written the same); the seats named are seats of the game; the
 * listing of every seat's moves never fails.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"
#include "game/mail_commands.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[GAME_MAX_SEATS] = {"Ann", "Bob Smith", "Zo\xc3\xab", "Bo"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	static struct command scratch[LEGAL_MOVES_MAX];
	struct game_options options;
	rules_default_options(&options);
	options.seats = 4;
	struct playout_options choices = {1};
	struct playout_game playout;
	struct event_list created;
	if (playout_start(&playout, &options, &choices, data[1], 1, &created) != ERROR_OK)
		return 0;
	for (int step = 0; step < data[0] * 4; step++) {
		int seat;
		struct command command;
		struct event_list events;
		enum error refused;
		if (playout_step(&playout, scratch, &seat, &command, &events, &refused) != PLAYOUT_MOVED)
			break;
	}
	char *text = malloc(size - 1);
	memcpy(text, data + 2, size - 2);
	text[size - 2] = '\0';
	for (int seat = 0; seat < 4; seat++) {
		const char *cursor = text;
		char line[MAIL_COMMANDS_LINE_MAX + 2];
		while (mail_commands_next_line(&cursor, line, sizeof line)) {
			struct command command;
			enum mail_commands_error error =
				mail_commands_parse(line, &playout.state, seat, names, &command);
			if ((int)error < 0 || error >= MAIL_COMMANDS_ERROR_COUNT || !mail_commands_message(error)[0])
				abort();
			if (error != MAIL_COMMANDS_OK)
				continue;
			if (command.victim >= 4 || command.with >= 4 || (command.to & 0xf0))
				abort();
			char written[256], again[256];
			mail_commands_format(&command, names, written, sizeof written);
			struct command reread;
			if (mail_commands_parse(written, &playout.state, seat, names, &reread) != MAIL_COMMANDS_OK)
				abort();
			mail_commands_format(&reread, names, again, sizeof again);
			if (strcmp(written, again) != 0 || reread.type != command.type)
				abort();
		}
		struct xtext listing = xtext_new();
		mail_commands_list(&playout.state, seat, names, &listing);
		free(listing.data);
	}
	free(text);
	return 0;
}
