/* SPDX-License-Identifier: MIT */
#ifndef IG_TCP_INT_H
#define IG_TCP_INT_H

#include <stddef.h>
#include <stdint.h>

struct ig_session;

struct tcp_stream {
	int fd;
	char *buf;
	size_t buflen;
};

/* tcp_conn.c */
int ig_tcp_setup_server(struct ig_session *s);
int ig_tcp_setup_client(struct ig_session *s);
/* tcp_stream.c: takes ownership of fd (closed on error) as stream idx. */
int ig_tcp_stream_init(struct ig_session *s, unsigned int idx, int fd);
/* tcp_stream.c: closes and frees every stream set up. */
void ig_tcp_cleanup(struct ig_session *s);

#endif
