// SPDX-License-Identifier: MIT
/*
 * Verbs connection set-up through librdmacm, to the very IP address the
 * control connection uses.  The QPs are created by us, not by rdma_cm, and
 * moved INIT -> RTR -> RTS with the attributes rdma_init_qp_attr() gives,
 * so that a failed transition can be reported with its attributes and
 * --gid-index can override the source GID.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "verbs_int.h"

/* Next rdma_cm event before the deadline; the caller acks it. */
int ig_vb_cm_event(struct ig_session *s, uint64_t deadline,
		   struct rdma_cm_event **ev)
{
	struct vb_session *vb = s->xpriv;

	for (;;) {
		int ret = ig_session_wait(s, vb->ec->fd, POLLIN, deadline);

		if (ret == -ETIMEDOUT)
			return ig_session_fail(s, ETIMEDOUT,
					       "no rdma_cm event "
					       "within %u ms during connection "
					       "set-up",
					       s->p.timeout_ms);
		if (ret)
			return ret;
		if (rdma_get_cm_event(vb->ec, ev) == 0)
			return 0;
		if (errno != EAGAIN && errno != EINTR)
			return ig_session_fail(s, errno,
					       "rdma_get_cm_event: "
					       "%s",
					       strerror(errno));
	}
}

static int expect_event(struct ig_session *s, enum rdma_cm_event_type want,
			const char *what, uint64_t deadline)
{
	struct rdma_cm_event *ev;
	int ret = ig_vb_cm_event(s, deadline, &ev);
	enum rdma_cm_event_type got;
	int status;

	if (ret)
		return ret;
	got = ev->event;
	status = ev->status;
	rdma_ack_cm_event(ev);
	if (got == want)
		return 0;
	return ig_session_fail(
		s, EHOSTUNREACH,
		"%s failed: rdma_cm reported "
		"%s (status %d)%s",
		what, rdma_event_str(got), status,
		got == RDMA_CM_EVENT_ADDR_ERROR
			? ": the server's address is not reachable "
			  "through an RDMA port (use the IPoIB or RoCE "
			  "netdev's address)"
			: "");
}

const char *ig_vb_qp_state_name(enum ibv_qp_state st)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS",
					     "SQD",   "SQE",  "ERR" };

	return (unsigned int)st < 7 ? names[st] : "?";
}

static int modify(struct ig_session *s, struct ig_stream *st,
		  enum ibv_qp_state to)
{
	struct vb_session *vb = s->xpriv;
	struct vb_stream *vs = st->priv;
	struct ibv_qp_attr a = { .qp_state = to };
	int mask = 0, ret;

	ret = rdma_init_qp_attr(vs->id, &a, &mask);
	if (ret)
		return ig_session_fail(s, errno,
				       "rdma_init_qp_attr for %s on "
				       "stream %u: %s",
				       ig_vb_qp_state_name(to), st->idx,
				       strerror(errno));
	if (to == IBV_QPS_INIT)
		a.qp_access_flags = vb->access;
	if (to == IBV_QPS_RTR && s->local.verbs.gid_index >= 0)
		a.ah_attr.grh.sgid_index = (uint8_t)s->local.verbs.gid_index;
	if (to == IBV_QPS_RTR) {
		ig_vb_xinfo(s)->gid_index = a.ah_attr.grh.sgid_index;
		if (a.path_mtu)
			ig_vb_xinfo(s)->mtu = 128 << a.path_mtu;
	}
	ret = ibv_modify_qp(vs->qp, &a, mask);
	if (ret)
		return ig_session_fail(
			s, ret,
			"modify QP 0x%x of stream %u to "
			"%s failed: %s (attr mask 0x%x, path_mtu "
			"%d, dest_qp 0x%x, sgid_index %u, "
			"hop_limit %u, port %u, access 0x%x, "
			"max_dest_rd_atomic %u)",
			vs->qp->qp_num, st->idx, ig_vb_qp_state_name(to),
			strerror(ret), mask, a.path_mtu ? 128 << a.path_mtu : 0,
			a.dest_qp_num, a.ah_attr.grh.sgid_index,
			a.ah_attr.grh.hop_limit, a.port_num, a.qp_access_flags,
			a.max_dest_rd_atomic);
	return 0;
}

int ig_vb_qp_to_rts(struct ig_session *s, struct ig_stream *st)
{
	int ret = modify(s, st, IBV_QPS_RTR);

	if (!ret)
		ret = modify(s, st, IBV_QPS_RTS);
	return ret;
}

