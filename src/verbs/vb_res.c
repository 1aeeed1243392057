// SPDX-License-Identifier: MIT
/* Per-stream verbs resources: buffer on the HCA's NUMA node, MR, CQ, QP. */
#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verbs_int.h"

const char *ig_vb_wc_status(enum ibv_wc_status st)
{
	return ibv_wc_status_str(st);
}

static int alloc_buf(struct ig_session *s, struct vb_stream *vs)
{
	struct vb_session *vb = s->xpriv;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	vs->buflen = (2 * s->p.size + vs->grh + page - 1) & ~(page - 1);
	if (numa_available() >= 0 && vb->numa_node >= 0)
		vs->buf = numa_alloc_onnode(vs->buflen, vb->numa_node);
	else if (posix_memalign((void **)&vs->buf, page, vs->buflen))
		vs->buf = NULL;
	if (!vs->buf)
		return ig_session_fail(s, ENOMEM,
				       "out of memory for a %zu-byte "
				       "verbs buffer",
				       vs->buflen);
	memset(vs->buf, 0, vs->buflen);
	return 0;
}

static void free_buf(struct vb_stream *vs, int numa_node)
{
	if (!vs->buf)
		return;
	if (numa_available() >= 0 && numa_node >= 0)
		numa_free(vs->buf, vs->buflen);
	else
		free(vs->buf);
	vs->buf = NULL;
}

static struct ibv_qp *try_qp(struct ibv_pd *pd, struct ibv_qp_init_attr a,
			     uint32_t want, uint32_t *got)
{
	struct ibv_qp *qp;

	a.cap.max_inline_data = want;
	qp = ibv_create_qp(pd, &a);
	if (qp) /* the QP's own figure can be larger than asked */
		*got = a.cap.max_inline_data < want ? a.cap.max_inline_data
						    : want;
	return qp;
}

/* The inline threshold: the one asked for (--inline, else the test's
 * default); where the device refuses the default, none, so that a device
 * that cannot send inline still runs the test. */
