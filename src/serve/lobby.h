/* SPDX-License-Identifier: MIT */
/*
 * The server's lobby: accepted control connections whose first message
 * (HELLO) has not fully arrived yet.  They are held by the accept loop
 * with no thread and no buffer, only their descriptor; a handler thread is
 * started for one once its first message is in the socket (or it sent
 * something that is not one, or closed).  A silent connection is dropped
 * at its deadline; when the lobby is full the oldest member makes room
 * for a newcomer, so silent connections never keep a real client out.
 */
#ifndef IG_LOBBY_H
#define IG_LOBBY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IG_LOBBY_MAX 64
/* a first message counts as arrived once this much of it is there */
#define IG_LOBBY_ENOUGH 4096

struct ig_lobby {
	struct {
		int fd;
		uint64_t deadline_ns;
	} m[IG_LOBBY_MAX];
	unsigned int n;
	uint64_t timeout_ns;
};

enum ig_lobby_state {
	IG_LOBBY_WAIT,	/* more bytes to come */
	IG_LOBBY_READY, /* hand it to a handler: whole message, or garbage */
};

void ig_lobby_init(struct ig_lobby *l, unsigned int timeout_ms);

/* Adds fd; returns the descriptor of the oldest member, removed to make
 * room (the caller closes it), or -1. */
int ig_lobby_add(struct ig_lobby *l, int fd, uint64_t now_ns);

/* Pure: what the bytes peeked so far (peeked of them in buf, avail in the
 * socket, eof when the peer closed) say about the first message. */
enum ig_lobby_state ig_lobby_judge(const uint8_t *buf, size_t peeked,
				   size_t avail, bool eof);

/* Fills p[0..n) with the members' POLLIN requests; returns n. */
unsigned int ig_lobby_pollfds(const struct ig_lobby *l, struct pollfd *p);

/*
 * After poll() (and before any ig_lobby_add): removes and returns in
 * ready[] up to max_ready members whose first message has arrived (or
 * that sent garbage or closed), and in expired[] those past their
 * deadline; p holds the revents in ig_lobby_pollfds' order.  Each array
 * has room for IG_LOBBY_MAX.
 */
void ig_lobby_sweep(struct ig_lobby *l, const struct pollfd *p, uint64_t now_ns,
		    unsigned int max_ready, int *ready, unsigned int *nready,
		    int *expired, unsigned int *nexpired);

/* Removes every member into fds (room for IG_LOBBY_MAX); returns n. */
unsigned int ig_lobby_drain(struct ig_lobby *l, int *fds);

#endif
