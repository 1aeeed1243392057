// SPDX-License-Identifier: MIT
/* The netdev TCP uses: offloads, interrupt coalescing, pause (RoCE),
 * queues, Ethernet MTU. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "doctor_int.h"

#define ARPHRD_ETHER_ 1

static const struct {
	const char *id, *what, *opt;
	size_t off;
	bool cm_lost; /* IPoIB connected mode turns it off: no finding */
} offloads[] = {
	{ "offload.tso.off",
	  "TCP segmentation offload (TSO) off: the stack cuts every segment "
	  "to the MTU on the CPU",
	  "tso", offsetof(struct ig_dr_q_features, tso), true },
	{ "offload.gso.off",
	  "generic segmentation offload (GSO) off: every MTU-sized packet "
	  "goes down the stack on its own",
	  "gso", offsetof(struct ig_dr_q_features, gso), false },
	{ "offload.gro.off",
	  "generic receive offload (GRO) off: every MTU-sized packet goes up "
	  "the stack on its own",
	  "gro", offsetof(struct ig_dr_q_features, gro), false },
};

static void check_offloads(struct ig_dr *d, struct ig_dr_pctx *c)
{
	const char *nd = c->p->netdev;
	struct ig_dr_q_features x = { -1, -1, -1, -1, -1, -1, -1 };
	struct ig_dr_finding *f;
	char q[96];
	int ret = d->q->ethtool_features(d->qctx, nd, &x);

	if (ret) {
		ig_dr_query_err(d, "ethtool_features", nd, -ret);
		ig_dr_not_examined(d, "offloads", "ethtool_features(%s): %s",
				   nd, strerror(-ret));
		return;
	}
	snprintf(q, sizeof(q), "ethtool_features(%s)", nd);
	for (size_t i = 0; i < sizeof(offloads) / sizeof(*offloads); i++) {
		int v = *(const int *)((const char *)&x + offloads[i].off);

		if (v != 0 || (c->ipoib_cm && offloads[i].cm_lost))
			continue;
		f = ig_dr_add(d, IG_DR_SEV_WARN, offloads[i].id, "%s has %s",
			      nd, offloads[i].what);
		ig_dr_ev(f, q, "%s off%s", offloads[i].opt,
			 !strcmp(offloads[i].opt, "gro")
				 ? (x.lro == 1 ? ", lro on" : ", lro off")
				 : "");
		ig_dr_fix(f, "ethtool -K %s %s on", nd, offloads[i].opt);
		ig_dr_try(f, IG_TUNE_FEATURE, nd, offloads[i].opt, "on");
	}
	if (c->ipoib_cm || (x.rx_csum != 0 && x.tx_csum != 0))
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, "offload.csum.off",
		"%s has checksum offload off: the CPU checksums every byte "
		"it sends or receives",
		nd);
	ig_dr_ev(f, q, "rx-checksumming %s, tx-checksumming %s",
		 x.rx_csum ? "on" : "off", x.tx_csum ? "on" : "off");
	ig_dr_fix(f, "ethtool -K %s rx on tx on", nd);
	ig_dr_try(f, IG_TUNE_FEATURE, nd, "rx-csum", "on");
	ig_dr_try(f, IG_TUNE_FEATURE, nd, "tx-csum", "on");
}

