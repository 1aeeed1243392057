// SPDX-License-Identifier: MIT
/*
 * One TCP stream's socket and buffer: set up once its connection is made
 * (tcp_conn.c), freed with the session (the ops' cleanup).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "engine/engine.h"
#include "tcp_int.h"

/*
 * The bandwidth receiver reads the stream in pieces of RX_PIECE bytes (or
 * of its buffer, where that is smaller), each one filled before the next
 * begins: a read that returns short is followed by one that asks only for
 * the rest of its piece, as qperf reads its messages.  Against reads of
 * 256 KiB that take what is there, it moved loopback tcp_bw up at 128K
 * and 1M (docs/lab/2026-12-07-tcp-rx-reads.md).
 */
#define RX_PIECE (128u * 1024)

int ig_tcp_io_fail(struct ig_stream *st, const char *what, ssize_t n)
{
	struct tcp_stream *ts = st->priv;
	const char *name = ts->sc->name;
	int e = n == 0 ? ECONNRESET : errno;

	if (e == EAGAIN || e == EWOULDBLOCK)
		return ig_session_fail(st->s, ETIMEDOUT,
				       "%s stream %u: %s "
				       "stalled for %u ms",
				       name, st->idx, what,
				       st->s->p.timeout_ms);
	if (n == 0)
		return ig_session_fail(st->s, ECONNRESET,
				       "%s stream %u: "
				       "peer closed the connection during %s",
				       name, st->idx, what);
	return ig_session_fail(st->s, e, "%s stream %u: %s failed: %s", name,
			       st->idx, what, strerror(e));
}

/*
 * A spinning table's polls between two reads of the clock: where the clock
 * is a system call (a guest on hpet: microseconds a read), reading it at
 * every poll slowed rs_bw to 0.6 of rstream, which never reads it, and
 * added a read to every poll of a round trip that waited long.  A poll of
 * rsockets is a few hundred ns on a host.  Returns poll()'s answer: the
 * first that is not 0, else 0.
 */
#define SPIN_POLLS 256

static int spin_poll(const struct ig_sock_calls *sc, struct pollfd *pfd,
		     nfds_t n)
{
	int ret = 0;

	for (unsigned int i = 0; i < SPIN_POLLS && !ret; i++)
		ret = sc->poll(pfd, n, 0);
	return ret;
}

int ig_sock_poll(const struct ig_sock_calls *sc, struct pollfd *pfd, nfds_t n,
		 uint64_t deadline)
{
	for (;;) {
		uint64_t now = ig_now_ns();
		int ms, ret;

		if (now >= deadline)
			return -ETIMEDOUT;
		ms = (int)((deadline - now) / IG_NSEC_PER_MSEC) + 1;
		ret = sc->spin ? spin_poll(sc, pfd, n) : sc->poll(pfd, n, ms);
		if (ret > 0)
			return ret;
		if (ret < 0 && errno != EINTR)
			return -errno;
	}
}

/* The session failed, or (waiting to receive) its receivers were told
 * to stop: what a shutdown() would have said to a blocked stream. */
static bool told_to_stop(const struct ig_session *s, short events)
{
	return atomic_load(&s->failed) ||
	       ((events & POLLIN) && atomic_load(&s->rx_stop));
}

int ig_tcp_wait(struct ig_stream *st, short events)
{
	struct tcp_stream *ts = st->priv;
	struct pollfd pfd = { .fd = ts->fd, .events = events };
	uint64_t now, deadline;
	int n;

	if (ts->sc->timeo) {
		errno = EAGAIN;
		return -1;
	}
	if (ts->sc->spin && spin_poll(ts->sc, &pfd, 1) > 0)
		return 0;
	now = ig_now_ns();
	deadline = now + st->s->p.timeout_ms * IG_NSEC_PER_MSEC;
	/* a slice at a time, so that a stop is seen within 10 ms */
	for (;;) {
		uint64_t slice = now + 10 * IG_NSEC_PER_MSEC;

		if (told_to_stop(st->s, events)) {
			errno = ECANCELED;
			return -1;
		}
		n = ig_sock_poll(ts->sc, &pfd, 1,
				 slice < deadline ? slice : deadline);
		if (n != -ETIMEDOUT)
			break;
		now = ig_now_ns();
		if (now >= deadline)
			break;
	}
	if (n > 0)
		return 0;
	errno = n == -ETIMEDOUT ? EAGAIN : -n;
	return -1;
}

/*
 * --zerocopy on the client's bandwidth sender: SO_ZEROCOPY, else a
 * warning and copying sends.  Returns the number of buffers.
 */
