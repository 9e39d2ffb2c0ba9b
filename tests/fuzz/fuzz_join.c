/*
 * fuzz_join.c - libFuzzer target: the body of POST /v1/games/{id}/join {invite, name}.
 *
 * What it reaches: what handle_join_game() (api/handlers_lobby.c) does with the body
 * before the store: inputs_json_object() (the JSON part of service_body()), inputs_join()
 * (members and the invite), then the name through inputs_name() as for a join without a
 * player token, and the problem body of each refusal. Not reached: the player token's
 * lookup, the invite's hash compared in the store, the seat taken (lobby_join()).
 *
 * Input: the body. Oracles: an accepted join has an invite of 1..128 bytes and only the
 * members invite, name and player_seed; an accepted player seed is the member's string, 1..64
 * bytes of UTF-8 without NUL; an accepted name is 1..40 characters of UTF-8 copied whole;
 * every refusal answers as a problem body (400 naming the member, invalid_json naming the
 * whole body).
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
	static const char instance[] = "/v1/games/0123456789abcdef/join";
	struct problem_refusal refusal;
	json_t *body = inputs_json_object((const char *)data, size, 0, &refusal);
	if (!body) {
		fuzz_expect_refusal(instance, &refusal);
		return 0;
	}
	const json_t *invite = NULL, *name = NULL;
	const char *seed = NULL;
	if (!inputs_join(body, &invite, &name, &seed, &refusal)) {
		fuzz_expect_refusal(instance, &refusal);
		json_decref(body);
		return 0;
	}
	size_t members = json_object_size(body);
	if (!json_is_string(invite) || json_string_length(invite) < 1 || json_string_length(invite) > 128 ||
	    members != 1 + (name != NULL) + (seed != NULL)) {
		fprintf(stderr, "fuzz: a join accepted with a bad invite or other members\n");
		abort();
	}
	const json_t *seed_member = json_object_get(body, "player_seed");
	if ((seed_member != NULL) != (seed != NULL) ||
	    (seed && (seed != json_string_value(seed_member) || strlen(seed) < 1 || strlen(seed) > 64 ||
		      strlen(seed) != json_string_length(seed_member) || !fuzz_utf8_valid(seed, strlen(seed))))) {
		fprintf(stderr, "fuzz: a join's player seed accepted malformed, or not the member's\n");
		abort();
	}
	char out[INPUTS_NAME_SIZE];
	if (inputs_name(name, "name", out, &refusal)) {
		if (strcmp(out, json_string_value(name)) != 0 || !fuzz_utf8_valid(out, strlen(out))) {
			fprintf(stderr, "fuzz: an accepted joiner's name is not kept whole\n");
			abort();
		}
	} else {
		fuzz_expect_refusal(instance, &refusal);
	}
	json_decref(body);
	return 0;
}
