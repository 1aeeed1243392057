// SPDX-License-Identifier: MIT
/*
 * clock_cost - nanoseconds per read of the latency clock's candidates: the
 * CPU counter as the engine reads it (ig_cycles(): lfence;rdtsc on x86-64)
 * and clock_gettime(CLOCK_MONOTONIC) (ig_now_ns()).  For each, ROUNDS runs
 * of N back-to-back reads, timed with CLOCK_MONOTONIC; prints the best and
 * the median run.  Built and run by bench/clock_cost.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/clock.h"

#define ROUNDS 9

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void measure(const char *name, uint64_t (*rd)(void), long n)
{
	double ns[ROUNDS];
	volatile uint64_t sink = 0;

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = ig_now_ns();

		for (long i = 0; i < n; i++)
			sink += rd();
		ns[r] = (double)(ig_now_ns() - t0) / (double)n;
	}
	(void)sink;
	qsort(ns, ROUNDS, sizeof(ns[0]), cmp);
	printf("%-10s %9ld reads x %d: best %8.1f ns, median %8.1f ns\n", name,
	       n, ROUNDS, ns[0], ns[ROUNDS / 2]);
}

static uint64_t rd_cycles(void)
{
	return ig_cycles();
}

static uint64_t rd_mono(void)
{
	return ig_now_ns();
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;

	if (n < 1) {
		fprintf(stderr,
			"clock_cost: reads per run must be >= 1, not "
			"'%s'\n",
			argv[1]);
		return 2;
	}
	measure(IG_CYCLES_NAME ? IG_CYCLES_NAME : "counter", rd_cycles, n);
	measure("monotonic", rd_mono, n);
	return 0;
}
