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

/*
 * The CPU's own counter, for latency samples only, and only through the
 * engine's latency clock (src/engine/lat_clock.h), which calibrates it
 * against CLOCK_MONOTONIC and decides whether it can be trusted
 * (docs/design.md, "Clock").  IG_CYCLES_NAME is what the report calls it,
 * or NULL where there is none (ig_cycles() is then the monotonic clock).
 *
 * x86-64: lfence; rdtsc.  A sample must not be read before the CQ poll
 * that saw the reply has completed: LFENCE waits for every earlier
 * instruction, and RDTSC does not start before it (Linux makes LFENCE
 * dispatch-serializing on AMD too; the kernel's rdtsc_ordered() uses the
 * same pair).  Not RDTSCP: it orders the read the same way, but some
 * x86-64 CPUs lack it and hypervisors may hide it from a guest, while
 * LFENCE is in every x86-64 CPU.  No fence after the read: what follows is
 * the next post, whose doorbell (a store, or a system call on rxe) cannot
 * take effect before it.
 *
 * aarch64: isb; mrs cntvct_el0.  ISB keeps the read from being taken
 * early; the generic timer ticks at a fixed rate on every core.
 */
#if defined(__x86_64__)
#define IG_CYCLES_NAME "tsc"
static inline uint64_t ig_cycles(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
#define IG_CYCLES_NAME "cntvct"
static inline uint64_t ig_cycles(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
}
#else
#define IG_CYCLES_NAME NULL
static inline uint64_t ig_cycles(void)
{
	return ig_now_ns();
}
#endif

#define IG_NSEC_PER_SEC 1000000000ull
#define IG_NSEC_PER_MSEC 1000000ull

#endif
