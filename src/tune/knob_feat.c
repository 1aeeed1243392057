// SPDX-License-Identifier: MIT
/*
 * Offload features by the kernel's strings (ETH_SS_FEATURES) with
 * ETHTOOL_GFEATURES/SFEATURES.  One of our names stands for a group of
 * strings (tune.c); of those the netdev has, the ones it lets change are
 * read and set (all it has when it lets none change).  The value is "on"
 * or "off" when they agree, else "string=on string=off ...".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ethtool.h"
#include "common/fail.h"
#include "tune_int.h"

#define MAX_GROUP 8

struct feats {
	struct ethtool_gstrings *gs;
	struct ethtool_gfeatures *gf;
	/* the group's strings here: index, active, changeable */
	int idx[MAX_GROUP];
	bool on[MAX_GROUP], can[MAX_GROUP];
	int n, ncan;
};

static int find_string(const struct ethtool_gstrings *gs, const char *s)
{
	for (__u32 i = 0; i < gs->len; i++)
		if (!strncmp((const char *)gs->data + i * ETH_GSTRING_LEN, s,
			     ETH_GSTRING_LEN))
			return (int)i;
	return -1;
}

/* The group's strings of c's feature on c->dev and their state. */
static void group(struct feats *f, const char *name)
{
	const char *const *s = ig_tune_feature_strings(name);
	struct ethtool_get_features_block *b = f->gf->features;

	for (; s && *s && f->n < MAX_GROUP; s++) {
		int i = find_string(f->gs, *s);

		if (i < 0)
			continue;
		f->idx[f->n] = i;
		f->on[f->n] = b[i / 32].active & (1u << (i % 32));
		f->can[f->n] = b[i / 32].available & (1u << (i % 32));
		f->ncan += f->can[f->n];
		f->n++;
	}
}

static void feats_free(struct feats *f)
{
	free(f->gs);
	free(f->gf);
	f->gs = NULL;
	f->gf = NULL;
}

static int feats_get(const char *dev, const char *name, struct feats *f)
{
	size_t nb;
	int ret;

	memset(f, 0, sizeof(*f));
	ret = ig_eth_strings(dev, ETH_SS_FEATURES, &f->gs);
	if (ret)
		return ret == -ENODEV ? -ENOENT : ret;
	nb = (f->gs->len + 31) / 32;
	f->gf = calloc(1, sizeof(*f->gf) + nb * sizeof(f->gf->features[0]));
	if (!f->gf) {
		feats_free(f);
		return -ENOMEM;
	}
	f->gf->cmd = ETHTOOL_GFEATURES;
	f->gf->size = (__u32)nb;
	ret = ig_eth_ioctl(dev, f->gf);
	if (ret) {
		feats_free(f);
		return ret;
	}
	group(f, name);
	return 0;
}

/* The strings a read or write considers: the changeable ones if any. */
static bool considered(const struct feats *f, int k)
{
	return !f->ncan || f->can[k];
}

static const char *gstr(const struct feats *f, int k)
{
	return (const char *)f->gs->data + f->idx[k] * ETH_GSTRING_LEN;
}

static int value_of(const struct feats *f, char *val, size_t len)
{
	int on = 0, all = 0;
	size_t o = 0;

	for (int k = 0; k < f->n; k++)
		if (considered(f, k)) {
			all++;
			on += f->on[k];
		}
	if (!all)
		return -EOPNOTSUPP;
	if (on == 0 || on == all) {
		snprintf(val, len, "%s", on ? "on" : "off");
		return 0;
	}
	for (int k = 0; k < f->n; k++)
		if (considered(f, k))
			o += (size_t)snprintf(val + o, o < len ? len - o : 0,
					      "%s%.*s=%s", o ? " " : "",
					      ETH_GSTRING_LEN, gstr(f, k),
					      f->on[k] ? "on" : "off");
	return o < len ? 0 : -EOVERFLOW;
}

static int feat_read(const char *root, const struct ig_tune_change *c,
		     char *val, size_t len)
{
	struct feats f;
	int ret = feats_get(c->dev, c->name, &f);

	if (ret)
		return ret;
	ret = value_of(&f, val, len);
	feats_free(&f);
	return ret;
}

/* What val wants of each string: want[k] -1 (leave), 0 or 1. */
static int wanted(const struct feats *f, const char *val, int *want)
{
	char buf[IG_TUNE_VAL_LEN], *save = NULL, *t, *eq;
	int v = ig_tune_onoff(val), k;

	for (k = 0; k < f->n; k++)
		want[k] = v >= 0 && considered(f, k) ? v : -1;
	if (v >= 0)
		return 0;
	snprintf(buf, sizeof(buf), "%s", val);
	for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		eq = strchr(t, '=');
		if (!eq)
			return -EINVAL;
		*eq = 0;
		for (k = 0;
		     k < f->n && strncmp(gstr(f, k), t, ETH_GSTRING_LEN);)
			k++;
		if (k == f->n || ig_tune_onoff(eq + 1) < 0)
			return -EINVAL;
		want[k] = ig_tune_onoff(eq + 1);
	}
	return 0;
}

/* SFEATURES of the changeable strings whose want differs.  0 or -errno;
 * -EOPNOTSUPP when a fixed string would have to change. */
static int set_wanted(const char *dev, const struct feats *f, const int *want)
{
	size_t nb = f->gf->size;
	struct ethtool_sfeatures *sf;
	bool any = false;
	int ret = 0;

	sf = calloc(1, sizeof(*sf) + nb * sizeof(sf->features[0]));
	if (!sf)
		return -ENOMEM;
	sf->cmd = ETHTOOL_SFEATURES;
	sf->size = (__u32)nb;
	for (int k = 0; k < f->n; k++) {
		int i = f->idx[k];

		if (want[k] < 0 || want[k] == f->on[k])
			continue;
		if (!f->can[k])
			ret = -EOPNOTSUPP;
		sf->features[i / 32].valid |= 1u << (i % 32);
		if (want[k])
			sf->features[i / 32].requested |= 1u << (i % 32);
		any = true;
	}
	if (!ret && any)
		ret = ig_eth_ioctl(dev, sf);
	free(sf);
	return ret;
}

static int feat_write(const char *root, const struct ig_tune_change *c,
		      const char *val, char *err, size_t len)
{
	int want[MAX_GROUP], ret;
	struct feats f;

	ret = feats_get(c->dev, c->name, &f);
	if (ret)
		return ig_fail(ret, err, len,
			       "tune: reading the features of %s: %s", c->dev,
			       strerror(-ret));
	ret = wanted(&f, val, want);
	if (!ret)
		ret = set_wanted(c->dev, &f, want);
	feats_free(&f);
	if (!ret)
		ret = feats_get(c->dev, c->name, &f);
	for (int k = 0; !ret && k < f.n; k++)
		if (want[k] >= 0 && want[k] != f.on[k])
			ret = -EOPNOTSUPP;
	feats_free(&f);
	if (ret)
		return ig_fail(
			ret, err, len,
			"tune: setting feature %s %s on %s: %s (the driver may fix it, or another feature it needs is off)",
			c->name, val, c->dev, strerror(-ret));
	return 0;
}

const struct ig_knob_ops ig_knob_feature = { feat_read, feat_write };
