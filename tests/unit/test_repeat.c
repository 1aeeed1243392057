// SPDX-License-Identifier: MIT
/*
 * Unit tests for repeat.c: the Student t table and the confidence interval
 * of repeated measurements.  Expected quantiles are the published table
 * values (two-sided, 0.975 and 0.995 one-sided quantiles); expected means,
 * standard deviations and intervals are worked out by hand below, never
 * taken from repeat.c.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "common/repeat.h"
#include "testmain.h"

#define TOL_T 5e-4  /* the table has three decimals */
#define TOL_X 1e-12 /* exact arithmetic on small samples */

/* ---- ig_t_quantile ---- */

static const struct {
	unsigned int level, df;
	double t;
} t_known[] = {
	{ 95, 1, 12.706 }, { 95, 2, 4.303 },  { 95, 10, 2.228 },
	{ 95, 30, 2.042 }, { 99, 1, 63.657 }, { 99, 2, 9.925 },
	{ 99, 10, 3.169 }, { 99, 30, 2.750 }, { 95, 4, 2.776 },
	{ 99, 4, 4.604 },
};

START_TEST(t_table_values)
{
	double t = ig_t_quantile(t_known[_i].level, t_known[_i].df);

	ck_assert_msg(fabs(t - t_known[_i].t) <= TOL_T,
		      "t(%u%%, df %u) = %.6f, table says %.3f",
		      t_known[_i].level, t_known[_i].df, t, t_known[_i].t);
}
END_TEST

/* df beyond the table: the value of the next tabulated df below, which is
 * larger than the true quantile (a wider interval, never a narrower one). */
START_TEST(t_large_df_conservative)
{
	double t95 = ig_t_quantile(95, 1000), t99 = ig_t_quantile(99, 1000);

	/* df 120 row */
	ck_assert_double_eq_tol(t95, 1.980, TOL_T);
	ck_assert_double_eq_tol(t99, 2.617, TOL_T);
	/* true values at df 1000: 1.962, 2.581; at infinity 1.960, 2.576 */
	ck_assert_double_ge(t95, 1.962);
	ck_assert_double_ge(t99, 2.581);
	/* df 35 is between the rows 30 and 40: the df 30 row */
	ck_assert_double_eq_tol(ig_t_quantile(95, 35), 2.042, TOL_T);
	ck_assert_double_eq_tol(ig_t_quantile(99, 35), 2.750, TOL_T);
	/* df 45: the df 40 row */
	ck_assert_double_eq_tol(ig_t_quantile(95, 45), 2.021, TOL_T);
	ck_assert_double_eq_tol(ig_t_quantile(99, 45), 2.704, TOL_T);
	/* true quantile at df 35: 2.030 (95), 2.724 (99) */
	ck_assert_double_ge(ig_t_quantile(95, 35), 2.030);
	ck_assert_double_ge(ig_t_quantile(99, 35), 2.724);
}
END_TEST

/* The quantile never grows with df, and 99% is always wider than 95%. */
START_TEST(t_monotone)
{
	double prev95 = INFINITY, prev99 = INFINITY;

	for (unsigned int df = 1; df <= 2000; df++) {
		double a = ig_t_quantile(95, df), b = ig_t_quantile(99, df);

		ck_assert_msg(isfinite(a) && isfinite(b) && a > 1.959 &&
				      b > 2.575,
			      "df %u: t95 %g t99 %g", df, a, b);
		ck_assert_msg(a <= prev95, "t95 grows at df %u: %g > %g", df, a,
			      prev95);
		ck_assert_msg(b <= prev99, "t99 grows at df %u: %g > %g", df, b,
			      prev99);
		ck_assert_msg(b > a, "df %u: t99 %g <= t95 %g", df, b, a);
		prev95 = a;
		prev99 = b;
	}
}
END_TEST

/* ---- ig_repeat_stats ---- */

