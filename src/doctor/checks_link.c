// SPDX-License-Identifier: MIT
/* Port state, link width and speed -> data rate; PCIe link -> ceiling. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_int.h"

static void port_state(struct ig_dr *d, struct ig_dr_pctx *c, const char *base)
{
	char path[PATH_MAX], phys_path[PATH_MAX], st[64], phys[64] = "?";
	const struct ig_inv_port *ip = c->port;
	struct ig_dr_finding *f;

	snprintf(path, sizeof(path), "%s/state", base);
	if (ig_dr_inv_str(d, ip ? ip->state_str : NULL, path, st, sizeof(st)))
		return;
	snprintf(phys_path, sizeof(phys_path), "%s/phys_state", base);
	ig_dr_inv_str(d, ip ? ip->phys_state : NULL, phys_path, phys,
		      sizeof(phys));
	if (strstr(st, "ACTIVE"))
		return;
	f = ig_dr_add(d, IG_DR_SEV_CRIT, "port.state",
		      "%s port %d is '%s' (physical '%s'), not ACTIVE: neither "
		      "verbs nor IPoIB pass traffic",
		      c->p->rdma_dev, c->p->port, st, phys);
	ig_dr_ev(f, path, "%s", st);
	ig_dr_ev(f, phys_path, "%s", phys);
	ig_dr_fix(f,
		  "check the cable and 'ibstat %s'; InfiniBand needs a "
		  "subnet manager (opensm) on the fabric",
		  c->p->rdma_dev);
}

static void ib_rate(struct ig_dr *d, struct ig_dr_pctx *c, const char *path,
		    const char *rate)
{
	struct ig_dr_path *p = c->p;
	const char *name, *coding;
	struct ig_dr_finding *f;
	double lane;
	int lanes;

	if (ig_dr_ib_rate_parse(rate, &lanes, &lane, &name, &coding)) {
		ig_dr_read_err(d, path, EINVAL);
		return;
	}
	p->rate_gbps = lanes * lane;
	f = ig_dr_add(d, IG_DR_SEV_INFO, "link.rate",
		      "%s port %d: %dX %s = %.1f Gb/s of data after encoding "
		      "(%s); the best any transport can reach on this link",
		      p->rdma_dev, p->port, lanes, name, p->rate_gbps, coding);
	ig_dr_ev(f, path, "%s", rate);
	if (lanes >= 4)
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, "link.width.degraded",
		"%s port %d trained at %dX: a 4X port runs on %d of its 4 "
		"lanes, %.1f Gb/s instead of %.1f",
		p->rdma_dev, p->port, lanes, lanes, p->rate_gbps, 4 * lane);
	ig_dr_ev(f, path, "%s", rate);
	ig_dr_fix(f, "reseat or replace the cable; 'ibportstate' or "
		     "'mlxlink' shows the lanes that fail");
}

static void eth_rate(struct ig_dr *d, struct ig_dr_pctx *c, const char *path,
		     const char *rate)
{
	struct ig_dr_path *p = c->p;
	struct ig_dr_q_link l = { 0 };
	struct ig_dr_finding *f;
	char q[96];
	int ret = d->q->ethtool_link(d->qctx, p->netdev, &l);

	snprintf(q, sizeof(q), "ethtool_link(%s)", p->netdev);
	if (ret)
		ig_dr_query_err(d, "ethtool_link", p->netdev, -ret);
	if (ret || !l.speed_mbps) {
		/* the kernel's IB-style rendering of the Ethernet speed */
		const char *name, *coding;
		double lane;
		int lanes;

		if (!ig_dr_ib_rate_parse(rate, &lanes, &lane, &name, &coding))
			p->rate_gbps = lanes * lane;
		return;
	}
	p->rate_gbps = l.speed_mbps / 1000.0;
	f = ig_dr_add(
		d, IG_DR_SEV_INFO, "link.rate",
		"%s (%s port %d) links at %.0f Gb/s Ethernet: the best any "
		"transport can reach on this link",
		p->netdev, p->rdma_dev, p->port, p->rate_gbps);
	ig_dr_ev(f, q, "speed %u Mb/s", l.speed_mbps);
	ig_dr_ev(f, path, "%s", rate);
	if (l.max_speed_mbps <= l.speed_mbps)
		return;
	f = ig_dr_add(d, IG_DR_SEV_WARN, "link.speed.degraded",
		      "%s links at %.0f Gb/s but supports %.0f Gb/s: the link "
		      "trained below its maximum",
		      p->netdev, p->rate_gbps, l.max_speed_mbps / 1000.0);
	ig_dr_ev(f, q, "speed %u Mb/s, fastest supported mode %u Mb/s",
		 l.speed_mbps, l.max_speed_mbps);
	ig_dr_fix(f,
		  "check the cable/transceiver and the switch port; "
		  "'ethtool %s' shows the advertised and supported modes",
		  p->netdev);
}