void ig_vb_fill_gid(struct ig_session *s, struct rdma_cm_id *id)
{
	union ibv_gid gid;

	if (ig_vb_xinfo(s)->gid_index < 0 ||
	    ibv_query_gid(id->verbs, id->port_num, ig_vb_xinfo(s)->gid_index,
			  &gid))
		return;
	inet_ntop(AF_INET6, gid.raw, ig_vb_xinfo(s)->gid,
		  sizeof(ig_vb_xinfo(s)->gid));
}

/* First stream: the device rdma_cm chose becomes the session's. */
int ig_vb_adopt_device(struct ig_session *s, struct rdma_cm_id *id)
{
	struct vb_session *vb = s->xpriv;

	if (!id->verbs)
		return ig_session_fail(s, ENODEV,
				       "rdma_cm found no RDMA "
				       "device for the address");
	if (vb->ctx) {
		if (id->verbs != vb->ctx)
			return ig_session_fail(s, EXDEV,
					       "streams resolved to "
					       "different RDMA devices");
		return 0;
	}
	return ig_vb_adopt_ctx(s, id->verbs, id->port_num);
}

int ig_vb_adopt_ctx(struct ig_session *s, struct ibv_context *ctx, uint8_t port)
{
	struct vb_session *vb = s->xpriv;
	int ret = ig_vb_describe(s, ctx, port);

	if (ret)
		return ret;
	vb->ctx = ctx;
	vb->numa_node = ig_vb_xinfo(s)->numa_node;
	vb->pd = ibv_alloc_pd(vb->ctx);
	if (!vb->pd)
		return ig_session_fail(s, errno, "ibv_alloc_pd on %s: %s",
				       ig_vb_xinfo(s)->device, strerror(errno));
	if (!s->server && ig_vb_is_read(s->p.test)) {
		ret = ig_vb_read_client_depth(s, vb->ctx);
		if (ret)
			return ret;
	}
	return ig_vb_pick_cpu(s, vb->ctx);
}

/* Resources, INIT, receives posted: ready for the CM handshake. */
static int prepare_stream(struct ig_session *s, struct ig_stream *st,
			  struct rdma_cm_id *id)
{
	struct vb_stream *vs = st->priv;
	int ret;

	vs->id = id;
	ret = ig_vb_adopt_device(s, id);
	if (!ret)
		ret = ig_vb_stream_res(s, st);
	if (!ret)
		ret = modify(s, st, IBV_QPS_INIT);
	if (!ret && !ig_vb_rdma_test(s->p.test))
		ret = ig_vb_post_recvs(
			st, ((struct vb_stream *)st->priv)->rx_depth);
	return ret;
}

/* Reads in flight, both ways: read tests' agreed depth (vb_read.c), else
 * one (no reads). */
static void conn_param(struct rdma_conn_param *cp, uint8_t *priv,
		       struct vb_stream *vs, uint32_t outs)
{
	uint8_t depth = outs ? (uint8_t)outs : 1;

	*cp = (struct rdma_conn_param){
		.private_data = priv,
		.private_data_len = priv ? IG_STREAM_TAG_LEN : 0,
		.responder_resources = depth,
		.initiator_depth = depth,
		.retry_count = 7,
		.rnr_retry_count = 7,
		.qp_num = vs->qp->qp_num,
	};
}

/* ---- server ------------------------------------------------------- */

static int tagged_stream(struct ig_session *s, const void *priv, size_t len)
{
	struct vb_session *vb = s->xpriv;
	int idx = -1;

	if (priv && len >= IG_STREAM_TAG_LEN)
		idx = ig_stream_tag_get(priv, vb->cookie, s->nstreams);
	if (idx < 0 || ((struct vb_stream *)s->st[idx].priv)->id)
		return -1;
	return idx;
}

int ig_vb_answer(struct ig_session *s, struct rdma_cm_event *ev,
		 const void *priv, size_t len, ig_vb_prepare_fn *prep)
{
	struct rdma_conn_param cp = { 0 };
	struct ig_stream *st;
	int idx, ret;

	idx = tagged_stream(s, priv, len);
	if (idx < 0) {
		rdma_reject(ev->id, NULL, 0);
		return 1; /* not one of ours: destroyed once acked */
	}
	st = &s->st[idx];
	ev->id->context = st;
	ret = prep(s, st, ev, &cp);
	if (ret) {
		rdma_reject(ev->id, NULL, 0);
		return ret;
	}
	if (rdma_accept(ev->id, &cp))
		return ig_session_fail(s, errno,
				       "rdma_accept of stream %u: "
				       "%s",
				       st->idx, strerror(errno));
	ig_vb_fill_gid(s, ev->id);
	return 0;
}

/* RC: the read depth (read tests), resources, receives, then RTR and RTS
 * before the accept. */
