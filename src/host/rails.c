// SPDX-License-Identifier: MIT
/* Rails: this host's ACTIVE RDMA ports with their netdevs' IPv4
 * addresses (live: getifaddrs) and fingerprints. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fail.h"
#include "rails.h"

static int prefix_of(const struct sockaddr_in *mask)
{
	uint32_t m = mask ? ntohl(mask->sin_addr.s_addr) : 0;
	int n = 0;

	while (m & 0x80000000u) {
		n++;
		m <<= 1;
	}
	return n;
}

/* The first IPv4 address (up, not loopback) of netdev into r. */
static void rail_addr(const struct ifaddrs *all, struct ig_rail *r)
{
	for (const struct ifaddrs *i = all; i; i = i->ifa_next) {
		const struct sockaddr_in *sin = (const void *)i->ifa_addr;

		if (!sin || sin->sin_family != AF_INET ||
		    !(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK) ||
		    strcmp(i->ifa_name, r->netdev))
			continue;
		inet_ntop(AF_INET, &sin->sin_addr, r->addr, sizeof(r->addr));
		r->prefix = prefix_of((const void *)i->ifa_netmask);
		return;
	}
}

static void rail_of(const struct ig_inv *inv, const struct ig_inv_dev *d,
		    const struct ig_inv_port *p, const struct ifaddrs *all,
		    struct ig_rail *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->device, sizeof(r->device), "%s", d->name);
	r->port = p->num;
	r->numa_node = d->numa_node;
	snprintf(r->local_cpulist, sizeof(r->local_cpulist), "%s",
		 d->local_cpulist);
	snprintf(r->link_layer, sizeof(r->link_layer), "%s", p->link_layer);
	ig_fingerprint_collect(inv->root, d->name, p->num, &r->fp);
	snprintf(r->netdev, sizeof(r->netdev), "%s",
		 p->netdev[0] ? p->netdev : r->fp.netdev);
	if (all && r->netdev[0])
		rail_addr(all, r);
}

int ig_rails_local(const struct ig_inv *inv, struct ig_rails *out)
{
	struct ifaddrs *all = NULL;

	out->n = 0;
	if (getifaddrs(&all))
		all = NULL; /* no addresses: the rails stand without them */
	for (size_t i = 0; i < inv->ndevs; i++)
		for (size_t j = 0; j < inv->devs[i].nports; j++) {
			const struct ig_inv_port *p = &inv->devs[i].ports[j];

			if (p->state != IG_INV_PORT_ACTIVE ||
			    out->n >= IG_RAILS_MAX)
				continue;
			rail_of(inv, &inv->devs[i], p, all, &out->r[out->n++]);
		}
	if (all)
		freeifaddrs(all);
	return 0;
}

int ig_rails_list_arg(const char *arg, const char **list, char *err,
		      size_t errlen)
{
	if (arg && !arg[0])
		return ig_fail(-EINVAL, err, errlen,
			       "--rails: '' is no list: allowed all or "
			       "device names separated by commas "
			       "(rxe0,rxe1)");
	*list = arg && strcmp(arg, "all") ? arg : NULL;
	return 0;
}

int ig_rails_load(const char *list, struct ig_rails *out, char *err,
		  size_t errlen)
{
	struct ig_rails *all = calloc(1, sizeof(*all));
	const char *devs[64];
	struct ig_inv *inv = NULL;
	size_t nd = 0;
	int ret;

	if (!all)
		return ig_fail(-ENOMEM, err, errlen,
			       "--rails: out of memory for the rails");
	ret = ig_inv_load("/", IG_INV_GIDS, &inv, err, errlen);
	if (ret) {
		free(all);
		return ret;
	}
	ig_rails_local(inv, all);
	for (size_t i = 0; i < inv->ndevs && nd < 64; i++)
		devs[nd++] = inv->devs[i].name;
	ret = ig_rails_select(all, list, devs, nd, out, err, errlen);
	ig_inv_free(inv);
	free(all);
	/* a bad list is a bad value; no rail at all is a failed run */
	return ret && !list ? -ENODEV : ret;
}

void ig_rail_local_opts(const struct ig_rail *r, struct ig_local_opts *lo)
{
	snprintf(lo->verbs.device, sizeof(lo->verbs.device), "%s", r->device);
	lo->verbs.ib_port = r->port;
	snprintf(lo->src_addr, sizeof(lo->src_addr), "%s", r->addr);
	if (lo->cpu < 0)
		snprintf(lo->tcp_cpus, sizeof(lo->tcp_cpus), "%s",
			 r->local_cpulist);
}
