/* SPDX-License-Identifier: MIT */
/* Internal to src/verbs: resources of one verbs session. */
#ifndef IG_VERBS_INT_H
#define IG_VERBS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "engine/engine.h"

/* Receives kept posted by a send_bw receiver and by latency tests. */
#define VB_RX_DEPTH 512
/* Work requests handed to one ibv_post_send call at most. */
#define VB_POST_BATCH 32
/* At most this many payload bytes per ibv_post_send chain: one post of
 * a long chain of large messages makes rxe defer most of its packets to
 * ksoftirqd (docs/lab/2026-11-30-verbs-vs-perftest.md); hardware does
 * not care. */
#define VB_POST_BYTES (64u * 1024)
/* UD: every receive starts with room for the 40-byte GRH */
#define VB_GRH_LEN 40u
/* Inline thresholds of the latency tests when --inline is not given:
 * perftest's on the HCAs it knows (DEF_INLINE_SEND_RC_UC,
 * DEF_INLINE_SEND_UD, DEF_INLINE_WRITE in its perftest_parameters.h) */
#define VB_INLINE_SEND 236u
#define VB_INLINE_UD 188u
#define VB_INLINE_WRITE 220u

/* What the peer must know to write into a stream's buffer. */
struct vb_remote {
	uint64_t addr;
	uint32_t rkey;
};

struct vb_stream {
	struct rdma_cm_id *id;
	struct ibv_cq *cq;  /* send completions */
	struct ibv_cq *rcq; /* receive completions (its own: with --bidir a
			     * sender and a receiver thread share the QP) */
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	char *buf; /* [0, size): send/source, [size, 2 size): target */
	size_t buflen;
	struct vb_remote remote;
	/* data path */
	struct ibv_send_wr wr[VB_POST_BATCH];
	struct ibv_sge sge[VB_POST_BATCH];
	uint32_t outstanding; /* posted, not yet completed */
	uint32_t unsignaled;  /* posted since the last signaled one */
	uint32_t rx_posted;
	uint32_t rx_depth;
	uint32_t batch;	     /* requests per post: 1..VB_POST_BATCH */
	uint32_t inline_max; /* sends of at most this many bytes go inline */
	uint32_t depth; /* requests in flight at most: tx_depth (reads: outs) */
	uint32_t mod;	/* every mod'th request is signaled (--cq-mod) */
	uint64_t sends; /* latency: sends so far */
	uint8_t seq;	/* write_lat: flag value */
	bool established;
	/* UD (vb_ud*.c): the peer's address handle, QPN and QKey, our QKey;
	 * grh: bytes at the head of each receive (VB_GRH_LEN on UD, 0 on RC) */
	struct ibv_ah *ah;
	uint32_t rqpn, rqkey, qkey;
	uint32_t grh;
	/* --events: a completion channel per CQ, and the events taken but
	 * not yet acknowledged (ibv_ack_cq_events in batches) */
	bool events;
	struct ibv_comp_channel *ch, *rch;
	unsigned int unacked, runacked;
};

/* What the verbs transport used: the session's facts (ig_vb_facts). */
struct ig_xinfo {
	bool valid;
	char device[64];
	int port;
	char link_layer[16]; /* "InfiniBand" or "Ethernet" */
	int mtu;	     /* active path MTU, bytes */
	char gid[48];	     /* GID in IPv6 notation */
	int gid_index;
	double rate_gbps; /* port data rate after line encoding */
	int numa_node;	  /* the HCA's, -1 unknown */
	int cpu;	  /* CPU the test thread ran on, -1 not pinned */
	int outs;	  /* read tests: RDMA reads in flight per QP, 0 else */
	int inline_max;	  /* the first stream's inline threshold, bytes */
	uint16_t lid;	  /* the port's (InfiniBand) */
	bool oob;	  /* connected without rdma_cm (VERBS_EP) */
};

struct vb_session {
	struct rdma_event_channel *ec;
	struct rdma_cm_id *listen_id; /* server */
	struct ibv_context *ctx;      /* of the first stream's id */
	struct ibv_pd *pd;
	int numa_node;
	uint64_t cookie;
	enum ibv_access_flags access; /* what the peer may do to our MR */
	/* read tests (vb_read.c): reads in flight per QP, agreed with the
	 * peer; the server's device's cap; the cap the server said */
	uint32_t outs, rd_cap, peer_rd_atom;
	struct ig_xinfo xinfo;
	bool own_ctx;	  /* ctx opened by vb_oob.c (closed at cleanup) */
	uint8_t ctx_port; /* vb_oob.c: the port of ctx used */
};

