/* SPDX-License-Identifier: MIT */
#ifndef IG_TCP_INT_H
#define IG_TCP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <poll.h>
#include <sys/types.h>

#include "sock_calls.h"
#include "tcp_zc.h"

struct ig_session;
struct ig_stream;

/*
 * MSG_ZEROCOPY accounting of one stream's sender (--zerocopy): sends made
 * with MSG_ZEROCOPY, how many of them the kernel completed by copying
 * (SO_EE_CODE_ZEROCOPY_COPIED), sends refused with ENOBUFS, and sends
 * that went out copying after such a refusal.
 */
struct ig_zc_stats {
	uint64_t sends, copied, enobufs, fallback;
};

struct tcp_stream {
	const struct ig_sock_calls *sc; /* kernel TCP or rsockets */
	int fd;
	char *buf;
	size_t piece; /* bandwidth receiver: bytes of one filled read */
	/* bandwidth sender: one message (copying, or MSG_ZEROCOPY),
	 * chosen once at set-up */
	ssize_t (*send)(struct ig_stream *st);
	bool zc_on;		/* SO_ZEROCOPY is set: zc.nbuf buffers */
	size_t stride;		/* bytes from one buffer to the next */
	struct ig_zc zc;	/* which buffers are in flight */
	struct ig_zc_stats zcs; /* since the stream began */
};

/* tcp_conn.c: the streams' connections, made with the calls of sc */
int ig_tcp_setup_server(struct ig_session *s, const struct ig_sock_calls *sc);
int ig_tcp_setup_client(struct ig_session *s, const struct ig_sock_calls *sc);
/* tcp_stream.c: takes ownership of fd (closed on error) as stream idx. */
int ig_tcp_stream_init(struct ig_session *s, unsigned int idx, int fd,
		       const struct ig_sock_calls *sc);
/* tcp_stream.c: polls pfd with the table's poll until one of them has
 * events or the deadline (ig_now_ns) passes (spinning where the table
 * says so): how many have events, -ETIMEDOUT or -errno */
int ig_sock_poll(const struct ig_sock_calls *sc, struct pollfd *pfd, nfds_t n,
		 uint64_t deadline);
/* tcp_stream.c: waits up to the timeout for events on the stream's
 * socket after a call said EAGAIN: 0, or -1 with errno EAGAIN when the
 * time is up (with timeo the call itself waited: at once) */
int ig_tcp_wait(struct ig_stream *st, short events);
/* tcp_stream.c: closes and frees every stream set up. */
void ig_tcp_cleanup(struct ig_session *s);
/* tcp_stream.c: a send/recv that returned n (errno) -> one line, -errno */
int ig_tcp_io_fail(struct ig_stream *st, const char *what, ssize_t n);

/* tcp_zc_io.c: --zerocopy's sender (one message) and its flush */
ssize_t ig_tcp_zc_send(struct ig_stream *st);
int ig_tcp_zc_flush(struct ig_stream *st);

#endif