static unsigned int zc_enable(struct ig_session *s, struct tcp_stream *ts,
			      int fd)
{
	int one = 1;

	if (s->server || s->local.sock.zerocopy != IG_ZC_ON ||
	    !ts->sc->kernel_tcp ||
	    ig_test_pattern(s->tests, s->p.test) != IG_PATTERN_BW)
		return 1;
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one))) {
		snprintf(s->warning, sizeof(s->warning),
			 "--zerocopy: the kernel refused SO_ZEROCOPY (%s): "
			 "the sends copied",
			 strerror(errno));
		return 1;
	}
	ts->zc_on = true;
	ig_zc_init(&ts->zc, ig_zc_nbuf(s->p.size));
	return ts->zc.nbuf;
}

static int stream_alloc(struct ig_session *s, struct ig_stream *st, int fd,
			const struct ig_sock_calls *sc)
{
	struct tcp_stream *ts = calloc(1, sizeof(*ts));
	size_t len = s->p.size;
	unsigned int nbuf;

	/* the receiving side (the server, or the client with -R) reads in
	 * pieces of RX_PIECE */
	if (ig_test_pattern(s->tests, s->p.test) == IG_PATTERN_BW &&
	    s->server != (bool)s->p.reverse && len < RX_PIECE)
		len = RX_PIECE;
	if (!ts)
		goto err;
	ts->sc = sc;
	nbuf = zc_enable(s, ts, fd);
	ts->stride = (len + 4095) & ~(size_t)4095;
	ts->buf = aligned_alloc(4096, ts->stride * nbuf);
	if (!ts->buf)
		goto err_ts;
	for (unsigned int i = 0; i < nbuf; i++)
		memset(ts->buf + i * ts->stride, 0xa5, len);
	ts->piece = len < RX_PIECE ? len : RX_PIECE;
	ts->fd = fd;
	st->priv = ts;
	return 0;
err_ts:
	free(ts);
err:
	sc->close(fd);
	return ig_session_fail(s, ENOMEM,
			       "out of memory for a %zu-byte "
			       "buffer of stream %u",
			       len, st->idx);
}

/* The data path's timeouts: SO_RCVTIMEO/SO_SNDTIMEO, or non-blocking
 * calls and ig_tcp_wait() where the table has no timeouts. */
static int set_timeouts(struct ig_session *s, int fd,
			const struct ig_sock_calls *sc)
{
	struct timeval tv = { .tv_sec = s->p.timeout_ms / 1000,
			      .tv_usec = (s->p.timeout_ms % 1000) * 1000 };
	int fl;

	if (sc->timeo)
		return sc->setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				      sizeof(tv)) ||
		       sc->setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv,
				      sizeof(tv));
	fl = sc->fcntl(fd, F_GETFL, 0);
	return fl < 0 || sc->fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0;
}

int ig_tcp_stream_init(struct ig_session *s, unsigned int idx, int fd,
		       const struct ig_sock_calls *sc)
{
	int one = 1;

	if (ig_test_pattern(s->tests, s->p.test) == IG_PATTERN_LAT)
		sc->setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (set_timeouts(s, fd, sc)) {
		int e = errno;

		sc->close(fd);
		return ig_session_fail(s, e,
				       "setting timeouts on %s "
				       "stream %u: %s",
				       sc->name, idx, strerror(e));
	}
	return stream_alloc(s, &s->st[idx], fd, sc);
}

struct late_close {
	const struct ig_sock_calls *sc;
	int fd;
};

static void *close_late(void *arg)
{
	struct late_close *lc = arg;

	lc->sc->close(lc->fd);
	free(lc);
	return NULL;
}

/* Closes fd; one of a failed session whose close may wait on a dead peer
 * (sock_calls.h, shutdown_wakes) on a detached thread of its own. */
static void stream_close(struct ig_session *s, const struct ig_sock_calls *sc,
			 int fd)
{
	struct late_close *lc;
	pthread_t t;

	if (sc->shutdown_wakes || !atomic_load(&s->failed)) {
		sc->close(fd);
		return;
	}
	lc = malloc(sizeof(*lc));
	if (lc) {
		*lc = (struct late_close){ .sc = sc, .fd = fd };
		if (!pthread_create(&t, NULL, close_late, lc)) {
			pthread_detach(t);
			return;
		}
		free(lc);
	}
	sc->close(fd); /* no thread: this one, then */
}

void ig_tcp_cleanup(struct ig_session *s)
{
	for (unsigned int i = 0; s->st && i < s->nstreams; i++) {
		struct tcp_stream *ts = s->st[i].priv;

		if (!ts)
			continue;
		stream_close(s, ts->sc, ts->fd);
		free(ts->buf);
		free(ts);
		s->st[i].priv = NULL;
	}
}