static int create_qp(struct ig_session *s, struct vb_stream *vs)
{
	struct vb_session *vb = s->xpriv;
	uint32_t want = ig_vb_inline_want(s->p.test, &s->p.verbs);
	struct ibv_qp_init_attr a = {
		.send_cq = vs->cq,
		.recv_cq = vs->rcq,
		.cap = {
			.max_send_wr = s->p.verbs.tx_depth + 1, /* + flush */
			.max_recv_wr = vs->rx_depth,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = ig_vb_is_ud(s) ? IBV_QPT_UD : IBV_QPT_RC,
	};

	vs->qp = try_qp(vb->pd, a, want, &vs->inline_max);
	if (!vs->qp && want && s->p.verbs.inline_auto) {
		want = 0;
		vs->qp = try_qp(vb->pd, a, 0, &vs->inline_max);
	}
	if (!vs->qp)
		return ig_session_fail(s, errno,
				       "ibv_create_qp (send queue "
				       "%u, receive queue %u, inline %u) on "
				       "%s: %s",
				       s->p.verbs.tx_depth + 1, vs->rx_depth,
				       want, ig_vb_xinfo(s)->device,
				       strerror(errno));
	return 0;
}

/* Prepares the chain of send WRs the bandwidth loop posts. */
static void build_wrs(struct ig_session *s, struct vb_stream *vs)
{
	enum ibv_wr_opcode op = ig_vb_opcode(s->p.test);

	for (int i = 0; i < VB_POST_BATCH; i++) {
		vs->sge[i] = (struct ibv_sge){ .addr = (uintptr_t)vs->buf,
					       .length = (uint32_t)s->p.size,
					       .lkey = vs->mr->lkey };
		vs->wr[i] = (struct ibv_send_wr){
			.sg_list = &vs->sge[i],
			.num_sge = 1,
			.opcode = op,
			.next = i + 1 < VB_POST_BATCH ? &vs->wr[i + 1] : NULL,
		};
		if (s->p.size <= vs->inline_max && op != IBV_WR_RDMA_READ)
			vs->wr[i].send_flags = IBV_SEND_INLINE;
	}
}

/* --events: a completion channel for each CQ (write_lat's reply is a
 * flag in memory, not a completion: it polls). */
static int channels(struct ig_session *s, struct vb_stream *vs)
{
	struct vb_session *vb = s->xpriv;

	vs->events = s->p.verbs.events && s->p.test != IG_TEST_WRITE_LAT;
	if (!vs->events)
		return 0;
	vs->ch = ibv_create_comp_channel(vb->ctx);
	if (vs->ch)
		vs->rch = ibv_create_comp_channel(vb->ctx);
	if (!vs->ch || !vs->rch)
		return ig_session_fail(s, errno,
				       "ibv_create_comp_channel on %s: %s",
				       ig_vb_xinfo(s)->device, strerror(errno));
	return 0;
}

int ig_vb_stream_res(struct ig_session *s, struct ig_stream *st)
{
	struct vb_session *vb = s->xpriv;
	struct vb_stream *vs = st->priv;
	int cqe, ret;

	vs->grh = ig_vb_is_ud(s) ? VB_GRH_LEN : 0;
	vs->rx_depth = s->p.verbs.tx_depth + 1 > VB_RX_DEPTH
			       ? s->p.verbs.tx_depth + 1
			       : VB_RX_DEPTH;
	cqe = (int)(s->p.verbs.tx_depth + 16);
	ret = alloc_buf(s, vs);
	if (ret)
		return ret;
	vs->mr = ibv_reg_mr(vb->pd, vs->buf, vs->buflen,
			    IBV_ACCESS_LOCAL_WRITE | vb->access);
	if (!vs->mr)
		return ig_vb_memlock_fail(s, errno, vs->buflen);
	ret = channels(s, vs);
	if (ret)
		return ret;
	vs->cq = ibv_create_cq(vb->ctx, cqe, NULL, vs->ch, 0);
	if (vs->cq) {
		cqe = (int)(vs->rx_depth + 16);
		vs->rcq = ibv_create_cq(vb->ctx, cqe, NULL, vs->rch, 0);
	}
	if (!vs->cq || !vs->rcq)
		return ig_session_fail(s, errno,
				       "ibv_create_cq of %d entries "
				       "on %s: %s",
				       cqe, ig_vb_xinfo(s)->device,
				       strerror(errno));
	ret = create_qp(s, vs);
	if (ret)
		return ret;
	if (!st->idx)
		ig_vb_xinfo(s)->inline_max = (int)vs->inline_max;
	build_wrs(s, vs);
	ig_vb_read_window(s, vs);
	vs->batch = s->p.size >= VB_POST_BYTES
			    ? 1
			    : (uint32_t)(VB_POST_BYTES / s->p.size);
	if (vs->batch > VB_POST_BATCH)
		vs->batch = VB_POST_BATCH;
	return 0;
}

int ig_vb_post_recvs(struct ig_stream *st, uint32_t n)
{
	struct vb_stream *vs = st->priv;
	struct ibv_sge sge = { .addr = (uintptr_t)vs->buf + st->s->p.size,
			       .length = (uint32_t)st->s->p.size + vs->grh,
			       .lkey = vs->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	for (uint32_t i = 0; i < n; i++) {
		int ret = ibv_post_recv(vs->qp, &wr, &bad);

		if (ret)
			return ig_session_fail(st->s, ret,
					       "verbs stream %u: "
					       "ibv_post_recv: %s",
					       st->idx, strerror(ret));
		vs->rx_posted++;
	}
	return 0;
}

void ig_vb_stream_free(struct vb_stream *vs)
{
	if (vs->ah)
		ibv_destroy_ah(vs->ah);
	vs->ah = NULL;
	if (vs->qp)
		ibv_destroy_qp(vs->qp);
	if (vs->cq) {
		ibv_ack_cq_events(vs->cq, vs->unacked);
		ibv_destroy_cq(vs->cq);
	}
	if (vs->rcq) {
		ibv_ack_cq_events(vs->rcq, vs->runacked);
		ibv_destroy_cq(vs->rcq);
	}
	vs->rcq = NULL;
	vs->unacked = vs->runacked = 0;
	if (vs->ch)
		ibv_destroy_comp_channel(vs->ch);
	if (vs->rch)
		ibv_destroy_comp_channel(vs->rch);
	vs->ch = vs->rch = NULL;
	if (vs->mr)
		ibv_dereg_mr(vs->mr);
	vs->qp = NULL;
	vs->cq = NULL;
	vs->mr = NULL;
}

void ig_vb_stream_free_buf(struct vb_stream *vs, int numa_node)
{
	free_buf(vs, numa_node);
}
