// SPDX-License-Identifier: MIT
/*
 * Unit tests for fabric/sched.c: the pairs pattern (every unordered pair
 * exactly once, disjoint rounds) for every n up to 300 and for large n
 * near powers of two; the exact pairs of ring, bisection and incast; bad
 * inputs; roles; pattern names.  The expected pairs are written out from
 * the header's definitions, never taken from sched.c.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/sched.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- pairs: the properties, over ranges of n ---- */

static const struct {
	unsigned int lo, hi;
} pairs_ranges[] = {
	{ 2, 100 },	{ 101, 200 },	{ 201, 300 },	{ 511, 512 },
	{ 1000, 1000 }, { 1023, 1024 }, { 2047, 2048 },
};

/* The hot loops test with if and ck_abort_msg: every ck_assert marks its
 * place through a pipe, which made this test take a minute. */

/* Scratch of one n: the pairs seen (n * n bits), the last round each rank
 * took part in, and how often each rank was client minus server. */
struct seen {
	uint64_t *bits;
	unsigned int *round_of;
	int *balance;
	struct ig_fab_pair *out;
};

static void seen_alloc(struct seen *s, unsigned int n)
{
	size_t words = ((size_t)n * n + 63) / 64;

	s->bits = calloc(words, sizeof(*s->bits));
	s->round_of = calloc(n, sizeof(*s->round_of));
	s->balance = calloc(n, sizeof(*s->balance));
	s->out = calloc(n, sizeof(*s->out));
	ck_assert(s->bits && s->round_of && s->balance && s->out);
}

static void seen_free(struct seen *s)
{
	free(s->bits);
	free(s->round_of);
	free(s->balance);
	free(s->out);
}

/* Checks one pair of round r (ranks, disjoint, not seen) and marks it. */
static void mark_pair(struct seen *s, unsigned int n, unsigned int r,
		      struct ig_fab_pair p)
{
	unsigned int lo = p.a < p.b ? p.a : p.b, hi = p.a < p.b ? p.b : p.a;
	size_t bit = (size_t)lo * n + hi;

	if (p.a >= n || p.b >= n || p.a == p.b)
		ck_abort_msg("n %u round %u: bad pair %u->%u", n, r, p.a, p.b);
	if (s->round_of[p.a] == r + 1 || s->round_of[p.b] == r + 1)
		ck_abort_msg("n %u round %u: rank twice (%u->%u)", n, r, p.a,
			     p.b);
	s->round_of[p.a] = s->round_of[p.b] = r + 1;
	if (s->bits[bit / 64] >> bit % 64 & 1)
		ck_abort_msg("n %u round %u: pair %u-%u again", n, r, lo, hi);
	s->bits[bit / 64] |= 1ull << bit % 64;
	s->balance[p.a]++;
	s->balance[p.b]--;
}

static void check_pairs_n(unsigned int n)
{
	unsigned int nr = ig_fab_nrounds(IG_FAB_PAIRS, n, 0);
	unsigned int want_np = n % 2 ? (n - 1) / 2 : n / 2;
	size_t total = 0;
	struct seen s;

	ck_assert_uint_eq(nr, n % 2 ? n : n - 1);
	seen_alloc(&s, n);
	for (unsigned int r = 0; r < nr; r++) {
		unsigned int np = ig_fab_round(IG_FAB_PAIRS, n, 0, r, s.out);

		if (np != want_np)
			ck_abort_msg("n %u round %u: %u pairs", n, r, np);
		for (unsigned int i = 0; i < np; i++)
			mark_pair(&s, n, r, s.out[i]);
		total += np;
	}
	/* no repeats and n(n-1)/2 of them: every pair exactly once */
	ck_assert_uint_eq(total, (size_t)n * (n - 1) / 2);
	for (unsigned int i = 0; i < n; i++)
		if (abs(s.balance[i]) > 1)
			ck_abort_msg("n %u: rank %u client-server %d", n, i,
				     s.balance[i]);
	ck_assert_uint_eq(ig_fab_round(IG_FAB_PAIRS, n, 0, nr, s.out), 0);
	seen_free(&s);
}

START_TEST(pairs_every_pair_once)
{
	for (unsigned int n = pairs_ranges[_i].lo; n <= pairs_ranges[_i].hi;
	     n++)
		check_pairs_n(n);
}
END_TEST

/* ---- ring, bisection, incast: the exact pairs ---- */

static const unsigned int small_n[] = { 2, 3, 4, 5, 7, 8, 16, 33 };