static inline struct ig_xinfo *ig_vb_xinfo(struct ig_session *s)
{
	return &((struct vb_session *)s->xpriv)->xinfo;
}

/* RDMA read tests (read_bw, read_lat). */
static inline bool ig_vb_is_read(enum ig_test t)
{
	return t == IG_TEST_READ_BW || t == IG_TEST_READ_LAT;
}

static inline bool ig_vb_is_ud(const struct ig_session *s)
{
	return s->p.test == IG_TEST_UD_SEND_BW ||
	       s->p.test == IG_TEST_UD_SEND_LAT;
}

/* vb_dev.c */
int ig_vb_check_devices(struct ig_session *s);
/* The session's xinfo from ctx's port (checked against --device and
 * --ib-port), or -errno (said). */
int ig_vb_describe(struct ig_session *s, struct ibv_context *ctx, uint8_t port);
int ig_vb_pick_cpu(struct ig_session *s, struct ibv_context *ctx);
int ig_vb_memlock_fail(struct ig_session *s, int err, size_t len);

/* vb_res.c */
int ig_vb_stream_res(struct ig_session *s, struct ig_stream *st);
void ig_vb_stream_free(struct vb_stream *vs);
void ig_vb_stream_free_buf(struct vb_stream *vs, int numa_node);
int ig_vb_post_recvs(struct ig_stream *st, uint32_t n);
const char *ig_vb_wc_status(enum ibv_wc_status st);

/* vb_data.c */
#define VB_SPIN_CHECK (1u << 14)
#define VB_POLL 32

/* Which CQs a loop waits on (struct vb_wait's cqs). */
#define VB_CQ_SEND 1u
#define VB_CQ_RECV 2u
/* --events: the longest sleep on a channel (stop flags are read between) */
#define VB_EVENT_MS 100
#define VB_ACK_BATCH 16

struct vb_wait {
	unsigned int cqs; /* VB_CQ_SEND | VB_CQ_RECV */
	uint32_t spins;
	uint64_t since;
	bool armed; /* --events: both CQs asked to notify since the last wait */
};

/* Called on every empty poll: busy-polling, nothing but the stall check
 * every VB_SPIN_CHECK calls; with --events, ig_vb_block first. Fails once
 * nothing happened for the session's timeout. */
int ig_vb_idle(struct ig_stream *st, struct vb_wait *w, const char *what);
/* --events, one step of a wait on w->cqs: arms them (the caller polls
 * again, so a completion that came before is not missed), or, armed,
 * sleeps on their channels for an event, at most VB_EVENT_MS.  0 or
 * -errno (said). */
int ig_vb_block(struct ig_stream *st, struct vb_wait *w);
int ig_vb_wc_fail(struct ig_stream *st, const struct ibv_wc *wc);
/* ibv_poll_cq of up to VB_POLL entries: how many, or -errno (said). */
int ig_vb_poll(struct ig_stream *st, struct ibv_cq *cq, struct ibv_wc *wc);
int ig_vb_reap(struct ig_stream *st);
int ig_vb_post_chain(struct ig_stream *st, uint32_t k);
ssize_t ig_vb_bw_send(struct ig_stream *st, uint64_t n);
int ig_vb_bw_flush(struct ig_stream *st);
int ig_vb_bw_recv(struct ig_stream *st);

/* vb_lat.c */
int ig_vb_lat_ping(struct ig_stream *st);
int ig_vb_lat_pong(struct ig_stream *st);

/* vb_read.c */
/* Write and read tests: memory keys traded, no receives posted. */
bool ig_vb_rdma_test(enum ig_test t);
enum ibv_wr_opcode ig_vb_opcode(enum ig_test t);
/* What the peer may do to our memory: write tests write, read tests read
 * the side that is read from; send tests nothing. */
enum ibv_access_flags ig_vb_access(const struct ig_session *s);
/* The most reads ctx's device keeps in flight and serves at once. */
int ig_vb_read_cap(struct ig_session *s, struct ibv_context *ctx,
		   uint32_t *cap);
/* Client: the read depth of its device and the server's, or --outs. */
int ig_vb_read_client_depth(struct ig_session *s, struct ibv_context *ctx);
/* Server: the depth the client's connect request asks for. */
int ig_vb_read_server_depth(struct ig_session *s,
			    const struct rdma_conn_param *req);
/* vs->depth and vs->mod of the test. */
void ig_vb_read_window(struct ig_session *s, struct vb_stream *vs);

