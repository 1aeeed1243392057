// SPDX-License-Identifier: MIT
/*
 * IPoIB: datagram or connected mode, enhanced (mlx5 offload) or legacy,
 * and the netdev MTU against the port's active MTU.
 *   datagram:  MTU = IB MTU - 4 (the 4-byte IPoIB header), at most 4092;
 *              a lower MTU of 2044 on a 4096 port means the partition's
 *              broadcast group is 2K.
 *   connected: MTU up to 65520, but no TSO, no checksum offload, one
 *              queue (the ULP turns them off: ipoib_set_mode()).
 *   enhanced:  ethtool driver "mlx5_core[ib_ipoib]"; datagram only, with
 *              RSS/TSS, TSO and checksum offload in the HCA.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_int.h"

#define IPOIB_CM_MTU 65520
#define IPOIB_ENCAP_LEN 4

struct ipoib {
	char mode[32], mode_path[PATH_MAX], mtu_path[PATH_MAX];
	char driver[32];
	int mtu;
	int active_mtu; /* 0 unknown */
	bool enhanced;
};

static void mode_finding(struct ig_dr *d, struct ig_dr_pctx *c, struct ipoib *x)
{
	const char *nd = c->p->netdev;
	struct ig_dr_finding *f;
	char q[96];

	snprintf(q, sizeof(q), "ethtool_drvinfo(%s)", nd);
	if (x->enhanced) {
		f = ig_dr_add(
			d, IG_DR_SEV_INFO, "ipoib.enhanced",
			"%s is enhanced IPoIB (the HCA's own data path): "
			"datagram only, with TSO, checksum offload and "
			"RSS/TSS queues in the HCA; connected mode is not "
			"available, the MTU is at most the IB MTU - 4",
			nd);
		ig_dr_ev(f, q, "driver %s", x->driver);
		return;
	}
	if (!strcmp(x->mode, "connected")) {
		f = ig_dr_add(
			d, IG_DR_SEV_WARN, "ipoib.mode.connected",
			"%s runs IPoIB in connected mode: MTU up to %d, "
			"but TSO, checksum offload and multiqueue are lost: "
			"the CPU checksums and segments everything on one "
			"queue",
			nd, IPOIB_CM_MTU);
		ig_dr_ev(f, x->mode_path, "%s", x->mode);
		ig_dr_ev(f, q, "driver %s", x->driver[0] ? x->driver : "?");
		ig_dr_fix(f,
			  "on ConnectX-4 and later, datagram mode with "
			  "enhanced IPoIB (ib_ipoib ipoib_enhanced=1) is "
			  "usually faster: echo datagram > %s",
			  x->mode_path);
		ig_dr_try(f, IG_TUNE_IPOIB_MODE, nd, "", "datagram");
		if (x->active_mtu)
			ig_dr_try(f, IG_TUNE_MTU, nd, "", "%d",
				  x->active_mtu - IPOIB_ENCAP_LEN);
		c->ipoib_cm = true;
		return;
	}
	f = ig_dr_add(
		d, IG_DR_SEV_INFO, "ipoib.mode.datagram",
		"%s runs legacy IPoIB in datagram mode: MTU at most the IB "
		"MTU - 4 (4092 on a 4096 port); TSO and checksum offload "
		"work, receive uses one queue",
		nd);
	ig_dr_ev(f, x->mode_path, "%s", x->mode);
	ig_dr_ev(f, q, "driver %s", x->driver[0] ? x->driver : "?");
}

