/*
 * fuzz_away.c - libFuzzer target: POST and DELETE /v1/games/{id}/seats/{seat}/away (a
 * holiday, and its end): the body and the path's seat.
 *
 * What it reaches: what set_away() (api/handlers_holidays.c) does with the request before
 * the store: the body through inputs_json_object() as service_body() reads it (a missing
 * body is {}), and inputs_away() (no member allowed; the :seat a seat number of the game),
 * and the problem body of a refusal. Not reached: the session and its token, the seat's
 * change (game/play.h play_set_away(), the store).
 *
 * Input: one byte (the game's seats: 3 or 4), the path's seat up to the first newline (as
 * libmicrohttpd hands it over: no NUL, no '/'), then the body. Oracles: an accepted seat
 * is one of the game's and its text reads back as that number; an accepted body has no
 * member; every refusal answers as a problem body (400 naming `seat` or the member, or
 * invalid_json naming the whole body).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/inputs.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	int seats = 3 + data[0] % 2;
	const char *rest = (const char *)data + 1;
	size_t left = size - 1;
	const char *newline = memchr(rest, '\n', left);
	size_t seat_length = newline ? (size_t)(newline - rest) : left;
	if (seat_length > 64 || memchr(rest, '\0', seat_length) || memchr(rest, '/', seat_length))
		return 0; /* no route of the table captures such a segment */
	char seat_text[65];
	memcpy(seat_text, rest, seat_length);
	seat_text[seat_length] = '\0';
	const char *body_bytes = newline ? newline + 1 : rest + left;
	size_t body_length = newline ? left - seat_length - 1 : 0;
	struct problem_refusal refusal;
	json_t *body = inputs_json_object(body_bytes, body_length, 1, &refusal);
	if (!body) {
		fuzz_expect_refusal("/v1/games/0123456789abcdef/seats/0/away", &refusal);
		return 0;
	}
	int seat = -1;
	if (inputs_away(body, seat_length ? seat_text : NULL, seats, &seat, &refusal)) {
		if (seat < 0 || seat >= seats || strtol(seat_text, NULL, 10) != seat || json_object_size(body) != 0) {
			fprintf(stderr, "fuzz: seat \"%s\" of %d accepted as %d\n", seat_text, seats, seat);
			abort();
		}
	} else {
		fuzz_expect_refusal("/v1/games/0123456789abcdef/seats/0/away", &refusal);
	}
	json_decref(body);
	return 0;
}
