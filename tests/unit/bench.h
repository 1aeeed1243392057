/* SPDX-License-Identifier: MIT */
/*
 * The engine bench (docs/design.md, "Fault injection"): the real engine
 * (ig_engine_client, ig_engine_server) in one process, its two halves in
 * threads joined by a socketpair control channel and a fake transport.
 *
 * bench_xport.c: the fake transport.  Each stream is two in-memory
 * channels (client -> server, server -> client) of bounded capacity
 * counting messages, so a receiver that stops reading stalls its sender
 * until the session's timeout, as TCP's window does.  It keeps the
 * transport contract (docs/design.md, "The transport contract"): one
 * line through ig_session_fail, -ETIMEDOUT for a wait longer than the
 * timeout, stop() wakes every wait.  What it does is scripted per half.
 *
 * bench_run.c: one case: both halves (the client as src/cmd/client.c
 * drives the engine, the server as src/serve/server.c does), the fault
 * hook (engine/fault.h) that kills or stalls one half at a phase.
 */
#ifndef IG_BENCH_H
#define IG_BENCH_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/fault.h"

enum { FX_CLIENT, FX_SERVER };

/* What one half's streams do; all zero: a healthy transport. */
struct fx_script {
	/* receivers stop reading after taking this many messages of a
	 * stream (until stop() or a kill), as a process that no longer
	 * reads its socket: the peer's sends then stall */
	uint64_t rx_stall_after;
	/* the send after this many messages of a stream fails (EIO) */
	uint64_t err_after;
	/* after this many messages sent on a stream, it is reset */
	uint64_t reset_after;
	bool short_io;	       /* one message per send; receives in thirds */
	unsigned int flush_ms; /* bw_flush takes this long */
	unsigned int pace_us;  /* a receiver pauses after each take */
	bool setup_fail;       /* set-up fails with one line */
};

/* One direction of one stream. */
struct fx_chan {
	uint64_t queued;      /* handed over, not yet taken */
	uint64_t sent, taken; /* totals since the session's set-up */
	uint64_t dropped;     /* lossy: found the channel full */
	bool closed;	      /* the sender closed: EOF once drained */
	bool reset;	      /* an end was killed */
};

struct fx_half {
	struct fx_script sc;
	bool frozen;  /* stalled: every call waits until thawed */
	bool dead;    /* killed: every call fails */
	bool stopped; /* stop() since the set-up */
	bool rx_stalled;
};

struct fx_world {
	struct ig_xport_ops ops;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t cap; /* messages a channel holds */
	bool lossy;
	struct fx_chan ch[2][IG_MAX_STREAMS]; /* [sending half][stream] */
	struct fx_half half[2];
	int attach[2]; /* the client's "connection": a pipe to the server */
};

int fx_init(struct fx_world *w, bool rx_confirms, bool lossy, uint64_t cap,
	    const struct fx_script sc[2]);
void fx_destroy(struct fx_world *w);
/* Fault actions on one half (FX_CLIENT, FX_SERVER). */
void fx_kill(struct fx_world *w, int side);
void fx_freeze(struct fx_world *w, int side);
void fx_wait_thawed(struct fx_world *w, int side);
void fx_thaw(struct fx_world *w, int side);
void fx_stall_rx(struct fx_world *w, int side);
/* Totals of the channels that side sends on, over its streams. */
void fx_totals(struct fx_world *w, int side, struct fx_chan *sum);
/* One stream's channel from side. */
struct fx_chan fx_chan_of(struct fx_world *w, int side, unsigned int idx);

/* ---- cases (bench_run.c) ------------------------------------------- */

enum bench_action {
	BA_NONE,
	BA_KILL,       /* the half's control fd and streams close */
	BA_STALL,      /* the half stops, its fd and streams stay open */
	BA_QUIT_ERROR, /* its receivers stop reading; ERROR; then stalled */
	BA_QUIT_CLOSE, /* its receivers stop reading; it closes the
			  control connection; then stalled */
	BA_INTERRUPT,  /* the client's SIGINT flag */
	BA_STOP,       /* as a server that SIGTERM stops: ERROR {stopped},
			  then killed */
	BA_STOP_LATE,  /* the same, but its streams reset 20 ms before the
			  ERROR comes (a network that brings them first) */
	BA_PAUSE,      /* the half's thread sleeps BENCH_PAUSE_MS there and
			  goes on: a busy host's late read, not a fault */
};

#define BENCH_PAUSE_MS 50

#define BENCH_MAX_TESTS 2

struct bench_spec {
	const char *name;
	struct ig_params p[BENCH_MAX_TESTS];
	unsigned int ntests;
	bool rx_confirms, lossy;
	uint64_t cap; /* 0: 16 */
	struct fx_script sc[2];
	bool absent[2]; /* that half's table has no ops (absent transport) */
	/* the fault: which half, at which phase, what */
	int side;
	enum ig_fault_phase phase;
	enum bench_action action;
};

struct bench_case;

struct bench_half {
	struct bench_case *bc;
	int side;
	struct ig_ctrl ctrl;
	struct ig_fault hook;
	struct ig_local_opts local;
	struct ig_xports table;
	volatile sig_atomic_t interrupt;
	pthread_t thread;
	bool started;
	/* what it ended with */
	int ret;
	char err[512];
	uint64_t t_end;	  /* ns, ig_now_ns() */
	uint64_t t_fault; /* when its fault point fired */
	unsigned int fired;
	unsigned int done; /* tests that returned 0 (client) */
	struct ig_result r[BENCH_MAX_TESTS];
};

struct bench_case {
	const struct bench_spec *spec;
	struct fx_world w;
	struct bench_half h[2];
	uint64_t t0;
};

/* Starts both halves of spec; NULL when the bench itself failed. */
struct bench_case *bench_start(const struct bench_spec *spec);
/* Waits for the survivor (both halves without a fault), then releases
 * (kills) the victim and waits for it. */
void bench_finish(struct bench_case *bc);
void bench_free(struct bench_case *bc);
/* ms from the start to the end of side. */
double bench_ms(const struct bench_case *bc, int side);

#endif