/* vb_conn.c */
int ig_vb_setup_server(struct ig_session *s);
int ig_vb_setup_client(struct ig_session *s);
int ig_vb_qp_to_rts(struct ig_session *s, struct ig_stream *st);
/* Pieces of the set-up that UD (vb_ud_conn.c) shares with RC. */
int ig_vb_cm_event(struct ig_session *s, uint64_t deadline,
		   struct rdma_cm_event **ev);
int ig_vb_adopt_device(struct ig_session *s, struct rdma_cm_id *id);
/* ctx's port becomes the session's: its facts, a PD, the read depth
 * (client), the CPUs. */
int ig_vb_adopt_ctx(struct ig_session *s, struct ibv_context *ctx,
		    uint8_t port);
const char *ig_vb_qp_state_name(enum ibv_qp_state st);
void ig_vb_fill_gid(struct ig_session *s, struct rdma_cm_id *id);
/* Server: an rdma_cm listener in port space ps on the control
 * connection's address, its port and the cookie sent to the client. */
int ig_vb_listen(struct ig_session *s, enum rdma_port_space ps);
/* Handles a CONNECT_REQUEST: 0 accepted, 1 a stranger (rejected, its id
 * destroyed by the caller once acked), or -errno (said). */
typedef int ig_vb_request_fn(struct ig_session *s, struct rdma_cm_event *ev);
/* Server: every stream connected, on_req answering each request; sidr
 * (UD): a stream is up once accepted (the server sees no ESTABLISHED). */
int ig_vb_accept_all(struct ig_session *s, ig_vb_request_fn *on_req, bool sidr);
/* Readies stream st for the connection request ev (resources, QP states,
 * receives posted) and fills what the accept answers in cp (zeroed). */
typedef int ig_vb_prepare_fn(struct ig_session *s, struct ig_stream *st,
			     struct rdma_cm_event *ev,
			     struct rdma_conn_param *cp);
/* A CONNECT_REQUEST whose private data (priv, len) names a stream of ours
 * not yet connected: prep readies it and the accept answers; anything
 * else is rejected (returns 1, a stranger). */
int ig_vb_answer(struct ig_session *s, struct rdma_cm_event *ev,
		 const void *priv, size_t len, ig_vb_prepare_fn *prep);
/* Client: the server's rdma_cm address from its XPORT message (a: the
 * host as text, for errors). */
int ig_vb_server_addr(struct ig_session *s, struct sockaddr_storage *ss,
		      char *a, size_t alen);
/* Client: rdma_resolve_addr and _route of id to dst, events awaited. */
int ig_vb_resolve(struct ig_session *s, struct rdma_cm_id *id,
		  struct sockaddr *dst, const char *a, uint64_t deadline);

/* vb_opts.c: the inline threshold a stream of test t asks its QP for:
 * --inline's, else VB_INLINE_* for the latency tests that send, else 0 */
uint32_t ig_vb_inline_want(enum ig_test t, const struct ig_verbs_params *v);

/* vb_ud.c: pure checks and the UD send requests */
/* 0 when size fits one packet of mtu bytes, else -EINVAL with one line
 * in err naming the MTU, the device and port. */
int ig_vb_ud_size_check(uint64_t size, unsigned int mtu, const char *dev,
			unsigned int port, char *err, size_t errlen);
/* Every prepared send request addresses the peer (vs->ah, rqpn, rqkey). */
void ig_vb_ud_address(struct vb_stream *vs);

/* vb_oob.c: QPs connected without rdma_cm (params' verbs.oob) */
int ig_vb_oob_setup_server(struct ig_session *s);
int ig_vb_oob_setup_client(struct ig_session *s);

/* vb_oob_qp.c: their QPs' states (wire/epmsg.h: the ends) */
struct ig_ep;
struct ig_epmsg;
/* Stream st's resources, INIT, receives (send tests); its end into e,
 * with gid (the session's xinfo gid_index). */
int ig_vb_oob_local_ep(struct ig_session *s, struct ig_stream *st,
		       const union ibv_gid *gid, struct ig_ep *e);
/* Every stream to the peer's end of the same index: RTR and RTS (UD: an
 * address handle too), the path MTU the lesser of both ports'. */
int ig_vb_oob_connect(struct ig_session *s, const struct ig_epmsg *mine,
		      const struct ig_epmsg *peer);

/* vb_ud_conn.c */
int ig_vb_ud_setup_server(struct ig_session *s);
int ig_vb_ud_setup_client(struct ig_session *s);

#endif
