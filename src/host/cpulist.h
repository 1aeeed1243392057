/* SPDX-License-Identifier: MIT */
#ifndef IG_CPULIST_H
#define IG_CPULIST_H

#include <stdbool.h>

/*
 * The n-th CPU (n wraps around) of list, a kernel cpulist ("0-7,16-23",
 * as device/local_cpulist shows it), among those this process may run on
 * (sched_getaffinity): from the front, or from the back (the server's end
 * of a single-host test, so that both ends do not share a CPU).  -1 when
 * none of list's CPUs is allowed.
 */
int ig_cpulist_nth(const char *list, int n, bool from_back);

#endif
