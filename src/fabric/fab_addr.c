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

#include <infiniband/verbs.h>

#include "common/fail.h"
#include "fab.h"
#include "host/fingerprint_net.h"

/* The first RDMA device and port (by device order) whose state is
 * ACTIVE; 0 or -ENODEV. */
static int active_port(char *dev, size_t len, int *port)
{
	struct ibv_device **l;
	int n = 0, ret = -ENODEV;

	l = ibv_get_device_list(&n);
	for (int i = 0; l && i < n && ret; i++) {
		struct ibv_context *ctx = ibv_open_device(l[i]);
		struct ibv_device_attr da;

		if (!ctx)
			continue;
		if (!ibv_query_device(ctx, &da)) {
			for (int p = 1; p <= da.phys_port_cnt && ret; p++) {
				struct ibv_port_attr pa;

				if (ibv_query_port(ctx, (uint8_t)p, &pa) ||
				    pa.state != IBV_PORT_ACTIVE)
					continue;
				snprintf(dev, len, "%s",
					 ibv_get_device_name(l[i]));
				*port = p;
				ret = 0;
			}
		}
		ibv_close_device(ctx);
	}
	if (l)
		ibv_free_device_list(l);
	return ret;
}

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
static void rdma_of(const char *ifname, struct ig_fab_info *i)
{
	char dev[64];
	int port;

	if (ig_fp_netdev_port("/", ifname, NULL, dev, sizeof(dev), &port))
		return;
	i->rdma = true;
	ig_fingerprint_collect("/", dev, port, &i->fp);
}

int ig_fab_addr(const char *want, struct ig_fab_info *i, char *err,
		size_t errlen)
{
	char dev[64], ifname[IF_NAMESIZE + 1] = "";
	int port = 0;

	ig_fingerprint_collect("/", NULL, 0, &i->fp);
	if (want) {
		int ret = wanted(want, i, ifname, sizeof(ifname), err, errlen);

		if (!ret)
			rdma_of(ifname, i);
		return ret;
	}
	if (!active_port(dev, sizeof(dev), &port) &&
	    !ig_fp_port_netdev("/", dev, port, ifname, sizeof(ifname)) &&
	    !find(ifname, 0, 0, false, i, ifname, sizeof(ifname))) {
		i->rdma = true;
		ig_fingerprint_collect("/", dev, port, &i->fp);
		snprintf(i->addr_why, sizeof(i->addr_why), "%s port %d (%s)",
			 dev, port, ifname);
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