/* {10, 12, 14}: mean 12, squares of deviations 4 + 0 + 4 = 8, sample
 * variance 8 / 2 = 4, stdev 2; half-width t(95, 2) * 2 / sqrt(3). */
START_TEST(stats_three)
{
	const double x[] = { 14, 10, 12 };
	const double half = 4.303 * 2 / sqrt(3);
	struct ig_repeat r;

	ig_repeat_stats(x, 3, 95, 0, &r);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.level, 95);
	ck_assert_double_eq_tol(r.mean, 12, TOL_X);
	ck_assert_double_eq_tol(r.stdev, 2, TOL_X);
	ck_assert_double_eq_tol(r.ci_lo, 12 - half, 1e-3);
	ck_assert_double_eq_tol(r.ci_hi, 12 + half, 1e-3);
	ck_assert_double_eq_tol(r.ci_hi - r.mean, r.mean - r.ci_lo, 1e-12);
	ck_assert_msg(!r.met, "met with width 0");
}
END_TEST

/* Five values, 99%: {1, 2, 3, 4, 10}: mean 4, deviations -3 -2 -1 0 6,
 * squares 9 4 1 0 36 = 50, variance 12.5, stdev sqrt(12.5);
 * half = t(99, 4) * sqrt(12.5) / sqrt(5) = 4.604 * sqrt(2.5). */
START_TEST(stats_five_99)
{
	const double x[] = { 1, 2, 3, 4, 10 };
	const double half = 4.604 * sqrt(2.5);
	struct ig_repeat r;

	ig_repeat_stats(x, 5, 99, 50, &r);
	ck_assert_uint_eq(r.n, 5);
	ck_assert_uint_eq(r.level, 99);
	ck_assert_double_eq_tol(r.width_pct, 50, TOL_X);
	ck_assert_double_eq_tol(r.mean, 4, TOL_X);
	ck_assert_double_eq_tol(r.stdev, sqrt(12.5), 1e-12);
	ck_assert_double_eq_tol(r.ci_lo, 4 - half, 1e-3);
	ck_assert_double_eq_tol(r.ci_hi, 4 + half, 1e-3);
	/* half = 7.28 > 50% / 2 of 4 = 1 */
	ck_assert_msg(!r.met, "met: half %g, allowed 1", half);
}
END_TEST

/* met flips exactly at half-width = width_pct / 2 percent of the mean:
 * width = 200 * half / mean.  With {10, 12, 14} at 95%: 82.8%. */
START_TEST(stats_met_boundary)
{
	const double x[] = { 10, 12, 14 };
	struct ig_repeat r;
	double half, w;

	ig_repeat_stats(x, 3, 95, 1, &r);
	half = r.ci_hi - r.mean;
	ck_assert_double_eq_tol(half, 4.303 * 2 / sqrt(3), 1e-3);
	w = 200 * half / 12;
	ck_assert_double_eq_tol(w, 200 * 4.303 * 2 / sqrt(3) / 12, 1e-2);

	ig_repeat_stats(x, 3, 95, w * (1 + 1e-6), &r);
	ck_assert_msg(r.met, "not met at width %.6f (boundary %.6f)",
		      w * (1 + 1e-6), w);
	ig_repeat_stats(x, 3, 95, w * (1 - 1e-6), &r);
	ck_assert_msg(!r.met, "met at width %.6f (boundary %.6f)",
		      w * (1 - 1e-6), w);
	/* comfortably on each side */
	ig_repeat_stats(x, 3, 95, 90, &r);
	ck_assert(r.met);
	ig_repeat_stats(x, 3, 95, 80, &r);
	ck_assert(!r.met);
	/* the same spread at 99% (t 9.925): boundary 191%, so 90 fails */
	ig_repeat_stats(x, 3, 99, 90, &r);
	ck_assert(!r.met);
	ig_repeat_stats(x, 3, 99, 200, &r);
	ck_assert(r.met);
}
END_TEST

