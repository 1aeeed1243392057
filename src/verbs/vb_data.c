// SPDX-License-Identifier: MIT
/*
 * Verbs transport: the bandwidth data path, and the completion polling and
 * stall check that vb_lat.c's latency loops use too (vb_setup.c sets the
 * session up).  Every loop busy-polls its CQ (as perftest does), or with
 * --events sleeps on the CQ's completion channel when a poll finds
 * nothing; a stall longer than the session's timeout is an error, checked
 * on the clock every VB_SPIN_CHECK empty polls (every wait with --events).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "common/clock.h"
#include "verbs_int.h"

static int arm(struct ig_stream *st, struct ibv_cq *cq)
{
	int ret = ibv_req_notify_cq(cq, 0);

	if (ret)
		return ig_session_fail(st->s, ret,
				       "verbs stream %u: ibv_req_notify_cq: %s",
				       st->idx, strerror(ret));
	return 0;
}

/* Takes the event waiting on ch; its CQ's events are acknowledged
 * VB_ACK_BATCH at a time (and the rest when the CQ is destroyed). */
static int take(struct ig_stream *st, struct ibv_comp_channel *ch,
		unsigned int *unacked)
{
	struct ibv_cq *cq;
	void *ctx;

	if (ibv_get_cq_event(ch, &cq, &ctx))
		return ig_session_fail(st->s, errno,
				       "verbs stream %u: ibv_get_cq_event: %s",
				       st->idx, strerror(errno));
	if (++*unacked >= VB_ACK_BATCH) {
		ibv_ack_cq_events(cq, *unacked);
		*unacked = 0;
	}
	return 0;
}

static int arm_all(struct ig_stream *st, struct vb_wait *w)
{
	struct vb_stream *vs = st->priv;
	int ret = 0;

	if (w->cqs & VB_CQ_SEND)
		ret = arm(st, vs->cq);
	if (!ret && (w->cqs & VB_CQ_RECV))
		ret = arm(st, vs->rcq);
	w->armed = !ret;
	return ret;
}

int ig_vb_block(struct ig_stream *st, struct vb_wait *w)
{
	struct vb_stream *vs = st->priv;
	struct pollfd p[2];
	unsigned int *unacked[2];
	struct ibv_comp_channel *ch[2];
	int n = 0, ret;

	if (!w->armed)
		return arm_all(st, w);
	w->armed = false;
	if (w->cqs & VB_CQ_SEND) {
		ch[n] = vs->ch;
		unacked[n++] = &vs->unacked;
	}
	if (w->cqs & VB_CQ_RECV) {
		ch[n] = vs->rch;
		unacked[n++] = &vs->runacked;
	}
	for (int i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = ch[i]->fd, .events = POLLIN };
	ret = poll(p, (nfds_t)n, VB_EVENT_MS);
	if (ret < 0 && errno != EINTR)
		return ig_session_fail(st->s, errno,
				       "verbs stream %u: waiting on the "
				       "completion channel: %s",
				       st->idx, strerror(errno));
	for (int i = 0; ret > 0 && i < n; i++) {
		if (!(p[i].revents & POLLIN))
			continue;
		int e = take(st, ch[i], unacked[i]);

		if (e)
			return e;
	}
	return 0;
}

int ig_vb_idle(struct ig_stream *st, struct vb_wait *w, const char *what)
{
	struct vb_stream *vs = st->priv;
	uint64_t now;

	if (vs->events) {
		int ret = ig_vb_block(st, w);

		if (ret)
			return ret;
	} else if (++w->spins % VB_SPIN_CHECK) {
		return 0;
	}
	now = ig_now_ns();
	if (!w->since) {
		w->since = now;
		return 0;
	}
	if (now - w->since < st->s->p.timeout_ms * IG_NSEC_PER_MSEC)
		return 0;
	return ig_session_fail(st->s, ETIMEDOUT,
			       "verbs stream %u: no %s within %u ms: the "
			       "peer stalled or died, or the link is too "
			       "slow for %u x %" PRIu64 " bytes per signaled "
			       "request (raise --timeout or lower --cq-mod)",
			       st->idx, what, st->s->p.timeout_ms,
			       st->s->p.verbs.cq_mod, st->s->p.size);
}

int ig_vb_wc_fail(struct ig_stream *st, const struct ibv_wc *wc)
{
	if (st->s->server && atomic_load(&st->s->stop))
		return 0; /* flushed while the test is torn down: ignore */
	return ig_session_fail(st->s, EIO,
			       "verbs stream %u: work completion "
			       "error %s (vendor error 0x%x, opcode %d)",
			       st->idx, ig_vb_wc_status(wc->status),
			       wc->vendor_err, wc->opcode);
}

