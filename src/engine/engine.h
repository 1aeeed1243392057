/* SPDX-License-Identifier: MIT */
#ifndef IG_ENGINE_H
#define IG_ENGINE_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "host/cpu.h"
#include "wire/ctrl.h"
#include "common/hist.h"
#include "common/params.h"
#include "lat_clock.h"
#include "result.h"
#include "xport.h"

/* One stream: a TCP connection or a QP, driven by one thread. */
struct ig_stream {
	struct ig_session *s;
	unsigned int idx;
	void *priv; /* the transport's */
	pthread_t thread;
	bool started;
	pthread_t rthread; /* --bidir: the reverse direction's thread */
	bool rstarted;
	_Atomic uint64_t tx_pub;   /* tx_msgs, published for other threads */
	uint64_t tx_msgs;	   /* sender: messages handed over, total */
	uint64_t warm_msgs;	   /* sender: of which in the warm-up */
	_Atomic uint64_t rx_bytes; /* receiver: bytes received, total */
	_Atomic uint64_t rx_target;
	uint64_t lat_rounds; /* initiator: measured round trips */
	int cpu;	     /* pin the thread here; -1: don't */
	struct ig_hist *lat; /* initiator: samples, ns (ig_test_lat_div) */
	struct ig_lclk clk;  /* initiator: the samples' clock */
	int err;
	/* ops->stream_ctrs at the start of the measured interval */
	struct ig_ctr_snap ctr_start;
};

/* One test between a client and a server. */
struct ig_session {
	const struct ig_xport_ops *ops;
	const struct ig_tests *tests; /* the tests' rows (ig_test_row) */
	struct ig_params p;
	struct ig_ctrl *ctrl;
	bool server;
	struct ig_local_opts local; /* this host's options */
	const char *cpu_root;	    /* root prefix of /proc, "/" live */
	void *xpriv;		    /* the transport's session-wide state */
	unsigned int nstreams;
	struct ig_stream *st;

	/* phases: workers and the session thread meet here */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int arrived;
	unsigned int go;
	atomic_int stop_warm;
	atomic_int stop;
	atomic_int rx_stop; /* receivers stop (the client's after RESULT) */
	atomic_int failed;

	/* The transport may drop messages (UD): the driver does not wait
	 * for every byte to arrive but for the receiver's count to settle
	 * (IG_DRAIN_MS without progress), and the result counts what the
	 * receiver got (docs/design.md, "ud_send_bw"). */
	bool lossy;

	/* what the transport reports about itself */
	uint64_t window_snd, window_rcv;
	struct ig_facts facts; /* named, filled by setup (verbs: the device) */
	char warning[256];
};

/* A set-up error that is the user's bad option value, one the link
 * cannot carry (ud: -s above the path MTU): the client exits 2. */
#define IG_EBADVALUE EDOM
/* lossy: the receiver's count has settled after this long without
 * progress */
#define IG_DRAIN_MS 200

/* Records the session's first error line; returns -err. */
int ig_session_fail(struct ig_session *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *ig_session_err(struct ig_session *s);

/*
 * Set-up helper for transports: waits until fd has `events`, watching the
 * control connection too, so that a peer that gave up (ERROR) or vanished
 * is noticed at once instead of at the deadline.  Returns 0 when fd is
 * ready, -ETIMEDOUT at the deadline (no error text: the caller says what
 * it waited for), or another negative errno with the session's error set.
 */
int ig_session_wait(struct ig_session *s, int fd, short events,
		    uint64_t deadline);

/*
 * The tag a data connection starts with (TCP: its first bytes; verbs: the
 * rdma_cm private data): the session cookie (8 bytes) and the stream
 * index (4), big endian, so a stranger is never taken for a stream.
 */
#define IG_STREAM_TAG_LEN 12
void ig_stream_tag_put(uint8_t *b, uint64_t cookie, unsigned int idx);
/* The stream index the tag names, or -1 when it is not one of ours. */
int ig_stream_tag_get(const uint8_t *b, uint64_t cookie, unsigned int nstreams);

/* Receiver side: count n bytes received on a stream. */
void ig_stream_rx(struct ig_stream *st, uint64_t n);
/*
 * Receiver with nothing to do (the target of RDMA writes): sleeps until
 * the session's receivers stop, without waking up in between, so that the
 * measured interval has no wake-ups of ours beside the sender's work.
 */
void ig_stream_park(struct ig_stream *st);
/* Tells the receivers to stop (and wakes the parked ones). */
void ig_session_stop_rx(struct ig_session *s);

/*
 * Both take the transports' table x (src/transports/ig_transports): the
 * ops, and the tests' rows the session reads (s->tests).
 *
 * Client: runs one test described by p against the server on ctrl (HELLO
 * already exchanged): SETUP, transport set-up, warm-up, measurement,
 * result exchange.  Fills r.  Returns 0 or a negative errno with one line
 * in err.
 */
int ig_engine_client(const struct ig_xports *x, struct ig_ctrl *ctrl,
		     const struct ig_params *p,
		     const struct ig_local_opts *local, struct ig_result *r,
		     char *err, size_t errlen);
/*
 * Server: runs the test whose SETUP body is setup; returns when it is
 * over or failed, with every resource freed.  fault: the tests' fault
 * hook (fault.h; the client's is local->fault), NULL in production.
 */
int ig_engine_server(const struct ig_xports *x, struct ig_ctrl *ctrl,
		     json_object *setup, const struct ig_fault *fault,
		     char *err, size_t errlen);

#endif
