// SPDX-License-Identifier: MIT
/* A kernel cpulist's n-th allowed CPU (cpulist.h). */
#include <sched.h>
#include <stdio.h>

#include "cpulist.h"

/* list's CPUs that this process may run on, into set. */
static void parse(const char *list, const cpu_set_t *allowed, cpu_set_t *set)
{
	int lo, hi, pos = 0;

	CPU_ZERO(set);
	while (sscanf(list + pos, "%d", &lo) == 1) {
		hi = lo;
		while (list[pos] >= '0' && list[pos] <= '9')
			pos++;
		if (list[pos] == '-' && sscanf(list + pos + 1, "%d", &hi) == 1)
			for (pos++; list[pos] >= '0' && list[pos] <= '9';)
				pos++;
		for (int c = lo; c <= hi && c < CPU_SETSIZE; c++)
			if (c >= 0 && CPU_ISSET(c, allowed))
				CPU_SET(c, set);
		if (list[pos] != ',')
			break;
		pos++;
	}
}

int ig_cpulist_nth(const char *list, int n, bool from_back)
{
	cpu_set_t allowed, local;
	int count;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	parse(list, &allowed, &local);
	count = CPU_COUNT(&local);
	if (!count || n < 0)
		return -1;
	n %= count;
	for (int c = 0, k = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &local))
			continue;
		if (k++ == (from_back ? count - 1 - n : n))
			return c;
	}
	return -1;
}
