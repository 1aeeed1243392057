// SPDX-License-Identifier: MIT
/* Rails: the selection of --rails LIST and the pairing with the server's
 * rails (pure). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/fail.h"
#include "rails.h"

bool ig_rails_same_subnet(const char *a, const char *b, int prefix)
{
	struct in_addr x, y;
	uint32_t mask;

	if (prefix < 0 || prefix > 32 || inet_pton(AF_INET, a, &x) != 1 ||
	    inet_pton(AF_INET, b, &y) != 1)
		return false;
	mask = prefix ? htonl(~0u << (32 - prefix)) : 0;
	return (x.s_addr & mask) == (y.s_addr & mask);
}

const char *ig_rail_by_name(enum ig_rail_by by)
{
	if (by == IG_RAIL_SUBNET)
		return "subnet";
	return by == IG_RAIL_INDEX ? "index" : "none";
}

static int subnet_peer(const struct ig_rail *l, const struct ig_rails *remote,
		       const bool *taken)
{
	if (!l->addr[0])
		return -1;
	for (size_t j = 0; j < remote->n; j++)
		if (!taken[j] && remote->r[j].addr[0] &&
		    ig_rails_same_subnet(l->addr, remote->r[j].addr, l->prefix))
			return (int)j;
	return -1;
}

static int index_peer(size_t i, const struct ig_rails *remote,
		      const bool *taken)
{
	if (i < remote->n && !taken[i])
		return (int)i;
	for (size_t j = 0; j < remote->n; j++)
		if (!taken[j])
			return (int)j;
	return -1;
}

size_t ig_rails_pair(const struct ig_rails *local,
		     const struct ig_rails *remote, int *peer,
		     enum ig_rail_by *by)
{
	bool taken[IG_RAILS_MAX] = { false };
	size_t paired = 0;

	for (size_t i = 0; i < local->n; i++) {
		peer[i] = subnet_peer(&local->r[i], remote, taken);
		by[i] = peer[i] < 0 ? IG_RAIL_NONE : IG_RAIL_SUBNET;
		if (peer[i] >= 0)
			taken[peer[i]] = true;
	}
	for (size_t i = 0; i < local->n; i++) {
		if (peer[i] >= 0)
			continue;
		peer[i] = index_peer(i, remote, taken);
		if (peer[i] >= 0) {
			taken[peer[i]] = true;
			by[i] = IG_RAIL_INDEX;
		}
	}
	for (size_t i = 0; i < local->n; i++)
		paired += peer[i] >= 0;
	return paired;
}

static const struct ig_rail *find(const struct ig_rails *all, const char *name,
				  size_t len)
{
	for (size_t i = 0; i < all->n; i++)
		if (strlen(all->r[i].device) == len &&
		    !strncmp(all->r[i].device, name, len))
			return &all->r[i];
	return NULL;
}

static bool known(const char *const *devs, size_t ndevs, const char *name,
		  size_t len)
{
	for (size_t i = 0; i < ndevs; i++)
		if (strlen(devs[i]) == len && !strncmp(devs[i], name, len))
			return true;
	return false;
}

static void names(const char *const *devs, size_t ndevs, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ndevs && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i ? ", " : "", devs[i]);
	if (!ndevs)
		snprintf(buf, len, "none");
}

/* One item of the list (name, len): its rails (every ACTIVE port of the
 * device) appended to out. */
static int select_one(const struct ig_rails *all, const char *name, size_t len,
		      const char *const *devs, size_t ndevs,
		      struct ig_rails *out, char *err, size_t errlen)
{
	char found[512];

	if (!len)
		return ig_fail(-EINVAL, err, errlen,
			       "--rails: an empty item in the list: allowed "
			       "device names separated by commas, or all");
	if (find(out, name, len))
		return ig_fail(-EINVAL, err, errlen,
			       "--rails: '%.*s' is named twice", (int)len,
			       name);
	if (!find(all, name, len)) {
		names(devs, ndevs, found, sizeof(found));
		return ig_fail(-EINVAL, err, errlen,
			       known(devs, ndevs, name, len)
				       ? "--rails: '%.*s' has no ACTIVE port "
					 "(this host's RDMA devices: %s)"
				       : "--rails: '%.*s' is no RDMA device of "
					 "this host: found %s",
			       (int)len, name, found);
	}
	for (size_t i = 0; i < all->n && out->n < IG_RAILS_MAX; i++)
		if (strlen(all->r[i].device) == len &&
		    !strncmp(all->r[i].device, name, len))
			out->r[out->n++] = all->r[i];
	return 0;
}

int ig_rails_select(const struct ig_rails *all, const char *list,
		    const char *const *devs, size_t ndevs, struct ig_rails *out,
		    char *err, size_t errlen)
{
	char found[512];

	out->n = 0;
	if (!list || !strcmp(list, "all")) {
		*out = *all;
		if (out->n)
			return 0;
		names(devs, ndevs, found, sizeof(found));
		return ig_fail(-EINVAL, err, errlen,
			       "--rails: this host has no ACTIVE RDMA port "
			       "(devices: %s)",
			       found);
	}
	for (const char *p = list;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		int ret =
			select_one(all, p, len, devs, ndevs, out, err, errlen);

		if (ret)
			return ret;
		if (!c)
			return 0;
		p = c + 1;
	}
}
