// SPDX-License-Identifier: MIT
/* Control-connection sockets: resolve, connect with a deadline, listen. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/hostport.h"
#include "ctrl.h"
#include "net.h"

/* Binds fd to the IPv4 address src (port 0) when ai is IPv4 too. */
static int bind_src(int fd, const struct addrinfo *ai, const char *src)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	if (!src || ai->ai_family != AF_INET ||
	    inet_pton(AF_INET, src, &sin.sin_addr) != 1)
		return 0;
	return bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ? -errno : 0;
}

static int connect_timed(const struct addrinfo *ai, const char *src,
			 int timeout_ms)
{
	struct pollfd pfd;
	int fd, fl, err = 0, one = 1;
	socklen_t el = sizeof(err);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	err = -bind_src(fd, ai, src);
	if (err) {
		close(fd);
		return -err;
	}
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		err = errno;
	} else {
		pfd = (struct pollfd){ .fd = fd, .events = POLLOUT };
		if (poll(&pfd, 1, timeout_ms) <= 0)
			err = ETIMEDOUT;
		else
			getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
	}
	if (err) {
		close(fd);
		return -err;
	}
	fcntl(fd, F_SETFL, fl);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int ig_net_connect(const char *host, const char *port, int timeout_ms,
		   char *err, size_t errlen)
{
	return ig_net_connect_from(host, port, NULL, timeout_ms, err, errlen);
}

int ig_net_connect_from(const char *host, const char *port, const char *src,
			int timeout_ms, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int ret, fd = -ECONNREFUSED;

	ret = getaddrinfo(host, port, &hints, &res);
	if (ret) {
		snprintf(err, errlen, "cannot resolve host '%s': %s", host,
			 gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = connect_timed(ai, src, timeout_ms);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(err, errlen, "cannot connect to %s port %s%s%s: %s%s",
			 host, port, src ? " from " : "", src ? src : "",
			 strerror(-fd),
			 fd == -ECONNREFUSED ? " (is 'ibgap server' running "
					       "there?)"
					     : "");
	return fd;
}

static int listen_on(const struct addrinfo *ai)
{
	int fd, one = 1, zero = 0;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* -B [IPV6]: the address without its brackets, in hp; a port there is
 * -p's. */
static int bind_unbracket(const char **bind_addr, struct ig_hostport *hp,
			  char *err, size_t errlen)
{
	if (!*bind_addr || (*bind_addr)[0] != '[')
		return 0;
	if (ig_hostport_split(*bind_addr, hp) || hp->port[0]) {
		snprintf(err, errlen,
			 "bind address '%s' is not an address: allowed a "
			 "name, an address or [IPV6], no port (-p gives it)",
			 *bind_addr);
		return -EINVAL;
	}
	*bind_addr = hp->host;
	return 0;
}

int ig_net_listen(const char *bind_addr, const char *port, int *bound,
		  char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE },
			*res, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ig_hostport hp;
	int ret, fd = -EADDRNOTAVAIL;

	if (bind_unbracket(&bind_addr, &hp, err, errlen))
		return -EINVAL;
	if (!bind_addr)
		hints.ai_family = AF_INET6; /* dual stack; falls back below */
	ret = getaddrinfo(bind_addr, port, &hints, &res);
	if (ret && !bind_addr) {
		hints.ai_family = AF_UNSPEC;
		ret = getaddrinfo(NULL, port, &hints, &res);
	}
	if (ret) {
		snprintf(err, errlen, "cannot resolve bind address '%s': %s",
			 bind_addr ? bind_addr : "*", gai_strerror(ret));
		return -EADDRNOTAVAIL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = listen_on(ai);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, errlen, "cannot listen on %s port %s: %s",
			 bind_addr ? bind_addr : "*", port, strerror(-fd));
		return fd;
	}
	if (bound && !getsockname(fd, (struct sockaddr *)&ss, &sl))
		*bound = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}