void ig_dr_check_port(struct ig_dr *d, struct ig_dr_pctx *c)
{
	struct ig_dr_path *p = c->p;
	char base[256], path[PATH_MAX], rate[64];

	ig_inv_path(base, sizeof(base), p->rdma_dev, 0, "ports");
	snprintf(base + strlen(base), sizeof(base) - strlen(base), "/%d",
		 p->port);
	port_state(d, c, base);
	snprintf(path, sizeof(path), "%s/link_layer", base);
	ig_dr_inv_str(d, c->port ? c->port->link_layer : NULL, path,
		      p->link_layer, sizeof(p->link_layer));
	snprintf(path, sizeof(path), "%s/rate", base);
	if (ig_dr_inv_str(d, c->port ? c->port->rate : NULL, path, rate,
			  sizeof(rate)))
		return;
	if (!strcmp(p->link_layer, "Ethernet"))
		eth_rate(d, c, path, rate);
	else
		ib_rate(d, c, path, rate);
}

struct pcie {
	char speed[32], max_speed[32];
	int width, max_width;
	double gts, max_gts;
};

static int read_pcie(struct ig_dr *d, const struct ig_inv_dev *dev,
		     const char *base, struct pcie *x)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/current_link_speed", base);
	if (ig_dr_inv_str(d, dev ? dev->pcie_speed : NULL, path, x->speed,
			  sizeof(x->speed)))
		return -1;
	snprintf(path, sizeof(path), "%s/max_link_speed", base);
	if (ig_dr_inv_str(d, dev ? dev->pcie_max_speed : NULL, path,
			  x->max_speed, sizeof(x->max_speed)))
		return -1;
	snprintf(path, sizeof(path), "%s/current_link_width", base);
	if (ig_dr_inv_num(d, dev ? dev->pcie_width : NULL, path, &x->width))
		return -1;
	snprintf(path, sizeof(path), "%s/max_link_width", base);
	if (ig_dr_inv_num(d, dev ? dev->pcie_max_width : NULL, path,
			  &x->max_width))
		return -1;
	/* "8.0 GT/s PCIe" (5.x and later) or "8 GT/s" (older) */
	x->gts = strtod(x->speed, NULL);
	x->max_gts = strtod(x->max_speed, NULL);
	return x->gts > 0 && x->width > 0 ? 0 : -1;
}

void ig_dr_check_pcie(struct ig_dr *d, struct ig_dr_pctx *c)
{
	struct ig_dr_path *p = c->p;
	char base[256], path[PATH_MAX];
	struct ig_dr_finding *f;
	struct pcie x;
	double ceiling;

	ig_inv_path(base, sizeof(base), p->rdma_dev, 0, "device");
	if (read_pcie(d, c->dev, base, &x))
		return;
	ceiling = ig_dr_pcie_lane_gbps(x.gts) * x.width;
	if (x.gts < x.max_gts || x.width < x.max_width) {
		f = ig_dr_add(
			d, IG_DR_SEV_WARN, "pcie.downtrained",
			"%s's PCIe link runs at %s x%d, below the "
			"device's own %s x%d: the slot or riser is slower "
			"or narrower",
			p->rdma_dev, x.speed, x.width, x.max_speed,
			x.max_width);
		snprintf(path, sizeof(path), "%s/current_link_speed", base);
		ig_dr_ev(f, path, "%s", x.speed);
		snprintf(path, sizeof(path), "%s/current_link_width", base);
		ig_dr_ev(f, path, "%d", x.width);
		snprintf(path, sizeof(path), "%s/max_link_speed", base);
		ig_dr_ev(f, path, "%s", x.max_speed);
		snprintf(path, sizeof(path), "%s/max_link_width", base);
		ig_dr_ev(f, path, "%d", x.max_width);
		ig_dr_fix(f, "move the HCA to a slot of its own generation and "
			     "width (lspci -vv: LnkCap against LnkSta)");
	}
	if (p->rate_gbps <= 0 || ceiling >= p->rate_gbps)
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_CRIT, "pcie.ceiling",
		"%s's PCIe link (x%d at %.1f GT/s, %s) carries at most "
		"%.1f Gb/s, below the port's %.1f Gb/s: neither verbs nor "
		"TCP can exceed it",
		p->rdma_dev, x.width, x.gts, ig_dr_pcie_coding(x.gts), ceiling,
		p->rate_gbps);
	snprintf(path, sizeof(path), "%s/current_link_speed", base);
	ig_dr_ev(f, path, "%s", x.speed);
	snprintf(path, sizeof(path), "%s/current_link_width", base);
	ig_dr_ev(f, path, "%d", x.width);
	ig_inv_path(path, sizeof(path), p->rdma_dev, p->port, "rate");
	ig_dr_ev(f, path, "%.1f Gb/s of data", p->rate_gbps);
	ig_dr_fix(f,
		  "put the HCA in a slot that carries %.0f Gb/s: x16 "
		  "carries about 126 Gb/s at Gen3, 252 at Gen4, 504 at Gen5",
		  p->rate_gbps);
}
