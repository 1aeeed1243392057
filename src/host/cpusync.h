/* SPDX-License-Identifier: MIT */
#ifndef IG_CPUSYNC_H
#define IG_CPUSYNC_H

#include <stddef.h>
#include <stdint.h>

/*
 * Whether a CPU counter is ordered across the CPUs a thread may run on,
 * as the kernel checks the TSC at boot (check_tsc_warp): two threads,
 * pinned to the first CPU of the mask and to each other CPU in turn, hand
 * a token back and forth IG_SYNC_HANDOFFS times; each reads its counter
 * on taking the token and compares it with what the other read before
 * giving it.  A value behind the other's is a warp: the two CPUs'
 * counters are further apart than one hand-off (a cache line's trip).
 * A counter with no warp may time an unpinned thread: a sample that
 * migrates is off by less than a hand-off.
 */
#define IG_SYNC_HANDOFFS 200
/* a pair whose threads do not both run in this time is not vouched for */
#define IG_SYNC_PAIR_NS 200000000ull /* 200 ms */

/* The counter on side 0 (the first CPU) or 1 (the other one). */
typedef uint64_t (*ig_sync_read)(void *ctx, int side);

/*
 * Checks every CPU of the calling thread's affinity mask against its
 * first.  0 when no pair warped (*ncpus: how many CPUs were checked);
 * else -errno with one line in why: -EAGAIN a warp (CPUs and by how much),
 * -ETIMEDOUT a pair that did not finish in IG_SYNC_PAIR_NS, other a
 * thread that could not be made or pinned.
 */
int ig_sync_check(ig_sync_read rd, void *ctx, unsigned int *ncpus, char *why,
		  size_t len);

#endif
