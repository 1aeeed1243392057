// SPDX-License-Identifier: MIT
/*
 * Is a CPU counter ordered across this thread's CPUs (cpusync.h): a token
 * handed between two pinned threads, each side's counter read as it takes
 * the token and held against the value the other read before giving it.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "cpusync.h"

/* spins between two reads of the (maybe costly) wall clock */
#define SYNC_SPIN_CHECK 1024u

struct sync_pair {
	ig_sync_read rd;
	void *ctx;
	uint64_t deadline;
	_Atomic uint64_t stamp; /* the giver's counter at its last hand-off */
	_Atomic int turn;	/* whose the token is: 0 or 1 */
	_Atomic bool quit;	/* a side ran out of time */
	uint64_t warp[2];	/* the largest step back each side saw */
};

struct sync_side {
	struct sync_pair *p;
	int me;
};

/* Waits for the token; false when the pair ran out of time. */
static bool take_token(struct sync_pair *p, int me)
{
	unsigned int spins = 0;

	while (atomic_load(&p->turn) != me) {
		if (atomic_load(&p->quit))
			return false;
		if (++spins % SYNC_SPIN_CHECK == 0 &&
		    ig_now_ns() > p->deadline) {
			atomic_store(&p->quit, true);
			return false;
		}
	}
	return true;
}

static void *side_run(void *arg)
{
	struct sync_side *sd = arg;
	struct sync_pair *p = sd->p;

	for (int i = 0; i < IG_SYNC_HANDOFFS; i++) {
		uint64_t given, now;

		if (!take_token(p, sd->me))
			break;
		given = atomic_load(&p->stamp);
		now = p->rd(p->ctx, sd->me);
		if (now < given && given - now > p->warp[sd->me])
			p->warp[sd->me] = given - now;
		atomic_store(&p->stamp, p->rd(p->ctx, sd->me));
		atomic_store(&p->turn, !sd->me);
	}
	return NULL;
}

/* side_run on a thread pinned to cpu; 0, or -errno with why said. */
static int start_on(pthread_t *t, int cpu, struct sync_side *sd, char *why,
		    size_t len)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_attr_init(&attr);
	if (!ret) {
		ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (!ret)
			ret = pthread_create(t, &attr, side_run, sd);
		pthread_attr_destroy(&attr);
	}
	if (ret)
		snprintf(why, len,
			 "no thread pinned to CPU %d for the "
			 "counter's check across CPUs: %s",
			 cpu, strerror(ret));
	return -ret;
}

/* One pair: CPU a against CPU b. */
static int check_pair(ig_sync_read rd, void *ctx, int a, int b, char *why,
		      size_t len)
{
	struct sync_pair p = { .rd = rd,
			       .ctx = ctx,
			       .deadline = ig_now_ns() + IG_SYNC_PAIR_NS };
	struct sync_side sd[2] = { { &p, 0 }, { &p, 1 } };
	pthread_t t[2];
	int ret = start_on(&t[0], a, &sd[0], why, len);

	if (ret)
		return ret;
	ret = start_on(&t[1], b, &sd[1], why, len);
	if (ret) {
		atomic_store(&p.quit, true);
		pthread_join(t[0], NULL);
		return ret;
	}
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	if (atomic_load(&p.quit)) {
		snprintf(why, len,
			 "the counter's check across CPUs %d and %d "
			 "did not finish in %llu ms (a CPU busy?)",
			 a, b, IG_SYNC_PAIR_NS / IG_NSEC_PER_MSEC);
		return -ETIMEDOUT;
	}
	if (p.warp[0] || p.warp[1]) {
		snprintf(why, len,
			 "the counter of CPU %d read up to %" PRIu64
			 " ticks behind CPU %d's",
			 p.warp[0] >= p.warp[1] ? a : b,
			 p.warp[0] >= p.warp[1] ? p.warp[0] : p.warp[1],
			 p.warp[0] >= p.warp[1] ? b : a);
		return -EAGAIN;
	}
	return 0;
}

int ig_sync_check(ig_sync_read rd, void *ctx, unsigned int *ncpus, char *why,
		  size_t len)
{
	cpu_set_t set;
	int first = -1;

	*ncpus = 0;
	why[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set)) {
		int e = errno;

		snprintf(why, len,
			 "sched_getaffinity for the counter's check "
			 "across CPUs: %s",
			 strerror(e));
		return -e;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int ret;

		if (!CPU_ISSET(cpu, &set))
			continue;
		++*ncpus;
		if (first < 0) {
			first = cpu;
			continue;
		}
		ret = check_pair(rd, ctx, first, cpu, why, len);
		if (ret)
			return ret;
	}
	return 0;
}
