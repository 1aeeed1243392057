// SPDX-License-Identifier: MIT
/*
 * The network interface behind an RDMA port, for the fingerprint: RoCE
 * names it in the GID table, IPoIB through its parent device, Soft-RoCE
 * in its "parent" attribute.  Then its MTU and, for IPoIB, its mode.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "fingerprint_int.h"

#define ARPHRD_INFINIBAND_STR "32" /* /sys/class/net/<if>/type of IPoIB */
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
	    strcmp(v, ARPHRD_INFINIBAND_STR))
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

void ig_fp_read_netdev(const char *root, struct ig_fingerprint *fp, int port)
{
	const char *dev = fp->device;
	char type[16];

	if (roce_netdev(root, dev, port, fp->netdev, sizeof(fp->netdev)) &&
	    ipoib_netdev(root, dev, port, fp->netdev, sizeof(fp->netdev)))
		ig_fp_attr(root, fp->netdev, sizeof(fp->netdev),
			   "/sys/class/infiniband/%s/parent", dev);
	if (!ig_fp_name_ok(fp->netdev, sizeof(fp->netdev))) {
		fp->netdev[0] = '\0';
		return;
	}
	ig_fp_attr(root, fp->mtu, sizeof(fp->mtu), "/sys/class/net/%s/mtu",
		   fp->netdev);
	if (!ig_fp_attr(root, type, sizeof(type), "/sys/class/net/%s/type",
			fp->netdev) &&
	    !strcmp(type, ARPHRD_INFINIBAND_STR))
		ig_fp_attr(root, fp->ipoib_mode, sizeof(fp->ipoib_mode),
			   "/sys/class/net/%s/mode", fp->netdev);
}
