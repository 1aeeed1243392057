// SPDX-License-Identifier: MIT
/*
 * The environment fingerprint of one host, for baselines: kernel,
 * rdma-core, the HCA's firmware, board, driver, link and PCIe state, and
 * the port's network interface (from the RDMA inventory, rdma_inv.h).
 * Everything is read from /proc and /sys under a root directory, so that the
 * tests can point it at a fixture tree.  Nothing here fails: what cannot be
 * read stays "".
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
#include "rdma_inv.h"
#include "sysinfo.h"

#define FP_SET(field, s) ig_fp_set_str((field), sizeof(field), (s))

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
 * ibv_get_device_name would be the program's own PLT stub); the direct
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
	sym = dlsym(RTLD_DEFAULT, "ibv_get_device_name");
	if (!sym)
		sym = (void *)ibv_get_device_name;
	if (!dladdr(sym, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, real))
		return;
	base = strrchr(real, '/');
	version_from_soname(base ? base + 1 : real, buf, len);
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

/* The port's network interface (the inventory's), its MTU and, for
 * IPoIB, its mode. */
static void read_netdev(const char *root, struct ig_fingerprint *fp,
			const struct ig_inv_port *p)
{
	char type[16];

	if (!p->netdev[0])
		return;
	FP_SET(fp->netdev, p->netdev);
	ig_fp_attr(root, fp->mtu, sizeof(fp->mtu), "/sys/class/net/%s/mtu",
		   fp->netdev);
	if (!ig_fp_attr(root, type, sizeof(type), "/sys/class/net/%s/type",
			fp->netdev) &&
	    !strcmp(type, IG_FP_IPOIB_TYPE))
		ig_fp_attr(root, fp->ipoib_mode, sizeof(fp->ipoib_mode),
			   "/sys/class/net/%s/mode", fp->netdev);
}

/* The device's facts from the RDMA inventory read under root. */
static void read_device(const char *root, struct ig_fingerprint *fp, int port)
{
	const struct ig_inv_port *p;
	const struct ig_inv_dev *d;
	struct ig_inv *inv;
	char err[256];

	if (ig_inv_load(root, IG_INV_GIDS, &inv, err, sizeof(err)))
		return;
	d = ig_inv_dev(inv, fp->device);
	if (d) {
		FP_SET(fp->fw_ver, d->fw_ver);
		FP_SET(fp->board_id, d->board_id);
		FP_SET(fp->driver, d->driver);
		FP_SET(fp->pcie_speed, d->pcie_speed);
		FP_SET(fp->pcie_width, d->pcie_width);
	}
	p = ig_inv_port(d, port);
	if (p) {
		FP_SET(fp->link_rate, p->rate);
		split_rate(fp);
		read_netdev(root, fp, p);
	}
	ig_inv_free(inv);
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
