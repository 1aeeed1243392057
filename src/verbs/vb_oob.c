// SPDX-License-Identifier: MIT
/*
 * Verbs connection set-up without rdma_cm (params' verbs.oob: a rail
 * without an IPv4 address, which rdma_cm cannot reach).  As perftest
 * without -R: each side opens its rail's device and port, creates its QPs
 * and says their numbers, first PSNs, LID, GID and GID index in a
 * VERBS_EP message over the control connection (which runs over another
 * path, one with an address); each then moves its QPs INIT -> RTR -> RTS
 * with ibv_modify_qp towards the peer's.  On RoCE the GID is the port's
 * link-local RoCE v2 one (or --gid-index), which exists without an IPv4
 * address and whose MAC the kernel derives without a neighbour lookup; on
 * InfiniBand the LID addresses the peer.  The client goes first: its
 * message also names the server's device and port (the peer rail's).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/rdma_inv.h"
#include "verbs_int.h"
#include "wire/epmsg.h"
/* The device named, opened: the session's own context. */
static int open_dev(struct ig_session *s, const char *name, int port)
{
	struct vb_session *vb = s->xpriv;
	struct ibv_device **l = ibv_get_device_list(NULL);
	int ret = 0;

	for (int i = 0; l && l[i] && !vb->ctx; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			vb->ctx = ibv_open_device(l[i]);
	if (!vb->ctx)
		ret = ig_session_fail(s, ENODEV,
				      "%s has no RDMA device %s to open "
				      "(ibv_devices lists them): %s",
				      s->server ? "the server" : "this host",
				      name, l ? strerror(errno) : "none");
	if (l)
		ibv_free_device_list(l);
	if (ret)
		return ret;
	vb->own_ctx = true;
	vb->ctx_port = (uint8_t)port;
	return ig_vb_adopt_ctx(s, vb->ctx, (uint8_t)port);
}

/* The GID index of the port (--gid-index, else ig_inv_oob_gid) and the
 * GID, into xinfo. */
static int pick_gid(struct ig_session *s, union ibv_gid *gid)
{
	struct vb_session *vb = s->xpriv;
	struct ig_xinfo *x = ig_vb_xinfo(s);
	int idx = s->local.verbs.gid_index, ret;
	struct ig_inv *inv = NULL;
	char err[256];

	if (idx < 0 && !ig_inv_load("/", IG_INV_GIDS, &inv, err, sizeof(err))) {
		const struct ig_inv_dev *d = ig_inv_dev(inv, x->device);

		for (size_t i = 0; d && i < d->nports; i++)
			if (d->ports[i].num == x->port)
				idx = ig_inv_oob_gid(&d->ports[i]);
	}
	ig_inv_free(inv);
	if (idx < 0)
		idx = 0;
	ret = ibv_query_gid(vb->ctx, vb->ctx_port, idx, gid);
	if (ret < 0)
		ret = errno ? errno : EINVAL;
	if (!ret && !gid->global.subnet_prefix && !gid->global.interface_id)
		ret = ENOENT; /* an unused entry */
	if (ret)
		return ig_session_fail(s, ret,
				       "GID index %d of %s port %d: %s "
				       "(--gid-index names one of the port's "
				       "GIDs: ibv_devinfo -v lists them)",
				       idx, x->device, x->port, strerror(ret));
	x->gid_index = idx;
	inet_ntop(AF_INET6, gid->raw, x->gid, sizeof(x->gid));
	x->oob = true;
	return 0;
}

/* This side's message: its QPs' ends (made here), its port's MTU. */
static int local_eps(struct ig_session *s, struct ig_epmsg *m)
{
	union ibv_gid gid;
	int ret;

	if (!s->p.size && ig_vb_is_ud(s))
		s->p.size = (uint64_t)ig_vb_xinfo(s)->mtu; /* -s not given */
	if (ig_vb_is_ud(s)) {
		char err[200];

		if (ig_vb_ud_size_check(s->p.size,
					(unsigned int)ig_vb_xinfo(s)->mtu,
					ig_vb_xinfo(s)->device,
					(unsigned int)ig_vb_xinfo(s)->port, err,
					sizeof(err)))
			return ig_session_fail(s, IG_EBADVALUE, "%s", err);
	}
	ret = pick_gid(s, &gid);
	m->mtu = ig_vb_xinfo(s)->mtu;
	m->n = s->nstreams;
	for (unsigned int i = 0; !ret && i < s->nstreams; i++)
		ret = ig_vb_oob_local_ep(s, &s->st[i], &gid, &m->ep[i]);
	return ret;
}

static int send_eps(struct ig_session *s, const struct ig_epmsg *m)
{
	json_object *o = ig_epmsg_to_json(m);
	int ret;

	if (!o)
		return ig_session_fail(s, ENOMEM, "out of memory for VERBS_EP");
	ret = ig_ctrl_send(s->ctrl, IG_MSG_VERBS_EP, o);
	json_object_put(o);
	return ret;
}

/* The peer's VERBS_EP into m; a server that answers XPORT predates it. */
static int recv_eps(struct ig_session *s, struct ig_epmsg *m)
{
	enum ig_msg_type got = IG_MSG_VERBS_EP;
	char err[200];
	json_object *o;
	int ret = ig_ctrl_expect2(s->ctrl, IG_MSG_VERBS_EP, IG_MSG_XPORT, &got,
				  &o);

	if (ret)
		return ret;
	if (got == IG_MSG_XPORT) {
		json_object_put(o);
		return ig_session_fail(s, EPROTONOSUPPORT,
				       "the server answered XPORT, not "
				       "VERBS_EP: it predates verbs "
				       "connections without rdma_cm (a rail "
				       "without an IPv4 address): update it");
	}
	ret = ig_epmsg_from_json(o, m, err, sizeof(err));
	json_object_put(o);
	if (ret)
		return ig_session_fail(s, EPROTO, "%s from %s", err,
				       s->ctrl->peer);
	return 0;
}

/* Server, read tests: the depth the client asks for (its own, or
 * --outs), lowered to this device's, or refused when --outs is more. */
static int server_depth(struct ig_session *s, uint32_t ask)
{
	struct vb_session *vb = s->xpriv;
	uint32_t cap;
	int ret = ig_vb_read_cap(s, vb->ctx, &cap);

	if (ret)
		return ret;
	if (!ask)
		return ig_session_fail(s, EPROTO,
				       "VERBS_EP from %s asks for no RDMA "
				       "reads in flight for a read test",
				       s->ctrl->peer);
	if (s->p.verbs.outs && ask > cap)
		return ig_session_fail(s, EINVAL,
				       "--outs %u is more than the server's "
				       "%s allows: at most %u RDMA reads in "
				       "flight",
				       ask, ig_vb_xinfo(s)->device, cap);
	vb->outs = ask < cap ? ask : cap;
	ig_vb_xinfo(s)->outs = (int)vb->outs;
	return 0;
}

int ig_vb_oob_setup_server(struct ig_session *s)
{
	struct ig_epmsg *peer = calloc(2, sizeof(*peer)), *mine = peer + 1;
	int ret = peer ? recv_eps(s, peer)
		       : ig_session_fail(s, ENOMEM, "out of memory");

	if (!ret && !peer->device[0])
		ret = ig_session_fail(s, EPROTO,
				      "VERBS_EP from %s names no device of "
				      "this server to use",
				      s->ctrl->peer);
	if (!ret)
		ret = open_dev(s, peer->device, peer->port);
	if (!ret && ig_vb_is_read(s->p.test))
		ret = server_depth(s, peer->rd_atom);
	if (!ret && ig_vb_is_ud(s) && !s->p.size)
		s->p.size = (uint64_t)peer->mtu; /* the client's -s */
	if (!ret)
		ret = local_eps(s, mine);
	if (!ret)
		ret = ig_vb_oob_connect(s, mine, peer);
	mine->rd_atom = ((struct vb_session *)s->xpriv)->outs;
	if (!ret)
		ret = send_eps(s, mine);
	free(peer);
	return ret;
}

/* Client, read tests: the server's agreed depth, at most ours. */
static int client_depth(struct ig_session *s, uint32_t agreed)
{
	struct vb_session *vb = s->xpriv;

	if (!agreed || agreed > vb->outs)
		return ig_session_fail(s, EPROTO,
				       "the server agreed on %u RDMA reads in "
				       "flight: allowed 1 to %u",
				       agreed, vb->outs);
	vb->outs = agreed;
	ig_vb_xinfo(s)->outs = (int)agreed;
	for (unsigned int i = 0; i < s->nstreams; i++)
		ig_vb_read_window(s, s->st[i].priv);
	return 0;
}

int ig_vb_oob_setup_client(struct ig_session *s)
{
	struct ig_epmsg *mine = calloc(2, sizeof(*mine)), *peer = mine + 1;
	const struct ig_verbs_local *l = &s->local.verbs;
	int ret = 0;

	if (!mine)
		return ig_session_fail(s, ENOMEM, "out of memory");
	if (!l->device[0] || !l->peer_device[0])
		ret = ig_session_fail(s, EINVAL,
				      "a verbs connection without rdma_cm "
				      "needs both rails' devices (this "
				      "host's '%s', the server's '%s')",
				      l->device, l->peer_device);
	if (!ret)
		ret = open_dev(s, l->device, l->ib_port ? l->ib_port : 1);
	if (!ret)
		ret = local_eps(s, mine);
	snprintf(mine->device, sizeof(mine->device), "%s", l->peer_device);
	mine->port = l->peer_port ? l->peer_port : 1;
	mine->rd_atom = ((struct vb_session *)s->xpriv)->outs;
	if (!ret)
		ret = send_eps(s, mine);
	if (!ret)
		ret = recv_eps(s, peer);
	if (!ret && ig_vb_is_read(s->p.test))
		ret = client_depth(s, peer->rd_atom);
	if (!ret)
		ret = ig_vb_oob_connect(s, mine, peer);
	free(mine);
	return ret;
}
