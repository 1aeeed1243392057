// SPDX-License-Identifier: MIT
/*
 * --zerocopy: the bandwidth sender with MSG_ZEROCOPY.  The kernel pins
 * the pages of each send until the peer has acknowledged them and then
 * queues a notification on the socket's error queue; a buffer is handed
 * over again only when its send has completed (tcp_zc.c), so at most
 * zc.nbuf sends are outstanding.  ENOBUFS (the notifications' memory,
 * net.core.optmem_max, is full) waits for completions and tries again,
 * and sends copying when none is outstanding.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/errqueue.h> /* after time.h: it uses struct timespec */

#include "common/clock.h"
#include "engine/engine.h"
#include "tcp_int.h"

/* One notification: the range it completes, copied or not. */
static int zc_note(struct ig_stream *st, const struct sock_extended_err *ee)
{
	struct tcp_stream *ts = st->priv;
	int n;

	if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY || ee->ee_errno != 0)
		return ig_session_fail(st->s, EPROTO,
				       "tcp stream %u: error queue holds "
				       "origin %u errno %u: want a zero-copy "
				       "completion (origin %u, errno 0)",
				       st->idx, ee->ee_origin, ee->ee_errno,
				       SO_EE_ORIGIN_ZEROCOPY);
	n = ig_zc_complete(&ts->zc, ee->ee_info, ee->ee_data);
	if (n < 0)
		return ig_session_fail(st->s, EPROTO,
				       "tcp stream %u: zero-copy completion "
				       "%u..%u is not among sends %u..%u",
				       st->idx, ee->ee_info, ee->ee_data,
				       ts->zc.tail, ts->zc.next - 1);
	if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
		ts->zcs.copied += (uint64_t)n;
	return n;
}

/* Reads one message of the error queue: 1, 0 when it is empty, -errno. */
static int zc_read_one(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	char ctl[CMSG_SPACE(sizeof(struct sock_extended_err)) + 64];
	struct msghdr m = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;

	if (recvmsg(ts->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		return ig_tcp_io_fail(st, "reading the error queue", -1);
	}
	for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm)) {
		int ret;

		if (!(cm->cmsg_level == SOL_IP &&
		      cm->cmsg_type == IP_RECVERR) &&
		    !(cm->cmsg_level == SOL_IPV6 &&
		      cm->cmsg_type == IPV6_RECVERR))
			continue;
		ret = zc_note(st, (const void *)CMSG_DATA(cm));
		if (ret < 0)
			return ret;
	}
	return 1;
}

/* Waits (up to the timeout) until the error queue is not empty. */
static int zc_wait(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	struct pollfd pfd = { .fd = ts->fd, .events = 0 };
	int n;

	do
		n = poll(&pfd, 1, (int)st->s->p.timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return ig_tcp_io_fail(st, "waiting for completions", -1);
	if (n == 0)
		return ig_session_fail(st->s, ETIMEDOUT,
				       "tcp stream %u: no zero-copy completion "
				       "within %u ms (%u sends outstanding)",
				       st->idx, st->s->p.timeout_ms,
				       ig_zc_outstanding(&ts->zc));
	return 0;
}

/* Reads the error queue until it is empty: how many messages, -errno. */
static int zc_read_all(struct ig_stream *st)
{
	int got = 0, ret;

	while ((ret = zc_read_one(st)) > 0)
		got++;
	return ret < 0 ? ret : got;
}

/* Reads every waiting notification; with block, waits for one first. */
static int zc_reap(struct ig_stream *st, bool block)
{
	struct tcp_stream *ts = st->priv;
	int e = 0, ret = zc_read_all(st);
	socklen_t l = sizeof(e);

	if (ret < 0 || ret > 0 || !block)
		return ret < 0 ? ret : 0;
	ret = zc_wait(st);
	if (!ret)
		ret = zc_read_all(st);
	if (ret != 0)
		return ret < 0 ? ret : 0;
	/* POLLERR with an empty queue: the connection failed */
	getsockopt(ts->fd, SOL_SOCKET, SO_ERROR, &e, &l);
	errno = e ? e : EIO;
	return ig_tcp_io_fail(st, "zero-copy send", -1);
}

/* One send of the whole buffer with flags: 0 or -errno (errno kept). */
static int send_once(struct tcp_stream *ts, const char *buf, size_t len,
		     int flags)
{
	ssize_t n;

	do
		n = send(ts->fd, buf, len, MSG_NOSIGNAL | flags);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n < len) { /* SO_SNDTIMEO expired part way */
		errno = EAGAIN;
		return -EAGAIN;
	}
	return 0;
}

ssize_t ig_tcp_zc_send(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	size_t len = st->s->p.size;
	const char *buf;
	int ret;

	while (!ig_zc_can_send(&ts->zc)) {
		ret = zc_reap(st, true);
		if (ret)
			return ret;
	}
	buf = ts->buf + ig_zc_slot(&ts->zc) * ts->stride;
	while ((ret = send_once(ts, buf, len, MSG_ZEROCOPY)) == -ENOBUFS) {
		ts->zcs.enobufs++;
		if (!ig_zc_outstanding(&ts->zc)) {
			ts->zcs.fallback++;
			ret = send_once(ts, buf, len, 0);
			return ret ? ig_tcp_io_fail(st, "send", -1) : 1;
		}
		ret = zc_reap(st, true);
		if (ret)
			return ret;
	}
	if (ret)
		return ig_tcp_io_fail(st, "zero-copy send", -1);
	ig_zc_sent(&ts->zc);
	ts->zcs.sends++;
	ret = zc_reap(st, false);
	return ret ? ret : 1;
}

int ig_tcp_zc_flush(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;

	while (ig_zc_outstanding(&ts->zc)) {
		int ret = zc_reap(st, true);

		if (ret)
			return ret;
	}
	return 0;
}
