// SPDX-License-Identifier: MIT
/* The data address of a rank: where its pairs' traffic goes. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fail.h"
#include "fab.h"
#include "host/rdma_inv.h"

/* want as "A.B.C.D/N" (IPv4 CIDR): 0 and the network and mask. */
static int parse_cidr(const char *want, uint32_t *net, uint32_t *mask)
{
	char buf[64], *slash;
	struct in_addr a;
	unsigned long bits;

	snprintf(buf, sizeof(buf), "%s", want);
	slash = strchr(buf, '/');
	if (!slash)
		return -EINVAL;
	*slash++ = 0;
	bits = strtoul(slash, &slash, 10);
	if (*slash || bits > 32 || inet_pton(AF_INET, buf, &a) != 1)
		return -EINVAL;
	*mask = bits ? htonl(~0u << (32 - bits)) : 0;
	*net = a.s_addr & *mask;
	return 0;
}

/* Does interface address ifa match: ifname (NULL: any), cidr (mask 0:
 * any)?  Only IPv4 addresses of interfaces that are up. */
static bool match(const struct ifaddrs *ifa, const char *ifname, uint32_t net,
		  uint32_t mask, bool loopback)
{
	const struct sockaddr_in *sin = (const void *)ifa->ifa_addr;

	if (!sin || sin->sin_family != AF_INET || !(ifa->ifa_flags & IFF_UP))
		return false;
	if (!loopback && (ifa->ifa_flags & IFF_LOOPBACK))
		return false;
	if (ifname && strcmp(ifa->ifa_name, ifname))
		return false;
	return (sin->sin_addr.s_addr & mask) == net;
}

/* The first IPv4 address that matches; 0 (addr and ifname set) or
 * -ENOENT. */
static int find(const char *ifname, uint32_t net, uint32_t mask, bool loopback,
		struct ig_fab_info *i, char *ifout, size_t len)
{
	struct ifaddrs *all, *ifa;
	int ret = -ENOENT;

	if (getifaddrs(&all))
		return -errno;
	for (ifa = all; ifa && ret; ifa = ifa->ifa_next) {
		if (!match(ifa, ifname, net, mask, loopback))
			continue;
		inet_ntop(AF_INET,
			  &((struct sockaddr_in *)ifa->ifa_addr)->sin_addr,
			  i->addr, sizeof(i->addr));
		snprintf(ifout, len, "%s", ifa->ifa_name);
		ret = 0;
	}
	freeifaddrs(all);
	return ret;
}

/* --addr: a CIDR or an interface name. */
static int wanted(const char *want, struct ig_fab_info *i, char *ifname,
		  size_t len, char *err, size_t errlen)
{
	uint32_t net, mask;
	int ret;

	if (strchr(want, '/')) {
		if (parse_cidr(want, &net, &mask))
			return ig_fail(-EINVAL, err, errlen,
				       "--addr: '%s' is neither an IPv4 "
				       "CIDR (10.0.0.0/24) nor an interface",
				       want);
		ret = find(NULL, net, mask, true, i, ifname, len);
	} else {
		ret = find(want, 0, 0, true, i, ifname, len);
	}
	if (ret)
		return ig_fail(-ENOENT, err, errlen,
			       "--addr %s: no IPv4 address of an interface "
			       "that is up matches it on %s",
			       want, i->host);
	snprintf(i->addr_why, sizeof(i->addr_why), "--addr %s (%s)", want,
		 ifname);
	return 0;
}

/* The RDMA device behind ifname, if any (for rdma and the fingerprint). */
static void rdma_of(const struct ig_inv *inv, const char *ifname,
		    struct ig_fab_info *i)
{
	const struct ig_inv_dev *dev;
	int port;

	if (ig_inv_netdev_port(inv, ifname, &dev, &port))
		return;
	i->rdma = true;
	ig_fingerprint_collect("/", dev->name, port, &i->fp);
}

/* Without --addr: the IPv4 address of the first ACTIVE port's netdev
 * (device, then port order), else the first one that is up. */
static int pick(const struct ig_inv *inv, struct ig_fab_info *i, char *err,
		size_t errlen)
{
	char ifname[IF_NAMESIZE + 1] = "";
	const struct ig_inv_port *p;
	const struct ig_inv_dev *d;

	if (!ig_inv_active_addr(inv, i->addr, sizeof(i->addr), ifname,
				sizeof(ifname), &d, &p)) {
		i->rdma = true;
		ig_fingerprint_collect("/", d->name, p->num, &i->fp);
		snprintf(i->addr_why, sizeof(i->addr_why), "%s port %d (%s)",
			 d->name, p->num, ifname);
		return 0;
	}
	if (find(NULL, 0, 0, false, i, ifname, sizeof(ifname)))
		return ig_fail(-ENOENT, err, errlen,
			       "no IPv4 address that is up on %s (besides "
			       "loopback): give --addr",
			       i->host);
	snprintf(i->addr_why, sizeof(i->addr_why), "%s (no active RDMA port)",
		 ifname);
	return 0;
}

int ig_fab_addr(const char *want, struct ig_fab_info *i, char *err,
		size_t errlen)
{
	char ifname[IF_NAMESIZE + 1] = "";
	struct ig_inv *inv = NULL;
	char ierr[256];
	int ret;

	ig_fingerprint_collect("/", NULL, 0, &i->fp);
	/* an unreadable inventory is no RDMA device, as before */
	ig_inv_load("/", IG_INV_GIDS, &inv, ierr, sizeof(ierr));
	if (want) {
		ret = wanted(want, i, ifname, sizeof(ifname), err, errlen);
		if (!ret)
			rdma_of(inv, ifname, i);
	} else {
		ret = pick(inv, i, err, errlen);
	}
	ig_inv_free(inv);
	return ret;
}