static void mtu_finding(struct ig_dr *d, struct ig_dr_pctx *c, struct ipoib *x)
{
	const char *nd = c->p->netdev;
	struct ig_dr_finding *f;
	int want = x->active_mtu - IPOIB_ENCAP_LEN, ib = x->mtu + 4;
	char q[128];

	if (c->ipoib_cm) {
		if (x->mtu >= IPOIB_CM_MTU)
			return;
		f = ig_dr_add(
			d, IG_DR_SEV_WARN, "ipoib.mtu.cm_low",
			"%s is in connected mode with MTU %d: connected "
			"mode allows %d, which it needs to make up for the "
			"lost offloads",
			nd, x->mtu, IPOIB_CM_MTU);
		ig_dr_ev(f, x->mtu_path, "%d", x->mtu);
		ig_dr_fix(f, "ip link set %s mtu %d", nd, IPOIB_CM_MTU);
		ig_dr_try(f, IG_TUNE_MTU, nd, "", "%d", IPOIB_CM_MTU);
		return;
	}
	if (!x->active_mtu || x->mtu >= want)
		return;
	snprintf(q, sizeof(q), "ibv_query_port(%s, %d).active_mtu",
		 c->p->rdma_dev, c->p->port);
	if (ib >= 256 && ib <= 4096 && !(ib & (ib - 1))) {
		f = ig_dr_add(
			d, IG_DR_SEV_WARN, "ipoib.mtu.partition",
			"%s's MTU is %d on a port whose active MTU is %d: "
			"the partition's IPoIB broadcast group is %d bytes, "
			"so each packet carries %d instead of %d bytes",
			nd, x->mtu, x->active_mtu, ib, x->mtu, want);
		ig_dr_fix(f, "raise the partition's MTU in the subnet manager "
			     "(opensm partitions.conf: Default=0x7fff, ipoib, "
			     "mtu=5 : ALL=full;) and restart IPoIB");
		/* the broadcast group caps the netdev's MTU: a higher one
		 * set here does not take */
		ig_dr_not_tried(f, "the partition's MTU is the subnet "
				   "manager's: this host cannot raise it");
	} else {
		f = ig_dr_add(d, IG_DR_SEV_WARN, "ipoib.mtu.low",
			      "%s's MTU is %d; datagram mode allows %d on this "
			      "port (active MTU %d)",
			      nd, x->mtu, want, x->active_mtu);
		ig_dr_fix(f, "ip link set %s mtu %d", nd, want);
		ig_dr_try(f, IG_TUNE_MTU, nd, "", "%d", want);
	}
	ig_dr_ev(f, x->mtu_path, "%d", x->mtu);
	ig_dr_ev(f, q, "%d", x->active_mtu);
}

void ig_dr_check_ipoib(struct ig_dr *d, struct ig_dr_pctx *c)
{
	struct ig_dr_path *p = c->p;
	struct ig_dr_q_drvinfo di = { 0 };
	struct ig_dr_q_port pa = { 0 };
	struct ipoib x = { 0 };
	int ret;

	snprintf(x.mode_path, sizeof(x.mode_path), "/sys/class/net/%s/mode",
		 p->netdev);
	snprintf(x.mtu_path, sizeof(x.mtu_path), "/sys/class/net/%s/mtu",
		 p->netdev);
	if (ig_dr_read(d, x.mode_path, x.mode, sizeof(x.mode)))
		ig_dr_not_examined(d, "ipoib", "%s is not readable",
				   x.mode_path);
	if (ig_dr_read_int(d, x.mtu_path, &x.mtu))
		x.mtu = 0;
	ret = d->q->ethtool_drvinfo(d->qctx, p->netdev, &di);
	if (ret)
		ig_dr_query_err(d, "ethtool_drvinfo", p->netdev, -ret);
	snprintf(x.driver, sizeof(x.driver), "%s", di.driver);
	x.enhanced = strstr(di.driver, "[ib_ipoib]") != NULL;
	c->ipoib_legacy = !x.enhanced;
	ret = d->q->port_attr(d->qctx, p->rdma_dev, p->port, &pa);
	if (ret) {
		char arg[96];

		snprintf(arg, sizeof(arg), "%s, %d", p->rdma_dev, p->port);
		ig_dr_query_err(d, "ibv_query_port", arg, -ret);
	}
	x.active_mtu = ret ? 0 : pa.active_mtu;
	if (x.mode[0] || x.enhanced)
		mode_finding(d, c, &x);
	if (x.mtu > 0)
		mtu_finding(d, c, &x);
}
