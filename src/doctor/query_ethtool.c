// SPDX-License-Identifier: MIT
/*
 * Live ethtool queries over the SIOCETHTOOL ioctl.  The "get" commands
 * used here need no privilege.  Link speed: ETHTOOL_GLINKSETTINGS; the
 * fastest supported mode is found by name in the ETH_SS_LINK_MODES
 * string set ("100000baseCR4/Full" -> 100000 Mb/s).
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/ethtool.h"
#include "query.h"

/* A fixed-size kernel string (NUL-terminated only when shorter). */
static void copy_field(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t n = strnlen(src, srclen);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

int ig_dr_q_eth_drvinfo(void *ctx, const char *ifname,
			struct ig_dr_q_drvinfo *di)
{
	struct ethtool_drvinfo x = { .cmd = ETHTOOL_GDRVINFO };
	int ret = ig_eth_ioctl(ifname, &x);

	if (ret)
		return ret;
	copy_field(di->driver, sizeof(di->driver), x.driver, sizeof(x.driver));
	copy_field(di->bus_info, sizeof(di->bus_info), x.bus_info,
		   sizeof(x.bus_info));
	return 0;
}

/* One legacy feature query: 1, 0, or -1 when the driver does not say. */
static int feature(const char *ifname, __u32 cmd)
{
	struct ethtool_value v = { .cmd = cmd };

	return ig_eth_ioctl(ifname, &v) ? -1 : !!v.data;
}

int ig_dr_q_eth_features(void *ctx, const char *ifname,
			 struct ig_dr_q_features *f)
{
	struct ethtool_value fl = { .cmd = ETHTOOL_GFLAGS };
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	int ret = ig_eth_ioctl(ifname, &di);

	if (ret) /* no ethtool at all on this netdev */
		return ret;
	f->tso = feature(ifname, ETHTOOL_GTSO);
	f->gso = feature(ifname, ETHTOOL_GGSO);
	f->gro = feature(ifname, ETHTOOL_GGRO);
	f->rx_csum = feature(ifname, ETHTOOL_GRXCSUM);
	f->tx_csum = feature(ifname, ETHTOOL_GTXCSUM);
	f->sg = feature(ifname, ETHTOOL_GSG);
	f->lro = ig_eth_ioctl(ifname, &fl) ? -1 : !!(fl.data & ETH_FLAG_LRO);
	return 0;
}

int ig_dr_q_eth_coalesce(void *ctx, const char *ifname,
			 struct ig_dr_q_coalesce *c)
{
	struct ethtool_coalesce x = { .cmd = ETHTOOL_GCOALESCE };
	int ret = ig_eth_ioctl(ifname, &x);

	if (ret)
		return ret;
	c->adaptive_rx = x.use_adaptive_rx_coalesce;
	c->rx_usecs = x.rx_coalesce_usecs;
	c->rx_frames = x.rx_max_coalesced_frames;
	c->tx_usecs = x.tx_coalesce_usecs;
	c->tx_frames = x.tx_max_coalesced_frames;
	return 0;
}

int ig_dr_q_eth_pause(void *ctx, const char *ifname, struct ig_dr_q_pause *p)
{
	struct ethtool_pauseparam x = { .cmd = ETHTOOL_GPAUSEPARAM };
	int ret = ig_eth_ioctl(ifname, &x);

	if (ret)
		return ret;
	p->autoneg = x.autoneg;
	p->rx = x.rx_pause;
	p->tx = x.tx_pause;
	return 0;
}

int ig_dr_q_eth_channels(void *ctx, const char *ifname,
			 struct ig_dr_q_channels *ch)
{
	struct ethtool_channels x = { .cmd = ETHTOOL_GCHANNELS };
	int ret = ig_eth_ioctl(ifname, &x);

	if (ret)
		return ret;
	ch->rx = x.rx_count;
	ch->tx = x.tx_count;
	ch->combined = x.combined_count;
	ch->max_rx = x.max_rx;
	ch->max_tx = x.max_tx;
	ch->max_combined = x.max_combined;
	return 0;
}

int ig_dr_q_eth_ring(void *ctx, const char *ifname, struct ig_dr_q_ring *r)
{
	struct ethtool_ringparam x = { .cmd = ETHTOOL_GRINGPARAM };
	int ret = ig_eth_ioctl(ifname, &x);

	if (ret)
		return ret;
	r->rx = x.rx_pending;
	r->tx = x.tx_pending;
	r->rx_max = x.rx_max_pending;
	r->tx_max = x.tx_max_pending;
	return 0;
}

/* Fastest link mode set in the supported mask, by its name. */
static uint32_t max_supported(const char *ifname, const __u32 *mask, int nwords)
{
	struct ethtool_gstrings *gs;
	uint32_t best = 0, n = 0;

	if (ig_eth_strings(ifname, ETH_SS_LINK_MODES, &gs))
		return 0;
	n = gs->len;
	for (uint32_t i = 0; i < n && i < (uint32_t)nwords * 32; i++) {
		uint32_t s;

		if (!(mask[i / 32] & (1u << (i % 32))))
			continue;
		s = (uint32_t)strtoul((char *)gs->data + i * ETH_GSTRING_LEN,
				      NULL, 10);
		best = s > best ? s : best;
	}
	free(gs);
	return best;
}

int ig_dr_q_eth_link(void *ctx, const char *ifname, struct ig_dr_q_link *l)
{
	struct {
		struct ethtool_link_settings s;
		__u32 masks[3 * 127];
	} x = { .s = { .cmd = ETHTOOL_GLINKSETTINGS } };
	int ret = ig_eth_ioctl(ifname, &x), nw;

	/* handshake: the kernel answers with -(words it needs) */
	if (ret)
		return ret;
	nw = -x.s.link_mode_masks_nwords;
	if (nw <= 0 || nw > 127)
		return -EPROTO;
	memset(&x, 0, sizeof(x));
	x.s.cmd = ETHTOOL_GLINKSETTINGS;
	x.s.link_mode_masks_nwords = (__s8)nw;
	ret = ig_eth_ioctl(ifname, &x);
	if (ret)
		return ret;
	l->speed_mbps = x.s.speed == (__u32)SPEED_UNKNOWN ? 0 : x.s.speed;
	l->max_speed_mbps = max_supported(ifname, x.masks, nw);
	return 0;
}
