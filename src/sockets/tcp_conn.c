// SPDX-License-Identifier: MIT
/* Socket transport set-up: listen/accept on the server, connect on the
 * client, socket buffers read back for the report; every call on a data
 * socket through the table sc (kernel TCP or rsockets).  The control
 * connection is a kernel socket always. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "engine/engine.h"
#include "host/cpulist.h"
#include "tcp_int.h"

static void set_window(struct ig_session *s, int fd,
		       const struct ig_sock_calls *sc)
{
	int w = (int)s->p.sock.window;

	if (!w)
		return;
	/* before listen()/connect(), so the window scale is negotiated */
	sc->setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w));
	sc->setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w));
}

static void read_window(struct ig_session *s)
{
	struct tcp_stream *ts = s->st[0].priv;
	int v;
	socklen_t l = sizeof(v);

	if (!ts->sc->getsockopt(ts->fd, SOL_SOCKET, SO_SNDBUF, &v, &l))
		s->window_snd = v;
	l = sizeof(v);
	if (!ts->sc->getsockopt(ts->fd, SOL_SOCKET, SO_RCVBUF, &v, &l))
		s->window_rcv = v;
}

static uint64_t deadline_of(struct ig_session *s)
{
	return ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
}

/* Waits for events on fd until the absolute deadline: 0 or -errno. */
static int wait_fd(const struct ig_sock_calls *sc, int fd, short events,
		   uint64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int n = ig_sock_poll(sc, &pfd, 1, deadline);

	return n > 0 ? 0 : n;
}

/* One line for a data socket's call that failed (errno e) for host ss:
 * names the calls, the address and, where the table has one, the hint. */
static int sock_fail(struct ig_session *s, const struct ig_sock_calls *sc,
		     const char *what, const struct sockaddr_storage *ss, int e)
{
	char a[NI_MAXHOST] = "?";

	getnameinfo((const struct sockaddr *)ss, sizeof(*ss), a, sizeof(a),
		    NULL, 0, NI_NUMERICHOST);
	return ig_session_fail(s, e, "%s %s for %s: %s%s%s%s", sc->name, what,
			       a, strerror(e), sc->hint ? " (" : "",
			       sc->hint ? sc->hint : "", sc->hint ? ")" : "");
}

static int listen_local(struct ig_session *s, const struct ig_sock_calls *sc,
			uint16_t *port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char err[160];
	int fd, one = 1;

	/* the same local address as the control connection, or --ctrl's
	 * data address */
	if (ig_ctrl_data_addr(s->ctrl, s->p.data_addr, true, &ss, &sl, err,
			      sizeof(err)))
		return ig_session_fail(s, EINVAL, "data listener: %s", err);
	fd = sc->socket(ss.ss_family);
	if (fd < 0)
		return sock_fail(s, sc, "data socket", &ss, errno);
	sc->setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	set_window(s, fd, sc);
	if (sc->bind(fd, (struct sockaddr *)&ss, sl) ||
	    sc->listen(fd, (int)s->nstreams + 8) ||
	    sc->getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		int e = errno;

		sc->close(fd);
		return sock_fail(s, sc, "data listener", &ss, e);
	}
	*port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* Reads the hello of a fresh data connection; returns the stream index,
 * or -1 when it is not one of ours (the caller drops it). */
static int read_hello(struct ig_session *s, const struct ig_sock_calls *sc,
		      int fd, uint64_t cookie, uint64_t deadline)
{
	uint8_t h[IG_STREAM_TAG_LEN];
	size_t got = 0;
	int idx;

	while (got < sizeof(h)) {
		ssize_t n;

		if (wait_fd(sc, fd, POLLIN, deadline))
			return -1;
		n = sc->recv(fd, h + got, sizeof(h) - got, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return -1;
		if (n > 0)
			got += n;
	}
	idx = ig_stream_tag_get(h, cookie, s->nstreams);
	if (idx < 0 || s->st[idx].priv)
		return -1;
	return idx;
}

/*
 * Waits until the data listener has a connection, watching the control
 * connection too (what the peer sends there during set-up ends it: an
 * ERROR, or a peer that vanished).  Through the table's poll: a listening
 * rsocket is no kernel fd to poll (librdmacm's own thread takes its
 * rdma_cm events and queues the accepted connections).  0, -ETIMEDOUT (no
 * error text) or another negative errno with the session's error set.
 */
static int wait_listener(struct ig_session *s, const struct ig_sock_calls *sc,
			 int lfd, uint64_t deadline)
{
	struct pollfd pfd[2] = { { .fd = lfd, .events = POLLIN },
				 { .fd = s->ctrl->fd, .events = POLLIN } };
	int n = ig_sock_poll(sc, pfd, 2, deadline);

	if (n == -ETIMEDOUT)
		return n;
	if (n < 0)
		return ig_session_fail(s, -n, "%s data listener: poll: %s",
				       sc->name, strerror(-n));
	if (pfd[0].revents)
		return 0;
	/* the control connection: ig_session_wait reads it (fd -1: poll()
	 * skips it) */
	return ig_session_wait(s, -1, 0, deadline);
}

static int accept_streams(struct ig_session *s, const struct ig_sock_calls *sc,
			  int lfd, uint64_t cookie)
{
	uint64_t deadline = deadline_of(s);
	unsigned int n = 0;

	while (n < s->nstreams) {
		int fd, idx, ret;

		ret = wait_listener(s, sc, lfd, deadline);
		if (ret && ret != -ETIMEDOUT)
			return ret;
		if (ret)
			return ig_session_fail(s, ETIMEDOUT,
					       "only %u of %u "
					       "%s streams connected within "
					       "%u ms",
					       n, s->nstreams, sc->name,
					       s->p.timeout_ms);
		fd = sc->accept(lfd);
		if (fd < 0)
			continue;
		idx = read_hello(s, sc, fd, cookie, deadline);
		if (idx < 0) {
			sc->close(fd);
			continue;
		}
		ret = ig_tcp_stream_init(s, idx, fd, sc);
		if (ret)
			return ret;
		n++;
	}
	read_window(s);
	return 0;
}

int ig_tcp_setup_server(struct ig_session *s, const struct ig_sock_calls *sc)
{
	json_object *o;
	uint64_t cookie = 0;
	uint16_t port = 0;
	int lfd, ret;

	if (getrandom(&cookie, sizeof(cookie), 0) != sizeof(cookie))
		return ig_session_fail(s, EIO,
				       "getrandom for the session "
				       "cookie failed");
	lfd = listen_local(s, sc, &port);
	if (lfd < 0)
		return lfd;
	o = json_object_new_object();
	json_object_object_add(o, "port", json_object_new_int(port));
	json_object_object_add(o, "cookie", json_object_new_uint64(cookie));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_XPORT, o);
	json_object_put(o);
	if (!ret)
		ret = accept_streams(s, sc, lfd, cookie);
	sc->close(lfd);
	return ret;
}

/* Connects fd (non-blocking until then) to ss: 0 or an errno. */
static int connect_fd(struct ig_session *s, const struct ig_sock_calls *sc,
		      int fd, const struct sockaddr_storage *ss, socklen_t sl)
{
	int fl, err = 0;
	socklen_t el = sizeof(err);

	fl = sc->fcntl(fd, F_GETFL, 0);
	sc->fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	if (sc->connect(fd, (const struct sockaddr *)ss, sl) &&
	    errno != EINPROGRESS)
		err = errno;
	else if (wait_fd(sc, fd, POLLOUT, deadline_of(s)))
		err = ETIMEDOUT;
	else
		sc->getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
	sc->fcntl(fd, F_SETFL, fl);
	return err;
}

/* --rails: the stream leaves from the rail's address (IPv4 to IPv4);
 * 0 or an errno. */
static int bind_src(struct ig_session *s, const struct ig_sock_calls *sc,
		    int fd, const struct sockaddr_storage *to)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	if (!s->local.src_addr[0] || to->ss_family != AF_INET ||
	    inet_pton(AF_INET, s->local.src_addr, &sin.sin_addr) != 1)
		return 0;
	return sc->bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ? errno : 0;
}

