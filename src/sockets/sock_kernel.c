// SPDX-License-Identifier: MIT
/* The kernel's socket calls, as the socket transport's table. */
#include <fcntl.h>
#include <unistd.h>

#include "sock_calls.h"

static int k_socket(int family)
{
	return socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

static int k_accept(int fd)
{
	return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

static ssize_t k_send(int fd, const void *buf, size_t len, int flags)
{
	return send(fd, buf, len, flags | MSG_NOSIGNAL);
}

static int k_fcntl(int fd, int cmd, int arg)
{
	return cmd == F_GETFL ? fcntl(fd, cmd) : fcntl(fd, cmd, arg);
}

const struct ig_sock_calls ig_sock_kernel = {
	.name = "tcp",
	.timeo = true,
	.kernel_tcp = true,
	.shutdown_wakes = true,
	.socket = k_socket,
	.bind = bind,
	.listen = listen,
	.accept = k_accept,
	.connect = connect,
	.send = k_send,
	.recv = recv,
	.setsockopt = setsockopt,
	.getsockopt = getsockopt,
	.getsockname = getsockname,
	.poll = poll,
	.fcntl = k_fcntl,
	.shutdown = shutdown,
	.close = close,
};
