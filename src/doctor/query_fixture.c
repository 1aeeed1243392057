// SPDX-License-Identifier: MIT
/*
 * Fixture queries: the answers of netlink, ethtool and ibv_query_port,
 * read from JSON files under ROOT/.ibgap-fixture/ (docs/design.md,
 * "Doctor"):
 *   route.json        {"routes": {"ADDR"|"default": {"type", "oif",
 *                     "src"}}, "addrs": {"ADDR": "ifname"}}; an address
 *                     listed in addrs is local (route "local" via lo)
 *   ports.json        {"DEV/PORT": {"active_mtu": 4096, "max_mtu": 4096}}
 *   ethtool/IF.json   {"drvinfo": {"driver", "bus_info"}, "features":
 *                     {"tso", "gso", "gro", "lro", "rx_csum", "tx_csum",
 *                     "sg": bool}, "coalesce": {"adaptive_rx",
 *                     "rx_usecs", "rx_frames", "tx_usecs", "tx_frames"},
 *                     "pause": {"autoneg", "rx", "tx"}, "channels": {"rx",
 *                     "tx", "combined", "max_rx", "max_tx",
 *                     "max_combined"}, "link": {"speed_mbps",
 *                     "max_speed_mbps"}, "ring": {"rx", "tx", "rx_max",
 *                     "tx_max"}}
 *   qdisc.json        {"IF": [{"kind", "handle", "parent", "rate"
 *                     (bytes/s), "police"}]}; IF absent: no qdisc
 *   nftables.json     what `nft -j list ruleset` prints, or {"errno": N}
 *                     for a listing that fails (1: EPERM)
 * A missing file is -ENODEV, a missing section -EOPNOTSUPP (what the
 * ioctl says when a driver lacks the operation).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "query.h"

static json_object *load(void *ctx, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/.ibgap-fixture/%s", (char *)ctx, rel);
	return json_object_from_file(path);
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static void str(json_object *o, const char *k, char *buf, size_t len)
{
	json_object *v = get(o, k);

	snprintf(buf, len, "%s", v ? json_object_get_string(v) : "");
}

static uint32_t u32(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	return v ? (uint32_t)json_object_get_int64(v) : 0;
}

static int flag(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	return v ? json_object_get_boolean(v) : -1;
}

static int fx_route(void *ctx, const char *addr, struct ig_dr_q_route *r)
{
	json_object *root = load(ctx, "route.json"), *rt;
	int ret = 0;

	if (!root)
		return -ENODEV;
	memset(r, 0, sizeof(*r));
	if (get(get(root, "addrs"), addr)) {
		snprintf(r->type, sizeof(r->type), "local");
		snprintf(r->oif, sizeof(r->oif), "lo");
		snprintf(r->src, sizeof(r->src), "%s", addr);
	} else if ((rt = get(get(root, "routes"), addr)) ||
		   (rt = get(get(root, "routes"), "default"))) {
		str(rt, "type", r->type, sizeof(r->type));
		str(rt, "oif", r->oif, sizeof(r->oif));
		str(rt, "src", r->src, sizeof(r->src));
	} else {
		ret = -ENETUNREACH;
	}
	json_object_put(root);
	return ret;
}

static int fx_owner(void *ctx, const char *addr, char *ifname, size_t len)
{
	json_object *root = load(ctx, "route.json");
	json_object *v = get(get(root, "addrs"), addr);
	int ret = v ? 0 : -EADDRNOTAVAIL;

	if (v)
		snprintf(ifname, len, "%s", json_object_get_string(v));
	json_object_put(root);
	return root ? ret : -ENODEV;
}

static int fx_port(void *ctx, const char *dev, int port,
		   struct ig_dr_q_port *pa)
{
	json_object *root = load(ctx, "ports.json"), *p;
	char key[96];

	if (!root)
		return -ENODEV;
	snprintf(key, sizeof(key), "%s/%d", dev, port);
	p = get(root, key);
	if (p) {
		pa->active_mtu = (int)u32(p, "active_mtu");
		pa->max_mtu = (int)u32(p, "max_mtu");
	}
	json_object_put(root);
	return p ? 0 : -ENODEV;
}

/* The section of ethtool/IF.json, with a reference the caller puts. */
static int section(void *ctx, const char *ifname, const char *name,
		   json_object **root, json_object **sec)
{
	char rel[96];

	snprintf(rel, sizeof(rel), "ethtool/%s.json", ifname);
	*root = load(ctx, rel);
	if (!*root)
		return -ENODEV;
	*sec = get(*root, name);
	if (*sec)
		return 0;
	json_object_put(*root);
	return -EOPNOTSUPP;
}

static int fx_drvinfo(void *ctx, const char *ifname, struct ig_dr_q_drvinfo *di)
{
	json_object *root, *s;
	int ret = section(ctx, ifname, "drvinfo", &root, &s);

	if (ret)
		return ret;
	str(s, "driver", di->driver, sizeof(di->driver));
	str(s, "bus_info", di->bus_info, sizeof(di->bus_info));
	json_object_put(root);
	return 0;
}

