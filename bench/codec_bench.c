/*
 * bench_codec.c - what the event store pays for the codec: the average size of
 * codec_event_dump()'s text, and the time of one dump plus one parse, over N random
 * complete games (4 seats, trades on unless TRADES is 0, beginner and random boards alternating).
 *
 *   bench_codec [GAMES [TRADES]]     (defaults 100 and 1; `make bench-codec`)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec/log.h"
#include "bench/games.h"

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long games = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	if (games < 1)
		games = 1;
	int trades = argc > 2 ? atoi(argv[2]) != 0 : 1;
	long events = 0, bytes = 0, largest = 0;
	long type_count[EVENT_TYPE_COUNT] = {0}, type_bytes[EVENT_TYPE_COUNT] = {0};
	double dump_seconds = 0, parse_seconds = 0;
	for (long g = 0; g < games; g++) {
		struct games_record game;
		games_record_play(&game, 4, (int)(g & 1), (int)((g >> 1) & 1), trades, (uint64_t)g + 1);
		char **texts = malloc(sizeof *texts * (size_t)game.count);
		if (!texts)
			abort();
		double start = now_seconds();
		for (int i = 0; i < game.count; i++)
			texts[i] = codec_event_dump(&game.events[i], 4);
		double middle = now_seconds();
		for (int i = 0; i < game.count; i++) {
			struct event event;
			struct codec_error error;
			if (!codec_event_parse(texts[i], strlen(texts[i]), &event, &error) ||
			    memcmp(&event, &game.events[i], sizeof event) != 0) {
				fprintf(stderr, "bench_codec: event %d of game %ld does not round-trip: %s\n", i, g,
					texts[i]);
				return 1;
			}
		}
		parse_seconds += now_seconds() - middle;
		dump_seconds += middle - start;
		for (int i = 0; i < game.count; i++) {
			long size = (long)strlen(texts[i]);
			bytes += size;
			largest = size > largest ? size : largest;
			type_count[game.events[i].type]++;
			type_bytes[game.events[i].type] += size;
			free(texts[i]);
		}
		events += game.count;
		free(texts);
		games_record_free(&game);
	}
	printf("bench codec: %ld games%s, %ld events (%.0f per game), %.1f bytes per event (largest %ld)\n", games,
	       trades ? " with trades" : "", events, (double)events / (double)games, (double)bytes / (double)events,
	       largest);
	printf("bench codec: dump %.2f us + parse %.2f us = %.2f us per event\n", 1e6 * dump_seconds / (double)events,
	       1e6 * parse_seconds / (double)events, 1e6 * (dump_seconds + parse_seconds) / (double)events);
	for (int t = 0; t < EVENT_TYPE_COUNT; t++)
		if (type_count[t])
			printf("  %-24s %6.1f%% of events, %5.1f bytes\n", event_type_name(t),
			       100.0 * (double)type_count[t] / (double)events,
			       (double)type_bytes[t] / (double)type_count[t]);
	return 0;
}