START_TEST(ring_exact)
{
	unsigned int n = small_n[_i];
	struct ig_fab_pair out[33];
	unsigned char seen[33][33] = { { 0 } };

	ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_RING, n, 0), n - 1);
	for (unsigned int r = 0; r < n - 1; r++) {
		ck_assert_uint_eq(ig_fab_round(IG_FAB_RING, n, 0, r, out), n);
		for (unsigned int i = 0; i < n; i++) {
			ck_assert_uint_eq(out[i].a, i);
			ck_assert_uint_eq(out[i].b, (i + r + 1) % n);
			seen[out[i].a][out[i].b]++;
		}
	}
	/* over all steps: every ordered pair a != b exactly once */
	for (unsigned int a = 0; a < n; a++)
		for (unsigned int b = 0; b < n; b++)
			ck_assert_uint_eq(seen[a][b], a != b);
	ck_assert_uint_eq(ig_fab_round(IG_FAB_RING, n, 0, n - 1, out), 0);
}
END_TEST

START_TEST(bisection_exact)
{
	unsigned int n = small_n[_i];
	struct ig_fab_pair out[33];

	ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_BISECTION, n, 0), 1);
	ck_assert_uint_eq(ig_fab_round(IG_FAB_BISECTION, n, 0, 0, out), n / 2);
	for (unsigned int i = 0; i < n / 2; i++) {
		ck_assert_uint_eq(out[i].a, i);
		ck_assert_uint_eq(out[i].b, i + n / 2);
	}
	if (n % 2) /* the last rank rests */
		ck_assert_uint_eq(out[n / 2 - 1].b, n - 2);
	ck_assert_uint_eq(ig_fab_round(IG_FAB_BISECTION, n, 0, 1, out), 0);
}
END_TEST

START_TEST(incast_exact)
{
	unsigned int n = small_n[_i];
	struct ig_fab_pair out[33];

	for (unsigned int root = 0; root < n; root++) {
		unsigned int i = 0;

		ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_INCAST, n, root), 1);
		ck_assert_uint_eq(ig_fab_round(IG_FAB_INCAST, n, root, 0, out),
				  n - 1);
		for (unsigned int c = 0; c < n; c++) {
			if (c == root)
				continue;
			ck_assert_uint_eq(out[i].a, c);
			ck_assert_uint_eq(out[i].b, root);
			i++;
		}
	}
}
END_TEST

/* ---- bad inputs ---- */

START_TEST(bad_inputs)
{
	struct ig_fab_pair out[8];

	for (int p = 0; p < IG_FAB_PATTERN_COUNT; p++) {
		for (unsigned int n = 0; n < 2; n++) {
			ck_assert_uint_eq(ig_fab_nrounds(p, n, 0), 0);
			ck_assert_uint_eq(ig_fab_round(p, n, 0, 0, out), 0);
		}
		/* a round past the last, and no out */
		ck_assert_uint_eq(ig_fab_round(p, 4, 0, 99, out), 0);
		ck_assert_uint_eq(ig_fab_round(p, 4, 0, 0, NULL), 0);
	}
	ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_INCAST, 4, 4), 0);
	ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_INCAST, 4, 1000), 0);
	ck_assert_uint_eq(ig_fab_round(IG_FAB_INCAST, 4, 4, 0, out), 0);
	/* rank 0 plans the leaves (plan.h): no rounds here */
	ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_LEAVES, 16, 0), 0);
	ck_assert_uint_eq(ig_fab_round(IG_FAB_LEAVES, 16, 0, 0, out), 0);
	/* root matters to incast alone */
	ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_RING, 4, 9), 3);
	ck_assert_uint_eq(ig_fab_nrounds(IG_FAB_PATTERN_COUNT, 4, 0), 0);
	ck_assert_uint_eq(ig_fab_round(IG_FAB_PATTERN_COUNT, 4, 0, 0, out), 0);
	ck_assert_uint_eq(ig_fab_nrounds(-1, 4, 0), 0);
}
END_TEST

/* ---- roles ---- */

