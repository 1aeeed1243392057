/* SPDX-License-Identifier: MIT */
/*
 * Fault injection for the tests (tests/integ/faults.sh, tests/rxe/
 * t_faults.sh): with IBGAP_FAULT=SIDE:PHASE:ACTION[:DELAY_MS] in the
 * environment, the process on SIDE (client or server) that reaches PHASE
 * waits DELAY_MS, then kills itself (SIGKILL, as a crash would) or stops
 * itself (SIGSTOP: every thread hangs, its sockets and queue pairs stay
 * open, as a wedged host would), or hangs the calling thread alone
 * (ACTION hang: the rest of the process goes on, as ibgap-fabric's rank
 * does around its wedged in-process server).  With IBGAP_FAULT_ONCE=FILE
 * as well, the fault fires only where it creates FILE (once).  Without
 * IBGAP_FAULT a fault point does nothing but one getenv().
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

void ig_fault_point(bool server, enum ig_fault_phase phase);

/* IBGAP_FAULT=client:clock:drift: the latency clock's end check sees the
 * counter run 1% fast, as if its rate had changed (lat_clock.c), so that
 * the fall-back to CLOCK_MONOTONIC can be tested on any machine. */
#define IG_FAULT_DRIFT "client:clock:drift"
bool ig_fault_clock_drift(void);

#endif
