// SPDX-License-Identifier: MIT
/*
 * UD connection set-up through rdma_cm in the UDP port space (SIDR).  The
 * client resolves address and route, checks that -s fits the path MTU,
 * and connects; the server's accept answers with its QPN and QKey, which
 * the client's ESTABLISHED event carries with an address handle.  The
 * server learns nothing about the client from rdma_cm: the client's first
 * datagram (zero bytes, sent at the end of its set-up) gives it the
 * client's QPN (the completion's source QP) and address (from the GRH,
 * ibv_init_ah_from_wc).  Both ends use rdma_cm's QKey of the UDP port
 * space.  The QPs are ours (vb_res.c) and moved INIT -> RTR -> RTS here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/be.h"
#include "common/clock.h"
#include "verbs_int.h"

static int ud_modify(struct ig_session *s, struct ig_stream *st,
		     struct ibv_qp_attr *a, int mask, const char *to)
{
	struct vb_stream *vs = st->priv;
	int ret = ibv_modify_qp(vs->qp, a, mask);

	if (ret)
		return ig_session_fail(s, ret,
				       "modify UD QP 0x%x of stream %u to "
				       "%s failed: %s (attr mask 0x%x, qkey "
				       "0x%x, port %u)",
				       vs->qp->qp_num, st->idx, to,
				       strerror(ret), mask, a->qkey,
				       a->port_num);
	return 0;
}

/* INIT with rdma_cm's P_Key index, port and QKey, then RTR and RTS. */
static int ud_to_rts(struct ig_session *s, struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };
	int mask = 0, ret;

	if (rdma_init_qp_attr(vs->id, &a, &mask))
		return ig_session_fail(s, errno,
				       "rdma_init_qp_attr for the UD QP "
				       "of stream %u: %s",
				       st->idx, strerror(errno));
	vs->qkey = a.qkey;
	ret = ud_modify(s, st, &a, mask, "INIT");
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR };
	if (!ret)
		ret = ud_modify(s, st, &a, IBV_QP_STATE, "RTR");
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS, .sq_psn = 0 };
	if (!ret)
		ret = ud_modify(s, st, &a, IBV_QP_STATE | IBV_QP_SQ_PSN, "RTS");
	return ret;
}

/* The device, -s against its port's MTU, resources, RTS, receives. */
static int ud_prepare(struct ig_session *s, struct ig_stream *st,
		      struct rdma_cm_id *id)
{
	struct vb_stream *vs = st->priv;
	char err[200];
	int ret;

	vs->id = id;
	ret = ig_vb_adopt_device(s, id);
	if (ret)
		return ret;
	if (!s->p.size && !s->server)
		s->p.size = (uint64_t)ig_vb_xinfo(s)->mtu; /* -s not given */
	if (!s->p.size)
		return ig_session_fail(s, EPROTO,
				       "UD stream %u: the client named no "
				       "message size",
				       st->idx);
	if (ig_vb_ud_size_check(s->p.size, (unsigned int)ig_vb_xinfo(s)->mtu,
				ig_vb_xinfo(s)->device,
				(unsigned int)ig_vb_xinfo(s)->port, err,
				sizeof(err)))
		return ig_session_fail(s, IG_EBADVALUE, "%s", err);
	ret = ig_vb_stream_res(s, st);
	if (!ret)
		ret = ud_to_rts(s, st);
	if (!ret)
		ret = ig_vb_post_recvs(st, vs->rx_depth);
	return ret;
}

/* The address handle to the peer (--gid-index: our source GID). */
static int ud_peer(struct ig_session *s, struct ig_stream *st,
		   struct ibv_ah_attr *ah, uint32_t qpn, uint32_t qkey)
{
	struct vb_session *vb = s->xpriv;
	struct vb_stream *vs = st->priv;

