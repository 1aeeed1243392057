// SPDX-License-Identifier: MIT
/*
 * GIDs as text: ports/P/gids/N ("fe80:0000:...") and the GID inside an
 * IPoIB interface's hardware address, for the RDMA inventory (rdma_inv*.c)
 * and the doctor's mapping.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fingerprint_net.h"

static int hex(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* n bytes of hex digits, separators (':') skipped; 0 or -EINVAL. */
static int hex_bytes(const char *s, uint8_t *out, size_t n)
{
	size_t got = 0;
	int nib = 0, cur = 0;

	for (; *s && got < n; s++) {
		int h = hex(*s);

		if (*s == ':')
			continue;
		if (h < 0)
			return -EINVAL;
		cur = cur << 4 | h;
		if (++nib == 2) {
			out[got++] = (uint8_t)cur;
			nib = cur = 0;
		}
	}
	return got == n && !nib ? 0 : -EINVAL;
}

int ig_fp_gid_parse(const char *s, uint8_t gid[16])
{
	return hex_bytes(s, gid, 16);
}

int ig_fp_ipoib_hwaddr_gid(const char *s, uint8_t gid[16])
{
	uint8_t a[20];

	if (hex_bytes(s, a, 20))
		return -EINVAL;
	memcpy(gid, a + 4, 16);
	return 0;
}
