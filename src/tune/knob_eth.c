// SPDX-License-Identifier: MIT
/*
 * The ethtool knobs over SIOCETHTOOL: rings (G/SRINGPARAM), coalescing
 * (G/SCOALESCE), channels (G/SCHANNELS), and features by the kernel's
 * strings (ETH_SS_FEATURES, G/SFEATURES).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ethtool.h"
#include "common/fail.h"
#include "tune_int.h"

/* One number of a get/set ethtool structure: the get command, the set
 * command, the structure's size and the field's offset, by knob name. */
struct eth_field {
	const char *name;
	size_t off;
};

#define F(type, n, field)                \
	{                                \
		n, offsetof(type, field) \
	}

static const struct eth_field ring_f[] = {
	F(struct ethtool_ringparam, "rx", rx_pending),
	F(struct ethtool_ringparam, "tx", tx_pending),
	{ NULL, 0 },
};

static const struct eth_field coal_f[] = {
	F(struct ethtool_coalesce, "adaptive-rx", use_adaptive_rx_coalesce),
	F(struct ethtool_coalesce, "rx-usecs", rx_coalesce_usecs),
	F(struct ethtool_coalesce, "rx-frames", rx_max_coalesced_frames),
	F(struct ethtool_coalesce, "tx-usecs", tx_coalesce_usecs),
	F(struct ethtool_coalesce, "tx-frames", tx_max_coalesced_frames),
	{ NULL, 0 },
};

static const struct eth_field chan_f[] = {
	F(struct ethtool_channels, "combined", combined_count),
	F(struct ethtool_channels, "rx", rx_count),
	F(struct ethtool_channels, "tx", tx_count),
	{ NULL, 0 },
};

struct eth_cmd {
	__u32 get, set;
	const struct eth_field *f;
};

static const struct eth_cmd *cmd_of(enum ig_tune_kind k)
{
	static const struct eth_cmd ring = { ETHTOOL_GRINGPARAM,
					     ETHTOOL_SRINGPARAM, ring_f };
	static const struct eth_cmd coal = { ETHTOOL_GCOALESCE,
					     ETHTOOL_SCOALESCE, coal_f };
	static const struct eth_cmd chan = { ETHTOOL_GCHANNELS,
					     ETHTOOL_SCHANNELS, chan_f };

	return k == IG_TUNE_RING       ? &ring
	       : k == IG_TUNE_COALESCE ? &coal
				       : &chan;
}

/* The field of c's name in buf (a get structure), NULL if none. */
static __u32 *field(const struct eth_cmd *e, const char *name, void *buf)
{
	for (const struct eth_field *f = e->f; f->name; f++)
		if (!strcmp(f->name, name))
			return (__u32 *)((char *)buf + f->off);
	return NULL;
}

/* Big enough for each of the three structures. */
union eth_buf {
	__u32 cmd;
	struct ethtool_ringparam r;
	struct ethtool_coalesce c;
	struct ethtool_channels ch;
};

static int num_read(const char *root, const struct ig_tune_change *c, char *val,
		    size_t len)
{
	const struct eth_cmd *e = cmd_of(c->kind);
	union eth_buf b = { .cmd = e->get };
	__u32 *v = field(e, c->name, &b);
	int ret = ig_eth_ioctl(c->dev, &b);

	if (ret)
		return ret == -ENODEV ? -ENOENT : ret;
	if (!v)
		return -EINVAL;
	if (c->kind == IG_TUNE_COALESCE && !strcmp(c->name, "adaptive-rx"))
		snprintf(val, len, "%s", *v ? "on" : "off");
	else
		snprintf(val, len, "%u", *v);
	return 0;
}

static int num_write(const char *root, const struct ig_tune_change *c,
		     const char *val, char *err, size_t len)
{
	const struct eth_cmd *e = cmd_of(c->kind);
	union eth_buf b = { .cmd = e->get };
	__u32 *v = field(e, c->name, &b), u;
	int ret = ig_eth_ioctl(c->dev, &b);

	if (!ret && !v)
		ret = -EINVAL;
	if (ret)
		return ig_fail(ret, err, len,
			       "tune: reading %s's ethtool settings for %s: %s",
			       c->dev, c->name, strerror(-ret));
	if (ig_tune_onoff(val) >= 0)
		u = (__u32)ig_tune_onoff(val);
	else if (ig_tune_u32(val, &u))
		return ig_fail(
			-EINVAL, err, len,
			"tune: ethtool %s of %s: \"%.32s\" is not a number",
			c->name, c->dev, val);
	*v = u;
	b.cmd = e->set;
	ret = ig_eth_ioctl(c->dev, &b);
	if (ret)
		return ig_fail(ret, err, len,
			       "tune: setting ethtool %s %s on %s: %s", c->name,
			       val, c->dev, strerror(-ret));
	return 0;
}

const struct ig_knob_ops ig_knob_ring = { num_read, num_write };
const struct ig_knob_ops ig_knob_coalesce = { num_read, num_write };
const struct ig_knob_ops ig_knob_channels = { num_read, num_write };
