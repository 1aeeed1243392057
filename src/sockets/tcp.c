// SPDX-License-Identifier: MIT
/*
 * TCP transport: one connection per stream, opened on an ephemeral port
 * the server announces on the control channel.  Each data connection
 * starts with a 12-byte hello (the session cookie and the stream index) so
 * that a stranger connecting to the port is never taken for a stream.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "engine/engine.h"
#include "tcp.h"
#include "tcp_int.h"

#define RX_CHUNK (256u * 1024)

static int stream_alloc(struct ig_session *s, struct ig_stream *st, int fd)
{
	struct tcp_stream *ts = calloc(1, sizeof(*ts));
	size_t len = s->p.size;

	if (ig_test_pattern(s->p.test) == IG_PATTERN_BW && s->server &&
	    len < RX_CHUNK)
		len = RX_CHUNK;
	if (!ts)
		goto err;
	ts->buf = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!ts->buf)
		goto err_ts;
	memset(ts->buf, 0xa5, len);
	ts->buflen = len;
	ts->fd = fd;
	st->priv = ts;
	return 0;
err_ts:
	free(ts);
err:
	close(fd);
	return ig_session_fail(s, ENOMEM,
			       "out of memory for a %zu-byte "
			       "buffer of stream %u",
			       len, st->idx);
}

static void tcp_cleanup(struct ig_session *s)
{
	for (unsigned int i = 0; s->st && i < s->nstreams; i++) {
		struct tcp_stream *ts = s->st[i].priv;

		if (!ts)
			continue;
		close(ts->fd);
		free(ts->buf);
		free(ts);
		s->st[i].priv = NULL;
	}
}

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

int ig_tcp_stream_init(struct ig_session *s, unsigned int idx, int fd)
{
	int one = 1;
	struct timeval tv = { .tv_sec = s->p.timeout_ms / 1000,
			      .tv_usec = (s->p.timeout_ms % 1000) * 1000 };

	if (ig_test_pattern(s->p.test) == IG_PATTERN_LAT)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))) {
		close(fd);
		return ig_session_fail(s, errno,
				       "setting timeouts on tcp "
				       "stream %u: %s",
				       idx, strerror(errno));
	}
	return stream_alloc(s, &s->st[idx], fd);
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
	.cleanup = tcp_cleanup,
	.bw_send = tcp_bw_send,
	.bw_flush = tcp_bw_flush,
	.bw_recv = tcp_bw_recv,
	.lat_ping = tcp_lat_ping,
	.lat_pong = tcp_lat_pong,
	.rx_confirms = true,
};
