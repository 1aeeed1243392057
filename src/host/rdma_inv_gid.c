// SPDX-License-Identifier: MIT
/*
 * A port's GID table (ports/P/gids/N, gid_attrs/types/N, gid_attrs/
 * ndevs/N; an unused entry reads as zeros, its attributes as EINVAL) and
 * the port's network interface: RoCE names it in the GID table, IPoIB
 * through the HCA's device/net/, Soft-RoCE in its "parent" attribute.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fail.h"
#include "fingerprint_int.h"
#include "fingerprint_net.h"
#include "rdma_inv_int.h"

#define SYS_IB IG_INV_SYSFS

static const char *const gid_dirs[] = {
	"gids",
	"gid_attrs/types",
	"gid_attrs/ndevs",
};

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The entries of dir as numbers appended to idx[*n..] (grown as needed).
 * 0, -ENOENT (dir cannot be listed), -EINVAL or -ENOMEM. */
static int add_indexes(const char *dir, int **idx, size_t *n, char *err,
		       size_t errlen)
{
	struct dirent **v = NULL;
	int m = ig_fp_list(dir, &v), ret = 0;
	int *grown;

	if (m < 0)
		return -ENOENT;
	grown = realloc(*idx, (*n + (size_t)m + 1) * sizeof(**idx));
	if (!grown)
		ret = ig_fail(-ENOMEM, err, errlen, "out of memory");
	else
		*idx = grown;
	for (int i = 0; !ret && i < m; i++) {
		size_t len = strlen(v[i]->d_name);

		if (!len || len > 5 ||
		    strspn(v[i]->d_name, "0123456789") != len)
			ret = ig_fail(-EINVAL, err, errlen,
				      "%s/%s: not a GID index (0, 1, ...)", dir,
				      v[i]->d_name);
		else
			(*idx)[(*n)++] = atoi(v[i]->d_name);
	}
	ig_fp_list_free(v, m);
	return ret;
}

/* Entry index of the port: kept (1) when it has a GID, a type or a
 * netdev.  A zero GID is an unused entry (its attributes read EINVAL):
 * one read, not three, for most of a table (rxe's has 1024 entries),
 * and that one relative to gids/ open as gdir. */
static int read_gid(const char *root, const char *base, int gdir, int index,
		    struct ig_inv_gid *g, char *err, size_t errlen)
{
	static const uint8_t zero[16];
	char s[64], name[16];
	int ret;

	memset(g, 0, sizeof(*g));
	g->index = index;
	snprintf(name, sizeof(name), "%d", index);
	ret = ig_fp_attr_at(gdir, name, s, sizeof(s));
	if (!ret && ig_fp_gid_parse(s, g->gid))
		return ig_fail(-EINVAL, err, errlen,
			       "%s%s/gids/%d: '%s' is not a GID "
			       "(fe80:0000:...: 8 groups of 4 hex digits)",
			       root, base, index, s);
	if (!ret && !memcmp(g->gid, zero, 16))
		return 0;
	ig_fp_attr(root, g->type, sizeof(g->type), "%s/gid_attrs/types/%d",
		   base, index);
	ig_fp_attr(root, g->netdev, sizeof(g->netdev), "%s/gid_attrs/ndevs/%d",
		   base, index);
	return memcmp(g->gid, zero, 16) || g->type[0] || g->netdev[0];
}

/* gids/ of the port under root, open as a folder; -1 when it cannot be
 * (each GID then reads as missing, as without the folder). */
