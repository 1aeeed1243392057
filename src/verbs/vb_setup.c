// SPDX-License-Identifier: MIT
/* Verbs transport: session set-up, memory key exchange, the ops table. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "common/json.h"
#include "verbs.h"
#include "verbs_int.h"

static int exchange_mrs(struct ig_session *s);

/* The session's facts, as the report and the peer's READY name them. */
static void vb_facts(struct ig_session *s)
{
	const struct ig_xinfo *x = ig_vb_xinfo(s);
	struct ig_facts *f = &s->facts;

	if (!x->valid)
		return;
	ig_facts_set_str(f, IG_FACT_DEVICE, x->device);
	ig_facts_set_int(f, IG_FACT_PORT, x->port);
	ig_facts_set_str(f, "link_layer", x->link_layer);
	ig_facts_set_int(f, "mtu", x->mtu);
	ig_facts_set_str(f, "gid", x->gid);
	ig_facts_set_int(f, "gid_index", x->gid_index);
	ig_facts_set_real(f, "rate_gbps", x->rate_gbps);
	ig_facts_set_int(f, "numa_node", x->numa_node);
	ig_facts_set_int(f, "cpu", x->cpu);
	ig_facts_set_int(f, "inline", x->inline_max);
	if (x->outs)
		ig_facts_set_int(f, "outs", x->outs);
	if (x->oob)
		ig_facts_set_str(f, "connect", "out-of-band");
}

/* The connections through rdma_cm (vb_conn.c, vb_ud_conn.c). */
static int cm_setup(struct ig_session *s)
{
	struct vb_session *vb = s->xpriv;

	vb->ec = rdma_create_event_channel();
	if (!vb->ec)
		return ig_session_fail(s, errno,
				       "rdma_create_event_channel: "
				       "%s (is rdma_ucm loaded?)",
				       strerror(errno));
	fcntl(vb->ec->fd, F_SETFL, fcntl(vb->ec->fd, F_GETFL) | O_NONBLOCK);
	if (ig_vb_is_ud(s))
		return s->server ? ig_vb_ud_setup_server(s)
				 : ig_vb_ud_setup_client(s);
	return s->server ? ig_vb_setup_server(s) : ig_vb_setup_client(s);
}

static int vb_setup(struct ig_session *s)
{
	struct vb_session *vb;
	int ret = ig_vb_check_devices(s);

	if (ret)
		return ret;
	vb = calloc(1, sizeof(*vb));
	if (!vb)
		return ig_session_fail(s, ENOMEM, "out of memory");
	s->xpriv = vb;
	vb->numa_node = -1;
	vb->access = ig_vb_access(s);
	for (unsigned int i = 0; i < s->nstreams; i++) {
		s->st[i].priv = calloc(1, sizeof(struct vb_stream));
		if (!s->st[i].priv)
			return ig_session_fail(s, ENOMEM, "out of memory");
	}
	if (s->server && getrandom(&vb->cookie, 8, 0) != 8)
		return ig_session_fail(s, EIO, "getrandom failed");
	/* UD drops what finds no receive posted: the engine drains */
	s->lossy = s->p.test == IG_TEST_UD_SEND_BW;
	if (s->p.verbs.oob)
		ret = s->server ? ig_vb_oob_setup_server(s)
				: ig_vb_oob_setup_client(s);
	else
		ret = cm_setup(s);
	if (!ret && ig_vb_rdma_test(s->p.test))
		ret = exchange_mrs(s);
	if (!ret)
		vb_facts(s);
	return ret;
}

static int send_mrs(struct ig_session *s)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	int ret;

	for (unsigned int i = 0; i < s->nstreams; i++) {
		struct vb_stream *vs = s->st[i].priv;
		json_object *e = json_object_new_object();

		json_object_object_add(
			e, "addr",
			json_object_new_uint64((uintptr_t)vs->buf + s->p.size));
		json_object_object_add(e, "rkey",
				       json_object_new_uint64(vs->mr->rkey));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "mrs", a);
	ret = ig_ctrl_send(s->ctrl, IG_MSG_XPORT, o);
	json_object_put(o);
	return ret;
}

static int recv_mrs(struct ig_session *s)
{
	json_object *o, *a;
	int ret = ig_ctrl_expect(s->ctrl, IG_MSG_XPORT, &o);

	if (ret)
		return ret;
	/* json-c asserts on array calls with another type: check first */
	a = ig_json_get_array(o, "mrs");
	if (!a || json_object_array_length(a) != s->nstreams)
		ret = -EPROTO;
	for (unsigned int i = 0; !ret && i < s->nstreams; i++) {
		struct vb_stream *vs = s->st[i].priv;
		json_object *e = json_object_array_get_idx(a, i);
		uint64_t rkey = 0;

		if (ig_json_get_u64(e, "addr", &vs->remote.addr) ||
		    ig_json_get_u64(e, "rkey", &rkey) || rkey > UINT32_MAX)
			ret = -EPROTO;
		vs->remote.rkey = (uint32_t)rkey;
		for (int k = 0; k < VB_POST_BATCH; k++) {
			vs->wr[k].wr.rdma.remote_addr = vs->remote.addr;
			vs->wr[k].wr.rdma.rkey = vs->remote.rkey;
		}
	}
	json_object_put(o);
	if (ret)
		return ig_session_fail(s, EPROTO,
				       "the peer sent no usable "
				       "memory keys");
	return 0;
}

/* Write and read tests: each side learns where in the other's memory it
 * may write or read (the peer's MR grants what the test needs alone). */
static int exchange_mrs(struct ig_session *s)
{
	int ret;

	if (s->server) {
		ret = send_mrs(s);
		return ret ? ret : recv_mrs(s);
	}
	ret = recv_mrs(s);
	return ret ? ret : send_mrs(s);
}

static void vb_stop(struct ig_session *s)
{
	/* the data loops poll s->stop */
}

static void vb_cleanup(struct ig_session *s)
{
	struct vb_session *vb = s->xpriv;

	for (unsigned int i = 0; s->st && i < s->nstreams; i++) {
		struct vb_stream *vs = s->st[i].priv;

		if (!vs)
			continue;
		if (vs->id && vs->established)
			rdma_disconnect(vs->id);
		ig_vb_stream_free(vs);
		if (vs->id)
			rdma_destroy_id(vs->id);
		ig_vb_stream_free_buf(vs, vb ? vb->numa_node : -1);
		free(vs);
		s->st[i].priv = NULL;
	}
	if (!vb)
		return;
	if (vb->pd)
		ibv_dealloc_pd(vb->pd);
	if (vb->own_ctx)
		ibv_close_device(vb->ctx);
	if (vb->listen_id)
		rdma_destroy_id(vb->listen_id);
	if (vb->ec)
		rdma_destroy_event_channel(vb->ec);
	free(vb);
	s->xpriv = NULL;
}

const struct ig_xport_ops ig_vb_ops = {
	.name = "verbs",
	.setup = vb_setup,
	.stop = vb_stop,
	.cleanup = vb_cleanup,
	.bw_send = ig_vb_bw_send,
	.bw_flush = ig_vb_bw_flush,
	.bw_recv = ig_vb_bw_recv,
	.lat_ping = ig_vb_lat_ping,
	.lat_pong = ig_vb_lat_pong,
	/* READY's member of old, which older peers read */
	.facts_key = "xinfo",
	.rx_confirms = false,
};
