/* SPDX-License-Identifier: MIT */
/* Internal to engine*.c: shared between the client and server halves. */
#ifndef IG_ENGINE_INT_H
#define IG_ENGINE_INT_H

#include "engine.h"

void ig_eng_wake_all(struct ig_session *s);
void ig_eng_go(struct ig_session *s, unsigned int phase);
/*
 * For the side that drives a test, whose peer only ever answers on the
 * control connection: 0 while that connection is quiet; else the peer gave
 * up (ERROR) or went away (EOF, reset), and the session's error says so
 * (a negative errno).  Waits only for the rest of a message already begun.
 */
int ig_eng_check_ctrl(struct ig_session *s);
/* Runs p's test with its transport's ops in x (absent_ops without). */
int ig_eng_session_init(struct ig_session *s, struct ig_ctrl *ctrl,
			const struct ig_xports *x, const struct ig_params *p,
			bool server);
void ig_eng_session_destroy(struct ig_session *s);
int ig_eng_start_workers(struct ig_session *s, void *(*fn)(void *));
/* Joins every started worker; returns the first worker error. */
int ig_eng_join_workers(struct ig_session *s);
/* Joins the forward-direction workers only. */
int ig_eng_join_forward(struct ig_session *s);
int ig_eng_start_reverse(struct ig_session *s, void *(*fn)(void *));
void *ig_eng_bw_sender_free(void *arg);

/*
 * ops->stream_ctrs of every stream at the start of the measured interval
 * (kept in the streams), and at its end: c then holds the interval's
 * values by their rules (none when the transport has no counters).
 */
void ig_eng_info_start(struct ig_session *s);
void ig_eng_info_end(struct ig_session *s, struct ig_ctrs *c);

/* The driver's measured interval (engine_drive.c). */
struct ig_eng_measure {
	uint64_t t0, t1;
	struct ig_cpu_snap c0, c1;
	struct ig_ctrs info; /* the transport's counters of t0..t1 */
};

/* The side that sends (the client, or the server with -R) runs the test:
 * starts its workers, warm-up, confirmation, BEGIN, measurement. */
int ig_eng_drive(struct ig_session *s, struct ig_eng_measure *m);
/* The driver's counts into r: per stream, totals, its own CPU (cpu_client
 * or cpu_server, after its side). */
void ig_eng_counts(struct ig_session *s, const struct ig_eng_measure *m,
		   struct ig_result *r);
/* r's totals and rates from r->stream_msgs[0..nstreams) over ns. */
void ig_eng_totals(struct ig_result *r, unsigned int nstreams, uint64_t size,
		   uint64_t ns);
bool ig_eng_interrupted(const struct ig_session *s);

/* What the follower saw between BEGIN and the driver's last message. */
struct ig_eng_follow {
	struct ig_cpu_snap c0, c1;
	uint64_t rev;	 /* --bidir: messages our reverse senders handed over */
	uint64_t rx;	 /* bytes our receivers counted */
	uint64_t synced; /* bytes the last SYNC confirmed, all streams */
	bool has_synced; /* a SYNC came (TCP) */
	uint64_t ns;	 /* on our clock */
	json_object *last;   /* the last message's body; the caller puts it */
	struct ig_ctrs info; /* BEGIN..the last message */
};

/* The receiving side (the server, or the client with -R) follows the
 * driver's messages until `last` (END, or RESULT with -R) or an error. */
int ig_eng_follow(struct ig_session *s, enum ig_msg_type last,
		  struct ig_eng_follow *f);

void *ig_eng_bw_sender(void *arg);
void *ig_eng_lat_initiator(void *arg);
void *ig_eng_bw_receiver(void *arg);
void *ig_eng_lat_responder(void *arg);

#endif
