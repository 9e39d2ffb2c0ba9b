/*
 * test_quiet.c - time zones read from the tz database's files (base/zone.c) and a seat's
 * quiet hours over them (base/quiet.c): the clock stops for the night in the seat's wall
 * time, across midnight, and a night is an hour shorter or longer in real time when
 * daylight time begins or ends; a deadline is pushed by every quiet stretch in its way and
 * the running time up to it is the budget it was given.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quiet.h"
#include "base/zone.h"
#include "tests/check_main.h"

/* A zone of the tz files, read here once a name and kept for the process in a static
 * table (the server's cache is game/zones.c); NULL for a bad name or file. */
static const struct zone *zone_load(const char *name)
{
	static struct {
		char name[64];
		struct zone zone;
	} loaded[8];
	static int count;
	if (!zone_name_valid(name) || strlen(name) >= sizeof loaded[0].name)
		return NULL;
	for (int i = 0; i < count; i++)
		if (strcmp(loaded[i].name, name) == 0)
			return &loaded[i].zone;
	ck_assert_int_lt(count, (int)(sizeof loaded / sizeof loaded[0]));
	char path[256];
	snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", name);
	FILE *file = fopen(path, "rb");
	if (!file)
		return NULL;
	static unsigned char bytes[256 * 1024];
	size_t length = fread(bytes, 1, sizeof bytes, file);
	fclose(file);
	if (!zone_parse(bytes, length, &loaded[count].zone))
		return NULL;
	snprintf(loaded[count].name, sizeof loaded[count].name, "%s", name);
	return &loaded[count++].zone;
}

#define HOUR_US (INT64_C(3600) * 1000000)
#define MINUTE_US (INT64_C(60) * 1000000)

/* Microseconds since 1970 of a UTC date and time (days from the civil calendar). */
static int64_t utc(int year, int month, int day, int hour, int minute)
{
	year -= month <= 2;
	int64_t era = (year >= 0 ? year : year - 399) / 400;
	int64_t year_of_era = year - era * 400;
	int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
	int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
	int64_t days = era * 146097 + day_of_era - 719468;
	return ((days * 24 + hour) * 60 + minute) * MINUTE_US;
}

static struct quiet_hours berlin_nights(void)
{
	const struct zone *zone = zone_load("Europe/Berlin");
	ck_assert_ptr_nonnull(zone);
	struct quiet_hours quiet = {zone, 22 * 60, 7 * 60};
	return quiet;
}

START_TEST(test_without_quiet_hours_the_clock_always_runs)
{
	struct quiet_hours none = {NULL, 0, 0};
	int64_t start = utc(2026, 1, 15, 20, 0);
	ck_assert_int_eq(quiet_deadline_us(&none, start, 5 * HOUR_US), start + 5 * HOUR_US);
	ck_assert_int_eq(quiet_running_us(&none, start, start + 5 * HOUR_US), 5 * HOUR_US);
	struct quiet_hours empty = {zone_load("UTC"), 600, 600};
	ck_assert(!quiet_active(&empty));
	ck_assert_int_eq(quiet_deadline_us(&empty, start, HOUR_US), start + HOUR_US);
}
END_TEST

START_TEST(test_a_deadline_across_the_night_is_pushed_by_the_quiet_time)
{
	struct quiet_hours quiet = berlin_nights();
	/* 21:00 in Berlin (CET, UTC+1) with two hours to run: one before 22:00, one after 07:00. */
	int64_t start = utc(2026, 1, 15, 20, 0);
	ck_assert_int_eq(quiet_deadline_us(&quiet, start, 2 * HOUR_US), utc(2026, 1, 16, 7, 0));
	/* Exactly the hour before the night: the deadline is the night's start, not its end. */
	ck_assert_int_eq(quiet_deadline_us(&quiet, start, HOUR_US), utc(2026, 1, 15, 21, 0));
	ck_assert_int_eq(quiet_running_us(&quiet, start, utc(2026, 1, 16, 8, 0)), 3 * HOUR_US);
}
END_TEST

START_TEST(test_a_start_inside_the_night_waits_for_its_end)
{
	struct quiet_hours quiet = berlin_nights();
	/* 00:30 in Berlin, after midnight: the stretch began the day before. */
	int64_t start = utc(2026, 1, 15, 23, 30);
	ck_assert_int_eq(quiet_deadline_us(&quiet, start, 30 * MINUTE_US), utc(2026, 1, 16, 6, 30));
	ck_assert_int_eq(quiet_running_us(&quiet, start, utc(2026, 1, 16, 5, 59)), 0);
}
END_TEST

START_TEST(test_the_night_daylight_time_begins_is_an_hour_shorter)
{
	struct quiet_hours quiet = berlin_nights();
	/* 29 March 2026: 22:00 CET is 21:00 UTC, 07:00 CEST is 05:00 UTC: eight quiet hours. */
	int64_t start = utc(2026, 3, 28, 20, 0);
	ck_assert_int_eq(quiet_deadline_us(&quiet, start, 2 * HOUR_US), utc(2026, 3, 29, 6, 0));
	ck_assert_int_eq(quiet_running_us(&quiet, start, utc(2026, 3, 29, 6, 0)), 2 * HOUR_US);
}
END_TEST

