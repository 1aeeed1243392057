// SPDX-License-Identifier: MIT
/*
 * The IPv4 address of this host's first ACTIVE RDMA port that has one
 * (the local run's and ibgap-fabric's default): the addresses are the
 * live system's (getifaddrs), the ports the inventory's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>

#include "fingerprint_int.h"
#include "rdma_inv.h"

/* The first IPv4 address of ifname that is up and not loopback into addr;
 * 0 or -ENOENT. */
static int addr_of(const struct ifaddrs *all, const char *ifname, char *addr,
		   size_t len)
{
	for (const struct ifaddrs *i = all; i; i = i->ifa_next) {
		const struct sockaddr_in *sin = (const void *)i->ifa_addr;

		if (!sin || sin->sin_family != AF_INET ||
		    !(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK) ||
		    strcmp(i->ifa_name, ifname))
			continue;
		inet_ntop(AF_INET, &sin->sin_addr, addr, (socklen_t)len);
		return 0;
	}
	return -ENOENT;
}

/* The port's netdev, then those its GID table names (RoCE VLANs). */
static int port_addr(const struct ifaddrs *all, const struct ig_inv_port *p,
		     char *addr, size_t alen, char *ifname, size_t iflen)
{
	for (size_t g = 0; g <= p->ngids; g++) {
		const char *nd = g ? p->gids[g - 1].netdev : p->netdev;

		if (!nd[0] || addr_of(all, nd, addr, alen))
			continue;
		ig_fp_set_str(ifname, iflen, nd);
		return 0;
	}
	return -ENOENT;
}

int ig_inv_active_addr(const struct ig_inv *inv, char *addr, size_t alen,
		       char *ifname, size_t iflen,
		       const struct ig_inv_dev **dev,
		       const struct ig_inv_port **port)
{
	struct ifaddrs *all;
	int ret = -ENODEV;

	if (!inv || getifaddrs(&all))
		return -ENODEV;
	for (size_t i = 0; ret && i < inv->ndevs; i++)
		for (size_t j = 0; ret && j < inv->devs[i].nports; j++) {
			const struct ig_inv_port *p = &inv->devs[i].ports[j];

			if (p->state != IG_INV_PORT_ACTIVE ||
			    port_addr(all, p, addr, alen, ifname, iflen))
				continue;
			*dev = &inv->devs[i];
			*port = p;
			ret = 0;
		}
	freeifaddrs(all);
	return ret;
}
