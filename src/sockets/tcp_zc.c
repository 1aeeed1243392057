// SPDX-License-Identifier: MIT
/* MSG_ZEROCOPY completion ranges -> which buffers are free again. */
#include <errno.h>

#include "tcp_zc.h"

#define ZC_INFLIGHT (16u << 20)

/* A power of two, so that the slot of a send (its number modulo nbuf)
 * stays in step when the 32-bit numbers wrap. */
unsigned int ig_zc_nbuf(uint64_t size)
{
	uint64_t n = size ? ZC_INFLIGHT / size : IG_ZC_MAX_OUT;
	unsigned int p = 1;

	while (p < IG_ZC_MAX_OUT && 2ull * p <= n)
		p *= 2;
	return p;
}

void ig_zc_init(struct ig_zc *z, unsigned int nbuf)
{
	*z = (struct ig_zc){ .nbuf = nbuf };
}

uint32_t ig_zc_outstanding(const struct ig_zc *z)
{
	return z->next - z->tail;
}

bool ig_zc_can_send(const struct ig_zc *z)
{
	return ig_zc_outstanding(z) < z->nbuf;
}

unsigned int ig_zc_slot(const struct ig_zc *z)
{
	return z->next % z->nbuf;
}

void ig_zc_sent(struct ig_zc *z)
{
	z->next++;
}

int ig_zc_complete(struct ig_zc *z, uint32_t lo, uint32_t hi)
{
	uint32_t a = lo - z->tail, b = hi - z->tail;
	int n = 0;

	if (a > b || b >= ig_zc_outstanding(z))
		return -ERANGE;
	for (uint32_t i = a; i <= b; i++) {
		if (!(z->done & (1ull << i)))
			n++;
		z->done |= 1ull << i;
	}
	while (z->done & 1) {
		z->done >>= 1;
		z->tail++;
	}
	return n;
}
