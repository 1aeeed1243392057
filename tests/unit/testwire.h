/* SPDX-License-Identifier: MIT */
/* The control header's wire layout (proto.h), written out byte by byte
 * for the unit tests, independently of ig_msg_hdr_encode(). */
#ifndef IG_TESTWIRE_H
#define IG_TESTWIRE_H

#include <stdint.h>
#include <string.h>

static inline void put_hdr(uint8_t *b, const char *magic, uint16_t version,
			   uint16_t type, uint32_t len)
{
	memcpy(b, magic, 4);
	b[4] = (uint8_t)(version >> 8);
	b[5] = (uint8_t)version;
	b[6] = (uint8_t)(type >> 8);
	b[7] = (uint8_t)type;
	b[8] = (uint8_t)(len >> 24);
	b[9] = (uint8_t)(len >> 16);
	b[10] = (uint8_t)(len >> 8);
	b[11] = (uint8_t)len;
}

#endif
