/* SPDX-License-Identifier: MIT */
#ifndef IG_CLOCKCAL_H
#define IG_CLOCKCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Calibration of a CPU counter (x86-64 TSC, aarch64 cntvct_el0) against
 * CLOCK_MONOTONIC: the pure part, tested with fake counters
 * (tests/unit/test_clockcal.c).  The engine's latency clock
 * (src/engine/lat_clock.c) reads the real ones.
 *
 * A pair is one counter value and one monotonic time taken together:
 * counter, clock, counter; the counter value kept is the midpoint of the
 * two counter reads, and the pair kept out of several tries is the one
 * whose two counter reads lie closest (the least disturbed).
 */
#define IG_CAL_TOL 0.001 /* start and end rates must agree within 0.1% */
#define IG_CAL_TRIES 7	 /* pairs tried, the tightest kept */

struct ig_cal_pair {
	uint64_t cyc;	/* counter, midpoint of the bracket */
	uint64_t ns;	/* CLOCK_MONOTONIC, ns */
	uint64_t width; /* counter ticks between the two counter reads */
};

/* Where a pair's values come from: the real counters, or a test's. */
struct ig_cal_src {
	uint64_t (*cyc)(void *ctx);
	uint64_t (*ns)(void *ctx);
	void *ctx;
};

/* The tightest of `tries` (>= 1) pairs. */
void ig_cal_pair_take(const struct ig_cal_src *src, unsigned int tries,
		      struct ig_cal_pair *out);
/* Counter ticks per nanosecond between a and b (GHz); 0 when b is not
 * after a on both clocks. */
double ig_cal_rate(const struct ig_cal_pair *a, const struct ig_cal_pair *b);
/* Relative difference of the end rate from the start rate, (r1 - r0) / r0;
 * 1 (100%) when r0 is not positive. */
double ig_cal_drift(double r0, double r1);
/* |drift| <= IG_CAL_TOL */
bool ig_cal_agree(double r0, double r1);

/*
 * True when the "flags" line of /proc/cpuinfo text (the whole file or that
 * line alone) has both constant_tsc and nonstop_tsc as whole words: the
 * TSC then ticks at one rate whatever the CPU's frequency or sleep state.
 */
bool ig_cal_flags_invariant(const char *cpuinfo);

/* What the engine knows before it picks a clock for latency samples. */
struct ig_cal_facts {
	const char *counter; /* "tsc", "cntvct", or NULL: none on this CPU */
	bool invariant;	     /* flags promise it (aarch64: always) */
	bool pinned;	     /* the sampling thread is pinned to one CPU */
	/* its value never went back between the CPUs the thread may run
	 * on (host/cpusync.h); order_why: why not, or NULL (not checked) */
	bool ordered;
	const char *order_why;
};

/*
 * Why the counter must not be used: writes one line into why (without
 * the "clock: monotonic" prefix) and returns false; returns true with
 * why empty when the counter may be used (invariant, or pinned so that the
 * start/end check can vouch for it, or ordered across its CPUs).
 */
bool ig_cal_may_use(const struct ig_cal_facts *f, char *why, size_t len);

#endif