static int prepare_rts(struct ig_session *s, struct ig_stream *st,
		       struct rdma_cm_event *ev, struct rdma_conn_param *cp)
{
	struct vb_session *vb = s->xpriv;
	int ret = ig_vb_is_read(s->p.test)
			  ? ig_vb_read_server_depth(s, &ev->param.conn)
			  : 0;

	if (!ret)
		ret = prepare_stream(s, st, ev->id);
	if (!ret)
		ret = ig_vb_qp_to_rts(s, st);
	if (!ret)
		conn_param(cp, NULL, st->priv, vb->outs);
	return ret;
}

static int on_request(struct ig_session *s, struct rdma_cm_event *ev)
{
	return ig_vb_answer(s, ev, ev->param.conn.private_data,
			    ev->param.conn.private_data_len, prepare_rts);
}

int ig_vb_accept_all(struct ig_session *s, ig_vb_request_fn *on_req, bool sidr)
{
	uint64_t deadline = ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
	unsigned int up = 0;

	while (up < s->nstreams) {
		struct rdma_cm_event *ev;
		struct rdma_cm_id *stranger = NULL;
		int ret = ig_vb_cm_event(s, deadline, &ev);

		if (ret)
			return ret;
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			ret = on_req(s, ev);
			if (!ret && sidr)
				up++;
		} else if (!sidr && ev->event == RDMA_CM_EVENT_ESTABLISHED &&
			   ev->id->context) {
			struct ig_stream *st = ev->id->context;

			((struct vb_stream *)st->priv)->established = true;
			up++;
		} else if (ev->event != RDMA_CM_EVENT_DISCONNECTED)
			ret = ig_session_fail(s, ECONNREFUSED,
					      "rdma_cm "
					      "reported %s (status %d) while "
					      "accepting streams",
					      rdma_event_str(ev->event),
					      ev->status);
		if (ret == 1) {
			stranger = ev->id;
			ret = 0;
		}
		rdma_ack_cm_event(ev);
		if (stranger)
			rdma_destroy_id(stranger);
		if (ret)
			return ret;
	}
	return 0;
}

static int listen_rdma(struct ig_session *s, enum rdma_port_space ps,
		       uint16_t *port)
{
	struct vb_session *vb = s->xpriv;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char a[64], err[160];

	if (ig_ctrl_data_addr(s->ctrl, s->p.data_addr, true, &ss, &sl, err,
			      sizeof(err)))
		return ig_session_fail(s, EINVAL, "rdma_cm listener: %s", err);
	ig_sockaddr_str(&ss, a, sizeof(a));
	if (rdma_create_id(vb->ec, &vb->listen_id, NULL, ps))
		return ig_session_fail(s, errno, "rdma_create_id: %s",
				       strerror(errno));
	if (rdma_bind_addr(vb->listen_id, (struct sockaddr *)&ss))
		return ig_session_fail(s, errno,
				       "the server has no RDMA "
				       "device for its address %s (%s): "
				       "connect to an IPoIB or RoCE address",
				       a, strerror(errno));
	if (rdma_listen(vb->listen_id, (int)s->nstreams + 4))
		return ig_session_fail(s, errno, "rdma_listen on %s: %s", a,
				       strerror(errno));
	*port = ntohs(rdma_get_src_port(vb->listen_id));
	return 0;
}

int ig_vb_listen(struct ig_session *s, enum rdma_port_space ps)
{
	struct vb_session *vb = s->xpriv;
	json_object *o;
	uint16_t port = 0;
	int ret;

	ret = listen_rdma(s, ps, &port);
	if (ret)
		return ret;
	/* read tests: the depth this device allows, for the client to
	 * agree on (bound to the address, listen_id has the device) */
	if (ig_vb_is_read(s->p.test) && vb->listen_id->verbs) {
		ret = ig_vb_read_cap(s, vb->listen_id->verbs, &vb->rd_cap);
		if (ret)
			return ret;
	}
	o = json_object_new_object();
	json_object_object_add(o, "port", json_object_new_int(port));
	if (vb->rd_cap)
		json_object_object_add(o, "rd_atom",
				       json_object_new_uint64(vb->rd_cap));
	json_object_object_add(o, "cookie", json_object_new_uint64(vb->cookie));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_XPORT, o);
	json_object_put(o);
	return ret;
}

int ig_vb_setup_server(struct ig_session *s)
{
	int ret = ig_vb_listen(s, RDMA_PS_TCP);

	return ret ? ret : ig_vb_accept_all(s, on_request, false);
}

/* ---- client ------------------------------------------------------- */

