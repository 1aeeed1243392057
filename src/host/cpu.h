/* SPDX-License-Identifier: MIT */
#ifndef IG_CPU_H
#define IG_CPU_H

#include <stdint.h>

/*
 * CPU accounting for one side of a test over the measured interval.
 *
 * System-wide figures come from the "cpu" line of /proc/stat (all CPUs, so
 * the kernel's network work in softirq context on any CPU is counted).
 * Process figures come from getrusage(RUSAGE_SELF).
 */
struct ig_cpu_snap {
	/* /proc/stat aggregate "cpu" line, in USER_HZ ticks */
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	/* getrusage(RUSAGE_SELF), microseconds */
	uint64_t ru_utime_us, ru_stime_us;
	uint64_t wall_ns; /* ig_now_ns() when the snapshot was taken */
	int ncpus;	  /* number of "cpuN" lines */
};

/* Utilisation and service demand; all percentages are of ALL CPUs
 * (100% = every CPU busy for the whole interval). */
struct ig_cpu_usage {
	double user_pct, sys_pct, irq_pct, softirq_pct, total_pct;
	double proc_user_s, proc_sys_s; /* this process, seconds of CPU */
	double seconds;			/* wall time of the interval */
	int ncpus;
	/* microseconds of CPU (all CPUs, user+nice+sys+irq+softirq+steal)
	 * spent per KiB of payload; netperf's service demand unit.  Negative
	 * when no payload was moved. */
	double us_per_kib;
};

/*
 * Reads root/proc/stat (root "" or "/" means the live system) and the
 * process rusage.  Returns 0 or a negative errno.
 */
int ig_cpu_snap(const char *root, struct ig_cpu_snap *s);
/* Parses the text of a /proc/stat file; pure, for tests. */
int ig_cpu_parse_stat(const char *text, struct ig_cpu_snap *s);
/*
 * CPU microseconds per transaction (netperf's us/Tr), for latency tests:
 * the busy time behind u->us_per_kib (bytes of payload were moved) spread
 * over trs round trips.  Negative when unknown (no payload, no round
 * trip).
 */
double ig_cpu_us_per_tr(const struct ig_cpu_usage *u, uint64_t bytes,
			uint64_t trs);
/* Usage between two snapshots; bytes is the payload moved in between. */
void ig_cpu_usage(const struct ig_cpu_snap *a, const struct ig_cpu_snap *b,
		  uint64_t bytes, struct ig_cpu_usage *u);

#endif
