// SPDX-License-Identifier: MIT
/*
 * TCP transport: one connection per stream, opened on an ephemeral port
 * the server announces on the control channel.  Each data connection
 * starts with a 12-byte hello (the session cookie and the stream index) so
 * that a stranger connecting to the port is never taken for a stream.
 * Here: the ops and the data path; tcp_conn.c makes the connections and
 * tcp_stream.c each stream's socket options and buffer.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "engine/engine.h"
#include "tcp.h"
#include "tcp_int.h"

static void tcp_stop(struct ig_session *s)
{
	for (unsigned int i = 0; s->st && i < s->nstreams; i++) {
		struct tcp_stream *ts = s->st[i].priv;

		if (ts)
			shutdown(ts->fd, SHUT_RDWR);
	}
}

static int setup(struct ig_session *s)
{
	return s->server ? ig_tcp_setup_server(s) : ig_tcp_setup_client(s);
}

/* errno of a failed send/recv on a stream -> one line and -errno. */
static int io_fail(struct ig_stream *st, const char *what, ssize_t n)
{
	int e = n == 0 ? ECONNRESET : errno;

	if (e == EAGAIN || e == EWOULDBLOCK)
		return ig_session_fail(st->s, ETIMEDOUT,
				       "tcp stream %u: %s "
				       "stalled for %u ms",
				       st->idx, what, st->s->p.timeout_ms);
	if (n == 0)
		return ig_session_fail(st->s, ECONNRESET,
				       "tcp stream %u: "
				       "peer closed the connection during %s",
				       st->idx, what);
	return ig_session_fail(st->s, e, "tcp stream %u: %s failed: %s",
			       st->idx, what, strerror(e));
}

static int send_full(struct ig_stream *st, const char *buf, size_t len)
{
	struct tcp_stream *ts = st->priv;

	while (len) {
		ssize_t n = send(ts->fd, buf, len, MSG_NOSIGNAL);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return io_fail(st, "send", n < 0 ? n : -1);
		}
		/* A blocking send returns short only when SO_SNDTIMEO
		 * expired with part of the data queued: the peer stalled. */
		if ((size_t)n < len) {
			errno = EAGAIN;
			return io_fail(st, "send", -1);
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
		ssize_t n = recv(ts->fd, buf + got, len - got, 0);

		if (n > 0) {
			got += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 && got == 0)
			return 1;
		if (atomic_load(&st->s->stop))
			return 1;
		return io_fail(st, "recv", n);
	}
	return 0;
}

static ssize_t tcp_bw_send(struct ig_stream *st, uint64_t n)
{
	struct tcp_stream *ts = st->priv;
	int ret = send_full(st, ts->buf, st->s->p.size);

	return ret ? ret : 1;
}

static int tcp_bw_flush(struct ig_stream *st)
{
	return 0;
}

static int tcp_bw_recv(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;

	for (;;) {
		ssize_t n = recv(ts->fd, ts->buf, ts->buflen, 0);

		if (n > 0) {
			ig_stream_rx(st, n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || atomic_load(&st->s->stop) ||
		    atomic_load(&st->s->rx_stop))
			return 0;
		return io_fail(st, "recv", n);
	}
}

static int tcp_lat_ping(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	int ret = send_full(st, ts->buf, st->s->p.size);

	if (!ret)
		ret = recv_full(st, ts->buf, st->s->p.size);
	if (ret == 1)
		ret = io_fail(st, "ping-pong", 0);
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

const struct ig_xport_ops ig_tcp_ops = {
	.name = "tcp",
	.setup = setup,
	.stop = tcp_stop,
	.cleanup = ig_tcp_cleanup,
	.bw_send = tcp_bw_send,
	.bw_flush = tcp_bw_flush,
	.bw_recv = tcp_bw_recv,
	.lat_ping = tcp_lat_ping,
	.lat_pong = tcp_lat_pong,
	.rx_confirms = true,
};
