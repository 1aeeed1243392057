/* SPDX-License-Identifier: MIT */
#ifndef IG_SOCK_CALLS_H
#define IG_SOCK_CALLS_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

/*
 * The socket calls of the socket transport (docs/design.md, "Transport
 * contract"): the same code in tcp*.c drives the kernel's TCP (socket,
 * send, ...: sock_kernel.c) or librdmacm's rsockets (rsocket, rsend, ...:
 * sock_rs.c).  Each call behaves as its libc namesake (-1 and errno on
 * failure); socket() and accept() make stream sockets, close-on-exec
 * where the table can.
 */
struct ig_sock_calls {
	const char *name; /* "tcp", "rsockets": in every error line */
	/* What a failed socket()/bind() probably means, or NULL */
	const char *hint;
	/* SO_RCVTIMEO/SO_SNDTIMEO work: the data path blocks with them.
	 * Else it runs non-blocking and waits in poll() for the timeout. */
	bool timeo;
	/* TCP_INFO and MSG_ZEROCOPY exist (the kernel's TCP only) */
	bool kernel_tcp;
	/* poll() is only ever called with timeout 0, in a loop until the
	 * deadline: an rpoll() whose timeout expires leaves its gate count
	 * raised (librdmacm 44), after which every rpoll() that has to wait
	 * spins for ever, deaf to its timeout */
	bool spin;
	/* shutdown() wakes a thread waiting on the socket and returns at
	 * once (the kernel's).  rsockets' rshutdown() instead makes the
	 * socket blocking and waits for the peer's credits and for every
	 * send to complete: for ever when the peer died with nothing in
	 * flight.  So the data path of such a table watches the session's
	 * flags itself, and a connected one of a failed session is closed
	 * (rclose() calls rshutdown()) on a thread nobody waits for. */
	bool shutdown_wakes;
	int (*socket)(int family);
	int (*bind)(int fd, const struct sockaddr *a, socklen_t len);
	int (*listen)(int fd, int backlog);
	int (*accept)(int fd);
	int (*connect)(int fd, const struct sockaddr *a, socklen_t len);
	ssize_t (*send)(int fd, const void *buf, size_t len, int flags);
	ssize_t (*recv)(int fd, void *buf, size_t len, int flags);
	int (*setsockopt)(int fd, int level, int name, const void *val,
			  socklen_t len);
	int (*getsockopt)(int fd, int level, int name, void *val,
			  socklen_t *len);
	int (*getsockname)(int fd, struct sockaddr *a, socklen_t *len);
	int (*poll)(struct pollfd *fds, nfds_t n, int timeout_ms);
	/* F_GETFL (arg ignored) and F_SETFL only */
	int (*fcntl)(int fd, int cmd, int arg);
	int (*shutdown)(int fd, int how);
	int (*close)(int fd);
};

/* sock_kernel.c: the kernel's sockets */
extern const struct ig_sock_calls ig_sock_kernel;
#ifdef IBGAP_HAVE_RSOCKETS
/* sock_rs.c: librdmacm's rsockets */
extern const struct ig_sock_calls ig_sock_rs;
#endif

#endif
