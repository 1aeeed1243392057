// SPDX-License-Identifier: MIT
/*
 * The QPs of a connection without rdma_cm (vb_oob.c exchanges their ends
 * in VERBS_EP): INIT with this side's port, then RTR towards the peer's
 * end and RTS, with ibv_modify_qp; UD an address handle as well.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "verbs_int.h"
#include "wire/epmsg.h"

/* rdma_cm's QKey of the UDP port space, as the rdma_cm path uses. */
#define VB_OOB_QKEY 0x01234567u
#define VB_OOB_HOP_LIMIT 64
/* Local ACK timeout, 4.096 us x 2^17 (about 0.5 s): what rdma_cm's
 * connections get on RoCE (its packet lifetime 16, plus 1), so that this
 * rail retransmits as the others do.  perftest's 14 (67 ms) retransmitted
 * spuriously in the emulated two-guest runs (259 duplicate requests
 * against the rdma_cm rail's 7 over the same latency tests). */
#define VB_OOB_TIMEOUT 17

int ig_vb_oob_local_ep(struct ig_session *s, struct ig_stream *st,
		       const union ibv_gid *gid, struct ig_ep *e)
{
	struct vb_session *vb = s->xpriv;
	struct vb_stream *vs = st->priv;
	bool ud = ig_vb_is_ud(s);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = vb->ctx_port,
				 .qp_access_flags = vb->access,
				 .qkey = VB_OOB_QKEY };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);
	int ret = ig_vb_stream_res(s, st);

	if (ret)
		return ret;
	ret = ibv_modify_qp(vs->qp, &a, mask);
	if (ret)
		return ig_session_fail(s, ret,
				       "modify QP 0x%x of stream %u to INIT "
				       "(no rdma_cm) failed: %s (port %u, "
				       "attr mask 0x%x)",
				       vs->qp->qp_num, st->idx, strerror(ret),
				       a.port_num, mask);
	vs->qkey = VB_OOB_QKEY;
	if (!ig_vb_rdma_test(s->p.test))
		ret = ig_vb_post_recvs(st, vs->rx_depth);
	if (getrandom(&e->psn, sizeof(e->psn), 0) != sizeof(e->psn))
		e->psn = st->idx * 0x9e37u;
	e->psn &= 0xffffff;
	e->qpn = vs->qp->qp_num;
	e->lid = ig_vb_xinfo(s)->lid;
	e->gid_index = ig_vb_xinfo(s)->gid_index;
	memcpy(e->gid, gid->raw, 16);
	return ret;
}

static enum ibv_mtu mtu_enum(int bytes)
{
	enum ibv_mtu m = IBV_MTU_256;

	while (m < IBV_MTU_4096 && (128 << (m + 1)) <= bytes)
		m++;
	return m;
}

/* The address of the peer's end: its LID (InfiniBand) or GID (RoCE). */
static struct ibv_ah_attr peer_ah(struct ig_session *s, const struct ig_ep *e)
{
	struct vb_session *vb = s->xpriv;
	struct ibv_ah_attr ah = { .dlid = e->lid, .port_num = vb->ctx_port };

	if (!strcmp(ig_vb_xinfo(s)->link_layer, "Ethernet") ||
	    s->local.verbs.gid_index >= 0) {
		ah.is_global = 1;
		memcpy(ah.grh.dgid.raw, e->gid, 16);
		ah.grh.sgid_index = (uint8_t)ig_vb_xinfo(s)->gid_index;
		ah.grh.hop_limit = VB_OOB_HOP_LIMIT;
	}
	return ah;
}

static int to_state(struct ig_session *s, struct ig_stream *st,
		    struct ibv_qp_attr *a, int mask)
{
	struct vb_stream *vs = st->priv;
	int ret = ibv_modify_qp(vs->qp, a, mask);

	if (ret)
		return ig_session_fail(
			s, ret,
			"modify QP 0x%x of stream %u to %s (no rdma_cm) "
			"failed: %s (attr mask 0x%x, path_mtu %d, dest_qp "
			"0x%x, sgid_index %u, dlid %u, port %u)",
			vs->qp->qp_num, st->idx,
			ig_vb_qp_state_name(a->qp_state), strerror(ret), mask,
			a->path_mtu ? 128 << a->path_mtu : 0, a->dest_qp_num,
			a->ah_attr.grh.sgid_index, a->ah_attr.dlid,
			a->ah_attr.port_num);
	return 0;
}

/* RC: RTR towards the peer's end, RTS from ours. */
static int rc_connect(struct ig_session *s, struct ig_stream *st,
		      const struct ig_ep *mine, const struct ig_ep *peer,
		      int mtu)
{
	struct vb_session *vb = s->xpriv;
	uint8_t rd = vb->outs ? (uint8_t)vb->outs : 1;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR,
				 .path_mtu = mtu_enum(mtu),
				 .dest_qp_num = peer->qpn,
				 .rq_psn = peer->psn,
				 .max_dest_rd_atomic = rd,
				 .min_rnr_timer = 12,
				 .ah_attr = peer_ah(s, peer) };
	int ret = to_state(s, st, &a,
			   IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				   IBV_QP_MAX_DEST_RD_ATOMIC |
				   IBV_QP_MIN_RNR_TIMER);

	if (ret)
		return ret;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS,
				  .sq_psn = mine->psn,
				  .timeout = VB_OOB_TIMEOUT,
				  .retry_cnt = 7,
				  .rnr_retry = 7,
				  .max_rd_atomic = rd };
	ret = to_state(s, st, &a,
		       IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
			       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			       IBV_QP_MAX_QP_RD_ATOMIC);
	if (!ret)
		((struct vb_stream *)st->priv)->established = true;
	return ret;
}

/* UD: RTR, RTS, and an address handle to the peer's end. */
static int ud_connect(struct ig_session *s, struct ig_stream *st,
		      const struct ig_ep *mine, const struct ig_ep *peer)
{
	struct vb_session *vb = s->xpriv;
	struct vb_stream *vs = st->priv;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	struct ibv_ah_attr ah = peer_ah(s, peer);
	int ret = to_state(s, st, &a, IBV_QP_STATE);

	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS,
				  .sq_psn = mine->psn };
	if (!ret)
		ret = to_state(s, st, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
	if (ret)
		return ret;
	vs->ah = ibv_create_ah(vb->pd, &ah);
	if (vs->ah) {
		vs->rqpn = peer->qpn;
		vs->rqkey = VB_OOB_QKEY;
		ig_vb_ud_address(vs);
		return 0;
	}
	return ig_session_fail(s, errno,
			       "ibv_create_ah to the peer of UD stream %u (no "
			       "rdma_cm; sgid_index %u, dlid %u): %s",
			       st->idx, ah.grh.sgid_index, ah.dlid,
			       strerror(errno));
}

int ig_vb_oob_connect(struct ig_session *s, const struct ig_epmsg *mine,
		      const struct ig_epmsg *peer)
{
	int mtu = peer->mtu < mine->mtu ? peer->mtu : mine->mtu;
	int ret = 0;

	if (peer->n != s->nstreams)
		return ig_session_fail(s, EPROTO,
				       "VERBS_EP from the peer has %u "
				       "endpoints for %u streams",
				       peer->n, s->nstreams);
	ig_vb_xinfo(s)->mtu = mtu;
	for (unsigned int i = 0; !ret && i < s->nstreams; i++)
		ret = ig_vb_is_ud(s) ? ud_connect(s, &s->st[i], &mine->ep[i],
						  &peer->ep[i])
				     : rc_connect(s, &s->st[i], &mine->ep[i],
						  &peer->ep[i], mtu);
	return ret;
}
