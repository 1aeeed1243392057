// SPDX-License-Identifier: MIT
/*
 * The netdev's queues and rings: one receive queue for several CPUs
 * (queues.single), that queue's RPS mask left empty (rps.off: receive
 * processing stays on the CPU the interrupt hits), receive rings below
 * what the driver allows (rings.small: bursts overflow them).
 */
#include <stdio.h>
#include <string.h>

#include "doctor_int.h"

struct qcount {
	int rx, tx;
};

static int queue_cb(struct ig_dr *d, const char *name, void *arg)
{
	struct qcount *n = arg;

	n->rx += !strncmp(name, "rx-", 3);
	n->tx += !strncmp(name, "tx-", 3);
	return 0;
}

static void single(struct ig_dr *d, const char *nd, const char *path,
		   const struct qcount *n, const char *online, int ncpu)
{
	struct ig_dr_q_channels ch = { 0 };
	struct ig_dr_finding *f;
	char q[96];

	f = ig_dr_add(d, IG_DR_SEV_WARN, "queues.single",
		      "%s has one receive queue for %d CPUs: every receive "
		      "interrupt, GRO and TCP receive runs on one CPU",
		      nd, ncpu);
	ig_dr_ev(f, path, "%d rx, %d tx", n->rx, n->tx);
	ig_dr_ev(f, "/sys/devices/system/cpu/online", "%s", online);
	if (!d->q->ethtool_channels(d->qctx, nd, &ch)) {
		snprintf(q, sizeof(q), "ethtool_channels(%s)", nd);
		ig_dr_ev(f, q, "combined %u of at most %u, rx %u of at most %u",
			 ch.combined, ch.max_combined, ch.rx, ch.max_rx);
	} else {
		ig_dr_not_examined(d, "channels",
				   "%s's driver reports no channel counts", nd);
	}
	if (ch.max_combined > 1) {
		ig_dr_fix(f, "ethtool -L %s combined %u", nd, ch.max_combined);
		ig_dr_try(f, IG_TUNE_CHANNELS, nd, "combined", "%u",
			  ch.max_combined);
	} else if (ch.max_rx > 1) {
		ig_dr_fix(f, "ethtool -L %s rx %u", nd, ch.max_rx);
		ig_dr_try(f, IG_TUNE_CHANNELS, nd, "rx", "%u", ch.max_rx);
	} else {
		ig_dr_fix(f,
			  "the device offers one queue: spread receive work "
			  "with RPS (write a CPU mask to "
			  "%s/rx-0/rps_cpus)",
			  path);
		ig_dr_not_tried(f, "the driver offers one queue: rps.off's "
				   "trial spreads the work instead");
	}
}

static bool mask_empty(const char *m)
{
	return m[strspn(m, "0,")] == 0;
}

/* The CPUs RPS should use: the HCA's local ones, else every online one. */
static void rps_cpus(struct ig_dr_pctx *c, const struct ig_dr_cpus *online,
		     char *mask, size_t len)
{
	struct ig_dr_cpus local;

	if (c->dev && c->dev->local_cpulist[0] &&
	    !ig_dr_cpus_parse(c->dev->local_cpulist, &local) &&
	    ig_dr_cpus_count(&local) > 1)
		online = &local;
	ig_dr_cpus_mask(online, mask, len);
}

static void rps(struct ig_dr *d, struct ig_dr_pctx *c,
		const struct ig_dr_cpus *online, int ncpu)
{
	const char *nd = c->p->netdev;
	char path[PATH_MAX], val[128], mask[160];
	struct ig_dr_finding *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-0/rps_cpus",
		 nd);
	if (ig_dr_read_quiet(d, path, val, sizeof(val))) {
		ig_dr_not_examined(d, "rps", "no %s (a kernel without RPS?)",
				   path);
		return;
	}
	if (!mask_empty(val))
		return;
	rps_cpus(c, online, mask, sizeof(mask));
	f = ig_dr_add(d, IG_DR_SEV_WARN, "rps.off",
		      "%s's only receive queue has no RPS mask: the protocol "
		      "work of every packet stays on the CPU its interrupt "
		      "hits, while %d CPUs are online",
		      nd, ncpu);
	ig_dr_ev(f, path, "%s", val);
	ig_dr_fix(f, "echo %s > %s", mask, path);
	ig_dr_try(f, IG_TUNE_RPS, nd, "rx-0", "%s", mask);
}

void ig_dr_check_queues(struct ig_dr *d, struct ig_dr_pctx *c)
{
	const char *nd = c->p->netdev;
	char path[PATH_MAX], online[256];
	struct qcount n = { 0 };
	struct ig_dr_cpus cpus;
	int ncpu;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", nd);
	if (ig_dr_list(d, path, false, queue_cb, &n) < 0) {
		ig_dr_not_examined(d, "channels", "%s is not readable", path);
		return;
	}
	if (n.rx != 1 ||
	    ig_dr_read(d, "/sys/devices/system/cpu/online", online,
		       sizeof(online)) ||
	    ig_dr_cpus_parse(online, &cpus) ||
	    (ncpu = ig_dr_cpus_count(&cpus)) < 2)
		return;
	/* legacy IPoIB has one receive queue by design: RPS is its remedy */
	if (!c->ipoib_legacy)
		single(d, nd, path, &n, online, ncpu);
	rps(d, c, &cpus, ncpu);
}

void ig_dr_check_rings(struct ig_dr *d, struct ig_dr_pctx *c)
{
	const char *nd = c->p->netdev;
	struct ig_dr_q_ring r = { 0 };
	struct ig_dr_finding *f;
	char q[96];
	int ret = d->q->ethtool_ring(d->qctx, nd, &r);

	if (ret) {
		ig_dr_query_err(d, "ethtool_ring", nd, -ret);
		ig_dr_not_examined(d, "rings", "ethtool_ring(%s): %s", nd,
				   strerror(-ret));
		return;
	}
	if (!r.rx_max || r.rx >= r.rx_max)
		return;
	snprintf(q, sizeof(q), "ethtool_ring(%s)", nd);
	f = ig_dr_add(d, IG_DR_SEV_WARN, "rings.small",
		      "%s's receive ring holds %u of the %u descriptors its "
		      "driver allows: a burst that outruns the CPU is dropped "
		      "and TCP retransmits",
		      nd, r.rx, r.rx_max);
	ig_dr_ev(f, q, "rx %u of at most %u, tx %u of at most %u", r.rx,
		 r.rx_max, r.tx, r.tx_max);
	ig_dr_try(f, IG_TUNE_RING, nd, "rx", "%u", r.rx_max);
	if (r.tx_max && r.tx < r.tx_max) {
		ig_dr_fix(f, "ethtool -G %s rx %u tx %u", nd, r.rx_max,
			  r.tx_max);
		ig_dr_try(f, IG_TUNE_RING, nd, "tx", "%u", r.tx_max);
	} else {
		ig_dr_fix(f, "ethtool -G %s rx %u", nd, r.rx_max);
	}
}
