// SPDX-License-Identifier: MIT
/* Big-endian integers in byte buffers. */
#include "be.h"

void ig_be_put(uint8_t *p, uint64_t v, unsigned int n)
{
	for (unsigned int i = n; i-- > 0; v >>= 8)
		p[i] = v & 0xff;
}

uint64_t ig_be_get(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}
