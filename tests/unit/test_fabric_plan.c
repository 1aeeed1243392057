// SPDX-License-Identifier: MIT
/*
 * Unit tests for fabric/plan.c: rounds packed from a list of pairs.  Every
 * valid pair of the list is in exactly one round, the rounds are disjoint,
 * a list made of disjoint rounds keeps them, bad pairs are left out, and
 * the list's order is kept where ranks are shared.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/plan.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Every round disjoint; returns how many pairs the rounds hold. */
static size_t check_disjoint(const struct ig_fab_rounds *r, unsigned int n)
{
	unsigned int *seen = calloc(n, sizeof(*seen));

	ck_assert_ptr_nonnull(seen);
	ck_assert_uint_eq(r->off[0], 0);
	for (unsigned int i = 0; i < r->nrounds; i++) {
		ck_assert_uint_gt(r->off[i + 1], r->off[i]);
		for (unsigned int j = r->off[i]; j < r->off[i + 1]; j++) {
			ck_assert_uint_ne(seen[r->p[j].a], i + 1);
			ck_assert_uint_ne(seen[r->p[j].b], i + 1);
			seen[r->p[j].a] = seen[r->p[j].b] = i + 1;
		}
	}
	free(seen);
	ck_assert_uint_eq(r->off[r->nrounds], r->np);
	return r->np;
}

/* The list of all pairs of n ranks, (i, j) i < j in order. */
static struct ig_fab_pair *all_pairs(unsigned int n, size_t *k)
{
	struct ig_fab_pair *l = calloc((size_t)n * n, sizeof(*l));

	ck_assert_ptr_nonnull(l);
	*k = 0;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++)
			l[(*k)++] = (struct ig_fab_pair){ i, j };
	return l;
}

static const unsigned int ns[] = { 2, 3, 4, 7, 16, 33, 100 };

START_TEST(every_pair_once)
{
	unsigned int n = ns[_i];
	size_t k;
	struct ig_fab_pair *l = all_pairs(n, &k);
	struct ig_fab_rounds r;
	unsigned char *got = calloc((size_t)n * n, 1);

	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(ig_fab_pack(l, k, n, &r), 0);
	ck_assert_uint_eq(check_disjoint(&r, n), k);
	for (size_t i = 0; i < r.np; i++) {
		size_t at = (size_t)r.p[i].a * n + r.p[i].b;

		ck_assert_uint_eq(got[at], 0);
		got[at] = 1;
	}
	/* no more rounds than pairs, and at least the n - 1 every rank's
	 * n - 1 partners need */
	ck_assert_uint_ge(r.nrounds, n - 1);
	ck_assert_uint_le(r.nrounds, k);
	ig_fab_rounds_free(&r);
	free(got);
	free(l);
}
END_TEST

/* A list made of disjoint rounds (the circle method's) keeps them. */
START_TEST(rounds_kept)
{
	unsigned int n = ns[_i];
	unsigned int nr = ig_fab_nrounds(IG_FAB_PAIRS, n, 0);
	struct ig_fab_pair *l = calloc((size_t)n * nr + 1, sizeof(*l));
	unsigned int *len = calloc(nr, sizeof(*len));
	struct ig_fab_rounds r;
	size_t k = 0;

	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_nonnull(len);
	for (unsigned int i = 0; i < nr; i++) {
		len[i] = ig_fab_round(IG_FAB_PAIRS, n, 0, i, l + k);
		k += len[i];
	}
	ck_assert_int_eq(ig_fab_pack(l, k, n, &r), 0);
	ck_assert_uint_eq(r.nrounds, nr);
	ck_assert_uint_eq(check_disjoint(&r, n), k);
	ck_assert_mem_eq(r.p, l, k * sizeof(*l));
	for (unsigned int i = 0; i < nr; i++)
		ck_assert_uint_eq(r.off[i + 1] - r.off[i], len[i]);
	ig_fab_rounds_free(&r);
	free(len);
	free(l);
}
END_TEST

START_TEST(bad_pairs_and_order)
{
	const struct ig_fab_pair l[] = {
		{ 0, 1 }, { 1, 2 }, { 3, 3 }, { 2, 9 }, { 0, 2 }, { 2, 3 },
	};
	struct ig_fab_pair out[4];
	struct ig_fab_rounds r;

	ck_assert_int_eq(ig_fab_pack(l, ARRAY_SIZE(l), 4, &r), 0);
	/* (3,3) and (2,9) left out; round 0: (0,1), (2,3); round 1: (1,2);
	 * round 2: (0,2) */
	ck_assert_uint_eq(r.np, 4);
	ck_assert_uint_eq(r.nrounds, 3);
	ck_assert_uint_eq(ig_fab_rounds_get(&r, 0, out), 2);
	ck_assert_uint_eq(out[0].a, 0);
	ck_assert_uint_eq(out[0].b, 1);
	ck_assert_uint_eq(out[1].a, 2);
	ck_assert_uint_eq(out[1].b, 3);
	ck_assert_uint_eq(ig_fab_rounds_get(&r, 1, out), 1);
	ck_assert_uint_eq(out[0].a, 1);
	ck_assert_uint_eq(out[0].b, 2);
	ck_assert_uint_eq(ig_fab_rounds_get(&r, 2, out), 1);
	ck_assert_uint_eq(out[0].a, 0);
	ck_assert_uint_eq(out[0].b, 2);
	ck_assert_uint_eq(ig_fab_rounds_get(&r, 3, out), 0);
	ck_assert_uint_eq(ig_fab_rounds_get(&r, 0, NULL), 0);
	ig_fab_rounds_free(&r);
	ck_assert_int_eq(ig_fab_pack(NULL, 0, 4, &r), 0);
	ck_assert_uint_eq(r.nrounds, 0);
	ig_fab_rounds_free(&r);
}
END_TEST

static Suite *plan_suite(void)
{
	Suite *s = suite_create("fabric_plan");
	TCase *tc = tcase_create("pack");

	tcase_add_loop_test(tc, every_pair_once, 0, ARRAY_SIZE(ns));
	tcase_add_loop_test(tc, rounds_kept, 0, ARRAY_SIZE(ns));
	tcase_add_test(tc, bad_pairs_and_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(plan_suite());
}
