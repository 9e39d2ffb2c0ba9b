/*
 * mail_commands.h - the words of play by mail (issue 29): a reply's text read as engine
 * commands, one a line, and the moves a seat can make written the same way for the "your
 * turn" mail. Pure: no I/O, no store, no allocation but the listing's growing text.
 *
 * The vocabulary (README "Play by mail"): `road 19`, `settle 12`, `city 12`, `roll`
 * (`roll 3 4` with entered dice), `buy card`, `trade 4 wool for 1 ore`, `offer 1 brick for
 * 1 grain [to Bob[, Cy]]`, `accept 3`, `decline 3`, `confirm 3 [with Bob]`, `withdraw 3`,
 * `discard 2 ore 1 wool`, `robber 8 [steal Cy]`, `knight 8 [steal Cy]`, `roads 19 20`,
 * `plenty ore wool`, `monopoly ore`, `end`. Words are ASCII case-insensitive; resources by
 * the API's names or the 2025 edition's (`wood`, `wheat`) and a plural `s`; seats by name
 * (whole, or a prefix only one name has) or `seat 2`.
 *
 * A line is read against the state it will be applied to (mail_commands_parse() is called
 * again after each applied command), so a victim or a partner that only one seat can be
 * is filled in from the seat's legal moves, and a name is resolved among the game's seats.
 * Whether the move is allowed stays the rules' word: the command goes to the write path,
 * which refuses it as it refuses an HTTP move.
 */
#ifndef CATAN_GAME_MAIL_COMMANDS_H
#define CATAN_GAME_MAIL_COMMANDS_H

#include <stddef.h>

#include "base/xalloc.h"
#include "engine/command.h"
#include "engine/game.h"

#define MAIL_COMMANDS_LINE_MAX 200 /* a command line's bytes at most (longer: not a command) */
#define MAIL_COMMANDS_MAX 40	   /* command lines one reply may hold */

#define MAIL_COMMANDS_ERRORS(X)                                                                                 \
	X(MAIL_COMMANDS_OK, "understood")                                                                       \
	X(MAIL_COMMANDS_UNKNOWN, "not a command: write one command a line, as the mail lists them")             \
	X(MAIL_COMMANDS_TOO_LONG, "the line is too long to be a command")                                       \
	X(MAIL_COMMANDS_NUMBER, "a number was expected (a place, an offer or a count, as the mail lists them)") \
	X(MAIL_COMMANDS_RESOURCE, "a resource was expected: brick, lumber, wool, grain or ore")                 \
	X(MAIL_COMMANDS_SEAT, "no seat of this game has that name")                                             \
	X(MAIL_COMMANDS_SEAT_AMBIGUOUS, "that name fits more than one seat: write it whole")                    \
	X(MAIL_COMMANDS_VICTIM, "say whom to steal from: add \"steal <name>\"")                                 \
	X(MAIL_COMMANDS_PARTNER, "say whose acceptance to take: add \"with <name>\"")                           \
	X(MAIL_COMMANDS_DICE, "this game's dice are entered: write \"roll <die> <die>\", e.g. roll 3 4")        \
	X(MAIL_COMMANDS_EXTRA, "unexpected words after the command")

#define MAIL_COMMANDS_ENUM(name, message) name,
enum mail_commands_error { MAIL_COMMANDS_ERRORS(MAIL_COMMANDS_ENUM) MAIL_COMMANDS_ERROR_COUNT };
#undef MAIL_COMMANDS_ENUM

/* The error's sentence, and its name without the prefix ("UNKNOWN"); static. */
const char *mail_commands_message(enum mail_commands_error error);
const char *mail_commands_error_name(enum mail_commands_error error);

/* The next line of `*cursor` into out (at most size - 1 bytes, trimmed of spaces, tabs,
 * CR, and a trailing '.' or ','), advancing *cursor past it: 1, or 0 at the end of the
 * text. A line longer than fits is cut (mail_commands_parse() then refuses it). */
int mail_commands_next_line(const char **cursor, char *out, size_t size);

/* 1 when the line is blank after trimming. */
int mail_commands_blank(const char *line);

/* Read one line as a command of `seat` in `game` (names: the seats' names, any may be NULL
 * or ""; borrowed). MAIL_COMMANDS_OK with *command set, or why not. */
enum mail_commands_error mail_commands_parse(const char *line, const struct game *game, int seat,
					     const char *const names[GAME_MAX_SEATS], struct command *command);

/* The command as a line of the vocabulary ("road 19", "offer 1 brick for 1 grain to Bob"),
 * which mail_commands_parse() reads back as the same command. */
void mail_commands_format(const struct command *command, const char *const names[GAME_MAX_SEATS], char *out,
			  size_t size);

/* The moves `seat` can make now, one kind a line, as commands of the vocabulary with their
 * ids ("road 19, 20 or 23"), appended to *out. Nothing when the seat has no move. */
void mail_commands_list(const struct game *game, int seat, const char *const names[GAME_MAX_SEATS], struct xtext *out);

#endif