	if (ah->is_global && s->local.verbs.gid_index >= 0)
		ah->grh.sgid_index = (uint8_t)s->local.verbs.gid_index;
	if (ah->is_global)
		ig_vb_xinfo(s)->gid_index = ah->grh.sgid_index;
	vs->ah = ibv_create_ah(vb->pd, ah);
	if (!vs->ah)
		return ig_session_fail(s, errno,
				       "ibv_create_ah to the peer of stream "
				       "%u (sgid_index %u, port %u): %s",
				       st->idx, ah->grh.sgid_index,
				       ah->port_num, strerror(errno));
	vs->rqpn = qpn;
	vs->rqkey = qkey;
	ig_vb_ud_address(vs);
	ig_vb_fill_gid(s, vs->id);
	return 0;
}

/* One completion on cq before the deadline (set-up: 1 ms naps). */
static int ud_poll_one(struct ig_session *s, struct ig_stream *st,
		       struct ibv_cq *cq, struct ibv_wc *wc, const char *what)
{
	uint64_t deadline = ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
	struct timespec nap = { 0, 1000000 };

	for (;;) {
		int ne = ibv_poll_cq(cq, 1, wc);

		if (ne < 0)
			return ig_session_fail(s, EIO,
					       "verbs stream %u: ibv_poll_cq "
					       "failed waiting for %s",
					       st->idx, what);
		if (ne && wc->status != IBV_WC_SUCCESS)
			return ig_session_fail(s, EIO,
					       "verbs stream %u: %s failed: "
					       "%s",
					       st->idx, what,
					       ig_vb_wc_status(wc->status));
		if (ne)
			return 0;
		if (ig_now_ns() >= deadline)
			return ig_session_fail(s, ETIMEDOUT,
					       "verbs stream %u: no %s within "
					       "%u ms",
					       st->idx, what, s->p.timeout_ms);
		nanosleep(&nap, NULL);
	}
}

/* ---- server ------------------------------------------------------- */

/* The client's private data: the stream tag, then the message size (32
 * bits, big endian: the path MTU when the client's -s was not given). */
#define UD_PRIV_LEN (IG_STREAM_TAG_LEN + 4)

/* The server's side of ud_prepare: our QPN answers the request. */
static int ud_prepare_req(struct ig_session *s, struct ig_stream *st,
			  struct rdma_cm_event *ev, struct rdma_conn_param *cp)
{
	int ret = ud_prepare(s, st, ev->id);

	if (!ret)
		cp->qp_num = ((struct vb_stream *)st->priv)->qp->qp_num;
	return ret;
}

static int ud_on_request(struct ig_session *s, struct rdma_cm_event *ev)
{
	struct vb_session *vb = s->xpriv;
	const uint8_t *priv = ev->param.ud.private_data;

	if (!s->p.size && priv &&
	    ev->param.ud.private_data_len >= UD_PRIV_LEN &&
	    ig_stream_tag_get(priv, vb->cookie, s->nstreams) >= 0)
		s->p.size = ig_be_get(priv + IG_STREAM_TAG_LEN, 4);
	return ig_vb_answer(s, ev, ev->param.ud.private_data,
			    ev->param.ud.private_data_len, ud_prepare_req);
}

/* The client's first datagram: its QPN and address; the receive is
 * posted again. */
static int ud_hello_in(struct ig_session *s, struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct ibv_ah_attr ah;
	struct ibv_wc wc;
	int ret = ud_poll_one(s, st, vs->rcq, &wc,
			      "first datagram from the client");

	if (ret)
		return ret;
	if (ibv_init_ah_from_wc(vs->id->verbs, vs->id->port_num, &wc,
				(struct ibv_grh *)(vs->buf + s->p.size), &ah))
		return ig_session_fail(s, EPROTO,
				       "verbs stream %u: no address in the "
				       "client's first datagram (source QP "
				       "0x%x): %s",
				       st->idx, wc.src_qp, strerror(errno));
	ret = ud_peer(s, st, &ah, wc.src_qp, vs->qkey);
	vs->rx_posted--;
	return ret ? ret : ig_vb_post_recvs(st, 1);
}

