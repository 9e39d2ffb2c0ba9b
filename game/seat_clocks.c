/*
 * seat_clocks.c - the seats' correspondence clocks; see seat_clocks.h.
 *
 * Banks are milliseconds; times are microseconds since 1970. A seat whose row has never
 * been charged (bank NULL in the store) has the whole options.time_bank_s. A seat's zone is
 * loaded from the server's tz files (base/zone.h) when its clocks are read: the zone
 * itself is checked when the quiet hours are set, so a zone missing now is a server whose
 * tz database lost it, and its seat's clock simply runs.
 */
#include "game/seat_clocks.h"

#include <string.h>

#include "engine/event.h"
#include "engine/legal.h"
#include "game/zones.h"

int seat_clocks_used(const struct codec_options *options)
{
	return options->turn_timeout_s > 0;
}

static int64_t full_bank_ms(const struct codec_options *options)
{
	return (int64_t)options->time_bank_s * 1000;
}

void seat_clocks_fresh(const struct codec_options *options, int64_t start_us, struct seat_clocks *out)
{
	memset(out, 0, sizeof *out);
	out->start_us = start_us;
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++)
		out->bank_ms[seat] = full_bank_ms(options);
}

enum store_status seat_clocks_read(struct store *store, const struct codec_options *options, int64_t game_id,
				   int32_t version, struct seat_clocks *out)
{
	struct store_clocks rows;
	/* A change of quiet hours begins no wait: the seats' time runs from the move before. */
	static const struct store_wait_skip skip = {2, {EVENT_QUIET_HOURS_SET, EVENT_QUIET_HOURS_CLEARED}};
	enum store_status status = store_read_clocks(store, game_id, version, &skip, &rows);
	if (status != STORE_OK)
		return status;
	seat_clocks_fresh(options, rows.since_us, out);
	for (int seat = 0; seat < rows.seats && seat < GAME_MAX_SEATS; seat++) {
		const struct store_seat_clock *row = &rows.seat[seat];
		if (row->bank_ms >= 0)
			out->bank_ms[seat] = row->bank_ms;
		if (row->quiet) {
			memcpy(out->zone[seat], row->zone, sizeof out->zone[seat]);
			out->quiet[seat].zone = zones_load(row->zone);
			out->quiet[seat].from_min = row->from_min;
			out->quiet[seat].to_min = row->to_min;
		}
	}
	return STORE_OK;
}

int64_t seat_clocks_deadline_us(const struct codec_options *options, const struct seat_clocks *clocks, uint8_t waiting,
				int64_t start_us)
{
	int64_t latest = 0;
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++) {
		if (!(waiting >> seat & 1u))
			continue;
		int64_t budget_us = ((int64_t)options->turn_timeout_s * 1000 + clocks->bank_ms[seat]) * 1000;
		int64_t due = quiet_deadline_us(&clocks->quiet[seat], start_us, budget_us);
		if (due > latest)
			latest = due;
	}
	return latest;
}

int seat_clocks_spend(const struct codec_options *options, struct seat_clocks *clocks, int seat,
		      const struct game *before, const struct game *after, int64_t now_us, int64_t *bank_ms)
{
	if (seat < 0 || seat >= GAME_MAX_SEATS || (options->time_bank_s == 0 && options->time_increment_s == 0))
		return 0;
	int64_t bank = clocks->bank_ms[seat];
	if (legal_waiting_for(before) >> seat & 1u) {
		int64_t running_ms = quiet_running_us(&clocks->quiet[seat], clocks->start_us, now_us) / 1000;
		int64_t over_ms = running_ms - (int64_t)options->turn_timeout_s * 1000;
		if (over_ms > 0)
			bank = bank > over_ms ? bank - over_ms : 0;
	}
	if (before->turn_seat == seat &&
	    (after->turn_seat != before->turn_seat || after->turn_number != before->turn_number))
		bank += (int64_t)options->time_increment_s * 1000;
	if (bank == clocks->bank_ms[seat])
		return 0;
	clocks->bank_ms[seat] = bank;
	*bank_ms = bank;
	return 1;
}
