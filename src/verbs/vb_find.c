// SPDX-License-Identifier: MIT
/* Finds this host's first active RDMA port that has an IPv4 address, the
 * way rdma_cm itself maps addresses to devices. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "vb_find.h"

/* 1 when addr binds to an RDMA device whose port is active. */
static int rdma_port_of(struct rdma_event_channel *ec, struct sockaddr *addr,
			char *dev, size_t devlen)
{
	struct rdma_cm_id *id;
	struct ibv_port_attr pa;
	int found = 0;

	if (rdma_create_id(ec, &id, NULL, RDMA_PS_TCP))
		return 0;
	if (!rdma_bind_addr(id, addr) && id->verbs &&
	    !ibv_query_port(id->verbs, id->port_num, &pa) &&
	    pa.state == IBV_PORT_ACTIVE) {
		snprintf(dev, devlen, "%s",
			 ibv_get_device_name(id->verbs->device));
		found = 1;
	}
	rdma_destroy_id(id);
	return found;
}

int ig_vb_find_rdma_addr(char *addr, size_t addrlen, char *dev, size_t devlen)
{
	struct rdma_event_channel *ec;
	struct ifaddrs *ifa, *i;
	int found = 0;

	if (getifaddrs(&ifa))
		return -errno;
	ec = rdma_create_event_channel();
	for (i = ifa; ec && i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP))
			continue;
		found = rdma_port_of(ec, i->ifa_addr, dev, devlen);
		if (found)
			inet_ntop(
				AF_INET,
				&((struct sockaddr_in *)i->ifa_addr)->sin_addr,
				addr, (socklen_t)addrlen);
	}
	if (ec)
		rdma_destroy_event_channel(ec);
	freeifaddrs(ifa);
	return found ? 0 : -ENODEV;
}