int ig_vb_resolve(struct ig_session *s, struct rdma_cm_id *id,
		  struct sockaddr *dst, const char *a, uint64_t deadline)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	bool from = s->local.src_addr[0] && dst->sa_family == AF_INET &&
		    inet_pton(AF_INET, s->local.src_addr, &src.sin_addr) == 1;
	int ret;

	/* --rails: from the rail's address, so through the rail's device */
	if (rdma_resolve_addr(id, from ? (struct sockaddr *)&src : NULL, dst,
			      (int)s->p.timeout_ms))
		return ig_session_fail(s, errno,
				       "rdma_cm cannot resolve %s "
				       "to an RDMA device: %s",
				       a, strerror(errno));
	ret = expect_event(s, RDMA_CM_EVENT_ADDR_RESOLVED,
			   "resolving the "
			   "address",
			   deadline);
	if (!ret && rdma_resolve_route(id, (int)s->p.timeout_ms))
		ret = ig_session_fail(s, errno,
				      "rdma_cm finds no RDMA route to %s (%s): "
				      "give the server's IPoIB or RoCE "
				      "netdev address",
				      a, strerror(errno));
	if (!ret)
		ret = expect_event(s, RDMA_CM_EVENT_ROUTE_RESOLVED,
				   "resolving "
				   "the route",
				   deadline);
	return ret;
}

static int connect_one(struct ig_session *s, struct ig_stream *st,
		       struct sockaddr *dst, const char *a)
{
	struct vb_session *vb = s->xpriv;
	struct rdma_conn_param cp;
	struct rdma_cm_id *id;
	uint8_t priv[IG_STREAM_TAG_LEN];
	uint64_t deadline = ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
	int ret;

	if (rdma_create_id(vb->ec, &id, st, RDMA_PS_TCP))
		return ig_session_fail(s, errno, "rdma_create_id: %s",
				       strerror(errno));
	((struct vb_stream *)st->priv)->id = id;
	ret = ig_vb_resolve(s, id, dst, a, deadline);
	if (!ret)
		ret = prepare_stream(s, st, id);
	if (ret)
		return ret;
	ig_stream_tag_put(priv, vb->cookie, st->idx);
	conn_param(&cp, priv, st->priv, vb->outs);
	if (rdma_connect(id, &cp))
		return ig_session_fail(s, errno, "rdma_connect to %s: %s", a,
				       strerror(errno));
	ret = expect_event(s, RDMA_CM_EVENT_CONNECT_RESPONSE,
			   "connecting "
			   "the QP",
			   deadline);
	if (!ret)
		ret = ig_vb_qp_to_rts(s, st);
	if (!ret && rdma_establish(id))
		ret = ig_session_fail(s, errno, "rdma_establish: %s",
				      strerror(errno));
	if (!ret) {
		((struct vb_stream *)st->priv)->established = true;
		ig_vb_fill_gid(s, id);
	}
	return ret;
}

int ig_vb_server_addr(struct ig_session *s, struct sockaddr_storage *ss,
		      char *a, size_t alen)
{
	struct vb_session *vb = s->xpriv;
	socklen_t sl = sizeof(*ss);
	uint64_t port, rd_atom;
	char err[160];
	json_object *o;
	int ret;

	ret = ig_ctrl_expect(s->ctrl, IG_MSG_XPORT, &o);
	if (ret)
		return ret;
	ret = ig_json_get_u64(o, "port", &port) ||
	      ig_json_get_u64(o, "cookie", &vb->cookie) || !port ||
	      port > 65535;
	/* optional: a server says it for read tests */
	if (!ig_json_get_u64(o, "rd_atom", &rd_atom) && rd_atom <= IG_MAX_OUTS)
		vb->peer_rd_atom = (uint32_t)rd_atom;
	json_object_put(o);
	if (ret)
		return ig_session_fail(s, EPROTO,
				       "server sent no usable "
				       "rdma_cm port");
	ret = ig_ctrl_data_addr(s->ctrl, s->p.data_addr, false, ss, &sl, err,
				sizeof(err));
	if (ret)
		return ig_session_fail(s, -ret, "rdma_cm connection: %s", err);
	ig_sockaddr_str(ss, a, alen);
	*strrchr(a, ':') = 0; /* the host as the user gave it, no port */
	((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	return 0;
}

int ig_vb_setup_client(struct ig_session *s)
{
	struct sockaddr_storage ss;
	char a[64];
	int ret = ig_vb_server_addr(s, &ss, a, sizeof(a));

	if (ret)
		return ret;
	for (unsigned int i = 0; i < s->nstreams; i++) {
		ret = connect_one(s, &s->st[i], (struct sockaddr *)&ss, a);
		if (ret)
			return ret;
	}
	return 0;
}
