// SPDX-License-Identifier: MIT
/*
 * The socket transport, over the kernel's TCP (tcp_bw, tcp_lat) or over
 * rsockets (rs_bw, rs_lat): the same code, with the socket calls of a
 * table (sock_calls.h).  One connection per stream, opened on an ephemeral port
 * the server announces on the control channel.  Each data connection
 * starts with a 12-byte hello (the session cookie and the stream index) so
 * that a stranger connecting to the port is never taken for a stream.
 * Here: the ops and the data path; tcp_conn.c makes the connections and
 * tcp_stream.c each stream's socket options and buffer.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "engine/engine.h"
#include "tcp.h"
#include "tcp_int.h"

static void tcp_stop(struct ig_session *s)
{
	for (unsigned int i = 0; s->st && i < s->nstreams; i++) {
		struct tcp_stream *ts = s->st[i].priv;

		/* else the streams see the session's flags (ig_tcp_wait) */
		if (ts && ts->sc->shutdown_wakes)
			ts->sc->shutdown(ts->fd, SHUT_RDWR);
	}
}

static ssize_t send_copy(struct ig_stream *st);

static int setup(struct ig_session *s, const struct ig_sock_calls *sc)
{
	int ret = s->server ? ig_tcp_setup_server(s, sc)
			    : ig_tcp_setup_client(s, sc);

	for (unsigned int i = 0; !ret && i < s->nstreams; i++) {
		struct tcp_stream *ts = s->st[i].priv;

		ts->send = ts->zc_on ? ig_tcp_zc_send : send_copy;
	}
	return ret;
}

static int send_full(struct ig_stream *st, const char *buf, size_t len)
{
	struct tcp_stream *ts = st->priv;

	while (len) {
		ssize_t n = ts->sc->send(ts->fd, buf, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !ig_tcp_wait(st, POLLOUT))
			continue;
		if (n <= 0)
			return ig_tcp_io_fail(st, "send", n < 0 ? n : -1);
		/* A blocking send returns short only when SO_SNDTIMEO
		 * expired with part of the data queued: the peer stalled. */
		if ((size_t)n < len && ts->sc->timeo) {
			errno = EAGAIN;
			return ig_tcp_io_fail(st, "send", -1);
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/* Returns 1 when the peer closed cleanly before the first byte. */
static int recv_full(struct ig_stream *st, char *buf, size_t len)
{
	struct tcp_stream *ts = st->priv;
	size_t got = 0;

	while (got < len) {
		ssize_t n = ts->sc->recv(ts->fd, buf + got, len - got, 0);

		if (n > 0) {
			got += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !ig_tcp_wait(st, POLLIN))
			continue;
		if (n == 0 && got == 0)
			return 1;
		if (atomic_load(&st->s->stop))
			return 1;
		return ig_tcp_io_fail(st, "recv", n);
	}
	return 0;
}

static ssize_t send_copy(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	int ret = send_full(st, ts->buf, st->s->p.size);

	return ret ? ret : 1;
}

static ssize_t tcp_bw_send(struct ig_stream *st, uint64_t n)
{
	return ((struct tcp_stream *)st->priv)->send(st);
}

/* Copying: send() returning means the kernel has the data.  Zero-copy:
 * every buffer's completion has come. */
static int tcp_bw_flush(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;

	return ts->zc_on ? ig_tcp_zc_flush(st) : 0;
}

static void tcp_stream_info(struct ig_stream *st, struct ig_tcpinfo *ti,
			    struct ig_zc_stats *zc)
{
	struct tcp_stream *ts = st->priv;

	ig_tcpinfo_read(ts->fd, ti);
	*zc = ts->zcs;
}

static int tcp_bw_recv(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;

	for (;;) {
		ssize_t n = ts->sc->recv(ts->fd, ts->buf, ts->buflen, 0);

		if (n > 0) {
			ig_stream_rx(st, n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !ig_tcp_wait(st, POLLIN))
			continue;
		if (n == 0 || atomic_load(&st->s->stop) ||
		    atomic_load(&st->s->rx_stop))
			return 0;
		return ig_tcp_io_fail(st, "recv", n);
	}
}

static int tcp_lat_ping(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	int ret = send_full(st, ts->buf, st->s->p.size);

	if (!ret)
		ret = recv_full(st, ts->buf, st->s->p.size);
	if (ret == 1)
		ret = ig_tcp_io_fail(st, "ping-pong", 0);
	return ret;
}

static int tcp_lat_pong(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;

	for (;;) {
		int ret = recv_full(st, ts->buf, st->s->p.size);

		if (ret)
			return ret == 1 ? 0 : ret;
		ret = send_full(st, ts->buf, st->s->p.size);
		if (ret)
			return atomic_load(&st->s->stop) ? 0 : ret;
	}
}

/* What the kernel's TCP and rsockets share: the whole data path.
 * rx_confirms: send() returning means the kernel (rsockets) copied the
 * data, not that the peer has it. */
#define SOCK_DATA_PATH                                                       \
	.stop = tcp_stop, .cleanup = ig_tcp_cleanup, .bw_send = tcp_bw_send, \
	.bw_flush = tcp_bw_flush, .bw_recv = tcp_bw_recv,                    \
	.lat_ping = tcp_lat_ping, .lat_pong = tcp_lat_pong,                  \
	.rx_confirms = true

static int tcp_setup(struct ig_session *s)
{
	return setup(s, &ig_sock_kernel);
}

const struct ig_xport_ops ig_tcp_ops = {
	.name = "tcp",
	.setup = tcp_setup,
	.stream_info = tcp_stream_info,
	SOCK_DATA_PATH,
};

#ifdef IBGAP_HAVE_RSOCKETS
static int rs_setup(struct ig_session *s)
{
	return setup(s, &ig_sock_rs);
}

/* No TCP_INFO, no MSG_ZEROCOPY (zc_on stays false) over rsockets */
const struct ig_xport_ops ig_rs_ops = {
	.name = "rsockets",
	.setup = rs_setup,
	.stream_info = NULL,
	SOCK_DATA_PATH,
};
#endif