START_TEST(stats_n0)
{
	const double x[] = { 7 };
	struct ig_repeat r = { .met = true, .mean = 99, .stdev = 99 };

	ig_repeat_stats(x, 0, 95, 10, &r);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_msg(!r.met, "met with no runs");
	ck_assert_double_eq(r.mean, 0);
	ck_assert_double_eq(r.stdev, 0);
	ck_assert_double_eq(r.ci_lo, 0);
	ck_assert_double_eq(r.ci_hi, 0);
}
END_TEST

/* One run: no spread to speak of; the interval is the value itself and
 * never "met" (n >= 2 is required). */
START_TEST(stats_n1)
{
	const double x[] = { 3.5 };
	struct ig_repeat r;

	ig_repeat_stats(x, 1, 95, 100, &r);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_double_eq_tol(r.mean, 3.5, TOL_X);
	ck_assert_double_eq(r.stdev, 0);
	ck_assert_double_eq_tol(r.ci_lo, 3.5, TOL_X);
	ck_assert_double_eq_tol(r.ci_hi, 3.5, TOL_X);
	ck_assert_msg(!r.met, "met with one run");
}
END_TEST

/* {1, 3}: mean 2, variance (1 + 1) / 1 = 2, stdev sqrt(2);
 * half = t(95, 1) * sqrt(2) / sqrt(2) = 12.706. */
START_TEST(stats_n2)
{
	const double x[] = { 1, 3 };
	struct ig_repeat r;

	ig_repeat_stats(x, 2, 95, 0, &r);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_double_eq_tol(r.mean, 2, TOL_X);
	ck_assert_double_eq_tol(r.stdev, sqrt(2), 1e-12);
	ck_assert_double_eq_tol(r.ci_lo, 2 - 12.706, 1e-3);
	ck_assert_double_eq_tol(r.ci_hi, 2 + 12.706, 1e-3);
	/* boundary: 200 * 12.706 / 2 = 1270.6% */
	ig_repeat_stats(x, 2, 95, 1271, &r);
	ck_assert(r.met);
	ig_repeat_stats(x, 2, 95, 1270, &r);
	ck_assert(!r.met);
}
END_TEST

/* Identical values: stdev 0, a zero-width interval, met for any width > 0
 * (and not for width 0, "no target"). */
START_TEST(stats_identical)
{
	const double x[] = { 5, 5, 5, 5 };
	const double y[] = { 0.1, 0.1, 0.1 };
	struct ig_repeat r;

	ig_repeat_stats(x, 4, 95, 1, &r);
	ck_assert_double_eq_tol(r.mean, 5, TOL_X);
	ck_assert_double_eq(r.stdev, 0);
	ck_assert_double_eq_tol(r.ci_lo, 5, TOL_X);
	ck_assert_double_eq_tol(r.ci_hi, 5, TOL_X);
	ck_assert_msg(r.met, "identical values, width 1%%: not met");
	ig_repeat_stats(x, 4, 99, 0.001, &r);
	ck_assert_msg(r.met, "identical values, width 0.001%%: not met");
	ig_repeat_stats(x, 4, 95, 0, &r);
	ck_assert_msg(!r.met, "width 0 counted as met");
	/* not exactly representable: still met */
	ig_repeat_stats(y, 3, 95, 0.01, &r);
	ck_assert_double_eq_tol(r.mean, 0.1, 1e-15);
	ck_assert_double_le(r.stdev, 1e-15);
	ck_assert_msg(r.met, "3 x 0.1, width 0.01%%: not met");
}
END_TEST