static void check_coalesce(struct ig_dr *d, struct ig_dr_pctx *c)
{
	const char *nd = c->p->netdev;
	struct ig_dr_q_coalesce x = { 0 };
	struct ig_dr_finding *f;
	char q[96];
	int ret = d->q->ethtool_coalesce(d->qctx, nd, &x);

	if (ret) {
		ig_dr_query_err(d, "ethtool_coalesce", nd, -ret);
		ig_dr_not_examined(d, "coalescing", "ethtool_coalesce(%s): %s",
				   nd, strerror(-ret));
		return;
	}
	snprintf(q, sizeof(q), "ethtool_coalesce(%s)", nd);
	if (x.adaptive_rx || (x.rx_usecs && x.rx_usecs <= 100) ||
	    (!x.rx_usecs && x.rx_frames > 1))
		return;
	if (!x.rx_usecs) {
		f = ig_dr_add(
			d, IG_DR_SEV_WARN, "coalesce.off",
			"%s interrupts on every received packet: at high "
			"packet rates the CPU spends itself on interrupts",
			nd);
		ig_dr_fix(f, "ethtool -C %s adaptive-rx on (or rx-usecs 8)",
			  nd);
	} else {
		f = ig_dr_add(
			d, IG_DR_SEV_INFO, "coalesce.high",
			"%s holds received packets up to %u us before "
			"interrupting: fine for bandwidth, it adds latency",
			nd, x.rx_usecs);
		ig_dr_fix(f, "ethtool -C %s adaptive-rx on", nd);
	}
	ig_dr_try(f, IG_TUNE_COALESCE, nd, "adaptive-rx", "on");
	ig_dr_ev(f, q, "adaptive-rx off, rx-usecs %u, rx-frames %u", x.rx_usecs,
		 x.rx_frames);
}

static void check_pause(struct ig_dr *d, struct ig_dr_pctx *c)
{
	const char *nd = c->p->netdev;
	struct ig_dr_q_pause x = { 0 };
	struct ig_dr_finding *f;
	char q[96];
	int ret = d->q->ethtool_pause(d->qctx, nd, &x);

	if (ret) {
		ig_dr_query_err(d, "ethtool_pause", nd, -ret);
		ig_dr_not_examined(d, "pause", "ethtool_pause(%s): %s", nd,
				   strerror(-ret));
		return;
	}
	if (x.rx || x.tx)
		return;
	snprintf(q, sizeof(q), "ethtool_pause(%s)", nd);
	f = ig_dr_add(
		d, IG_DR_SEV_INFO, "pause.off",
		"%s has link-level pause off: RoCE needs a lossless fabric, "
		"from global pause or from PFC on its priority (PFC is not "
		"checked here); TCP recovers losses by retransmitting",
		nd);
	ig_dr_ev(f, q, "autoneg %s, rx off, tx off", x.autoneg ? "on" : "off");
	ig_dr_fix(f,
		  "ethtool -A %s rx on tx on, or PFC on the RoCE priority "
		  "(mlnx_qos -i %s --pfc 0,0,0,1,0,0,0,0) with the switch",
		  nd, nd);
	ig_dr_not_tried(f, "pause and PFC work only with the switch port's "
			   "settings: not changed on one end");
}

static void check_eth_mtu(struct ig_dr *d, struct ig_dr_pctx *c)
{
	const char *nd = c->p->netdev;
	char path[PATH_MAX];
	struct ig_dr_finding *f;
	int mtu;

	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", nd);
	if (c->p->rate_gbps < 25 || ig_dr_read_int(d, path, &mtu) || mtu > 1500)
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_INFO, "eth.mtu.standard",
		"%s's MTU is %d at %.0f Gb/s: TCP relies on TSO and GRO to "
		"batch packets and RoCE's path MTU is 1024; jumbo frames "
		"(9000, RoCE MTU 4096) cut the per-packet cost of both",
		nd, mtu, c->p->rate_gbps);
	ig_dr_ev(f, path, "%d", mtu);
	ig_dr_fix(f, "ip link set %s mtu 9000 (and on the switch ports)", nd);
	/* --try checks the path MTU to the peer before it is tried */
	ig_dr_try(f, IG_TUNE_MTU, nd, "", "9000");
}

void ig_dr_check_netdev(struct ig_dr *d, struct ig_dr_pctx *c)
{
	bool roce = !strcmp(c->p->kind, "roce");

	check_offloads(d, c);
	check_coalesce(d, c);
	if (roce && c->netdev_type == ARPHRD_ETHER_)
		check_pause(d, c);
	ig_dr_check_queues(d, c);
	ig_dr_check_rings(d, c);
	if (roce && c->netdev_type == ARPHRD_ETHER_)
		check_eth_mtu(d, c);
}
