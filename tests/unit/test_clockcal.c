// SPDX-License-Identifier: MIT
/*
 * Unit tests for clockcal.c: calibration of a CPU counter against
 * CLOCK_MONOTONIC, with a fake counter of a known rate (and one whose rate
 * changes: a drifting counter), the /proc/cpuinfo flags, and the reasons
 * for falling back to CLOCK_MONOTONIC.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "common/clockcal.h"
#include "engine/lat_clock.h"
#include "testmain.h"

/*
 * A fake machine: every read of either clock costs step_ns of time; the
 * counter ticks at ghz ticks per ns.  slow_read: that read (counting both
 * clocks' reads from 1) is slowed by slow_ns, as a preempted thread's.
 */
struct fake {
	double t_ns, cyc, ghz, step_ns, slow_ns;
	unsigned int reads, slow_read;
};

static void fake_tick(struct fake *f)
{
	double dt = f->step_ns;

	if (++f->reads == f->slow_read)
		dt += f->slow_ns;
	f->t_ns += dt;
	f->cyc += dt * f->ghz;
}

static uint64_t fake_cyc(void *ctx)
{
	struct fake *f = ctx;

	fake_tick(f);
	return (uint64_t)f->cyc;
}

static uint64_t fake_ns(void *ctx)
{
	struct fake *f = ctx;

	fake_tick(f);
	return (uint64_t)f->t_ns;
}

/* Time passes without reads (the measured interval). */
static void fake_wait(struct fake *f, double ns)
{
	f->t_ns += ns;
	f->cyc += ns * f->ghz;
}

static const struct {
	double ghz, step_ns, window_ns;
} rates[] = {
	{ 2.8, 20, 20e6 },    /* a host's TSC, vDSO clock_gettime */
	{ 1.0, 2000, 20e6 },  /* an emulated guest: 2 us per clock read */
	{ 0.025, 50, 20e6 },  /* aarch64 cntvct at 25 MHz */
	{ 3.6, 1000, 100e6 }, /* slow reads, longer window */
};

START_TEST(t_rate_known)
{
	struct fake f = { .ghz = rates[_i].ghz,
			  .step_ns = rates[_i].step_ns,
			  .t_ns = 1e9,
			  .cyc = 5e9 };
	struct ig_cal_src src = { fake_cyc, fake_ns, &f };
	struct ig_cal_pair a, b;
	double r;

	ig_cal_pair_take(&src, IG_CAL_TRIES, &a);
	fake_wait(&f, rates[_i].window_ns);
	ig_cal_pair_take(&src, IG_CAL_TRIES, &b);
	r = ig_cal_rate(&a, &b);
	/* the midpoint of the bracket is the moment the clock was read */
	ck_assert_msg(fabs(r / rates[_i].ghz - 1) < 1e-4,
		      "rate %.6f GHz, the fake counter runs at %.6f", r,
		      rates[_i].ghz);
	ck_assert(ig_cal_agree(rates[_i].ghz, r));
}
END_TEST

/* A read slowed by 1 ms (preemption between the counter and the clock)
 * is not the pair kept: the tightest bracket is. */
START_TEST(t_pair_tightest)
{
	struct fake f = {
		.ghz = 2, .step_ns = 100, .slow_read = 2, .slow_ns = 1e6
	};
	struct ig_cal_src src = { fake_cyc, fake_ns, &f };
	struct ig_cal_pair p;

	ig_cal_pair_take(&src, 1, &p);
	ck_assert_uint_eq(p.width, (uint64_t)(2 * (200 + 1e6)));
	f = (struct fake){
		.ghz = 2, .step_ns = 100, .slow_read = 2, .slow_ns = 1e6
	};
	ig_cal_pair_take(&src, 3, &p);
	ck_assert_uint_eq(p.width, 400);
	/* midpoint cycle = the ns read of that pair, times the rate */
	ck_assert_uint_eq(p.cyc, 2 * p.ns);
}
END_TEST

/* The counter changes rate after calibration by `change`: the end check
 * passes within 0.1% and fails beyond. */
static const struct {
	double change;
	bool agree;
} drifts[] = {
	{ 0, true },	   { 0.0005, true },  { -0.0009, true },
	{ 0.0011, false }, { -0.002, false }, { 0.5, false },
};

START_TEST(t_drift)
{
	struct fake f = { .ghz = 2.5, .step_ns = 1500 };
	struct ig_cal_src src = { fake_cyc, fake_ns, &f };
	struct ig_cal_pair a, b, c;
	double r0, r1, d;

	ig_cal_pair_take(&src, IG_CAL_TRIES, &a);
	fake_wait(&f, 20e6);
	ig_cal_pair_take(&src, IG_CAL_TRIES, &b);
	r0 = ig_cal_rate(&a, &b);
	f.ghz *= 1 + drifts[_i].change;
	fake_wait(&f, 50e6);
	ig_cal_pair_take(&src, IG_CAL_TRIES, &c);
	r1 = ig_cal_rate(&b, &c);
	d = ig_cal_drift(r0, r1);
	ck_assert_msg(fabs(d - drifts[_i].change) <
			      1e-4 + 1e-3 * fabs(drifts[_i].change),
		      "drift %.6f, the fake changed by %.6f", d,
		      drifts[_i].change);
	ck_assert_int_eq(ig_cal_agree(r0, r1), drifts[_i].agree);
}
END_TEST

