// SPDX-License-Identifier: MIT
/*
 * librdmacm's rsockets as the socket transport's table: the same tcp*.c
 * code over RDMA.  An rsocket is not a kernel socket: its number is
 * rsockets' own (the number of its rdma_cm event channel), so every call
 * on it, poll() included, goes through this table.  rsockets has no
 * SO_RCVTIMEO/SO_SNDTIMEO: the data path runs non-blocking and waits in
 * rpoll(..., 0) until the timeout (timeo false, spin true: see
 * sock_calls.h).  Built when <rdma/rsocket.h> is found
 * (CMakeLists.txt, IBGAP_RSOCKETS).
 */
#include <fcntl.h>
#include <rdma/rsocket.h>

#include "sock_calls.h"

static int rs_socket(int family)
{
	return rsocket(family, SOCK_STREAM, 0);
}

static int rs_accept(int fd)
{
	return raccept(fd, NULL, NULL);
}

static int rs_fcntl(int fd, int cmd, int arg)
{
	return cmd == F_GETFL ? rfcntl(fd, cmd) : rfcntl(fd, cmd, arg);
}

const struct ig_sock_calls ig_sock_rs = {
	.name = "rsockets",
	.hint = "rsockets needs an RDMA device with that address: "
		"see rdma link show",
	.timeo = false,
	.kernel_tcp = false,
	.spin = true,
	.shutdown_wakes = false,
	.socket = rs_socket,
	.bind = rbind,
	.listen = rlisten,
	.accept = rs_accept,
	.connect = rconnect,
	.send = rsend,
	.recv = rrecv,
	.setsockopt = rsetsockopt,
	.getsockopt = rgetsockopt,
	.getsockname = rgetsockname,
	.poll = rpoll,
	.fcntl = rs_fcntl,
	.shutdown = rshutdown,
	.close = rclose,
};
