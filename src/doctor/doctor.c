// SPDX-License-Identifier: MIT
/* The doctor run: map the paths and run every check on each; its most
 * severe findings for a client run. */
#include <stdio.h>
#include <string.h>

#include "doctor_int.h"
#include "wire/ctrl.h"

/* rxe, siw: no PCIe link or NUMA placement of their own */
static void soft_dev(struct ig_dr *d, struct ig_dr_path *p)
{
	const struct ig_inv_dev *dev = ig_inv_dev(d->inv, p->rdma_dev);
	struct ig_dr_finding *f;
	char path[PATH_MAX];

	f = ig_dr_add(d, IG_DR_SEV_INFO, "rdma.soft",
		      "%s is a software RDMA device on %s (Soft-RoCE or "
		      "siw): verbs run in the kernel, so they show no "
		      "HCA advantage; there is no PCIe link or NUMA "
		      "placement to check",
		      p->rdma_dev, p->netdev);
	ig_inv_path(path, sizeof(path), p->rdma_dev, 0, "parent");
	if (dev && dev->parent[0])
		ig_dr_ev(f, path, "%s", dev->parent);
	ig_inv_path(path, sizeof(path), p->rdma_dev, 0, "device");
	ig_dr_ev(f, path, "%s", ig_dr_exists(d, path) ? "present" : "absent");
	ig_dr_not_examined(d, "pcie",
			   "%s is a software device: no PCIe link, NUMA "
			   "node or interrupts of its own",
			   p->rdma_dev);
}

/* A netdev without RDMA: its Ethernet link speed (a veth says 10 Gb/s)
 * is the path's rate, for the socket checks' bandwidth-delay product;
 * none read (a tunnel, a driver without link settings): no rate. */
static void plain_rate(struct ig_dr *d, struct ig_dr_path *p)
{
	struct ig_dr_q_link l = { 0 };

	if (!d->q->ethtool_link(d->qctx, p->netdev, &l) && l.speed_mbps &&
	    l.speed_mbps != UINT32_MAX)
		p->rate_gbps = l.speed_mbps / 1000.0;
}

static void check_path(struct ig_dr *d, struct ig_dr_pctx *c)
{
	struct ig_dr_path *p = c->p;
	bool rdma = p->rdma_dev[0] != 0;

	if (!p->netdev[0] || !strcmp(p->kind, "loopback"))
		return;
	if (rdma)
		ig_dr_check_port(d, c);
	if (!strcmp(p->kind, "ipoib"))
		ig_dr_check_ipoib(d, c);
	ig_dr_check_netdev(d, c);
	ig_dr_check_qdisc(d, c);
	if (!rdma) {
		plain_rate(d, p);
		ig_dr_not_examined(d, "port",
				   "%s has no RDMA device: no HCA port, PCIe "
				   "link or interrupts to read",
				   p->netdev);
		return;
	}
	if (c->soft) {
		soft_dev(d, p);
	} else {
		ig_dr_check_pcie(d, c);
		ig_dr_check_numa(d, c);
	}
	ig_dr_check_counters(d, c);
}

int ig_dr_run(const struct ig_dr_opts *o, struct ig_dr_report *r)
{
	struct ig_dr_pctx c;
	double rate = 0;
	struct ig_dr d;
	int ret = ig_dr_open(&d, o, r);

	if (ret)
		return ret;
	if (o->addr) {
		if (!ig_dr_map_addr(&d, o->addr, &c))
			check_path(&d, &c);
	} else {
		ig_dr_map_all(&d);
		for (size_t i = 0; i < r->npaths; i++) {
			ig_dr_pctx_of(&d, &r->paths[i], &c);
			check_path(&d, &c);
		}
	}
	/* the socket checks size for the path examined (the fastest when
	 * no address was given) */
	for (size_t i = 0; i < r->npaths; i++)
		if (r->paths[i].rate_gbps > rate)
			rate = r->paths[i].rate_gbps;
	ig_dr_check_governor(&d);
	ig_dr_check_filter(&d);
	ig_dr_check_sock(&d, rate);
	ig_dr_check_tcp_retrans(&d);
	ig_dr_trials_default(r);
	ig_dr_sort(r);
	ig_dr_close(&d);
	if (d.nomem)
		ig_dr_report_free(r);
	return d.nomem;
}

/* The doctor for the path to addr. */
static int run_for(const char *root, const struct sockaddr *addr,
		   uint64_t window, struct ig_dr_report *r)
{
	struct ig_dr_opts o = { .root = root, .window = window };
	char host[64];
	int ret = ig_sockaddr_host(addr, host, sizeof(host));

	if (ret)
		return ret;
	o.addr = host;
	return ig_dr_run(&o, r);
}

int ig_dr_top(const char *root, const struct sockaddr *addr, uint64_t window,
	      struct ig_dr_finding *out, size_t max)
{
	struct ig_dr_report r;
	size_t n = 0;
	int ret = run_for(root, addr, window, &r);

	if (ret)
		return ret;
	/* sorted: crit, then warn, then info */
	for (size_t i = 0; i < r.n && n < max && r.f[i].sev > IG_DR_SEV_INFO;
	     i++)
		out[n++] = r.f[i];
	ig_dr_report_free(&r);
	return (int)n;
}

int ig_dr_ipoib_mode(const char *root, const struct sockaddr *addr, char *mode,
		     size_t len)
{
	static const struct {
		const char *id, *mode;
	} ids[] = {
		{ "ipoib.mode.datagram", "datagram" },
		{ "ipoib.enhanced", "datagram" }, /* datagram only */
		{ "ipoib.mode.connected", "connected" },
	};
	struct ig_dr_report r;
	int ret = run_for(root, addr, 0, &r);

	snprintf(mode, len, "%s", "");
	if (ret)
		return ret;
	for (size_t i = 0; i < r.n; i++)
		for (size_t k = 0; k < sizeof(ids) / sizeof(*ids); k++)
			if (!strcmp(r.f[i].id, ids[k].id))
				snprintf(mode, len, "%s", ids[k].mode);
	ig_dr_report_free(&r);
	return 0;
}
