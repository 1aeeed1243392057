// SPDX-License-Identifier: MIT
/*
 * RDMA ports and their network interfaces, both ways, read under a root
 * directory.  The interface of a port, for the fingerprint: RoCE names it
 * in the GID table, IPoIB through its parent device, Soft-RoCE in its
 * "parent" attribute.  The port of an interface, for the doctor: the one
 * whose GID 0 is the IPoIB interface's GID, or whose GID table names the
 * RoCE interface, else the device of the interface's parent.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint_int.h"
#include "fingerprint_net.h"

#define MAX_GID_INDEX 4096

/* RoCE (and rxe): the netdev of the first GID that has one. */
static int roce_netdev(const char *root, const char *dev, int port, char *buf,
		       size_t len)
{
	for (int i = 0; i < MAX_GID_INDEX; i++) {
		int ret = ig_fp_attr(
			root, buf, len,
			"/sys/class/infiniband/%s/ports/%d/gid_attrs/"
			"ndevs/%d",
			dev, port, i);

		if (ret == -ENOENT || ret == -ENAMETOOLONG)
			break;
		if (buf[0])
			return 0;
	}
	buf[0] = '\0';
	return -ENOENT;
}

/*
 * IPoIB: its interface's parent device is the HCA's (device/net/<if>),
 * dev_port = port - 1 (dev_id on kernels before 3.15); type 32.  Of
 * several (P_Key children ib0.8001) the first by name, the parent.
 */
static int net_attr(const char *root, const char *dev, const char *ifname,
		    const char *leaf, char *buf, size_t len)
{
	return ig_fp_attr(root, buf, len,
			  "/sys/class/infiniband/%s/device/net/%s/%s", dev,
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

static int ipoib_netdev(const char *root, const char *dev, int port, char *buf,
			size_t len)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	buf[0] = '\0';
	if (ig_fp_path(path, sizeof(path), root,
		       "/sys/class/infiniband/%s/device/net", dev))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!ig_fp_name_ok(e->d_name, len))
			continue;
		if (buf[0] && strcmp(e->d_name, buf) >= 0)
			continue;
		if (ipoib_match(root, dev, port, e->d_name))
			ig_fp_set_str(buf, len, e->d_name);
	}
	closedir(d);
	return buf[0] ? 0 : -ENOENT;
}

int ig_fp_port_netdev(const char *root, const char *dev, int port, char *buf,
		      size_t len)
{
	if (roce_netdev(root, dev, port, buf, len) &&
	    ipoib_netdev(root, dev, port, buf, len))
		ig_fp_attr(root, buf, len, "/sys/class/infiniband/%s/parent",
			   dev);
	if (ig_fp_name_ok(buf, len))
		return 0;
	buf[0] = '\0';
	return -ENOENT;
}