int ig_vb_poll(struct ig_stream *st, struct ibv_cq *cq, struct ibv_wc *wc)
{
	int ne = ibv_poll_cq(cq, VB_POLL, wc);

	if (ne < 0)
		return ig_session_fail(st->s, EIO,
				       "verbs stream %u: "
				       "ibv_poll_cq failed",
				       st->idx);
	return ne;
}

/* Reaps send completions; each signaled one covers wr_id requests. */
int ig_vb_reap(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct ibv_wc wc[VB_POLL];
	int ne = ig_vb_poll(st, vs->cq, wc);

	if (ne < 0)
		return ne;
	for (int i = 0; i < ne; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			int ret = ig_vb_wc_fail(st, &wc[i]);

			if (ret)
				return ret;
			continue;
		}
		vs->outstanding -= (uint32_t)wc[i].wr_id;
	}
	return ne;
}

/* Posts wrs[0..k) as one chain; the last signaled covers `unsignaled`. */
int ig_vb_post_chain(struct ig_stream *st, uint32_t k)
{
	struct vb_stream *vs = st->priv;
	uint32_t mod = vs->mod;
	struct ibv_send_wr *bad, *saved = vs->wr[k - 1].next;
	int ret;

	for (uint32_t i = 0; i < k; i++) {
		vs->wr[i].send_flags &= ~IBV_SEND_SIGNALED;
		if (++vs->unsignaled == mod) {
			vs->wr[i].send_flags |= IBV_SEND_SIGNALED;
			vs->wr[i].wr_id = mod;
			vs->unsignaled = 0;
		}
	}
	vs->wr[k - 1].next = NULL;
	ret = ibv_post_send(vs->qp, vs->wr, &bad);
	vs->wr[k - 1].next = saved;
	if (ret)
		return ig_session_fail(st->s, ret,
				       "verbs stream %u: "
				       "ibv_post_send: %s",
				       st->idx, strerror(ret));
	vs->outstanding += k;
	return 0;
}

ssize_t ig_vb_bw_send(struct ig_stream *st, uint64_t n)
{
	struct vb_stream *vs = st->priv;
	uint32_t k = vs->outstanding < vs->depth ? vs->depth - vs->outstanding
						 : 0;
	struct vb_wait w = { .cqs = VB_CQ_SEND };
	int ret;

	if (k > vs->batch)
		k = vs->batch;
	if (k > n)
		k = (uint32_t)n;
	if (k) {
		ret = ig_vb_post_chain(st, k);
		if (ret)
			return ret;
	}
	while ((ret = ig_vb_reap(st)) == 0 && !k) {
		ret = ig_vb_idle(st, &w, "send completion");
		if (ret)
			return ret;
	}
	return ret < 0 ? ret : (ssize_t)k;
}

/* One zero-byte signaled request after the unsignaled tail, then wait for
 * every completion: RC completes in order, so the last one means all. */
int ig_vb_bw_flush(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct vb_wait w = { .cqs = VB_CQ_SEND };
	int ret;

	if (vs->unsignaled) {
		struct ibv_send_wr wr = vs->wr[0], *bad;

		wr.num_sge = 0;
		wr.next = NULL;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr_id = vs->unsignaled + 1;
		ret = ibv_post_send(vs->qp, &wr, &bad);
		if (ret)
			return ig_session_fail(st->s, ret,
					       "verbs stream %u: "
					       "posting the flush: %s",
					       st->idx, strerror(ret));
		vs->outstanding++;
		vs->unsignaled = 0;
	}
	while (vs->outstanding) {
		ret = ig_vb_reap(st);
		if (ret < 0)
			return ret;
		if (ret == 0 && (ret = ig_vb_idle(st, &w, "send completion")))
			return ret;
	}
	return 0;
}

/* send_bw receiver: count (UD: without the GRH), repost; write_bw's
 * target and read_bw's source: nothing to do. */
int ig_vb_bw_recv(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct vb_wait w = { .cqs = VB_CQ_RECV };
	struct ibv_wc wc[VB_POLL];

	if (ig_test_one_sided(st->s->tests, st->s->p.test)) {
		ig_stream_park(st);
		return 0;
	}
	while (!atomic_load_explicit(&st->s->rx_stop, memory_order_relaxed)) {
		uint64_t bytes = 0;
		int ne = ig_vb_poll(st, vs->rcq, wc), ret;

		if (ne < 0)
			return ne;
		if (!ne) {
			/* no stall check: the sender ends the test */
			if (vs->events && (ret = ig_vb_block(st, &w)))
				return ret;
			continue;
		}
		for (int i = 0; i < ne; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				return ig_vb_wc_fail(st, &wc[i]);
			bytes += wc[i].byte_len - vs->grh;
		}
		ig_stream_rx(st, bytes);
		vs->rx_posted -= ne;
		ret = ig_vb_post_recvs(st, (uint32_t)ne);
		if (ret)
			return ret;
	}
	return 0;
}
