/* SPDX-License-Identifier: MIT */
#ifndef IG_TCP_ZC_H
#define IG_TCP_ZC_H

#include <stdbool.h>
#include <stdint.h>

/*
 * MSG_ZEROCOPY bookkeeping of one sender (pure; tcp_zc_io.c does the
 * I/O).  The kernel numbers a socket's successful MSG_ZEROCOPY sends 0,
 * 1, 2, ... (32 bits, wrapping) and reports their completions as
 * inclusive ranges [lo, hi] on the error queue, possibly merged, possibly
 * out of order.  Send number k uses buffer k % nbuf, so a buffer is
 * reused only once every send before it on that buffer has completed:
 * at most nbuf sends are outstanding.
 */
#define IG_ZC_MAX_OUT 64

struct ig_zc {
	uint32_t next; /* number of the next send */
	uint32_t tail; /* lowest number not completed yet */
	uint32_t nbuf; /* buffers = bound on outstanding sends */
	uint64_t done; /* bit i: send tail + i completed (i < nbuf) */
};

/* Buffers for messages of size bytes: a power of two from 1 to
 * IG_ZC_MAX_OUT, at most 16 MiB of them unless one message is larger. */
unsigned int ig_zc_nbuf(uint64_t size);
void ig_zc_init(struct ig_zc *z, unsigned int nbuf);
uint32_t ig_zc_outstanding(const struct ig_zc *z);
/* True when the buffer of the next send is free. */
bool ig_zc_can_send(const struct ig_zc *z);
/* The buffer of the next send; then ig_zc_sent() once it is made. */
unsigned int ig_zc_slot(const struct ig_zc *z);
void ig_zc_sent(struct ig_zc *z);
/*
 * Completion of sends lo..hi: returns how many of them were not already
 * completed, or -ERANGE when the range is not within the outstanding
 * sends (nothing changed).
 */
int ig_zc_complete(struct ig_zc *z, uint32_t lo, uint32_t hi);

#endif