static int connect_one(struct ig_session *s, const struct ig_sock_calls *sc,
		       struct sockaddr_storage *ss, socklen_t sl,
		       uint64_t cookie, unsigned int idx)
{
	uint8_t h[IG_STREAM_TAG_LEN];
	int fd, err;

	fd = sc->socket(ss->ss_family);
	if (fd < 0)
		return sock_fail(s, sc, "stream socket", ss, errno);
	set_window(s, fd, sc);
	err = bind_src(s, sc, fd, ss);
	if (!err)
		err = connect_fd(s, sc, fd, ss, sl);
	ig_stream_tag_put(h, cookie, idx);
	if (!err && sc->send(fd, h, sizeof(h), 0) != sizeof(h))
		err = errno ? errno : EIO;
	if (err) {
		char a[64];

		sc->close(fd);
		ig_sockaddr_str(ss, a, sizeof(a));
		return ig_session_fail(s, err,
				       "%s stream %u: connect to %s: "
				       "%s",
				       sc->name, idx, a, strerror(err));
	}
	return ig_tcp_stream_init(s, idx, fd, sc);
}

int ig_tcp_setup_client(struct ig_session *s, const struct ig_sock_calls *sc)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	uint64_t port, cookie;
	char err[160];
	json_object *o;
	int ret;

	ret = ig_ctrl_expect(s->ctrl, IG_MSG_XPORT, &o);
	if (ret)
		return ret;
	ret = ig_json_get_u64(o, "port", &port) ||
	      ig_json_get_u64(o, "cookie", &cookie) || port == 0 ||
	      port > 65535;
	json_object_put(o);
	if (ret)
		return ig_session_fail(s, EPROTO,
				       "server sent no usable "
				       "data port");
	ret = ig_ctrl_data_addr(s->ctrl, s->p.data_addr, false, &ss, &sl, err,
				sizeof(err));
	if (ret)
		return ig_session_fail(s, -ret, "data connection: %s", err);
	((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
	for (unsigned int i = 0; i < s->nstreams; i++) {
		ret = connect_one(s, sc, &ss, sl, cookie, i);
		if (ret)
			return ret;
	}
	/* --cpu pins TCP streams as it pins verbs ones (same pinning);
	 * --rails puts them on the rail's HCA's CPUs */
	for (unsigned int i = 0; i < s->nstreams; i++)
		s->st[i].cpu = s->local.cpu >= 0 || !s->local.tcp_cpus[0]
				       ? s->local.cpu
				       : ig_cpulist_nth(s->local.tcp_cpus,
							(int)i, false);
	read_window(s);
	return 0;
}
