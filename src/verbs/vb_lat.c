// SPDX-License-Identifier: MIT
/*
 * Verbs latency: ping-pong of s->p.size bytes.
 *
 * send_lat: SEND / RECV; the reply is a SEND of the same size.
 * write_lat: RDMA WRITE into the peer's target buffer, whose last byte is
 * a flag the peer polls.  The flag takes the values 1..255 in turn, so
 * each message is told from the previous one.  This relies on the HCA
 * placing a message's bytes in increasing address order, so that the last
 * byte arriving means the whole message has; the InfiniBand specification
 * does not promise that, but Mellanox/NVIDIA HCAs and rxe do it, and
 * perftest's ib_write_lat relies on it too (docs/design.md).
 * read_lat: one RDMA READ of the peer's target buffer per round, timed to
 * its completion; the peer does nothing.
 */
#include <errno.h>

#include "verbs_int.h"

static uint8_t next_seq(uint8_t seq)
{
	return seq == 255 ? 1 : seq + 1;
}

/* Waits until a send slot is free. */
static int room(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct vb_wait w = { .cqs = VB_CQ_SEND };

	while (vs->outstanding >= st->s->p.verbs.tx_depth) {
		int ret = ig_vb_reap(st);

		if (ret < 0)
			return ret;
		if (!ret && (ret = ig_vb_idle(st, &w, "send completion")))
			return ret;
	}
	return 0;
}

static int send_one(struct ig_stream *st)
{
	int ret = room(st);

	return ret ? ret : ig_vb_post_chain(st, 1);
}

/* Polls the receive CQ: receives are counted and reposted.  Send
 * completions are reaped only when the send queue is full (room()): one
 * CQ polled per spin, as perftest's send_lat spins on its receive CQ
 * alone.  Returns the number of receives or -errno. */
static int poll_recv(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct ibv_wc wc[VB_POLL];
	int ne, recvs = 0, ret;

	ne = ig_vb_poll(st, vs->rcq, wc);
	if (ne < 0)
		return ne;
	for (int i = 0; i < ne; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			ret = ig_vb_wc_fail(st, &wc[i]);
			if (ret)
				return ret;
		} else {
			recvs++;
		}
	}
	if (recvs && (ret = ig_vb_post_recvs(st, (uint32_t)recvs)))
		return ret;
	return recvs;
}

static int send_ping(struct ig_stream *st)
{
	struct vb_wait w = { .cqs = VB_CQ_RECV };
	int ret = send_one(st);

	while (!ret) {
		ret = poll_recv(st);
		if (ret > 0)
			return 0;
		if (!ret)
			ret = ig_vb_idle(st, &w, "reply");
	}
	return ret;
}

static int write_ping(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	size_t size = st->s->p.size;
	volatile uint8_t *flag = (uint8_t *)vs->buf + 2 * size - 1;
	uint8_t seq = next_seq(vs->seq);
	struct vb_wait w = { .cqs = VB_CQ_SEND };
	int ret;

	vs->buf[size - 1] = (char)seq;
	ret = send_one(st);
	while (!ret && *flag != seq) {
		ret = ig_vb_reap(st);
		if (!ret)
			ret = ig_vb_idle(st, &w, "reply");
		else if (ret > 0)
			ret = 0;
	}
	vs->seq = seq;
	return ret;
}

/* read_lat: one read of size bytes, timed by the engine from the post to
 * its completion (the data is then in our memory). */
static int read_ping(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct vb_wait w = { .cqs = VB_CQ_SEND };
	int ret = ig_vb_post_chain(st, 1);

	while (!ret && vs->outstanding) {
		ret = ig_vb_reap(st);
		if (!ret)
			ret = ig_vb_idle(st, &w, "read completion");
		else if (ret > 0)
			ret = 0;
	}
	return ret;
}

int ig_vb_lat_ping(struct ig_stream *st)
{
	if (st->s->p.test == IG_TEST_READ_LAT)
		return read_ping(st);
	if (st->s->p.test == IG_TEST_WRITE_LAT)
		return write_ping(st);
	return send_ping(st);
}

static int send_pong(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	struct vb_wait w = { .cqs = VB_CQ_RECV };

	while (!atomic_load_explicit(&st->s->stop, memory_order_relaxed)) {
		int ret = poll_recv(st);

		if (!ret && vs->events) /* no stall check: the pinger ends */
			ret = ig_vb_block(st, &w);
		for (; ret > 0; ret--) {
			int e = send_one(st);

			if (e)
				return e;
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int write_pong(struct ig_stream *st)
{
	struct vb_stream *vs = st->priv;
	size_t size = st->s->p.size;
	volatile uint8_t *flag = (uint8_t *)vs->buf + 2 * size - 1;

	while (!atomic_load_explicit(&st->s->stop, memory_order_relaxed)) {
		uint8_t seq = next_seq(vs->seq);
		int ret;

		if (*flag != seq) {
			ret = ig_vb_reap(st);
			if (ret < 0)
				return ret;
			continue;
		}
		vs->buf[size - 1] = (char)seq;
		vs->seq = seq;
		ret = send_one(st);
		if (ret)
			return ret;
	}
	return 0;
}

int ig_vb_lat_pong(struct ig_stream *st)
{
	if (st->s->p.test == IG_TEST_READ_LAT) {
		ig_stream_park(st); /* read from: nothing to do */
		return 0;
	}
	if (st->s->p.test == IG_TEST_WRITE_LAT)
		return write_pong(st);
	return send_pong(st);
}
