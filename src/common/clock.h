/* SPDX-License-Identifier: MIT */
#ifndef IG_CLOCK_H
#define IG_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic clock in nanoseconds.  The engine times every measurement;
 * transports never time measurements, but they may read the clock for
 * their timeouts (connect deadlines, vb_data.c's stall check). */
static inline uint64_t ig_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define IG_NSEC_PER_SEC 1000000000ull
#define IG_NSEC_PER_MSEC 1000000ull

#endif
