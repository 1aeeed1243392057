// SPDX-License-Identifier: MIT
/* Control channel I/O: framing on a TCP socket with a deadline per read. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "ctrl.h"

void ig_ctrl_init(struct ig_ctrl *c, int fd, int timeout_ms)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	int one = 1;

	memset(c, 0, sizeof(*c));
	c->fd = fd;
	/* small messages, each awaited by the peer: never wait for Nagle */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->timeout_ms = timeout_ms;
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0)
		ig_sockaddr_str(&ss, c->peer, sizeof(c->peer));
	else
		snprintf(c->peer, sizeof(c->peer), "unknown peer");
}

void ig_ctrl_close(struct ig_ctrl *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int ig_ctrl_vfail(struct ig_ctrl *c, int err, const char *fmt, va_list ap)
{
	/* only the claimant reads or writes err; a line already there
	 * (look_for_stop's, put back whole) also wins */
	if (!atomic_exchange(&c->err_claimed, 1) && !c->err[0])
		vsnprintf(c->err, sizeof(c->err), fmt, ap);
	return -err;
}

int ig_ctrl_fail(struct ig_ctrl *c, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ig_ctrl_vfail(c, err, fmt, ap);
	va_end(ap);
	return ret;
}

/* The address of sa without its port; 0 or -EINVAL (not IPv4 or IPv6). */
static int ntop(const struct sockaddr *sa, char *buf, size_t len)
{
	const struct sockaddr_in6 *s6 = (const void *)sa;
	const struct sockaddr_in *s4 = (const void *)sa;

	if (sa->sa_family == AF_INET)
		return inet_ntop(AF_INET, &s4->sin_addr, buf, len) ? 0
								   : -EINVAL;
	if (sa->sa_family == AF_INET6)
		return inet_ntop(AF_INET6, &s6->sin6_addr, buf, len) ? 0
								     : -EINVAL;
	return -EINVAL;
}

void ig_sockaddr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	const struct sockaddr_in6 *s6 = (const void *)ss;
	const struct sockaddr_in *s4 = (const void *)ss;
	char host[INET6_ADDRSTRLEN] = "?";

	ntop((const struct sockaddr *)ss, host, sizeof(host));
	if (ss->ss_family == AF_INET)
		snprintf(buf, len, "%s:%u", host, ntohs(s4->sin_port));
	else if (ss->ss_family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", host, ntohs(s6->sin6_port));
	else
		snprintf(buf, len, "unknown address family %d", ss->ss_family);
}

int ig_sockaddr_host(const struct sockaddr *sa, char *buf, size_t len)
{
	const struct sockaddr_in6 *s6 = (const void *)sa;
	struct in_addr a4;

	if (sa->sa_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		return ntop(sa, buf, len);
	memcpy(&a4, &s6->sin6_addr.s6_addr[12], 4);
	return inet_ntop(AF_INET, &a4, buf, len) ? 0 : -EINVAL;
}

void ig_sockaddr_unmap(struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in6 s6 = *(struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	if (ss->ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr))
		return;
	memset(ss, 0, sizeof(*ss));
	s4->sin_family = AF_INET;
	s4->sin_port = s6.sin6_port;
	memcpy(&s4->sin_addr, &s6.sin6_addr.s6_addr[12], 4);
	*len = sizeof(*s4);
}

static int numeric_addr(const char *a, struct sockaddr_storage *ss,
			socklen_t *sl)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, a, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		*sl = sizeof(*s4);
		return 0;
	}
	if (inet_pton(AF_INET6, a, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		*sl = sizeof(*s6);
		return 0;
	}
	return -EINVAL;
}

int ig_ctrl_data_addr(const struct ig_ctrl *c, const char *data_addr,
		      bool local, struct sockaddr_storage *ss, socklen_t *sl,
		      char *err, size_t len)
{
	int ret;

	*sl = sizeof(*ss);
	if (data_addr && data_addr[0]) {
		if (!numeric_addr(data_addr, ss, sl))
			return 0;
		snprintf(err, len,
			 "data address '%s' is not a numeric IPv4 or IPv6 "
			 "address",
			 data_addr);
		return -EINVAL;
	}
	ret = local ? getsockname(c->fd, (struct sockaddr *)ss, sl)
		    : getpeername(c->fd, (struct sockaddr *)ss, sl);
	if (ret) {
		ret = -errno;
		snprintf(err, len, "%s of the control connection: %s",
			 local ? "getsockname" : "getpeername", strerror(-ret));
		return ret;
	}
	ig_sockaddr_unmap(ss, sl);
	((struct sockaddr_in *)ss)->sin_port = 0; /* same offset in v6 */
	return 0;
}

static bool same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr,
			       sizeof(struct in_addr));
	return a->sa_family == AF_INET6 &&
	       !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr,
		       sizeof(struct in6_addr));
}

