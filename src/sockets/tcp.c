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
#include "host/tcpinfo.h"
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

/*
 * A blocking send returned short, with part of its message queued: its
 * SO_SNDTIMEO expired (the peer stalled), or the connection broke after
 * that part, which the socket's pending error says (a reset:
 * ECONNRESET).  Not a second send: a stalled peer's socket may take a
 * little more at once, and the stall would then take two timeouts.
 */
static int short_send(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	socklen_t l = sizeof(int);
	int e = 0;

	if (ts->sc->getsockopt(ts->fd, SOL_SOCKET, SO_ERROR, &e, &l) || !e)
		e = EAGAIN;
	errno = e;
	return ig_tcp_io_fail(st, "send", -1);
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
		if ((size_t)n < len && ts->sc->timeo)
			return short_send(st);
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

/* What TCP reports of each stream: TCP_INFO (docs/design.md, "tcp_info"),
 * and with --zerocopy its sender's counts. */
enum {
	C_RETRANS,
	C_RETRANS_TOTAL,
	C_RTT,
	C_RTTVAR,
	C_CWND,
	C_MSS,
	C_PMTU,
	C_REORDERING,
	C_ZC_SENDS,
	C_ZC_COPIED,
	C_ZC_ENOBUFS,
	C_ZC_FALLBACK,
	C_COUNT
};

#define TI(n, u, r, p)                                                \
	{                                                             \
		.group = "tcp_info", .name = n, .unit = u, .rule = r, \
		.bits = 32, .pool = p                                 \
	}
#define ZC(n)                                                    \
	{                                                        \
		.group = "zerocopy", .name = n, .unit = "sends", \
		.rule = IG_CTR_COUNTER, .pool = IG_POOL_SUM      \
	}

static const struct ig_ctr_def tcp_ctrs[C_COUNT] = {
	/* of the measured interval, and since the connect */
	[C_RETRANS] = TI("retrans", "segments", IG_CTR_COUNTER, IG_POOL_SUM),
	[C_RETRANS_TOTAL] =
		TI("retrans_total", "segments", IG_CTR_GAUGE, IG_POOL_LAST),
	[C_RTT] = TI("rtt_us", "us", IG_CTR_GAUGE, IG_POOL_LAST),
	[C_RTTVAR] = TI("rttvar_us", "us", IG_CTR_GAUGE, IG_POOL_LAST),
	[C_CWND] = TI("snd_cwnd", "segments", IG_CTR_GAUGE, IG_POOL_LAST),
	[C_MSS] = TI("snd_mss", "bytes", IG_CTR_GAUGE, IG_POOL_LAST),
	[C_PMTU] = TI("pmtu", "bytes", IG_CTR_GAUGE, IG_POOL_LAST),
	[C_REORDERING] =
		TI("reordering", "segments", IG_CTR_GAUGE, IG_POOL_LAST),
	[C_ZC_SENDS] = ZC("sends"),
	[C_ZC_COPIED] = ZC("copied"),
	[C_ZC_ENOBUFS] = ZC("enobufs"),
	[C_ZC_FALLBACK] = ZC("fallback"),
};

#define BITS(lo, hi) (((1u << (hi)) - 1) & ~((1u << (lo)) - 1))

static uint32_t tcp_stream_ctrs(struct ig_stream *st, uint64_t *v)
{
	struct tcp_stream *ts = st->priv;
	struct ig_tcpinfo ti;
	uint32_t have = 0;

	if (!ig_tcpinfo_read(ts->fd, &ti)) {
		v[C_RETRANS] = ti.retrans_total;
		v[C_RETRANS_TOTAL] = ti.retrans_total;
		v[C_RTT] = ti.rtt_us;
		v[C_RTTVAR] = ti.rttvar_us;
		v[C_CWND] = ti.snd_cwnd;
		v[C_MSS] = ti.snd_mss;
		v[C_PMTU] = ti.pmtu;
		v[C_REORDERING] = ti.reordering;
		have |= BITS(C_RETRANS, C_ZC_SENDS);
	}
	if (st->s->local.sock.zerocopy == IG_ZC_ON) {
		v[C_ZC_SENDS] = ts->zcs.sends;
		v[C_ZC_COPIED] = ts->zcs.copied;
		v[C_ZC_ENOBUFS] = ts->zcs.enobufs;
		v[C_ZC_FALLBACK] = ts->zcs.fallback;
		have |= BITS(C_ZC_SENDS, C_COUNT);
	}
	return have;
}

/* Reads fill one piece after another (tcp_stream.c, RX_PIECE). */
static int tcp_bw_recv(struct ig_stream *st)
{
	struct tcp_stream *ts = st->priv;
	size_t off = 0;

	for (;;) {
		ssize_t n =
			ts->sc->recv(ts->fd, ts->buf + off, ts->piece - off, 0);

		if (n > 0) {
			ig_stream_rx(st, n);
			off = (off + (size_t)n) % ts->piece;
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
	.ctrs = tcp_ctrs,
	.nctrs = C_COUNT,
	.stream_ctrs = tcp_stream_ctrs,
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
	SOCK_DATA_PATH,
};
#endif
