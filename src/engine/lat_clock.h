/* SPDX-License-Identifier: MIT */
#ifndef IG_LAT_CLOCK_H
#define IG_LAT_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "common/clockcal.h"

/*
 * The clock of latency samples (docs/design.md, "Clock"): the CPU's counter
 * (x86-64 TSC, aarch64 cntvct_el0) where it can be trusted, calibrated
 * against CLOCK_MONOTONIC, else CLOCK_MONOTONIC itself.  One per latency
 * stream, used only on that stream's thread (its pinning is read there):
 *
 *   ig_lclk_start()      before the warm-up: picks the clock, first pair
 *   ig_lclk_calibrate()  after it: second pair (at least IG_LCLK_WINDOW_NS
 *                        after the first), the rate
 *   samples              ticks = read() - read(); ns = ticks * ns_per_tick
 *   ig_lclk_check()      after the measurement: the rate over it must agree
 *                        with the calibrated one within IG_CAL_TOL, else
 *                        the clock falls back to CLOCK_MONOTONIC (false)
 */
#define IG_LCLK_WINDOW_NS 20000000ull /* 20 ms: pair error < 0.01% */
#define IG_LCLK_COST_READS 1000
#define IG_LCLK_COST_TRIES 5

struct ig_lclk {
	const char *name;	/* "tsc", "cntvct" or "monotonic" */
	uint64_t (*read)(void); /* the counter, or CLOCK_MONOTONIC in ns */
	double ns_per_tick;	/* 1 for the monotonic clock */
	double ghz;		/* calibrated counter rate; 0: monotonic */
	double drift;		/* end check: end rate / start rate - 1 */
	/* what one read of it costs, ns: IG_LCLK_COST_READS reads back to
	 * back at the start (and of CLOCK_MONOTONIC again when the counter
	 * fails its check), the least of IG_LCLK_COST_TRIES */
	double read_ns;
	/* why the counter may time this thread: "invariant" (flagged),
	 * "pinned", "ordered" (across its cpus: host/cpusync.h); NULL for
	 * the monotonic clock */
	const char *basis;
	unsigned int cpus;
	struct ig_cal_pair a, b;
	char why[240]; /* why CLOCK_MONOTONIC ran; "" when the counter did */
};

/* root: prefix of /proc ("/" live), for /proc/cpuinfo. */
void ig_lclk_start(struct ig_lclk *c, const char *root);
void ig_lclk_calibrate(struct ig_lclk *c);
/* True when the counter held its rate (or the clock is monotonic anyway);
 * false when it did not and the clock is now CLOCK_MONOTONIC (c->why).
 * skew: a factor on the end rate, 1 but for the fault hook's clock drift
 * (fault.h, ig_fault_clock_skew). */
bool ig_lclk_check(struct ig_lclk *c, double skew);

#endif