void ig_ctrl_netdev(const struct ig_ctrl *c, char *dev, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *all, *a;

	dev[0] = 0;
	if (getsockname(c->fd, (struct sockaddr *)&ss, &sl) || getifaddrs(&all))
		return;
	ig_sockaddr_unmap(&ss, &sl);
	for (a = all; a; a = a->ifa_next)
		if (a->ifa_addr &&
		    same_addr(a->ifa_addr, (struct sockaddr *)&ss)) {
			snprintf(dev, len, "%s", a->ifa_name);
			break;
		}
	freeifaddrs(all);
}

int ig_ctrl_poll(struct ig_ctrl *c, int ms)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	int ret;

	do
		ret = poll(&pfd, 1, ms);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	return ret > 0;
}

/* Reads exactly len bytes before the absolute deadline (ns). */
static int read_full(struct ig_ctrl *c, void *buf, size_t len,
		     uint64_t deadline)
{
	size_t got = 0;

	while (got < len) {
		uint64_t now = ig_now_ns();
		int ret;

		if (now >= deadline)
			return ig_ctrl_fail(c, ETIMEDOUT,
					    "no reply from %s within %d ms "
					    "(raise --timeout if the peer is "
					    "slow)",
					    c->peer, c->timeout_ms);
		ret = ig_ctrl_poll(c,
				   (int)((deadline - now + 999999) / 1000000));
		if (ret < 0)
			return ig_ctrl_fail(c, -ret,
					    "poll on control "
					    "connection to %s: %s",
					    c->peer, strerror(-ret));
		if (ret == 0)
			continue;
		ssize_t n = recv(c->fd, (char *)buf + got, len - got, 0);

		if (n == 0)
			return ig_ctrl_fail(c, ECONNRESET,
					    "%s closed the "
					    "control connection",
					    c->peer);
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return ig_ctrl_fail(c, errno,
					    "reading control "
					    "connection from %s: %s",
					    c->peer, strerror(errno));
		if (n > 0)
			got += n;
	}
	return 0;
}

static int write_full(struct ig_ctrl *c, const void *buf, size_t len)
{
	size_t done = 0;
	uint64_t deadline = ig_now_ns() + c->timeout_ms * IG_NSEC_PER_MSEC;

	while (done < len) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLOUT };
		ssize_t n;

		if (ig_now_ns() >= deadline)
			return ig_ctrl_fail(c, ETIMEDOUT,
					    "%s did not take "
					    "a control message within %d ms",
					    c->peer, c->timeout_ms);
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = send(c->fd, (const char *)buf + done, len - done,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
			return ig_ctrl_fail(c, errno,
					    "%s went away (the control "
					    "connection was closed: %s)",
					    c->peer, strerror(errno));
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return ig_ctrl_fail(c, errno, "sending to %s: %s",
					    c->peer, strerror(errno));
		if (n > 0)
			done += n;
	}
	return 0;
}

int ig_ctrl_send(struct ig_ctrl *c, enum ig_msg_type type, json_object *body)
{
	const char *text = "{}";
	uint8_t *buf;
	size_t len;
	int ret;

	if (body)
		text = json_object_to_json_string_ext(body,
						      JSON_C_TO_STRING_PLAIN);
	len = strlen(text);
	if (len > IG_MSG_MAX_BODY)
		return ig_ctrl_fail(c, EMSGSIZE,
				    "%s message of %zu bytes "
				    "exceeds the cap of %u",
				    ig_msg_type_name(type), len,
				    IG_MSG_MAX_BODY);
	/* header and body in one send: one segment for small messages */
	buf = malloc(IG_MSG_HDR_LEN + len);
	if (!buf)
		return ig_ctrl_fail(c, ENOMEM,
				    "out of memory for a %zu-byte "
				    "control message",
				    len);
	ig_msg_hdr_encode(buf, type, (uint32_t)len);
	memcpy(buf + IG_MSG_HDR_LEN, text, len);
	ret = write_full(c, buf, IG_MSG_HDR_LEN + len);
	free(buf);
	return ret;
}

int ig_ctrl_send_msg(struct ig_ctrl *c, enum ig_msg_type type, const char *msg)
{
	json_object *o = json_object_new_object();
	int ret;

	json_object_object_add(o, "message", json_object_new_string(msg));
	ret = ig_ctrl_send(c, type, o);
	json_object_put(o);
	return ret;
}

int ig_ctrl_send_stopped(struct ig_ctrl *c, const char *why)
{
	json_object *o = json_object_new_object();
	char msg[96];
	int ret;

	snprintf(msg, sizeof(msg),
		 "the server was stopped (%s) and ended this session", why);
	json_object_object_add(o, "message", json_object_new_string(msg));
	json_object_object_add(o, "stopped", json_object_new_string(why));
	ret = ig_ctrl_send(c, IG_MSG_ERROR, o);
	json_object_put(o);
	return ret;
}

