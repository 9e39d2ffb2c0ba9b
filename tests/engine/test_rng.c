/*
 * test_rng.c - the engine's generator: reproducible per (seed, stream), independent across
 * streams, bounded draws in range and uniform enough to deal dice and cards.
 *
 * The uniformity tests use a fixed seed, so they are deterministic; their bounds are loose
 * (a chi-square far beyond any plausible value), so they catch a broken reduction (modulo of
 * a few bits, an off-by-one in the bound) without being flaky.
 */
#include "tests/check_main.h"

#include <stdint.h>

#include "engine/rng.h"

START_TEST(test_next_is_splitmix64)
{
	/* The published splitmix64 sequence from state 0. */
	struct rng rng = {0};
	ck_assert(rng_next(&rng) == UINT64_C(0xe220a8397b1dcdaf));
	ck_assert(rng_next(&rng) == UINT64_C(0x6e789e6aa1b965f4));
	ck_assert(rng_next(&rng) == UINT64_C(0x06c45d188009454f));
}
END_TEST

START_TEST(test_same_seed_and_stream_give_the_same_sequence)
{
	struct rng a, b;
	rng_init(&a, 12345, 67);
	rng_init(&b, 12345, 67);
	for (int i = 0; i < 1000; i++)
		ck_assert(rng_next(&a) == rng_next(&b));
	rng_init(&a, 12345, 67);
	rng_init(&b, 12345, 67);
	for (int i = 0; i < 1000; i++) {
		uint32_t bound = (uint32_t)(i % 97 + 1);
		ck_assert_uint_eq(rng_below(&a, bound), rng_below(&b, bound));
	}
}
END_TEST

/* The first outputs of (seed, stream): a distinct value per pair tried. */
START_TEST(test_different_seeds_or_streams_give_different_sequences)
{
	enum { SEEDS = 40, STREAMS = 40 };
	static uint64_t first[SEEDS * STREAMS];
	int count = 0;
	for (uint64_t seed = 0; seed < SEEDS; seed++) {
		for (uint64_t stream = 0; stream < STREAMS; stream++) {
			struct rng rng;
			rng_init(&rng, seed, stream);
			first[count++] = rng_next(&rng);
		}
	}
	/* (seed, n) and (seed + k, n - k) are among the pairs: none may collide. */
	for (int i = 0; i < count; i++)
		for (int j = i + 1; j < count; j++)
			ck_assert_msg(first[i] != first[j], "pairs %d and %d start alike", i, j);
}
END_TEST

START_TEST(test_below_respects_its_bound)
{
	static const uint32_t bounds[] = {
		1, 2, 3, 5, 6, 7, 18, 19, 25, 54, 72, 1000, 65537, UINT32_C(0x80000001), UINT32_MAX};
	struct rng rng;
	rng_init(&rng, 99, 1);
	for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
		uint32_t max_seen = 0;
		for (int i = 0; i < 20000; i++) {
			uint32_t value = rng_below(&rng, bounds[b]);
			ck_assert_uint_lt(value, bounds[b]);
			if (value > max_seen)
				max_seen = value;
		}
		/* The top of a small range is reached; a large range reaches its upper half. */
		if (bounds[b] <= 1000)
			ck_assert_uint_eq(max_seen, bounds[b] - 1);
		else
			ck_assert_uint_gt(max_seen, bounds[b] / 2);
	}
}
END_TEST

static double chi_square(const long *observed, int buckets, long draws)
{
	double expected = (double)draws / buckets, sum = 0;
	for (int i = 0; i < buckets; i++) {
		double d = (double)observed[i] - expected;
		sum += d * d / expected;
	}
	return sum;
}

