// SPDX-License-Identifier: MIT
/* The server's lobby (lobby.h). */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "lobby.h"
#include "wire/proto.h"

void ig_lobby_init(struct ig_lobby *l, unsigned int timeout_ms)
{
	memset(l, 0, sizeof(*l));
	l->timeout_ns = (uint64_t)timeout_ms * IG_NSEC_PER_MSEC;
}

static void remove_at(struct ig_lobby *l, unsigned int i)
{
	memmove(&l->m[i], &l->m[i + 1], (l->n - i - 1) * sizeof(l->m[0]));
	l->n--;
}

int ig_lobby_add(struct ig_lobby *l, int fd, uint64_t now_ns)
{
	int evicted = -1;

	if (l->n == IG_LOBBY_MAX) {
		/* members are in arrival order: m[0] is the oldest */
		evicted = l->m[0].fd;
		remove_at(l, 0);
	}
	l->m[l->n].fd = fd;
	l->m[l->n].deadline_ns = now_ns + l->timeout_ns;
	l->n++;
	return evicted;
}

enum ig_lobby_state ig_lobby_judge(const uint8_t *buf, size_t peeked,
				   size_t avail, bool eof)
{
	struct ig_msg_hdr h;
	size_t want;

	if (eof)
		return IG_LOBBY_READY;
	if (peeked >= 4 && memcmp(buf, IG_PROTO_MAGIC, 4))
		return IG_LOBBY_READY; /* not ibgap: let the handler say so */
	if (peeked < 4 && memcmp(buf, IG_PROTO_MAGIC, peeked))
		return IG_LOBBY_READY;
	if (peeked < IG_MSG_HDR_LEN)
		return IG_LOBBY_WAIT;
	if (ig_msg_hdr_decode(buf, &h))
		return IG_LOBBY_READY; /* bad version, size or type */
	want = IG_MSG_HDR_LEN + (size_t)h.len;
	if (want > IG_LOBBY_ENOUGH)
		want = IG_LOBBY_ENOUGH;
	return avail >= want ? IG_LOBBY_READY : IG_LOBBY_WAIT;
}

unsigned int ig_lobby_pollfds(const struct ig_lobby *l, struct pollfd *p)
{
	for (unsigned int i = 0; i < l->n; i++) {
		p[i].fd = l->m[i].fd;
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	return l->n;
}

/* Peeks at a member that poll() says has news. */
static enum ig_lobby_state look(int fd)
{
	uint8_t buf[IG_MSG_HDR_LEN];
	ssize_t n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
	int avail = 0;

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? IG_LOBBY_WAIT
							 : IG_LOBBY_READY;
	if (ioctl(fd, FIONREAD, &avail) < 0)
		return IG_LOBBY_READY;
	return ig_lobby_judge(buf, (size_t)n, (size_t)avail, n == 0);
}

void ig_lobby_sweep(struct ig_lobby *l, const struct pollfd *p, uint64_t now_ns,
		    unsigned int max_ready, int *ready, unsigned int *nready,
		    int *expired, unsigned int *nexpired)
{
	unsigned int i = 0, j = 0;

	*nready = 0;
	*nexpired = 0;
	/* p[j] belongs to the member that was at index j when polled */
	while (i < l->n) {
		const struct pollfd *e = &p[j++];

		if (*nready < max_ready && e->revents &&
		    look(e->fd) == IG_LOBBY_READY) {
			ready[(*nready)++] = l->m[i].fd;
			remove_at(l, i);
		} else if (now_ns >= l->m[i].deadline_ns) {
			expired[(*nexpired)++] = l->m[i].fd;
			remove_at(l, i);
		} else {
			i++;
		}
	}
}

unsigned int ig_lobby_drain(struct ig_lobby *l, int *fds)
{
	unsigned int n = l->n;

	for (unsigned int i = 0; i < n; i++)
		fds[i] = l->m[i].fd;
	l->n = 0;
	return n;
}