START_TEST(test_the_night_daylight_time_ends_is_an_hour_longer)
{
	struct quiet_hours quiet = berlin_nights();
	/* 25 October 2026: 22:00 CEST is 20:00 UTC, 07:00 CET is 06:00 UTC: ten quiet hours. */
	int64_t start = utc(2026, 10, 24, 19, 0);
	ck_assert_int_eq(quiet_deadline_us(&quiet, start, 2 * HOUR_US), utc(2026, 10, 25, 7, 0));
	ck_assert_int_eq(quiet_running_us(&quiet, start, utc(2026, 10, 25, 7, 0)), 2 * HOUR_US);
}
END_TEST

START_TEST(test_a_stretch_within_a_day_and_a_long_budget)
{
	const struct zone *zone = zone_load("America/New_York");
	ck_assert_ptr_nonnull(zone);
	/* Lunch, 12:00 to 13:00 in New York (EST, UTC-5), over three days of running time. */
	struct quiet_hours lunch = {zone, 12 * 60, 13 * 60};
	int64_t start = utc(2026, 1, 10, 12, 0); /* 07:00 local */
	ck_assert_int_eq(quiet_deadline_us(&lunch, start, 72 * HOUR_US), utc(2026, 1, 13, 15, 0));
	/* The running time up to any deadline is the budget it was given. */
	struct quiet_hours nights = berlin_nights();
	for (int64_t budget = 0; budget < 100 * HOUR_US; budget += 7 * HOUR_US + 13 * MINUTE_US) {
		int64_t at = utc(2026, 3, 20, 3, 17);
		int64_t due = quiet_deadline_us(&nights, at, budget);
		ck_assert_int_eq(quiet_running_us(&nights, at, due), budget);
	}
}
END_TEST

START_TEST(test_wall_times_in_a_gap_or_twice_over)
{
	const struct zone *zone = zone_load("Europe/Berlin");
	ck_assert_ptr_nonnull(zone);
	int64_t second = 1000000;
	/* 02:30 on 29 March 2026 does not exist: read with the offset before the jump. */
	ck_assert_int_eq(zone_utc_of_local(zone, utc(2026, 3, 29, 2, 30) / second), utc(2026, 3, 29, 1, 30) / second);
	/* 02:30 on 25 October 2026 happens twice: the first. */
	ck_assert_int_eq(zone_utc_of_local(zone, utc(2026, 10, 25, 2, 30) / second), utc(2026, 10, 25, 0, 30) / second);
	ck_assert_int_eq(zone_offset_at(zone, utc(2026, 7, 1, 0, 0) / second), 7200);
	ck_assert_int_eq(zone_offset_at(zone, utc(2026, 12, 1, 0, 0) / second), 3600);
}
END_TEST

START_TEST(test_zone_names_and_files_are_checked)
{
	ck_assert(zone_name_valid("Europe/Berlin"));
	ck_assert(zone_name_valid("America/Argentina/Buenos_Aires"));
	ck_assert(zone_name_valid("Etc/GMT+5"));
	ck_assert(!zone_name_valid("../../etc/passwd"));
	ck_assert(!zone_name_valid("/etc/passwd"));
	ck_assert(!zone_name_valid("Europe//Berlin"));
	ck_assert(!zone_name_valid("Europe/Berlin "));
	ck_assert(!zone_name_valid(""));
	ck_assert_ptr_null(zone_load("Nowhere/Atlantis"));
	ck_assert_ptr_null(zone_load("Europe")); /* a folder, not a zone */
	struct zone zone;
	static const unsigned char garbage[] = "TZif2 this is not a zone file at all, only text";
	ck_assert(!zone_parse(garbage, sizeof garbage, &zone));
	ck_assert_int_eq(quiet_parse_time("22:00"), 1320);
	ck_assert_int_eq(quiet_parse_time("00:00"), 0);
	ck_assert_int_eq(quiet_parse_time("23:59"), 1439);
	ck_assert_int_eq(quiet_parse_time("24:00"), -1);
	ck_assert_int_eq(quiet_parse_time("7:00"), -1);
	ck_assert_int_eq(quiet_parse_time("07:60"), -1);
	ck_assert_int_eq(quiet_parse_time("07:00 "), -1);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("quiet");
	TCase *cases = tcase_create("quiet");
	tcase_add_test(cases, test_without_quiet_hours_the_clock_always_runs);
	tcase_add_test(cases, test_a_deadline_across_the_night_is_pushed_by_the_quiet_time);
	tcase_add_test(cases, test_a_start_inside_the_night_waits_for_its_end);
	tcase_add_test(cases, test_the_night_daylight_time_begins_is_an_hour_shorter);
	tcase_add_test(cases, test_the_night_daylight_time_ends_is_an_hour_longer);
	tcase_add_test(cases, test_a_stretch_within_a_day_and_a_long_budget);
	tcase_add_test(cases, test_wall_times_in_a_gap_or_twice_over);
	tcase_add_test(cases, test_zone_names_and_files_are_checked);
	suite_add_tcase(suite, cases);
	return suite;
}
