/* SPDX-License-Identifier: MIT */
/* Internal to engine*.c: shared between the client and server halves. */
#ifndef IG_ENGINE_INT_H
#define IG_ENGINE_INT_H

#include "engine.h"

void ig_eng_wake_all(struct ig_session *s);
void ig_eng_go(struct ig_session *s, unsigned int phase);
int ig_eng_session_init(struct ig_session *s, struct ig_ctrl *ctrl,
			const struct ig_xport_ops *ops,
			const struct ig_params *p, bool server);
void ig_eng_session_destroy(struct ig_session *s);
int ig_eng_start_workers(struct ig_session *s, void *(*fn)(void *));
/* Joins every started worker; returns the first worker error. */
int ig_eng_join_workers(struct ig_session *s);
/* Joins the forward-direction workers only. */
int ig_eng_join_forward(struct ig_session *s);
int ig_eng_start_reverse(struct ig_session *s, void *(*fn)(void *));
void *ig_eng_bw_sender_free(void *arg);

/*
 * ops->stream_info of every stream at the start of the measured interval
 * (kept in the streams), and at its end: ti[] and the sum zc then hold
 * the interval's figures.  Returns false when the transport has none.
 */
void ig_eng_info_start(struct ig_session *s);
bool ig_eng_info_end(struct ig_session *s, struct ig_tcpinfo *ti,
		     struct ig_zc_stats *zc);

void *ig_eng_bw_sender(void *arg);
void *ig_eng_lat_initiator(void *arg);
void *ig_eng_bw_receiver(void *arg);
void *ig_eng_lat_responder(void *arg);

#endif
