// SPDX-License-Identifier: MIT
/*
 * The latency samples' clock: picks the CPU counter or CLOCK_MONOTONIC,
 * calibrates the counter and checks it at the end (lat_clock.h).  The math
 * is common/clockcal.c's, tested with fake counters.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "host/cpusync.h"
#include "lat_clock.h"

static uint64_t read_cycles(void)
{
	return ig_cycles();
}

static uint64_t read_mono(void)
{
	return ig_now_ns();
}

static uint64_t src_cyc(void *ctx)
{
	(void)ctx;
	return ig_cycles();
}

static uint64_t src_ns(void *ctx)
{
	(void)ctx;
	return ig_now_ns();
}

static const struct ig_cal_src real_src = { .cyc = src_cyc, .ns = src_ns };

static uint64_t sync_cyc(void *ctx, int side)
{
	(void)ctx;
	(void)side;
	return ig_cycles();
}

/* The "flags" line of /proc/cpuinfo promises an invariant TSC. */
static bool cpuinfo_invariant(const char *root)
{
	char path[512], line[4096];
	bool inv = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		inv = ig_cal_flags_invariant(line);
		break;
	}
	fclose(f);
	return inv;
}

/* This thread may run on one CPU only (--cpu, or taskset). */
static bool thread_pinned(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	return CPU_COUNT(&set) == 1;
}

/* ns per read through rd, as the samples read it (c->read): the least of
 * a few tries of IG_LCLK_COST_READS reads timed by CLOCK_MONOTONIC (an
 * interrupt only ever adds). */
static double read_cost(uint64_t (*rd)(void))
{
	double best = 0;

	for (int t = 0; t < IG_LCLK_COST_TRIES; t++) {
		uint64_t t0 = ig_now_ns(), t1;

		for (int i = 0; i < IG_LCLK_COST_READS; i++)
			rd();
		t1 = ig_now_ns();
		if (!t || (double)(t1 - t0) < best)
			best = (double)(t1 - t0);
	}
	return best / IG_LCLK_COST_READS;
}

static void use_monotonic(struct ig_lclk *c)
{
	c->name = "monotonic";
	c->read = read_mono;
	c->ns_per_tick = 1;
	c->ghz = 0;
	c->basis = NULL;
	c->read_ns = read_cost(read_mono);
}

/* Neither flagged invariant nor pinned: is the counter ordered across
 * the CPUs this thread may run on? */
static void check_order(struct ig_lclk *c, struct ig_cal_facts *f, char *why,
			size_t len)
{
	if (!f->counter || f->invariant || f->pinned)
		return;
	f->ordered = !ig_sync_check(sync_cyc, NULL, &c->cpus, why, len);
	f->order_why = f->ordered ? NULL : why;
}

static const char *basis_of(const struct ig_cal_facts *f)
{
	if (f->invariant)
		return "invariant";
	return f->pinned ? "pinned" : "ordered";
}

void ig_lclk_start(struct ig_lclk *c, const char *root)
{
	struct ig_cal_facts f = { .counter = IG_CYCLES_NAME };
	char order_why[120];

	memset(c, 0, sizeof(*c));
	use_monotonic(c);
#if defined(__aarch64__)
	f.invariant = true; /* the generic timer: one fixed rate, all cores */
#else
	f.invariant = f.counter && cpuinfo_invariant(root);
#endif
	f.pinned = thread_pinned();
	check_order(c, &f, order_why, sizeof(order_why));
	if (!ig_cal_may_use(&f, c->why, sizeof(c->why)))
		return;
	c->name = f.counter;
	c->basis = basis_of(&f);
	c->read = read_cycles;
	c->read_ns = read_cost(read_cycles);
	ig_cal_pair_take(&real_src, IG_CAL_TRIES, &c->a);
}

/* Sleeps until IG_LCLK_WINDOW_NS after `since`, then takes a pair. */
static void pair_after(uint64_t since, struct ig_cal_pair *p)
{
	uint64_t now = ig_now_ns();

	if (now < since + IG_LCLK_WINDOW_NS) {
		uint64_t left = since + IG_LCLK_WINDOW_NS - now;
		struct timespec ts = { .tv_sec = left / IG_NSEC_PER_SEC,
				       .tv_nsec = left % IG_NSEC_PER_SEC };

		while (nanosleep(&ts, &ts))
			;
	}
	ig_cal_pair_take(&real_src, IG_CAL_TRIES, p);
}

void ig_lclk_calibrate(struct ig_lclk *c)
{
	if (c->read == read_mono)
		return;
	pair_after(c->a.ns, &c->b);
	c->ghz = ig_cal_rate(&c->a, &c->b);
	if (c->ghz > 0) {
		c->ns_per_tick = 1 / c->ghz;
		return;
	}
	snprintf(c->why, sizeof(c->why),
		 "the %s did not advance with CLOCK_MONOTONIC over %llu ms of "
		 "calibration",
		 c->name, IG_LCLK_WINDOW_NS / IG_NSEC_PER_MSEC);
	use_monotonic(c);
}

bool ig_lclk_check(struct ig_lclk *c, double skew)
{
	struct ig_cal_pair e;
	const char *name = c->name;
	double r1;

	if (c->read == read_mono)
		return true;
	pair_after(c->b.ns, &e);
	r1 = ig_cal_rate(&c->b, &e) * skew;
	c->drift = ig_cal_drift(c->ghz, r1);
	if (ig_cal_agree(c->ghz, r1))
		return true;
	snprintf(c->why, sizeof(c->why),
		 "the %s ran %+.3f%% off its calibrated %.4f GHz during the "
		 "measurement (%.1f%% allowed): measured again with "
		 "clock_gettime",
		 name, c->drift * 100, c->ghz, IG_CAL_TOL * 100);
	use_monotonic(c);
	return false;
}
