/* SPDX-License-Identifier: MIT */
/*
 * Fault points (docs/design.md, "Fault injection"): one on each side of
 * each phase of a test.  The engine calls the hook its caller handed in
 * (struct ig_local_opts' fault; NULL in production, where a point is one
 * pointer test).  Two hooks exist, both for the tests: the engine bench's
 * (tests/unit/bench_*.c: kills or stalls one half of an in-process
 * session) and, in test builds only (IBGAP_TESTS=ON), the environment's
 * (fault_env.c, IBGAP_FAULT) for the scripts that need real processes.
 */
#ifndef IG_FAULT_H
#define IG_FAULT_H

#include <stdbool.h>

enum ig_fault_phase {
	IG_FAULT_CONNECT, /* control connection open, before HELLO */
	IG_FAULT_PARAMS,  /* SETUP sent / accepted, before any resource */
	IG_FAULT_SETUP,	  /* transport resources set up, before READY */
	IG_FAULT_WARMUP,  /* data flowing, before the measured interval */
	IG_FAULT_MEASURE, /* inside the measured interval */
	IG_FAULT_RESULT,  /* END sent / received, before RESULT */
	IG_FAULT_NPHASES,
};

struct ig_fault {
	/* Called on the session's thread at each fault point; it may
	 * return, stop the thread, or end the process. */
	void (*point)(const struct ig_fault *f, bool server,
		      enum ig_fault_phase phase);
	/* the latency clock's end check sees the counter run 1% fast, as if
	 * its rate had changed (lat_clock.c), so that the fall-back to
	 * CLOCK_MONOTONIC can be tested on any machine */
	bool clock_drift;
};

static inline void ig_fault_point(const struct ig_fault *f, bool server,
				  enum ig_fault_phase phase)
{
	if (f && f->point)
		f->point(f, server, phase);
}

/* The factor on the latency clock's end rate: 1, or 1.01 (clock_drift). */
static inline double ig_fault_clock_skew(const struct ig_fault *f)
{
	return f && f->clock_drift ? 1.01 : 1;
}

/*
 * The environment's hook (fault_env.c): IBGAP_FAULT=SIDE:PHASE:ACTION
 * [:DELAY_MS] makes the process on SIDE (client or server) that reaches
 * PHASE wait DELAY_MS, then kill itself (SIGKILL, as a crash would), stop
 * itself (SIGSTOP: every thread hangs, its sockets and queue pairs stay
 * open, as a wedged host would) or hang the calling thread alone (hang:
 * the rest of the process goes on, as ibgap-fabric's rank does around
 * its wedged in-process server).  With IBGAP_FAULT_ONCE=FILE as well, the
 * fault fires only where it creates FILE (once).
 * IBGAP_FAULT=client:clock:drift sets clock_drift instead.
 */
struct ig_fault_env {
	struct ig_fault hook;
	bool server;
	enum ig_fault_phase phase;
	char action; /* 'k'ill, 's'tall, 'h'ang; 0: none */
	unsigned int delay_ms;
};

#define IG_FAULT_DRIFT "client:clock:drift"

#ifdef IBGAP_FAULT_ENV
/* Reads IBGAP_FAULT into e: &e->hook when it arms something, else NULL
 * (a malformed value is reported on stderr and ignored). */
const struct ig_fault *ig_fault_env(struct ig_fault_env *e);
#else
/* Not a test build: the environment arms nothing. */
static inline const struct ig_fault *ig_fault_env(struct ig_fault_env *e)
{
	(void)e;
	return NULL;
}
#endif

#endif