/* A larger sample, mean and stdev from a two-pass computation here. */
START_TEST(stats_many)
{
	double x[40], sum = 0, ss = 0, mean, sd, half;
	struct ig_repeat r;

	for (int i = 0; i < 40; i++) {
		x[i] = 100 + (i % 7) - 3 + 0.25 * (i % 3);
		sum += x[i];
	}
	mean = sum / 40;
	for (int i = 0; i < 40; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	sd = sqrt(ss / 39);
	/* df 39: the df 30 row, 2.042 */
	half = 2.042 * sd / sqrt(40);
	ig_repeat_stats(x, 40, 95, 2, &r);
	ck_assert_double_eq_tol(r.mean, mean, 1e-9);
	ck_assert_double_eq_tol(r.stdev, sd, 1e-9);
	ck_assert_double_eq_tol(r.ci_hi - r.mean, half, 1e-3 * half);
	ck_assert_double_eq_tol(r.mean - r.ci_lo, half, 1e-3 * half);
	/* half ~0.68, 1% of the mean ~1.0 */
	ck_assert_msg(r.met == (half <= mean * 2 / 200),
		      "met %d, half %g, allowed %g", r.met, half,
		      mean * 2 / 200);
}
END_TEST

/* ---- ig_repeat_change: the verdict of a trial ---- */

/* an interval by hand: n runs, mean, half-width */
static struct ig_repeat iv(unsigned int n, double mean, double half)
{
	return (struct ig_repeat){
		.n = n, .mean = mean, .ci_lo = mean - half, .ci_hi = mean + half
	};
}

/* 10 +/- 1 -> 20 +/- 1: +100 %, from 19/11 to 21/9 */
START_TEST(change_helps_bw)
{
	struct ig_repeat b = iv(3, 10, 1), a = iv(3, 20, 1);
	struct ig_change c;

	ig_repeat_change(&b, &a, true, &c);
	ck_assert_double_eq_tol(c.pct, 100, 1e-9);
	ck_assert_double_eq_tol(c.pct_lo, (19.0 / 11 - 1) * 100, 1e-9);
	ck_assert_double_eq_tol(c.pct_hi, (21.0 / 9 - 1) * 100, 1e-9);
	ck_assert_int_eq(c.verdict, IG_VERDICT_HELPS);
	ck_assert_str_eq(ig_verdict_name(c.verdict), "helps");
}
END_TEST

/* two noisy runs whose interval reaches below 0 (seen on Soft-RoCE:
 * [-0.127, 0.461]): the change's interval still holds its estimate */
START_TEST(change_before_reaches_zero)
{
	struct ig_repeat b = iv(2, 0.167, 0.294), a = iv(2, 0.198, 0.05);
	struct ig_change c;

	ig_repeat_change(&b, &a, true, &c);
	ck_assert_double_eq_tol(c.pct, (0.198 / 0.167 - 1) * 100, 1e-9);
	ck_assert_double_le(c.pct_lo, c.pct);
	ck_assert_double_ge(c.pct_hi, c.pct);
	ck_assert_double_lt(c.pct_lo, 0);
	ck_assert_int_eq(c.verdict, IG_VERDICT_NONE);
}
END_TEST

/* intervals apart, but a change under IG_MIN_EFFECT_PCT (2%) either
 * way: no effect (-0.09% [-0.17, -0.02] behind a shaper in integ/try);
 * 2% and more is judged */
START_TEST(change_small_is_none)
{
	struct ig_repeat b = iv(5, 100, 0.01), down = iv(5, 99.91, 0.01),
			 up = iv(5, 101.9, 0.01), two = iv(5, 98, 0.01);
	struct ig_change c;

	ig_repeat_change(&b, &down, true, &c);
	ck_assert_double_lt(c.pct_hi, 0);
	ck_assert_int_eq(c.verdict, IG_VERDICT_NONE);
	ig_repeat_change(&b, &up, true, &c);
	ck_assert_double_gt(c.pct_lo, 0);
	ck_assert_int_eq(c.verdict, IG_VERDICT_NONE);
	ig_repeat_change(&b, &two, true, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_HURTS);
	ig_repeat_change(&b, &up, false, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_NONE);
}
END_TEST

/* bandwidth down beyond the intervals: hurts, a negative change */
START_TEST(change_hurts_bw)
{
	struct ig_repeat b = iv(3, 10, 0.5), a = iv(3, 8, 0.5);
	struct ig_change c;

	ig_repeat_change(&b, &a, true, &c);
	ck_assert_double_eq_tol(c.pct, -20, 1e-9);
	ck_assert_double_lt(c.pct_lo, c.pct);
	ck_assert_double_gt(c.pct_hi, c.pct);
	ck_assert_double_lt(c.pct_hi, 0);
	ck_assert_int_eq(c.verdict, IG_VERDICT_HURTS);
}
END_TEST

/* latency: lower is better, so down is "helps" and up is "hurts" */
START_TEST(change_latency_direction)
{
	struct ig_repeat b = iv(4, 50, 2), down = iv(4, 30, 2),
			 up = iv(4, 70, 2);
	struct ig_change c;

	ig_repeat_change(&b, &down, false, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_HELPS);
	ck_assert_double_eq_tol(c.pct, -40, 1e-9);
	ig_repeat_change(&b, &up, false, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_HURTS);
}
END_TEST

/* overlapping intervals, even by a hair or touching: no effect, though
 * the means differ */
START_TEST(change_overlap_is_none)
{
	struct ig_repeat b = iv(3, 10, 1), a = iv(3, 11.9, 1),
			 touch = iv(3, 12, 1), apart = iv(3, 12.01, 1);
	struct ig_change c;

	ig_repeat_change(&b, &a, true, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_NONE);
	ck_assert_str_eq(ig_verdict_name(c.verdict), "no effect");
	ck_assert_double_eq_tol(c.pct, 19, 1e-9);
	ig_repeat_change(&b, &touch, true, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_NONE);
	ig_repeat_change(&b, &apart, true, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_HELPS);
	/* the other way round: after below before, overlapping */
	ig_repeat_change(&a, &b, true, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_NONE);
}
END_TEST

/* one run on either side: a change, but no verdict */
START_TEST(change_one_run_unjudged)
{
	struct ig_repeat b = iv(1, 10, 0), a = iv(3, 20, 1);
	struct ig_change c;

	ig_repeat_change(&b, &a, true, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_UNJUDGED);
	ck_assert_double_eq_tol(c.pct, 100, 1e-9);
	ig_repeat_change(&a, &b, true, &c);
	ck_assert_int_eq(c.verdict, IG_VERDICT_UNJUDGED);
	/* a zero baseline has no ratio */
	b = iv(3, 0, 0);
	ig_repeat_change(&b, &a, true, &c);
	ck_assert_double_eq_tol(c.pct, 0, 1e-12);
}
END_TEST

static Suite *repeat_suite(void)
{
	Suite *s = suite_create("repeat");
	TCase *tc = tcase_create("t");

	tcase_add_loop_test(tc, t_table_values, 0,
			    sizeof(t_known) / sizeof(*t_known));
	tcase_add_test(tc, t_large_df_conservative);
	tcase_add_test(tc, t_monotone);
	suite_add_tcase(s, tc);
	tc = tcase_create("stats");
	tcase_add_test(tc, stats_three);
	tcase_add_test(tc, stats_five_99);
	tcase_add_test(tc, stats_met_boundary);
	tcase_add_test(tc, stats_n0);
	tcase_add_test(tc, stats_n1);
	tcase_add_test(tc, stats_n2);
	tcase_add_test(tc, stats_identical);
	tcase_add_test(tc, stats_many);
	suite_add_tcase(s, tc);
	tc = tcase_create("change");
	tcase_add_test(tc, change_helps_bw);
	tcase_add_test(tc, change_small_is_none);
	tcase_add_test(tc, change_hurts_bw);
	tcase_add_test(tc, change_before_reaches_zero);
	tcase_add_test(tc, change_latency_direction);
	tcase_add_test(tc, change_overlap_is_none);
	tcase_add_test(tc, change_one_run_unjudged);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(repeat_suite());
}
