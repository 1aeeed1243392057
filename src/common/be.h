/* SPDX-License-Identifier: MIT */
#ifndef IG_BE_H
#define IG_BE_H

#include <stdint.h>

/* Big-endian integers of n bytes (1 to 8) in a byte buffer, as the wire
 * protocol and the data connections' tags carry them. */
void ig_be_put(uint8_t *p, uint64_t v, unsigned int n);
uint64_t ig_be_get(const uint8_t *p, unsigned int n);

#endif
