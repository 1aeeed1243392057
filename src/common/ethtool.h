/* SPDX-License-Identifier: MIT */
#ifndef IG_ETHTOOL_H
#define IG_ETHTOOL_H

#include <linux/ethtool.h>
#include <net/if.h>

/*
 * The SIOCETHTOOL ioctl, shared by the doctor (reads) and the tune layer
 * (reads and writes).  It acts on the caller's network namespace.
 */

/* ioctl(req) on an AF_INET datagram socket with ifr named ifname: 0 or
 * -errno (-ENAMETOOLONG for a name too long for struct ifreq). */
int ig_if_ioctl(const char *ifname, unsigned long req, struct ifreq *ifr);

/* One ethtool command on ifname: data starts with its __u32 cmd.  0 or
 * -errno (-ENAMETOOLONG for a name too long for struct ifreq). */
int ig_eth_ioctl(const char *ifname, void *data);

/* The string set `set` (ETH_SS_FEATURES, ETH_SS_LINK_MODES) of ifname,
 * malloc'ed: *out->len strings of ETH_GSTRING_LEN bytes each (not always
 * NUL-terminated).  0 or -errno; free() it. */
int ig_eth_strings(const char *ifname, int set, struct ethtool_gstrings **out);

#endif
