// SPDX-License-Identifier: MIT
/*
 * The environment fingerprint of one host, for baselines: kernel,
 * rdma-core, the HCA's firmware, board, driver, link and PCIe state, and
 * the port's network interface (fingerprint_net.c).  Everything is read
 * from /proc and /sys under a root directory, so that the tests can point
 * it at a fixture tree.  Nothing here fails: what cannot be read stays "".
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "fingerprint.h"
#include "fingerprint_int.h"
#include "fingerprint_net.h"
#include "sysinfo.h"

#define FP_SET(field, s) ig_fp_set_str((field), sizeof(field), (s))

/* Whether /sys/class/infiniband/<dev>/<leaf> exists. */
static bool dev_has(const char *root, const char *dev, const char *leaf)
{
	char path[PATH_MAX];

	return !ig_fp_path(path, sizeof(path), root,
			   "/sys/class/infiniband/%s/%s", dev, leaf) &&
	       access(path, F_OK) == 0;
}

static bool is_live(const char *root)
{
	return !root[0] || !strcmp(root, "/");
}

/* "libibverbs.so.1.14.44.0" -> "44.0": rdma-core names the library
 * libibverbs.so.1.<ABI>.<rdma-core version>. */
static void version_from_soname(const char *base, char *buf, size_t len)
{
	static const char prefix[] = "libibverbs.so.";
	const char *v;

	buf[0] = '\0';
	if (strncmp(base, prefix, sizeof(prefix) - 1))
		return;
	v = base + sizeof(prefix) - 1;
	for (int skip = 0; skip < 2; skip++) {
		v = strchr(v, '.');
		if (!v)
			return;
		v++;
	}
	if (!v[0] || strspn(v, "0123456789.") != strlen(v))
		return;
	ig_fp_set_str(buf, len, v);
}

/*
 * The rdma-core version of the libibverbs this process uses.  dlsym finds
 * the definition inside libibverbs (in a non-PIE program the address of
 * ibv_get_device_list would be the program's own PLT stub); the direct
 * reference keeps libibverbs linked in.
 */
static void rdma_core_version(const char *root, char *buf, size_t len)
{
	char real[PATH_MAX];
	const char *base;
	Dl_info info;
	void *sym;

	buf[0] = '\0';
	if (!is_live(root)) {
		ig_fp_attr(root, buf, len, "/.ibgap-fixture/rdma_core");
		return;
	}
	sym = dlsym(RTLD_DEFAULT, "ibv_get_device_list");
	if (!sym)
		sym = (void *)ibv_get_device_list;
	if (!dladdr(sym, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, real))
		return;
	base = strrchr(real, '/');
	version_from_soname(base ? base + 1 : real, buf, len);
}

/* Soft-RoCE has no device/ (no PCI function): its one attribute of its
 * own is "parent", the name of its network interface. */
static void read_driver(const char *root, const char *dev, char *buf,
			size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	buf[0] = '\0';
	if (dev_has(root, dev, "parent")) {
		snprintf(buf, len, "rdma_rxe");
		return;
	}
	if (!ig_fp_path(path, sizeof(path), root,
			"/sys/class/infiniband/%s/device/driver", dev)) {
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			base = strrchr(link, '/');
			ig_fp_set_str(buf, len, base ? base + 1 : link);
			ig_fp_clean(buf);
			return;
		}
	}
	if (!strncmp(dev, "rxe", 3))
		snprintf(buf, len, "rdma_rxe");
	else if (!strncmp(dev, "siw", 3))
		snprintf(buf, len, "siw");
}

/*
 * "100 Gb/sec (4X EDR)" -> "4X", "EDR".  The kernel's rate attribute
 * names no speed for SDR ("10 Gb/sec (4X)"), and computes the rate of a
 * speed it does not know as SDR too: "SDR" then.
 */
static void split_rate(struct ig_fingerprint *fp)
{
	const char *p = strchr(fp->link_rate, '(');
	size_t w;

	if (!p)
		return;
	p++;
	w = strcspn(p, " )");
	if (!w || !strchr(p, ')'))
		return;
	snprintf(fp->link_width, sizeof(fp->link_width), "%.*s", (int)w, p);
	p += w;
	if (*p == ' ' && strcspn(p + 1, ")"))
		snprintf(fp->link_speed, sizeof(fp->link_speed), "%.*s",
			 (int)strcspn(p + 1, ")"), p + 1);
	else
		FP_SET(fp->link_speed, "SDR");
}

/* The port's network interface (fingerprint_net.c), its MTU and, for
 * IPoIB, its mode. */
static void read_netdev(const char *root, struct ig_fingerprint *fp, int port)
{
	char type[16];

	if (ig_fp_port_netdev(root, fp->device, port, fp->netdev,
			      sizeof(fp->netdev)))
		return;
	ig_fp_attr(root, fp->mtu, sizeof(fp->mtu), "/sys/class/net/%s/mtu",
		   fp->netdev);
	if (!ig_fp_attr(root, type, sizeof(type), "/sys/class/net/%s/type",
			fp->netdev) &&
	    !strcmp(type, IG_FP_IPOIB_TYPE))
		ig_fp_attr(root, fp->ipoib_mode, sizeof(fp->ipoib_mode),
			   "/sys/class/net/%s/mode", fp->netdev);
}

static void read_device(const char *root, struct ig_fingerprint *fp, int port)
{
	const char *dev = fp->device;

	ig_fp_attr(root, fp->fw_ver, sizeof(fp->fw_ver),
		   "/sys/class/infiniband/%s/fw_ver", dev);
	ig_fp_attr(root, fp->board_id, sizeof(fp->board_id),
		   "/sys/class/infiniband/%s/board_id", dev);
	read_driver(root, dev, fp->driver, sizeof(fp->driver));
	ig_fp_attr(root, fp->pcie_speed, sizeof(fp->pcie_speed),
		   "/sys/class/infiniband/%s/device/current_link_speed", dev);
	ig_fp_attr(root, fp->pcie_width, sizeof(fp->pcie_width),
		   "/sys/class/infiniband/%s/device/current_link_width", dev);
	if (port < 1)
		return;
	ig_fp_attr(root, fp->link_rate, sizeof(fp->link_rate),
		   "/sys/class/infiniband/%s/ports/%d/rate", dev, port);
	split_rate(fp);
	read_netdev(root, fp, port);
}

int ig_fingerprint_collect(const char *root, const char *device, int port,
			   struct ig_fingerprint *fp)
{
	if (!root)
		root = "/";
	memset(fp, 0, sizeof(*fp));
	ig_fp_attr(root, fp->kernel, sizeof(fp->kernel),
		   "/proc/sys/kernel/osrelease");
	rdma_core_version(root, fp->rdma_core, sizeof(fp->rdma_core));
	FP_SET(fp->ibgap, IG_VERSION);
	if (!ig_fp_name_ok(device, sizeof(fp->device)))
		return 0;
	FP_SET(fp->device, device);
	read_device(root, fp, port);
	return 0;
}
