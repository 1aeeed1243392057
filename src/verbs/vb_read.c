// SPDX-License-Identifier: MIT
/*
 * Verbs RDMA read tests (read_bw, read_lat): what they need beside the
 * write tests' code (vb_res.c builds their requests, vb_setup.c trades
 * the memory keys, vb_data.c runs the bandwidth loop, vb_lat.c read_lat's
 * round).
 *
 * Read depth (--outs).  rdma_cm's conn_param carries initiator_depth, the
 * reads this side keeps in flight (at most its device's
 * max_qp_init_rd_atom and the peer's max_qp_rd_atom), and
 * responder_resources, the reads it serves at once (at most its
 * max_qp_rd_atom and the peer's max_qp_init_rd_atom).  With -R and --bidir
 * either side reads, so both use one value for both: the least of both
 * devices' two attributes (the server says its least in its XPORT
 * message), or --outs when that is lower.  A larger --outs fails the
 * set-up with one line naming both numbers.
 */
#include <errno.h>
#include <string.h>

#include "verbs_int.h"

bool ig_vb_rdma_test(enum ig_test t)
{
	return t == IG_TEST_WRITE_BW || t == IG_TEST_WRITE_LAT ||
	       ig_vb_is_read(t);
}

enum ibv_wr_opcode ig_vb_opcode(enum ig_test t)
{
	if (ig_vb_is_read(t))
		return IBV_WR_RDMA_READ;
	return ig_vb_rdma_test(t) ? IBV_WR_RDMA_WRITE : IBV_WR_SEND;
}

/* Does the peer read from us?  The client reads forward (and read_lat),
 * the server with -R, both with --bidir. */
static bool read_from(const struct ig_session *s)
{
	if (s->p.bidir)
		return true;
	return s->server ? !s->p.reverse : s->p.reverse;
}

enum ibv_access_flags ig_vb_access(const struct ig_session *s)
{
	if (s->p.test == IG_TEST_WRITE_BW || s->p.test == IG_TEST_WRITE_LAT)
		return IBV_ACCESS_REMOTE_WRITE;
	if (ig_vb_is_read(s->p.test) && read_from(s))
		return IBV_ACCESS_REMOTE_READ;
	return 0;
}

int ig_vb_read_cap(struct ig_session *s, struct ibv_context *ctx, uint32_t *cap)
{
	struct ibv_device_attr a;
	int ret = ibv_query_device(ctx, &a);

	if (ret)
		return ig_session_fail(s, ret, "ibv_query_device on %s: %s",
				       ibv_get_device_name(ctx->device),
				       strerror(ret));
	*cap = (uint32_t)(a.max_qp_rd_atom < a.max_qp_init_rd_atom
				  ? a.max_qp_rd_atom
				  : a.max_qp_init_rd_atom);
	if (*cap > IG_MAX_OUTS)
		*cap = IG_MAX_OUTS;
	if (!*cap)
		return ig_session_fail(
			s, EOPNOTSUPP,
			"%s allows no RDMA reads in flight "
			"(max_qp_rd_atom %d, max_qp_init_rd_atom "
			"%d): it cannot run read tests",
			ibv_get_device_name(ctx->device), a.max_qp_rd_atom,
			a.max_qp_init_rd_atom);
	return 0;
}

int ig_vb_read_client_depth(struct ig_session *s, struct ibv_context *ctx)
{
	struct vb_session *vb = s->xpriv;
	uint32_t mine, cap;
	int ret = ig_vb_read_cap(s, ctx, &mine);

	if (ret)
		return ret;
	cap = vb->peer_rd_atom && vb->peer_rd_atom < mine ? vb->peer_rd_atom
							  : mine;
	if (s->p.verbs.outs > cap)
		return ig_session_fail(s, EINVAL,
				       "--outs %u is more than these devices "
				       "allow: at most %u RDMA reads in flight "
				       "(this host's %s: %u, the server's: %u)",
				       s->p.verbs.outs, cap,
				       ig_vb_xinfo(s)->device, mine,
				       vb->peer_rd_atom);
	vb->outs = s->p.verbs.outs ? s->p.verbs.outs : cap;
	ig_vb_xinfo(s)->outs = (int)vb->outs;
	return 0;
}

int ig_vb_read_server_depth(struct ig_session *s,
			    const struct rdma_conn_param *req)
{
	struct vb_session *vb = s->xpriv;
	uint32_t d = req->initiator_depth;

	if (!d || d != req->responder_resources ||
	    (vb->rd_cap && d > vb->rd_cap))
		return ig_session_fail(s, EINVAL,
				       "the client asks for %u RDMA reads in "
				       "flight and %u served: allowed one "
				       "value, 1 to %u",
				       d, req->responder_resources,
				       vb->rd_cap ? vb->rd_cap : IG_MAX_OUTS);
	vb->outs = d;
	ig_vb_xinfo(s)->outs = (int)d;
	return 0;
}

void ig_vb_read_window(struct ig_session *s, struct vb_stream *vs)
{
	struct vb_session *vb = s->xpriv;

	vs->depth = s->p.verbs.tx_depth;
	vs->mod = s->p.verbs.cq_mod;
	if (!ig_vb_is_read(s->p.test))
		return;
	/* at most outs reads in flight, and a completion asked for at least
	 * twice per window, so the window refills before it drains */
	if (vs->depth > vb->outs)
		vs->depth = vb->outs;
	if (vs->mod > vs->depth / 2)
		vs->mod = vs->depth / 2 ? vs->depth / 2 : 1;
	if (s->p.test == IG_TEST_READ_LAT)
		vs->mod = 1; /* each round waits for its read's completion */
}