START_TEST(role_pairs)
{
	/* n = 7: every round, 3 pairs and one rank resting */
	struct ig_fab_pair out[7];

	for (unsigned int r = 0; r < 7; r++) {
		unsigned int np = ig_fab_round(IG_FAB_PAIRS, 7, 0, r, out);
		unsigned int in[7] = { 0 }, rests = 0;

		for (unsigned int i = 0; i < np; i++) {
			unsigned int peer = 99;

			ck_assert_int_eq(ig_fab_role(out, np, out[i].a, false,
						     &peer),
					 1);
			ck_assert_uint_eq(peer, out[i].b);
			ck_assert_int_eq(
				ig_fab_role(out, np, out[i].b, true, &peer), 2);
			ck_assert_uint_eq(peer, out[i].a);
			in[out[i].a] = in[out[i].b] = 1;
		}
		for (unsigned int me = 0; me < 7; me++) {
			unsigned int peer = 99;

			if (in[me])
				continue;
			rests++;
			ck_assert_int_eq(ig_fab_role(out, np, me, true, &peer),
					 0);
			ck_assert_uint_eq(peer, 99);
		}
		ck_assert_uint_eq(rests, 1);
	}
}
END_TEST

START_TEST(role_ring_incast)
{
	struct ig_fab_pair out[6];
	unsigned int np, peer;

	/* ring n 6, step r 1: i -> i+2 */
	np = ig_fab_round(IG_FAB_RING, 6, 0, 1, out);
	for (unsigned int me = 0; me < 6; me++) {
		ck_assert_int_eq(ig_fab_role(out, np, me, true, &peer), 1);
		ck_assert_uint_eq(peer, (me + 2) % 6);
		ck_assert_int_eq(ig_fab_role(out, np, me, false, &peer), 2);
		ck_assert_uint_eq(peer, (me + 4) % 6);
	}
	ck_assert_int_eq(ig_fab_role(out, np, 6, true, &peer), 0);
	/* incast to 3: the root serves (its first client is 0) */
	np = ig_fab_round(IG_FAB_INCAST, 6, 3, 0, out);
	ck_assert_int_eq(ig_fab_role(out, np, 3, true, &peer), 2);
	ck_assert_uint_eq(peer, 0);
	ck_assert_int_eq(ig_fab_role(out, np, 3, false, &peer), 2);
	ck_assert_uint_eq(peer, 0);
	ck_assert_int_eq(ig_fab_role(out, np, 5, false, &peer), 1);
	ck_assert_uint_eq(peer, 3);
	ck_assert_int_eq(ig_fab_role(out, 0, 5, true, &peer), 0);
}
END_TEST

/* ---- names ---- */

static const struct {
	enum ig_fab_pattern p;
	const char *name;
} names[] = {
	{ IG_FAB_PAIRS, "pairs" },
	{ IG_FAB_RING, "ring" },
	{ IG_FAB_BISECTION, "bisection" },
	{ IG_FAB_INCAST, "incast" },
	/* their rounds: test_fabric_leaves, test_fabric_sample */
	{ IG_FAB_LEAVES, "leaves" },
	{ IG_FAB_SAMPLE, "sample" },
};

START_TEST(pattern_names)
{
	ck_assert_uint_eq(ARRAY_SIZE(names), IG_FAB_PATTERN_COUNT);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		ck_assert_str_eq(ig_fab_pattern_name(names[i].p),
				 names[i].name);
		ck_assert_int_eq(ig_fab_pattern_parse(names[i].name),
				 names[i].p);
	}
	ck_assert_ptr_null(ig_fab_pattern_name(IG_FAB_PATTERN_COUNT));
	ck_assert_ptr_null(ig_fab_pattern_name(-1));
	ck_assert_int_eq(ig_fab_pattern_parse("Pairs"), -1);
	ck_assert_int_eq(ig_fab_pattern_parse("rings"), -1);
	ck_assert_int_eq(ig_fab_pattern_parse("pair"), -1);
	ck_assert_int_eq(ig_fab_pattern_parse(""), -1);
	ck_assert_int_eq(ig_fab_pattern_parse(NULL), -1);
}
END_TEST

static Suite *sched_suite(void)
{
	Suite *s = suite_create("fabric_sched");
	TCase *tc = tcase_create("pairs");

	tcase_add_loop_test(tc, pairs_every_pair_once, 0,
			    ARRAY_SIZE(pairs_ranges));
	suite_add_tcase(s, tc);
	tc = tcase_create("patterns");
	tcase_add_loop_test(tc, ring_exact, 0, ARRAY_SIZE(small_n));
	tcase_add_loop_test(tc, bisection_exact, 0, ARRAY_SIZE(small_n));
	tcase_add_loop_test(tc, incast_exact, 0, ARRAY_SIZE(small_n));
	tcase_add_test(tc, bad_inputs);
	tcase_add_test(tc, role_pairs);
	tcase_add_test(tc, role_ring_incast);
	tcase_add_test(tc, pattern_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(sched_suite());
}