int ig_vb_ud_setup_server(struct ig_session *s)
{
	int ret = ig_vb_listen(s, RDMA_PS_UDP);

	if (!ret)
		ret = ig_vb_accept_all(s, ud_on_request, true);
	for (unsigned int i = 0; !ret && i < s->nstreams; i++)
		ret = ud_hello_in(s, &s->st[i]);
	return ret;
}

/* ---- client ------------------------------------------------------- */

/* The server's answer to our SIDR request: its QPN, QKey and a route. */
static int ud_established(struct ig_session *s, struct ig_stream *st,
			  uint64_t deadline)
{
	struct rdma_cm_event *ev;
	enum rdma_cm_event_type got;
	int status, ret = ig_vb_cm_event(s, deadline, &ev);

	if (ret)
		return ret;
	got = ev->event;
	status = ev->status;
	if (got == RDMA_CM_EVENT_ESTABLISHED)
		ret = ud_peer(s, st, &ev->param.ud.ah_attr, ev->param.ud.qp_num,
			      ev->param.ud.qkey);
	rdma_ack_cm_event(ev);
	if (got == RDMA_CM_EVENT_ESTABLISHED)
		return ret;
	return ig_session_fail(s, EHOSTUNREACH,
			       "connecting UD stream %u failed: rdma_cm "
			       "reported %s (status %d)",
			       st->idx, rdma_event_str(got), status);
}

/* Our first datagram, zero bytes, so that the server learns our
 * address; its completion is awaited here. */
static int ud_hello_out(struct ig_session *s, struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct ibv_send_wr wr = vs->wr[0], *bad;
	struct ibv_wc wc;
	int ret;

	wr.num_sge = 0;
	wr.next = NULL;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr_id = 0;
	ret = ibv_post_send(vs->qp, &wr, &bad);
	if (ret)
		return ig_session_fail(s, ret,
				       "verbs stream %u: posting the first "
				       "datagram: %s",
				       st->idx, strerror(ret));
	return ud_poll_one(s, st, vs->cq, &wc, "first datagram's completion");
}

static int ud_connect_one(struct ig_session *s, struct ig_stream *st,
			  struct sockaddr *dst, const char *a)
{
	struct vb_session *vb = s->xpriv;
	struct vb_stream *vs = st->priv;
	struct rdma_conn_param cp = { 0 };
	uint8_t priv[UD_PRIV_LEN];
	uint64_t deadline = ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
	int ret;

	if (rdma_create_id(vb->ec, &vs->id, st, RDMA_PS_UDP))
		return ig_session_fail(s, errno, "rdma_create_id (UDP): %s",
				       strerror(errno));
	ret = ig_vb_resolve(s, vs->id, dst, a, deadline);
	if (!ret)
		ret = ud_prepare(s, st, vs->id);
	if (ret)
		return ret;
	ig_stream_tag_put(priv, vb->cookie, st->idx);
	ig_be_put(priv + IG_STREAM_TAG_LEN, s->p.size, 4);
	cp.private_data = priv;
	cp.private_data_len = UD_PRIV_LEN;
	cp.qp_num = vs->qp->qp_num;
	if (rdma_connect(vs->id, &cp))
		return ig_session_fail(s, errno, "rdma_connect (UD) to %s: %s",
				       a, strerror(errno));
	ret = ud_established(s, st, deadline);
	return ret ? ret : ud_hello_out(s, st);
}

int ig_vb_ud_setup_client(struct ig_session *s)
{
	struct sockaddr_storage ss;
	char a[64];
	int ret = ig_vb_server_addr(s, &ss, a, sizeof(a));

	for (unsigned int i = 0; !ret && i < s->nstreams; i++)
		ret = ud_connect_one(s, &s->st[i], (struct sockaddr *)&ss, a);
	return ret;
}