START_TEST(test_below_six_is_uniform)
{
	/* 5 degrees of freedom: P(chi2 > 30) is about 1.5e-5. */
	enum { DRAWS = 600000 };
	long counts[6] = {0};
	struct rng rng;
	rng_init(&rng, 2024, 0);
	for (int i = 0; i < DRAWS; i++)
		counts[rng_below(&rng, 6)]++;
	double chi2 = chi_square(counts, 6, DRAWS);
	ck_assert_msg(chi2 < 30.0, "chi-square %.2f over 6 buckets", chi2);
}
END_TEST

START_TEST(test_below_is_uniform_for_bounds_that_do_not_divide_two_to_the_32)
{
	/* A bound of about 2^32 * 2/3 exposes both classic biases: a plain modulo puts 2/3 of
	 * the draws in the low half, and a multiply-shift without rejection gives even values
	 * two preimages and odd values one, so 2/3 of the draws are even. */
	enum { DRAWS = 300000 };
	long halves[2] = {0}, parity[2] = {0};
	uint32_t bound = UINT32_C(0xaaaaaaab);
	struct rng rng;
	rng_init(&rng, 7, 7);
	for (int i = 0; i < DRAWS; i++) {
		uint32_t value = rng_below(&rng, bound);
		halves[value >= bound / 2]++;
		parity[value & 1u]++;
	}
	double chi2 = chi_square(halves, 2, DRAWS);
	ck_assert_msg(chi2 < 25.0, "chi-square %.2f over two halves of [0, %u)", chi2, bound);
	chi2 = chi_square(parity, 2, DRAWS);
	ck_assert_msg(chi2 < 25.0, "chi-square %.2f over even and odd draws", chi2);
}
END_TEST

START_TEST(test_die_is_one_to_six_and_uniform)
{
	enum { DRAWS = 600000 };
	long counts[6] = {0};
	long sums[13] = {0};
	struct rng rng;
	rng_init(&rng, 31337, 5);
	for (int i = 0; i < DRAWS; i++) {
		int die = rng_die(&rng);
		ck_assert_int_ge(die, 1);
		ck_assert_int_le(die, 6);
		counts[die - 1]++;
		if (i % 2)
			sums[die + rng_die(&rng)]++;
	}
	double chi2 = chi_square(counts, 6, DRAWS);
	ck_assert_msg(chi2 < 30.0, "chi-square %.2f over the faces", chi2);
	/* Two dice: 7 is the most common total, six times as common as 2 or 12. */
	long pairs = DRAWS / 2;
	ck_assert(sums[7] > sums[6] && sums[7] > sums[8]);
	double seven = (double)sums[7] / (double)pairs;
	ck_assert_msg(seven > 0.16 && seven < 0.173, "P(7) = %.4f", seven);
}
END_TEST

START_TEST(test_streams_of_one_seed_are_uncorrelated)
{
	/* Consecutive streams (game versions) drawing the first die: independent pairs. */
	enum { PAIRS = 200000 };
	long same = 0;
	for (uint64_t stream = 0; stream < PAIRS; stream++) {
		struct rng a, b;
		rng_init(&a, 5, stream);
		rng_init(&b, 5, stream + 1);
		same += rng_die(&a) == rng_die(&b);
	}
	double share = (double)same / PAIRS; /* 1/6 when independent */
	ck_assert_msg(share > 0.16 && share < 0.173, "consecutive streams agree %.4f of the time", share);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("rng");
	TCase *tc = tcase_create("rng");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_next_is_splitmix64);
	tcase_add_test(tc, test_same_seed_and_stream_give_the_same_sequence);
	tcase_add_test(tc, test_different_seeds_or_streams_give_different_sequences);
	tcase_add_test(tc, test_below_respects_its_bound);
	tcase_add_test(tc, test_below_six_is_uniform);
	tcase_add_test(tc, test_below_is_uniform_for_bounds_that_do_not_divide_two_to_the_32);
	tcase_add_test(tc, test_die_is_one_to_six_and_uniform);
	tcase_add_test(tc, test_streams_of_one_seed_are_uncorrelated);
	suite_add_tcase(suite, tc);
	return suite;
}