static int hdr_error(struct ig_ctrl *c, int ret, const struct ig_msg_hdr *h)
{
	switch (ret) {
	case -EPROTONOSUPPORT:
		return ig_ctrl_fail(c, EPROTONOSUPPORT,
				    "protocol version "
				    "mismatch: %s speaks %u, this ibgap "
				    "speaks %u: run the same ibgap version "
				    "on both hosts",
				    c->peer, h->version, IG_PROTO_VERSION);
	case -EMSGSIZE:
		return ig_ctrl_fail(c, EMSGSIZE,
				    "%s announced a %u-byte "
				    "message; the cap is %u",
				    c->peer, h->len, IG_MSG_MAX_BODY);
	case -EBADMSG:
		return ig_ctrl_fail(c, EBADMSG,
				    "%s sent unknown message "
				    "type %u",
				    c->peer, h->type);
	default:
		return ig_ctrl_fail(c, EPROTO,
				    "%s does not speak the ibgap "
				    "control protocol (bad magic)",
				    c->peer);
	}
}

/* A stopped server's ERROR names what stopped it (a signal's name). */
static void note_stopped(struct ig_ctrl *c, enum ig_msg_type type,
			 json_object *body)
{
	const char *why = NULL;

	if (type == IG_MSG_ERROR && !ig_json_get_str(body, "stopped", &why))
		ig_str_safe(why, c->stopped, sizeof(c->stopped),
			    sizeof(c->stopped) - 1);
}

int ig_ctrl_recv(struct ig_ctrl *c, enum ig_msg_type *type, json_object **body)
{
	uint64_t deadline = ig_now_ns() + c->timeout_ms * IG_NSEC_PER_MSEC;
	uint8_t hdr[IG_MSG_HDR_LEN];
	struct ig_msg_hdr h = { 0 };
	char *buf;
	int ret;

	*body = NULL;
	ret = read_full(c, hdr, sizeof(hdr), deadline);
	if (ret)
		return ret;
	ret = ig_msg_hdr_decode(hdr, &h);
	if (ret)
		return hdr_error(c, ret, &h);
	buf = malloc(h.len ? h.len : 1);
	if (!buf)
		return ig_ctrl_fail(c, ENOMEM,
				    "out of memory for a %u-byte "
				    "control message",
				    h.len);
	ret = read_full(c, buf, h.len, deadline);
	if (!ret) {
		ret = ig_msg_body_decode((uint8_t *)buf, h.len, body);
		if (ret)
			ret = ig_ctrl_fail(c, EBADMSG,
					   "%s sent a %s message "
					   "whose body is not a JSON object",
					   c->peer, ig_msg_type_name(h.type));
	}
	free(buf);
	*type = h.type;
	if (!ret)
		note_stopped(c, h.type, *body);
	return ret;
}

static int unexpected(struct ig_ctrl *c, enum ig_msg_type want,
		      enum ig_msg_type alt, enum ig_msg_type got)
{
	char also[32] = "";

	if (alt != want)
		snprintf(also, sizeof(also), " or %s", ig_msg_type_name(alt));
	return ig_ctrl_fail(c, EPROTO, "expected %s%s from %s, got %s",
			    ig_msg_type_name(want), also, c->peer,
			    ig_msg_type_name(got));
}

int ig_ctrl_expect2(struct ig_ctrl *c, enum ig_msg_type want,
		    enum ig_msg_type alt, enum ig_msg_type *got,
		    json_object **body)
{
	enum ig_msg_type type;
	json_object *o;
	const char *msg = "no reason given";
	int ret;

	if (body)
		*body = NULL;
	ret = ig_ctrl_recv(c, &type, &o);
	if (ret)
		return ret;
	if (type == IG_MSG_ERROR || type == IG_MSG_BUSY) {
		ig_json_get_str(o, "message", &msg);
		ig_str_safe(msg, c->remote_msg, sizeof(c->remote_msg),
			    sizeof(c->remote_msg));
		msg = c->remote_msg;
		ret = ig_ctrl_fail(c, EREMOTEIO, "%s: %s",
				   type == IG_MSG_BUSY ? "server busy"
						       : "peer reported",
				   msg);
	} else if (type != want && type != alt) {
		ret = unexpected(c, want, alt, type);
	}
	if (got)
		*got = type;
	if (ret || !body)
		json_object_put(o);
	else
		*body = o;
	return ret;
}

int ig_ctrl_expect(struct ig_ctrl *c, enum ig_msg_type want, json_object **body)
{
	return ig_ctrl_expect2(c, want, want, NULL, body);
}
