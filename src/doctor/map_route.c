// SPDX-License-Identifier: MIT
/*
 * The route to an address, and whether TCP and verbs take the same HCA
 * port.  Client side: "ip route get ADDR"; the netdev is the route's
 * output device, or the owner of ADDR when ADDR is local.  Server side
 * (addr_is_local): the netdev that holds the address the client connected
 * to.  Verbs (rdma_cm) bind to the device of the route's source address.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "doctor_int.h"

void ig_dr_query_err(struct ig_dr *d, const char *query, const char *arg,
		     int err)
{
	char src[160];

	snprintf(src, sizeof(src), "%s(%s)", query, arg);
	ig_dr_read_err(d, src, err);
}

static int owner(struct ig_dr *d, const char *addr, char *ifname, size_t len)
{
	int ret = d->q->addr_owner(d->qctx, addr, ifname, len);

	if (ret)
		ig_dr_query_err(d, "addr_owner", addr, -ret);
	return ret;
}

/* A local route's address: the netdev holding it (0), else non-zero and
 * the route's own device is the answer.  An address of a local subnet
 * that no netdev holds itself (127.0.0.2 through lo's 127.0.0.1/8) is no
 * read error: the route said where it goes. */
static int local_owner(struct ig_dr *d, const char *addr, struct ig_dr_path *p)
{
	int ret = d->q->addr_owner(d->qctx, addr, p->netdev, sizeof(p->netdev));

	if (ret && ret != -EADDRNOTAVAIL)
		ig_dr_query_err(d, "addr_owner", addr, -ret);
	return ret;
}

static void route_findings(struct ig_dr *d, struct ig_dr_path *p)
{
	struct ig_dr_finding *f;
	char q[96];

	snprintf(q, sizeof(q), "route_lookup(%s)", p->addr);
	if (!strcmp(p->kind, "loopback")) {
		f = ig_dr_add(
			d, IG_DR_SEV_WARN, "route.loopback",
			"the path to %s runs over the loopback device %s: "
			"no HCA is involved, TCP measures memory copies",
			p->addr, p->netdev);
		ig_dr_ev(f, q, "%s dev %s", p->route_type, p->route_dev);
		ig_dr_fix(f, "run the client on another host against the "
			     "server's IPoIB or RoCE address");
	} else if (!strcmp(p->route_type, "local") && !d->o->addr_is_local) {
		f = ig_dr_add(
			d, IG_DR_SEV_WARN, "route.local",
			"%s is an address of this host (on %s): TCP to it "
			"runs over the loopback device, while verbs loop "
			"back inside %s",
			p->addr, p->netdev,
			p->rdma_dev[0] ? p->rdma_dev : "the HCA");
		ig_dr_ev(f, q, "local dev %s", p->route_dev);
		ig_dr_fix(f,
			  "test between two hosts: run 'ibgap server' on the "
			  "other one and give its address");
	} else if (!strcmp(p->kind, "none")) {
		f = ig_dr_add(d, IG_DR_SEV_WARN, "route.no_rdma",
			      "TCP to %s goes through %s, which has no RDMA "
			      "device: TCP and verbs do not share an HCA port",
			      p->addr, p->netdev);
		ig_dr_ev(f, q, "%s dev %s%s%s", p->route_type, p->route_dev,
			 p->src[0] ? " src " : "", p->src);
		ig_dr_fix(f, "give the address of the peer's IPoIB or RoCE "
			     "interface (ip -br addr on the peer)");
	}
}

/* The source address is on another netdev than the route's: rdma_cm
 * binds to the source address's device, TCP leaves through the route's. */
static void check_src(struct ig_dr *d, struct ig_dr_path *p)
{
	struct ig_dr_path s = { 0 };
	struct ig_dr_finding *f;
	char sdev[32], q[96];

	if (!p->src[0] || strcmp(p->route_type, "unicast") ||
	    owner(d, p->src, sdev, sizeof(sdev)) || !strcmp(sdev, p->netdev))
		return;
	ig_dr_map_netdev(d, sdev, &s);
	if (!s.rdma_dev[0] ||
	    (!strcmp(s.rdma_dev, p->rdma_dev) && s.port == p->port))
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, "route.port_mismatch",
		"TCP to %s leaves through %s (%s port %d), but the source "
		"address %s is on %s (%s port %d), where rdma_cm binds "
		"the verbs path",
		p->addr, p->netdev, p->rdma_dev[0] ? p->rdma_dev : "none",
		p->port, p->src, sdev, s.rdma_dev, s.port);
	snprintf(q, sizeof(q), "route_lookup(%s)", p->addr);
	ig_dr_ev(f, q, "%s dev %s src %s", p->route_type, p->route_dev, p->src);
	snprintf(q, sizeof(q), "addr_owner(%s)", p->src);
	ig_dr_ev(f, q, "%s", sdev);
	ig_dr_fix(f,
		  "give each HCA port its own subnet, or route %s through "
		  "%s, so that both transports use one port",
		  p->addr, sdev);
}

static void lookup(struct ig_dr *d, const char *addr, struct ig_dr_path *p)
{
	struct ig_dr_q_route rt = { 0 };
	int ret;

	if (d->o->addr_is_local) {
		snprintf(p->route_type, sizeof(p->route_type), "local");
		if (!owner(d, addr, p->netdev, sizeof(p->netdev)))
			snprintf(p->route_dev, sizeof(p->route_dev), "%s",
				 p->netdev);
		return;
	}
	ret = d->q->route_lookup(d->qctx, addr, &rt);
	if (ret) {
		ig_dr_query_err(d, "route_lookup", addr, -ret);
		return;
	}
	snprintf(p->route_type, sizeof(p->route_type), "%s", rt.type);
	snprintf(p->route_dev, sizeof(p->route_dev), "%s", rt.oif);
	snprintf(p->src, sizeof(p->src), "%s", rt.src);
	if (strcmp(rt.type, "local") || local_owner(d, addr, p))
		snprintf(p->netdev, sizeof(p->netdev), "%s", rt.oif);
}

static void pctx_init(struct ig_dr *d, struct ig_dr_path *p,
		      struct ig_dr_pctx *c)
{
	const struct ig_inv_dev *dev;

	memset(c, 0, sizeof(*c));
	c->p = p;
	c->netdev_type = p->netdev[0] ? ig_dr_netdev_type(d, p->netdev, true)
				      : -1;
	if (!p->rdma_dev[0])
		return;
	/* rxe and siw name their netdev in "parent" and have no device */
	dev = ig_inv_dev(d->inv, p->rdma_dev);
	c->soft = !dev || dev->soft;
	c->dev = dev;
	c->port = ig_inv_port(dev, p->port);
}

int ig_dr_map_addr(struct ig_dr *d, const char *addr, struct ig_dr_pctx *c)
{
	struct ig_dr_path *p = &d->r->paths[0];

	memset(p, 0, sizeof(*p));
	d->r->npaths = 1;
	snprintf(p->addr, sizeof(p->addr), "%s", addr);
	lookup(d, addr, p);
	if (p->netdev[0])
		ig_dr_map_netdev(d, p->netdev, p);
	pctx_init(d, p, c);
	if (!p->netdev[0])
		return -ENODEV;
	route_findings(d, p);
	if (!d->o->addr_is_local)
		check_src(d, p);
	return 0;
}

void ig_dr_pctx_of(struct ig_dr *d, struct ig_dr_path *p, struct ig_dr_pctx *c)
{
	pctx_init(d, p, c);
}