static int fx_features(void *ctx, const char *ifname,
		       struct ig_dr_q_features *f)
{
	json_object *root, *s;
	int ret = section(ctx, ifname, "features", &root, &s);

	if (ret)
		return ret;
	f->tso = flag(s, "tso");
	f->gso = flag(s, "gso");
	f->gro = flag(s, "gro");
	f->lro = flag(s, "lro");
	f->rx_csum = flag(s, "rx_csum");
	f->tx_csum = flag(s, "tx_csum");
	f->sg = flag(s, "sg");
	json_object_put(root);
	return 0;
}

static int fx_coalesce(void *ctx, const char *ifname,
		       struct ig_dr_q_coalesce *c)
{
	json_object *root, *s;
	int ret = section(ctx, ifname, "coalesce", &root, &s);

	if (ret)
		return ret;
	c->adaptive_rx = flag(s, "adaptive_rx") == 1;
	c->rx_usecs = u32(s, "rx_usecs");
	c->rx_frames = u32(s, "rx_frames");
	c->tx_usecs = u32(s, "tx_usecs");
	c->tx_frames = u32(s, "tx_frames");
	json_object_put(root);
	return 0;
}

static int fx_pause(void *ctx, const char *ifname, struct ig_dr_q_pause *p)
{
	json_object *root, *s;
	int ret = section(ctx, ifname, "pause", &root, &s);

	if (ret)
		return ret;
	p->autoneg = flag(s, "autoneg") == 1;
	p->rx = flag(s, "rx") == 1;
	p->tx = flag(s, "tx") == 1;
	json_object_put(root);
	return 0;
}

static int fx_channels(void *ctx, const char *ifname,
		       struct ig_dr_q_channels *ch)
{
	json_object *root, *s;
	int ret = section(ctx, ifname, "channels", &root, &s);

	if (ret)
		return ret;
	ch->rx = u32(s, "rx");
	ch->tx = u32(s, "tx");
	ch->combined = u32(s, "combined");
	ch->max_rx = u32(s, "max_rx");
	ch->max_tx = u32(s, "max_tx");
	ch->max_combined = u32(s, "max_combined");
	json_object_put(root);
	return 0;
}

static int fx_link(void *ctx, const char *ifname, struct ig_dr_q_link *l)
{
	json_object *root, *s;
	int ret = section(ctx, ifname, "link", &root, &s);

	if (ret)
		return ret;
	l->speed_mbps = u32(s, "speed_mbps");
	l->max_speed_mbps = u32(s, "max_speed_mbps");
	json_object_put(root);
	return 0;
}

static int fx_ring(void *ctx, const char *ifname, struct ig_dr_q_ring *r)
{
	json_object *root, *s;
	int ret = section(ctx, ifname, "ring", &root, &s);

	if (ret)
		return ret;
	r->rx = u32(s, "rx");
	r->tx = u32(s, "tx");
	r->rx_max = u32(s, "rx_max");
	r->tx_max = u32(s, "tx_max");
	json_object_put(root);
	return 0;
}

static int fx_qdiscs(void *ctx, const char *ifname, struct ig_dr_q_qdisc *q,
		     size_t max, size_t *n)
{
	json_object *root = load(ctx, "qdisc.json"), *a;

	*n = 0;
	if (!root)
		return -ENODEV;
	a = get(root, ifname);
	for (size_t i = 0; a && i < json_object_array_length(a) && *n < max;
	     i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct ig_dr_q_qdisc *x = &q[(*n)++];

		str(e, "kind", x->kind, sizeof(x->kind));
		str(e, "handle", x->handle, sizeof(x->handle));
		str(e, "parent", x->parent, sizeof(x->parent));
		x->rate = (uint64_t)json_object_get_int64(get(e, "rate"));
		x->police = flag(e, "police") == 1;
	}
	json_object_put(root);
	return 0;
}

static int fx_nft(void *ctx, char **json)
{
	json_object *root = load(ctx, "nftables.json"), *e;
	int ret = -ENOMEM;

	*json = NULL;
	if (!root)
		return -ENODEV;
	e = get(root, "errno");
	if (e)
		ret = -json_object_get_int(e);
	else if ((*json = strdup(json_object_to_json_string(root))))
		ret = 0;
	json_object_put(root);
	return ret;
}

const struct ig_dr_query_ops ig_dr_q_fixture_ops = {
	.name = "fixture",
	.route_lookup = fx_route,
	.addr_owner = fx_owner,
	.port_attr = fx_port,
	.ethtool_drvinfo = fx_drvinfo,
	.ethtool_features = fx_features,
	.ethtool_coalesce = fx_coalesce,
	.ethtool_pause = fx_pause,
	.ethtool_channels = fx_channels,
	.ethtool_link = fx_link,
	.ethtool_ring = fx_ring,
	.qdiscs = fx_qdiscs,
	.nft_ruleset = fx_nft,
};
