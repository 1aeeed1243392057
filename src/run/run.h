/* SPDX-License-Identifier: MIT */
#ifndef IG_RUN_H
#define IG_RUN_H

/*
 * The run layer: a plan of measurements (sizes x streams x windows x
 * tests, each once or repeated) run through the engine against a server,
 * over a control channel this layer opens (connect, HELLO, BYE) or one
 * the caller holds; the rest of a plan failed when a measurement fails;
 * and the in-process server of "ibgap" alone and ibgap-fabric.  "ibgap
 * client", the local "ibgap" and ibgap-fabric's pairs all run through it.
 */

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/params.h"
#include "common/repeat.h"
#include "engine/result.h"
#include "host/sysinfo.h"
#include "serve/server.h"
#include "wire/auth.h"
#include "wire/ctrl.h"

/* One plan.  The lists are the caller's (they must outlive the run); a
 * NULL list is p's one value. */
struct ig_run_opts {
	struct ig_params p; /* the other parameters of every measurement */
	/* local.sock.zerocopy IG_ZC_BOTH: tcp_bw twice, copying then zero-copy;
	 * *local.interrupt set: the plan ends early (the last result
	 * partial) */
	struct ig_local_opts local;
	const enum ig_test *tests;
	unsigned int ntests;
	const uint64_t *sizes; /* or NULL: p.size */
	unsigned int nsizes;
	const uint32_t *streams; /* or NULL: p.streams */
	unsigned int nstreams;
	const uint64_t *windows; /* or NULL: p.sock.window */
	unsigned int nwindows;
	/* -s was given; else the latency tests run at IG_DEFAULT_LAT_SIZE
	 * and ud_send_bw at the path MTU */
	bool size_given;
	struct ig_repeat_opts rep; /* --repeat, --confidence */
	/* the plan's name in its stderr lines ("tcp@ADDR: ..."), or NULL */
	const char *column;
	bool quiet; /* no stderr line, no progress: the results say it */
};

/* The results of the plan: sizes x streams x windows x tests (tcp_bw
 * twice with --zerocopy both). */
unsigned int ig_run_count(const struct ig_run_opts *o);
/* The measurements (combinations) of the plan: ig_run_count() without
 * the second tcp_bw of --zerocopy both. */
unsigned int ig_run_combos(const struct ig_run_opts *o);
/* The parameters of the plan's k-th combination (0 <= k < combos):
 * sizes outer, then streams, then windows, the tests innermost. */
void ig_run_params(const struct ig_run_opts *o, unsigned int k,
		   struct ig_params *p);
/* The plan's results from index from on did not run: each failed, why
 * (its parameters set). */
void ig_run_fail(const struct ig_run_opts *o, struct ig_result *res,
		 size_t from, const char *why);

/* Runs the plan on c (HELLO done) into res (ig_run_count() entries).
 * 0, or the engine's -errno of the measurement that failed (one line on
 * stderr unless quiet); then that result and every one after it are
 * failed (ig_result.error says why).  *done: the results filled. */
int ig_run_plan(const struct ig_run_opts *o, struct ig_ctrl *c,
		struct ig_result *res, size_t *done);

/* Where a plan runs. */
struct ig_run_peer {
	const char *host;
	const char *port;	       /* NULL: IG_DEFAULT_PORT */
	const struct ig_auth_key *key; /* --auth-file's, or NULL */
	int timeout_ms;
	/* the tests' fault hook for the connect point (engine/fault.h);
	 * NULL: none (production, --also's column) */
	const struct ig_fault *fault;
	/* HELLO's group (--rails-mode together: the sessions the server
	 * runs side by side), or NULL */
	const char *group;
	/* the address the connection leaves from (--rails: the rail's), or
	 * NULL: the routing table's choice */
	const char *src;
};

/* Connects and says HELLO: self and srv filled.  0, or a negative errno
 * with one line in err. */
int ig_run_connect(const struct ig_run_peer *peer, struct ig_ctrl *c,
		   struct ig_sysinfo *self, struct ig_sysinfo *srv, char *err,
		   size_t errlen);
/* Ends a session: BYE when ok (wait: then until the server closes, so
 * that its session is over), and closes c. */
void ig_run_bye(struct ig_ctrl *c, bool ok, bool wait);
/* Connect, the plan, BYE: ig_run_plan()'s result; when the connection
 * fails every result is failed with the reason (one line on stderr
 * unless quiet) and *done is the plan's count.  self and srv may be
 * NULL. */
int ig_run_at(const struct ig_run_opts *o, const struct ig_run_peer *peer,
	      struct ig_sysinfo *self, struct ig_sysinfo *srv,
	      struct ig_result *res, size_t *done);

/* An in-process server in a thread of its own (quiet). */
struct ig_run_server {
	struct ig_server *srv;
	pthread_t thread;
	volatile sig_atomic_t quit;
};

/* Starts it with o; 0, or a negative errno with one line in err
 * (-EADDRINUSE when o's port is taken). */
int ig_run_server_start(struct ig_run_server *s, const struct ig_server_opts *o,
			char *err, size_t errlen);
int ig_run_server_port(const struct ig_run_server *s);
/* Ends the thread after its current session, frees the server. */
void ig_run_server_stop(struct ig_run_server *s);

#endif