static int hex(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* n bytes of hex digits, separators (':') skipped; 0 or -EINVAL. */
static int hex_bytes(const char *s, uint8_t *out, size_t n)
{
	size_t got = 0;
	int nib = 0, cur = 0;

	for (; *s && got < n; s++) {
		int h = hex(*s);

		if (*s == ':')
			continue;
		if (h < 0)
			return -EINVAL;
		cur = cur << 4 | h;
		if (++nib == 2) {
			out[got++] = (uint8_t)cur;
			nib = cur = 0;
		}
	}
	return got == n && !nib ? 0 : -EINVAL;
}

int ig_fp_gid_parse(const char *s, uint8_t gid[16])
{
	return hex_bytes(s, gid, 16);
}

int ig_fp_ipoib_hwaddr_gid(const char *s, uint8_t gid[16])
{
	uint8_t a[20];

	if (hex_bytes(s, a, 20))
		return -EINVAL;
	memcpy(gid, a + 4, 16);
	return 0;
}

/* The search for the port of an interface. */
struct port_scan {
	const char *root;
	const char *ifname; /* RoCE: the netdev to find */
	const uint8_t *gid; /* IPoIB: the GID to find; NULL for RoCE */
	const char *dev;
	const char *port;
	char found_dev[64];
	int found_port;
};

static int skip_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

/* Calls fn for every entry of dir (no "." or ".."), in version order,
 * until fn returns non-zero; returns that, or a negative errno when dir
 * cannot be read. */
static int list_dir(const char *dir,
		    int (*fn)(struct port_scan *s, const char *name),
		    struct port_scan *s)
{
	struct dirent **v;
	int n, ret = 0;

	n = scandir(dir, &v, skip_dots, versionsort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (!ret)
			ret = fn(s, v[i]->d_name);
		free(v[i]);
	}
	free(v);
	return ret;
}

/* 1 when GID entry idx of s->dev's port s->port names s->ifname (an
 * unused entry reads as EINVAL). */
static int ndev_cb(struct port_scan *s, const char *idx)
{
	char name[64];

	return !ig_fp_attr(
		       s->root, name, sizeof(name),
		       "/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs/%s",
		       s->dev, s->port, idx) &&
	       !strcmp(name, s->ifname);
}

static int port_cb(struct port_scan *s, const char *port)
{
	char path[PATH_MAX], gid[64];
	uint8_t g[16];
	int hit;

	s->port = port;
	if (s->gid)
		hit = !ig_fp_attr(s->root, gid, sizeof(gid),
				  "/sys/class/infiniband/%s/ports/%s/gids/0",
				  s->dev, port) &&
		      !ig_fp_gid_parse(gid, g) && !memcmp(g, s->gid, 16);
	else
		hit = !ig_fp_path(path, sizeof(path), s->root,
				  "/sys/class/infiniband/%s/ports/%s/gid_attrs/"
				  "ndevs",
				  s->dev, port) &&
		      list_dir(path, ndev_cb, s) == 1;
	if (!hit)
		return 0;
	ig_fp_set_str(s->found_dev, sizeof(s->found_dev), s->dev);
	s->found_port = atoi(port);
	return 1;
}

static int dev_cb(struct port_scan *s, const char *dev)
{
	char path[PATH_MAX];

	s->dev = dev;
	return !ig_fp_path(path, sizeof(path), s->root,
			   "/sys/class/infiniband/%s/ports", dev) &&
	       list_dir(path, port_cb, s) == 1;
}

static int first_cb(struct port_scan *s, const char *dev)
{
	ig_fp_set_str(s->found_dev, sizeof(s->found_dev), dev);
	return 1;
}

/* The RDMA device of the interface's parent device,
 * /sys/class/net/IF/device/infiniband/DEV, and port dev_port + 1 (1 when
 * dev_port cannot be read); 0 or -ENODEV. */
static int parent_port(struct port_scan *s)
{
	unsigned long long dev_port = 0;
	char path[PATH_MAX], v[64];

	if (ig_fp_path(path, sizeof(path), s->root,
		       "/sys/class/net/%s/device/infiniband", s->ifname) ||
	    list_dir(path, first_cb, s) != 1)
		return -ENODEV;
	if (!ig_fp_attr(s->root, v, sizeof(v), "/sys/class/net/%s/dev_port",
			s->ifname))
		dev_port = strtoull(v, NULL, 0);
	s->found_port = (int)dev_port + 1;
	return 0;
}

int ig_fp_netdev_port(const char *root, const char *ifname, const uint8_t *gid,
		      char *dev, size_t len, int *port)
{
	struct port_scan s = { .root = root, .ifname = ifname, .gid = gid };
	char path[PATH_MAX];

	if ((ig_fp_path(path, sizeof(path), root, "/sys/class/infiniband") ||
	     list_dir(path, dev_cb, &s) != 1) &&
	    parent_port(&s))
		return -ENODEV;
	ig_fp_set_str(dev, len, s.found_dev);
	*port = s.found_port;
	return 0;
}
