// SPDX-License-Identifier: MIT
/* The SIOCETHTOOL ioctl and its string sets (ethtool.h). */
#include <errno.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ethtool.h"

int ig_if_ioctl(const char *ifname, unsigned long req, struct ifreq *ifr)
{
	int fd, ret = 0;

	if (strlen(ifname) >= sizeof(ifr->ifr_name))
		return -ENAMETOOLONG;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", ifname);
	if (ioctl(fd, req, ifr))
		ret = -errno;
	close(fd);
	return ret;
}

int ig_eth_ioctl(const char *ifname, void *data)
{
	struct ifreq ifr = { .ifr_data = data };

	return ig_if_ioctl(ifname, SIOCETHTOOL, &ifr);
}

int ig_eth_strings(const char *ifname, int set, struct ethtool_gstrings **out)
{
	struct {
		struct ethtool_sset_info hdr;
		__u32 count;
	} ss = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			  .sset_mask = 1ull << set } };
	struct ethtool_gstrings *gs;
	int ret = ig_eth_ioctl(ifname, &ss);

	if (ret)
		return ret;
	if (!ss.hdr.sset_mask)
		return -EOPNOTSUPP;
	gs = calloc(1, sizeof(*gs) + (size_t)ss.count * ETH_GSTRING_LEN);
	if (!gs)
		return -ENOMEM;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = (__u32)set;
	gs->len = ss.count;
	ret = ig_eth_ioctl(ifname, gs);
	if (ret) {
		free(gs);
		return ret;
	}
	*out = gs;
	return 0;
}