/* A counter that stands still, or pairs out of order: no rate. */
START_TEST(t_rate_invalid)
{
	struct ig_cal_pair a = { .cyc = 100, .ns = 100 };
	struct ig_cal_pair same_cyc = { .cyc = 100, .ns = 200 };
	struct ig_cal_pair earlier = { .cyc = 200, .ns = 50 };

	ck_assert_double_eq(ig_cal_rate(&a, &same_cyc), 0);
	ck_assert_double_eq(ig_cal_rate(&a, &earlier), 0);
	ck_assert_double_eq(ig_cal_rate(&a, &a), 0);
	ck_assert_double_eq(ig_cal_drift(0, 1), 1);
	ck_assert(!ig_cal_agree(0, 0));
}
END_TEST

static const struct {
	const char *text;
	bool invariant;
} flags[] = {
	{ "processor\t: 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc "
	  "rdtscp\nbugs\t\t: spectre_v1\n",
	  true },
	{ "flags\t\t: nonstop_tsc constant_tsc", true },
	{ "flags : constant_tsc nonstop_tsc\n", true },
	{ "flags\t\t: fpu tsc rdtscp constant_tsc\n", false },
	{ "flags\t\t: fpu tsc nonstop_tsc\n", false },
	/* the Soft-RoCE guest: neither */
	{ "flags\t\t: fpu vme de pse tsc msr pae rdtscp lm\n", false },
	{ "flags\t\t: constant_tsc_x nonstop_tscy\n", false },
	{ "vmx flags\t: constant_tsc nonstop_tsc\n", false },
	{ "flagsx\t: constant_tsc nonstop_tsc\n", false },
	/* only the first flags line counts */
	{ "flags\t: fpu\nflags\t: constant_tsc nonstop_tsc\n", false },
	/* the words are on another line */
	{ "flags\t: fpu\nbugs\t: constant_tsc nonstop_tsc\n", false },
	{ "Features\t: fp asimd evtstrm\n", false },
	{ "", false },
};

/* The latency clock says what one read of it costs, measured at the start
 * (a figure, never a bound on it: only that it was measured), and again
 * for CLOCK_MONOTONIC when the counter is given up. */
START_TEST(t_read_cost)
{
	struct ig_lclk c;

	ig_lclk_start(&c, "/");
	ck_assert_msg(c.read_ns > 0 && isfinite(c.read_ns), "%s: %g", c.name,
		      c.read_ns);
	/* a /proc without cpuinfo: not flagged invariant, so the counter
	 * only when pinned or ordered across this thread's CPUs; given up
	 * (a drifted rate), CLOCK_MONOTONIC, its read measured again */
	ig_lclk_start(&c, "/nonexistent");
	if (strcmp(c.name, "monotonic")) {
		ck_assert_msg(c.basis && (!strcmp(c.basis, "pinned") ||
					  !strcmp(c.basis, "ordered")),
			      "basis %s", c.basis);
		ig_lclk_calibrate(&c);
		ck_assert(!ig_lclk_check(&c, 2.0));
	}
	ck_assert_str_eq(c.name, "monotonic");
	ck_assert_ptr_null(c.basis);
	ck_assert_msg(c.read_ns > 0 && isfinite(c.read_ns), "%g", c.read_ns);
}
END_TEST

START_TEST(t_flags)
{
	ck_assert_msg(ig_cal_flags_invariant(flags[_i].text) ==
			      flags[_i].invariant,
		      "flags text %d: want %d", _i, flags[_i].invariant);
}
END_TEST

static const struct {
	struct ig_cal_facts f;
	bool ok;
	const char *why; /* a part of the reason */
} uses[] = {
	{ { "tsc", true, false, false, NULL }, true, "" },
	{ { "tsc", false, true, false, NULL }, true, "" },
	{ { "tsc", true, true, false, NULL }, true, "" },
	{ { "cntvct", true, false, false, NULL }, true, "" },
	{ { "tsc", false, false, false, NULL }, false, "--cpu N" },
	{ { "tsc", false, false, false, NULL },
	  false,
	  "constant_tsc and nonstop_tsc" },
	{ { NULL, true, true, false, NULL }, false, "only x86-64 and aarch64" },
	/* neither flagged nor pinned: ordered across the thread's CPUs */
	{ { "tsc", false, false, true, NULL }, true, "" },
	{ { "tsc", false, false, false, "CPU 1 read 9 ticks behind" },
	  false,
	  "pinned (--cpu N pins it), and CPU 1 read 9 ticks behind" },
	{ { NULL, false, false, true, NULL }, false, "only x86-64" },
};

START_TEST(t_may_use)
{
	char why[240];
	bool ok = ig_cal_may_use(&uses[_i].f, why, sizeof(why));

	ck_assert_int_eq(ok, uses[_i].ok);
	if (ok)
		ck_assert_str_eq(why, "");
	else
		ck_assert_msg(strstr(why, uses[_i].why),
			      "reason '%s' lacks '%s'", why, uses[_i].why);
	ck_assert(!strchr(why, '\n'));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("clockcal");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, t_rate_known, 0,
			    sizeof(rates) / sizeof(rates[0]));
	tcase_add_test(tc, t_pair_tightest);
	tcase_add_loop_test(tc, t_drift, 0, sizeof(drifts) / sizeof(drifts[0]));
	tcase_add_test(tc, t_rate_invalid);
	tcase_add_test(tc, t_read_cost);
	tcase_add_loop_test(tc, t_flags, 0, sizeof(flags) / sizeof(flags[0]));
	tcase_add_loop_test(tc, t_may_use, 0, sizeof(uses) / sizeof(uses[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
