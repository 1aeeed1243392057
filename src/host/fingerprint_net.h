/* SPDX-License-Identifier: MIT */
#ifndef IG_FINGERPRINT_NET_H
#define IG_FINGERPRINT_NET_H

/*
 * RDMA ports and their network interfaces (docs/design.md, "Fingerprint"
 * and the doctor's "Mapping"), read from /sys under root: "/" or "" for
 * the live system, a fixture tree in the tests.  Every file may be
 * missing; nothing is reported.
 */
#include <stddef.h>
#include <stdint.h>

/* The network interface of RDMA device dev's port into buf: RoCE and rxe
 * the one of the first GID entry that names one; IPoIB the first by name
 * of the interfaces of dev's parent device (device/net/) of type 32 whose
 * dev_port (dev_id) is port - 1; else dev's "parent" (rxe).  0, or
 * -ENOENT and "". */
int ig_fp_port_netdev(const char *root, const char *dev, int port, char *buf,
		      size_t len);

/* The RDMA device (into dev) and port of network interface ifname: the
 * first port in version order whose GID 0 is gid (IPoIB) or, gid NULL,
 * whose GID table names ifname (RoCE); else the device of ifname's parent
 * device, port dev_port + 1.  0 or -ENODEV (dev and port untouched). */
int ig_fp_netdev_port(const char *root, const char *ifname, const uint8_t *gid,
		      char *dev, size_t len, int *port);

/* The 16 bytes of a GID from "fe80:0000:..." (ports/P/gids/N) or from an
 * IPoIB hardware address (4 bytes of flags and QPN, then the GID); 0 or
 * -EINVAL. */
int ig_fp_gid_parse(const char *s, uint8_t gid[16]);
int ig_fp_ipoib_hwaddr_gid(const char *s, uint8_t gid[16]);

#endif