static int open_gids(const char *root, const char *base)
{
	char dir[PATH_MAX];

	if (ig_fp_path(dir, sizeof(dir), root, "%s/gids", base))
		return -1;
	return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int fill(const char *root, const char *base, struct ig_inv_port *p,
		const int *idx, size_t n, char *err, size_t errlen)
{
	int gdir, ret = 0;

	p->gids = calloc(n ? n : 1, sizeof(*p->gids));
	if (!p->gids)
		return ig_fail(-ENOMEM, err, errlen, "out of memory");
	gdir = open_gids(root, base);
	for (size_t i = 0; ret >= 0 && i < n; i++) {
		if (i && idx[i] == idx[i - 1])
			continue;
		ret = read_gid(root, base, gdir, idx[i], &p->gids[p->ngids],
			       err, errlen);
		if (ret > 0)
			p->ngids += (size_t)ret;
	}
	if (gdir >= 0)
		close(gdir);
	return ret < 0 ? ret : 0;
}

int ig_inv_read_gids(const char *root, const struct ig_inv_dev *dev,
		     struct ig_inv_port *p, char *err, size_t errlen)
{
	char base[PATH_MAX], dir[PATH_MAX];
	size_t n = 0;
	int *idx = NULL, ret = 0;

	snprintf(base, sizeof(base), SYS_IB "/%s/ports/%d", dev->name, p->num);
	for (size_t i = 0; !ret && i < sizeof(gid_dirs) / sizeof(*gid_dirs);
	     i++) {
		ret = ig_fp_path(dir, sizeof(dir), root, "%s/%s", base,
				 gid_dirs[i]);
		if (!ret)
			ret = add_indexes(dir, &idx, &n, err, errlen);
		if (!ret && i == 0)
			break; /* gids/ lists every entry */
		if (ret == -ENOENT)
			ret = 0;
	}
	if (!ret) {
		if (n) /* a port without GIDs: idx is NULL, qsort's UB */
			qsort(idx, n, sizeof(*idx), cmp_int);
		ret = fill(root, base, p, idx, n, err, errlen);
	}
	free(idx);
	if (!ret)
		ig_inv_port_netdev(root, dev, p);
	return ret;
}

/*
 * IPoIB: its interface's parent device is the HCA's (device/net/<if>),
 * dev_port = port - 1 (dev_id on kernels before 3.15); type 32.  Of
 * several (P_Key children ib0.8001) the first by name, the parent.
 */
static int net_attr(const char *root, const char *dev, const char *ifname,
		    const char *leaf, char *buf, size_t len)
{
	return ig_fp_attr(root, buf, len, SYS_IB "/%s/device/net/%s/%s", dev,
			  ifname, leaf);
}

static bool ipoib_match(const char *root, const char *dev, int port,
			const char *ifname)
{
	char v[32], *end;
	long n;

	if (!net_attr(root, dev, ifname, "type", v, sizeof(v)) &&
	    strcmp(v, IG_FP_IPOIB_TYPE))
		return false;
	if (net_attr(root, dev, ifname, "dev_port", v, sizeof(v)) &&
	    net_attr(root, dev, ifname, "dev_id", v, sizeof(v)))
		return false;
	errno = 0;
	n = strtol(v, &end, 0);
	return !errno && end != v && !*end && n == port - 1;
}

static void ipoib_netdev(const char *root, const char *dev, int port, char *buf,
			 size_t len)
{
	char path[PATH_MAX];
	struct dirent **v;
	int n;

	buf[0] = '\0';
	if (ig_fp_path(path, sizeof(path), root, SYS_IB "/%s/device/net", dev))
		return;
	n = ig_fp_list(path, &v);
	for (int i = 0; i < n && !buf[0]; i++)
		if (ig_fp_name_ok(v[i]->d_name, len) &&
		    ipoib_match(root, dev, port, v[i]->d_name))
			ig_fp_set_str(buf, len, v[i]->d_name);
	if (n >= 0)
		ig_fp_list_free(v, n);
}

void ig_inv_port_netdev(const char *root, const struct ig_inv_dev *dev,
			struct ig_inv_port *p)
{
	size_t len = sizeof(p->netdev);

	p->netdev[0] = '\0';
	for (size_t i = 0; i < p->ngids && !p->netdev[0]; i++)
		ig_fp_set_str(p->netdev, len, p->gids[i].netdev);
	if (!p->netdev[0])
		ipoib_netdev(root, dev->name, p->num, p->netdev, len);
	if (!p->netdev[0])
		ig_fp_set_str(p->netdev, len, dev->parent);
	if (!ig_fp_name_ok(p->netdev, len))
		p->netdev[0] = '\0';
}

static bool roce_v2(const struct ig_inv_gid *g)
{
	static const uint8_t zero[16];

	return !strcmp(g->type, "RoCE v2") && memcmp(g->gid, zero, 16);
}

int ig_inv_oob_gid(const struct ig_inv_port *p)
{
	int any = -1;

	for (size_t i = 0; p && i < p->ngids; i++) {
		const struct ig_inv_gid *g = &p->gids[i];

		if (!roce_v2(g))
			continue;
		if (g->gid[0] == 0xfe && (g->gid[1] & 0xc0) == 0x80)
			return g->index;
		if (any < 0)
			any = g->index;
	}
	return any < 0 ? 0 : any;
}
