/* SPDX-License-Identifier: MIT */
#ifndef IG_XPORT_H
#define IG_XPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/counters.h"
#include "common/opttab.h"
#include "common/params.h"

struct ig_session;
struct ig_stream;

/*
 * The transport contract (docs/design.md, "Transport contract").
 *
 * A transport moves messages; it never reads the clock for measurement,
 * never keeps statistics and never decides how long a test runs: the
 * engine (engine.c) does.  Each stream (one TCP connection, one QP) is
 * driven by one engine thread; a transport function is only ever called
 * from that stream's thread, except setup/stop/cleanup, which the engine
 * calls from the session's thread.
 *
 * All functions return 0 (or a count) on success and a negative errno on
 * failure, after writing one line into the session's error text
 * (ig_session_fail()).  Data-path functions must not block longer than
 * the session's timeout: a peer that stalls is an error (-ETIMEDOUT).
 */
struct ig_xport_ops {
	const char *name; /* "tcp", "verbs", "rsockets" */
	/*
	 * Creates s->nstreams connected streams.  Server and client run it
	 * at the same time and may exchange IG_MSG_XPORT messages over
	 * s->ctrl.  On error everything it made is undone by cleanup().
	 */
	int (*setup)(struct ig_session *s);
	/* Unblocks the data path of the server's streams (end of test or
	 * abort); streams' threads then return promptly. */
	void (*stop)(struct ig_session *s);
	/* Frees everything setup made; safe after a partial setup. */
	void (*cleanup)(struct ig_session *s);

	/* Bandwidth, sender: hands over up to n messages of s->p.size
	 * bytes; returns how many it handed over (>= 1), or -errno. */
	ssize_t (*bw_send)(struct ig_stream *st, uint64_t n);
	/* Sender: returns when every message handed over is complete as
	 * far as the transport can tell (verbs: all completions polled). */
	int (*bw_flush)(struct ig_stream *st);
	/* Receiver: receives until stop() or the sender closes, adding
	 * each chunk to the stream with ig_stream_rx(). */
	int (*bw_recv)(struct ig_stream *st);

	/* Latency, initiator: one round trip of s->p.size bytes. */
	int (*lat_ping)(struct ig_stream *st);
	/* Responder: echoes until stop() or the initiator closes. */
	int (*lat_pong)(struct ig_stream *st);

	/*
	 * Optional (NULL: the transport has none).  Its named per-stream
	 * values, the table ctrs[0..nctrs) (at most IG_CTR_MAX): stream_ctrs
	 * reads stream st's values now into v[] and returns the mask of those
	 * it read (bit i: ctrs[i]).  The session thread calls it at the start
	 * and the end of the measured interval, on both sides, while the
	 * stream's thread waits (client) or receives (server): it may only read
	 * the stream's state.  The engine computes each value of the interval
	 * by its rule (common/counters.h) without knowing its name.
	 */
	const struct ig_ctr_def *ctrs;
	unsigned int nctrs;
	uint32_t (*stream_ctrs)(struct ig_stream *st, uint64_t *v);
	/* The member of READY that carries the session's facts (s->facts,
	 * which setup fills), named by the transport; NULL: it has none. */
	const char *facts_key;

	/* True when "handed over and flushed" does not mean delivered
	 * (TCP): the engine then asks the receiver to confirm the byte
	 * count over the control channel before it stops the clock. */
	bool rx_confirms;
};

/*
 * Every transport's ops, indexed by enum ig_xport_id.  The engine knows no
 * transport by name: src/transports/ fills this table and whoever runs a
 * test (the client, the server) hands it to the engine.
 */
struct ig_xports {
	const struct ig_xport_ops *ops[IG_XPORT_COUNT]; /* NULL: not built */
	struct ig_tests tests; /* every transport's tests' rows */
	/* every transport's options' rows (IG_OPT_ROWS, each its own),
	 * for the commands' tables; the engine does not read them */
	struct ig_opt opts[IG_XPORT_COUNT];
};

#endif
