/* SPDX-License-Identifier: MIT */
#ifndef IG_FINGERPRINT_NET_H
#define IG_FINGERPRINT_NET_H

/* GIDs as text (rdma_inv.h has the ports and their netdevs). */
#include <stdint.h>

/* The 16 bytes of a GID from "fe80:0000:..." (ports/P/gids/N) or from an
 * IPoIB hardware address (4 bytes of flags and QPN, then the GID); 0 or
 * -EINVAL. */
int ig_fp_gid_parse(const char *s, uint8_t gid[16]);
int ig_fp_ipoib_hwaddr_gid(const char *s, uint8_t gid[16]);

#endif
