// SPDX-License-Identifier: MIT
/*
 * Netdev -> RDMA device and port (the RDMA inventory searches), by
 * the netdev's type:
 *   IPoIB (type 32): the port whose GID 0 is the GID inside the netdev's
 *     20-byte hardware address (bytes 4..19).
 *   RoCE (type 1): the port whose GID table names the netdev
 *     (ports/N/gid_attrs/ndevs/I), as rdma_cm finds it.
 *   Fallback: /sys/class/net/IF/device/infiniband/DEV, port dev_port + 1.
 * Without an address: every netdev that has an RDMA device.
 */
#include <stdio.h>
#include <string.h>

#include "doctor_int.h"
#include "host/fingerprint_net.h"
#include "host/rdma_inv.h"

#define ARPHRD_ETHER_ 1
#define ARPHRD_INFINIBAND_ 32
#define ARPHRD_LOOPBACK_ 772

int ig_dr_netdev_type(struct ig_dr *d, const char *ifname, bool quiet)
{
	char p[PATH_MAX];
	uint64_t v;

	snprintf(p, sizeof(p), "/sys/class/net/%s/type", ifname);
	if (ig_dr_read_u64(d, p, &v, quiet) || v > 65535)
		return -1;
	return (int)v;
}

int ig_dr_map_netdev(struct ig_dr *d, const char *ifname, struct ig_dr_path *p)
{
	int type = ig_dr_netdev_type(d, ifname, false);
	char path[PATH_MAX], addr[128];
	const struct ig_inv_dev *dev;
	uint8_t gid[16];
	bool ipoib = false;

	if (ifname != p->netdev)
		snprintf(p->netdev, sizeof(p->netdev), "%s", ifname);
	snprintf(p->kind, sizeof(p->kind), "none");
	if (type == ARPHRD_LOOPBACK_) {
		snprintf(p->kind, sizeof(p->kind), "loopback");
		return 0;
	}
	if (type == ARPHRD_INFINIBAND_) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/address",
			 ifname);
		ipoib = !ig_dr_read(d, path, addr, sizeof(addr)) &&
			!ig_fp_ipoib_hwaddr_gid(addr, gid);
		if (!ipoib)
			return 0;
	}
	if (type != ARPHRD_INFINIBAND_ && type != ARPHRD_ETHER_)
		return 0;
	if (ig_inv_port_of(d->inv, ifname, ipoib ? gid : NULL, &dev, &p->port))
		return 0;
	snprintf(p->rdma_dev, sizeof(p->rdma_dev), "%s", dev->name);
	snprintf(p->kind, sizeof(p->kind), "%s", ipoib ? "ipoib" : "roce");
	return 0;
}

static struct ig_dr_path *new_path(struct ig_dr *d)
{
	struct ig_dr_report *r = d->r;

	if (r->npaths == IG_DR_MAX_PATHS)
		return NULL;
	memset(&r->paths[r->npaths], 0, sizeof(r->paths[0]));
	return &r->paths[r->npaths++];
}

static int all_cb(struct ig_dr *d, const char *ifname, void *arg)
{
	struct ig_dr_path tmp = { 0 }, *p;

	if (ig_dr_netdev_type(d, ifname, true) == ARPHRD_LOOPBACK_)
		return 0;
	ig_dr_map_netdev(d, ifname, &tmp);
	if (!tmp.rdma_dev[0])
		return 0;
	p = new_path(d);
	if (p)
		*p = tmp;
	return 0;
}

/* Every netdev that has an RDMA device (no address given). */
int ig_dr_map_all(struct ig_dr *d)
{
	struct ig_dr_finding *f;
	int ndev = d->inv ? (int)d->inv->ndevs : 0;

	ig_dr_list(d, "/sys/class/net", false, all_cb, NULL);
	if (d->r->npaths)
		return 0;
	if (!ndev) {
		f = ig_dr_add(d, IG_DR_SEV_INFO, "rdma.none",
			      "this host has no RDMA device: there is no verbs "
			      "path to compare TCP with");
		ig_dr_ev(f, IG_INV_SYSFS, "absent or empty");
		ig_dr_fix(f, "load the HCA driver (mlx5_ib), or create a "
			     "Soft-RoCE device: rdma link add rxe0 type rxe "
			     "netdev IF");
		return 0;
	}
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, "rdma.no_netdev",
		"%d RDMA device(s) but no netdev on any of them: TCP "
		"cannot use the HCA (no IPoIB interface, or no RoCE netdev)",
		ndev);
	ig_dr_ev(f, IG_INV_SYSFS, "%d device(s)", ndev);
	ig_dr_fix(f, "InfiniBand: modprobe ib_ipoib and give ib0 an address; "
		     "RoCE: bring up the HCA's Ethernet netdev");
	return 0;
}
