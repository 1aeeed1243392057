// SPDX-License-Identifier: MIT
/*
 * From a network interface to its RDMA port, in the inventory: the port
 * whose GID 0 is the IPoIB interface's GID, or whose GID table names the
 * RoCE interface (as rdma_cm resolves an address), else the device of the
 * interface's parent device.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint_int.h"
#include "fingerprint_net.h"
#include "rdma_inv.h"

static bool port_has(const struct ig_inv_port *p, const char *ifname,
		     const uint8_t *gid)
{
	for (size_t i = 0; i < p->ngids; i++) {
		const struct ig_inv_gid *g = &p->gids[i];

		if (gid ? g->index == 0 && !memcmp(g->gid, gid, 16)
			: !strcmp(g->netdev, ifname))
			return true;
	}
	return false;
}

/* The device of the interface's parent device, /sys/class/net/IF/device/
 * infiniband/DEV, and port dev_port + 1 (1 when dev_port cannot be read);
 * 0 or -ENODEV. */
static int parent_port(const struct ig_inv *inv, const char *ifname,
		       const struct ig_inv_dev **dev, int *port)
{
	unsigned long long dev_port = 0;
	const struct ig_inv_dev *d = NULL;
	char path[PATH_MAX], v[64];
	struct dirent **e;
	int n;

	if (ig_fp_path(path, sizeof(path), inv->root,
		       "/sys/class/net/%s/device/infiniband", ifname))
		return -ENODEV;
	n = ig_fp_list(path, &e);
	if (n < 0)
		return -ENODEV;
	if (n > 0)
		d = ig_inv_dev(inv, e[0]->d_name);
	ig_fp_list_free(e, n);
	if (!d)
		return -ENODEV;
	if (!ig_fp_attr(inv->root, v, sizeof(v), "/sys/class/net/%s/dev_port",
			ifname))
		dev_port = strtoull(v, NULL, 0);
	*dev = d;
	*port = (int)dev_port + 1;
	return 0;
}

int ig_inv_port_of(const struct ig_inv *inv, const char *ifname,
		   const uint8_t *gid, const struct ig_inv_dev **dev, int *port)
{
	if (!inv || !ig_fp_name_ok(ifname, NAME_MAX))
		return -ENODEV;
	for (size_t i = 0; i < inv->ndevs; i++)
		for (size_t j = 0; j < inv->devs[i].nports; j++) {
			if (!port_has(&inv->devs[i].ports[j], ifname, gid))
				continue;
			*dev = &inv->devs[i];
			*port = inv->devs[i].ports[j].num;
			return 0;
		}
	return parent_port(inv, ifname, dev, port);
}

int ig_inv_netdev_port(const struct ig_inv *inv, const char *ifname,
		       const struct ig_inv_dev **dev, int *port)
{
	char type[16], addr[128];
	uint8_t gid[16];

	if (!inv || !ig_fp_name_ok(ifname, NAME_MAX) ||
	    ig_fp_attr(inv->root, type, sizeof(type), "/sys/class/net/%s/type",
		       ifname))
		return -ENODEV;
	if (strcmp(type, IG_FP_IPOIB_TYPE))
		return ig_inv_port_of(inv, ifname, NULL, dev, port);
	if (ig_fp_attr(inv->root, addr, sizeof(addr),
		       "/sys/class/net/%s/address", ifname) ||
	    ig_fp_ipoib_hwaddr_gid(addr, gid))
		return -ENODEV;
	return ig_inv_port_of(inv, ifname, gid, dev, port);
}
