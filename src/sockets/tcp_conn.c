// SPDX-License-Identifier: MIT
/* TCP transport set-up: listen/accept on the server, connect on the
 * client, socket buffers read back for the report. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#include "tcp_int.h"

static void set_window(struct ig_session *s, int fd)
{
	int w = (int)s->p.window;

	if (!w)
		return;
	/* before listen()/connect(), so the window scale is negotiated */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w));
}

static void read_window(struct ig_session *s, int fd)
{
	int v;
	socklen_t l = sizeof(v);

	if (!getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &l))
		s->window_snd = v;
	l = sizeof(v);
	if (!getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &l))
		s->window_rcv = v;
}

static uint64_t deadline_of(struct ig_session *s)
{
	return ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
}

/* Waits for events on fd until the absolute deadline: 0 or -ETIMEDOUT. */
static int wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	for (;;) {
		uint64_t now = ig_now_ns();
		int ret;

		if (now >= deadline)
			return -ETIMEDOUT;
		ret = poll(&pfd, 1,
			   (int)((deadline - now) / IG_NSEC_PER_MSEC) + 1);
		if (ret > 0)
			return 0;
		if (ret < 0 && errno != EINTR)
			return -errno;
	}
}

static int listen_local(struct ig_session *s, uint16_t *port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd, one = 1;

	/* the same local address as the control connection */
	if (getsockname(s->ctrl->fd, (struct sockaddr *)&ss, &sl))
		return ig_session_fail(s, errno,
				       "getsockname on the control "
				       "socket: %s",
				       strerror(errno));
	((struct sockaddr_in *)&ss)->sin_port = 0; /* same offset in v6 */
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ig_session_fail(s, errno, "data socket: %s",
				       strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	set_window(s, fd);
	if (bind(fd, (struct sockaddr *)&ss, sl) ||
	    listen(fd, (int)s->nstreams + 8) ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		int e = errno;

		close(fd);
		return ig_session_fail(s, e, "data listener: %s", strerror(e));
	}
	*port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* Reads the hello of a fresh data connection; returns the stream index,
 * or -1 when it is not one of ours (the caller drops it). */
static int read_hello(struct ig_session *s, int fd, uint64_t cookie,
		      uint64_t deadline)
{
	uint8_t h[IG_STREAM_TAG_LEN];
	size_t got = 0;
	int idx;

	while (got < sizeof(h)) {
		ssize_t n;

		if (wait_fd(fd, POLLIN, deadline))
			return -1;
		n = recv(fd, h + got, sizeof(h) - got, MSG_DONTWAIT);
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

static int accept_streams(struct ig_session *s, int lfd, uint64_t cookie)
{
	uint64_t deadline = deadline_of(s);
	unsigned int n = 0;

	while (n < s->nstreams) {
		int fd, idx, ret;

		ret = ig_session_wait(s, lfd, POLLIN, deadline);
		if (ret && ret != -ETIMEDOUT)
			return ret;
		if (ret)
			return ig_session_fail(s, ETIMEDOUT,
					       "only %u of %u "
					       "tcp streams connected within "
					       "%u ms",
					       n, s->nstreams, s->p.timeout_ms);
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		idx = read_hello(s, fd, cookie, deadline);
		if (idx < 0) {
			close(fd);
			continue;
		}
		ret = ig_tcp_stream_init(s, idx, fd);
		if (ret)
			return ret;
		n++;
	}
	read_window(s, ((struct tcp_stream *)s->st[0].priv)->fd);
	return 0;
}

int ig_tcp_setup_server(struct ig_session *s)
{
	json_object *o;
	uint64_t cookie = 0;
	uint16_t port = 0;
	int lfd, ret;

	if (getrandom(&cookie, sizeof(cookie), 0) != sizeof(cookie))
		return ig_session_fail(s, EIO,
				       "getrandom for the session "
				       "cookie failed");
	lfd = listen_local(s, &port);
	if (lfd < 0)
		return lfd;
	o = json_object_new_object();
	json_object_object_add(o, "port", json_object_new_int(port));
	json_object_object_add(o, "cookie", json_object_new_uint64(cookie));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_XPORT, o);
	json_object_put(o);
	if (!ret)
		ret = accept_streams(s, lfd, cookie);
	close(lfd);
	return ret;
}

static int connect_one(struct ig_session *s, struct sockaddr_storage *ss,
		       socklen_t sl, uint64_t cookie, unsigned int idx)
{
	uint8_t h[IG_STREAM_TAG_LEN];
	int fd, fl, err = 0;
	socklen_t el = sizeof(err);

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ig_session_fail(s, errno, "tcp stream %u: socket: %s",
				       idx, strerror(errno));
	set_window(s, fd);
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	if (connect(fd, (struct sockaddr *)ss, sl) && errno != EINPROGRESS)
		err = errno;
	else if (wait_fd(fd, POLLOUT, deadline_of(s)))
		err = ETIMEDOUT;
	else
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
	fcntl(fd, F_SETFL, fl);
	ig_stream_tag_put(h, cookie, idx);
	if (!err && send(fd, h, sizeof(h), MSG_NOSIGNAL) != sizeof(h))
		err = errno ? errno : EIO;
	if (err) {
		char a[64];

		close(fd);
		ig_sockaddr_str(ss, a, sizeof(a));
		return ig_session_fail(s, err,
				       "tcp stream %u: connect to %s: "
				       "%s",
				       idx, a, strerror(err));
	}
	return ig_tcp_stream_init(s, idx, fd);
}

int ig_tcp_setup_client(struct ig_session *s)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	uint64_t port, cookie;
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
	if (getpeername(s->ctrl->fd, (struct sockaddr *)&ss, &sl))
		return ig_session_fail(s, errno, "getpeername: %s",
				       strerror(errno));
	((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
	for (unsigned int i = 0; i < s->nstreams; i++) {
		ret = connect_one(s, &ss, sl, cookie, i);
		if (ret)
			return ret;
	}
	/* --cpu pins TCP streams as it pins verbs ones (same pinning) */
	for (unsigned int i = 0; i < s->nstreams; i++)
		s->st[i].cpu = s->local.cpu;
	read_window(s, ((struct tcp_stream *)s->st[0].priv)->fd);
	return 0;
}
