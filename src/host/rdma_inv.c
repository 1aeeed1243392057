// SPDX-License-Identifier: MIT
/*
 * The RDMA inventory: /sys/class/infiniband/DEV, its device's attributes
 * (through the device/ link: PCI address, NUMA node, PCIe link) and its
 * ports/P, read under a root directory (rdma_inv_gid.c: the GID tables and
 * netdevs; rdma_inv_net.c: from a netdev to its port).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fail.h"
#include "fingerprint_int.h"
#include "rdma_inv_int.h"

#define SYS_IB IG_INV_SYSFS
#define SET(field, s) ig_fp_set_str((field), sizeof(field), (s))

static bool has(const char *root, const char *dev, const char *leaf)
{
	char path[PATH_MAX];

	return !ig_fp_path(path, sizeof(path), root, SYS_IB "/%s/%s", dev,
			   leaf) &&
	       access(path, F_OK) == 0;
}

/* The last component of the link SYS_IB/dev/leaf into buf ("" none). */
static void link_base(const char *root, const char *dev, const char *leaf,
		      char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	buf[0] = '\0';
	if (ig_fp_path(path, sizeof(path), root, SYS_IB "/%s/%s", dev, leaf))
		return;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	base = strrchr(link, '/');
	ig_fp_set_str(buf, len, base ? base + 1 : link);
	ig_fp_clean(buf);
}

/* Soft-RoCE has no device/ (no PCI function): its one attribute of its
 * own is "parent"; else the PCI driver; else by name. */
static void read_driver(const char *root, struct ig_inv_dev *d)
{
	if (has(root, d->name, "parent")) {
		SET(d->driver, "rdma_rxe");
		return;
	}
	link_base(root, d->name, "device/driver", d->driver, sizeof(d->driver));
	if (d->driver[0])
		return;
	if (!strncmp(d->name, "rxe", 3))
		SET(d->driver, "rdma_rxe");
	else if (!strncmp(d->name, "siw", 3))
		SET(d->driver, "siw");
}

static void attr(const char *root, const char *dev, const char *leaf, char *buf,
		 size_t len)
{
	ig_fp_attr(root, buf, len, SYS_IB "/%s/%s", dev, leaf);
}

static void read_dev_attrs(const char *root, struct ig_inv_dev *d)
{
	char v[32], *end;
	long n;

	attr(root, d->name, "node_guid", d->node_guid, sizeof(d->node_guid));
	attr(root, d->name, "fw_ver", d->fw_ver, sizeof(d->fw_ver));
	attr(root, d->name, "board_id", d->board_id, sizeof(d->board_id));
	attr(root, d->name, "parent", d->parent, sizeof(d->parent));
	d->soft = has(root, d->name, "parent") || !has(root, d->name, "device");
	read_driver(root, d);
	link_base(root, d->name, "device", d->pci, sizeof(d->pci));
	d->numa_node = -1;
	attr(root, d->name, "device/numa_node", v, sizeof(v));
	errno = 0;
	n = strtol(v, &end, 10);
	if (v[0] && !*end && !errno && n >= -1 && n < INT_MAX)
		d->numa_node = (int)n;
	attr(root, d->name, "device/local_cpulist", d->local_cpulist,
	     sizeof(d->local_cpulist));
	attr(root, d->name, "device/current_link_speed", d->pcie_speed,
	     sizeof(d->pcie_speed));
	attr(root, d->name, "device/current_link_width", d->pcie_width,
	     sizeof(d->pcie_width));
	attr(root, d->name, "device/max_link_speed", d->pcie_max_speed,
	     sizeof(d->pcie_max_speed));
	attr(root, d->name, "device/max_link_width", d->pcie_max_width,
	     sizeof(d->pcie_max_width));
}

/* "4" of "4: ACTIVE" or 0. */
static int state_num(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	return end != s && *end == ':' && n > 0 && n < 16 ? (int)n : 0;
}

/* A positive decimal number of at most 5 digits, else -1. */
static int entry_num(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 5 || strspn(s, "0123456789") != n)
		return -1;
	return atoi(s);
}

static int read_port(const char *root, unsigned int flags, struct ig_inv_dev *d,
		     struct ig_inv_port *p, char *err, size_t errlen)
{
	char base[PATH_MAX];

	snprintf(base, sizeof(base), "%s/ports/%d", d->name, p->num);
	attr(root, base, "state", p->state_str, sizeof(p->state_str));
	p->state = state_num(p->state_str);
	attr(root, base, "phys_state", p->phys_state, sizeof(p->phys_state));
	attr(root, base, "link_layer", p->link_layer, sizeof(p->link_layer));
	attr(root, base, "rate", p->rate, sizeof(p->rate));
	if (!(flags & IG_INV_GIDS))
		return 0;
	return ig_inv_read_gids(root, d, p, err, errlen);
}

static int read_ports(const char *root, unsigned int flags,
		      struct ig_inv_dev *d, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct dirent **v = NULL;
	int n, ret = 0;

	if (ig_fp_path(path, sizeof(path), root, SYS_IB "/%s/ports", d->name))
		return ig_fail(-ENAMETOOLONG, err, errlen,
			       "RDMA device %s: its path under %s is too long",
			       d->name, root);
	n = ig_fp_list(path, &v);
	if (n < 0)
		return ig_fail(-EINVAL, err, errlen,
			       "RDMA device %s: cannot list %s: %s; a device "
			       "has a ports/ folder",
			       d->name, path, strerror(-n));
	d->ports = calloc(n ? (size_t)n : 1, sizeof(*d->ports));
	if (!d->ports)
		ret = ig_fail(-ENOMEM, err, errlen, "out of memory");
	for (int i = 0; !ret && i < n; i++) {
		struct ig_inv_port *p = &d->ports[d->nports];

		p->num = entry_num(v[i]->d_name);
		if (p->num < 1)
			ret = ig_fail(-EINVAL, err, errlen,
				      "%s/%s: not a port number (1, 2, ...)",
				      path, v[i]->d_name);
		else
			ret = read_port(root, flags, d, p, err, errlen);
		d->nports++;
	}
	ig_fp_list_free(v, n);
	return ret;
}

static int read_devs(struct ig_inv *inv, struct dirent **v, int n, char *err,
		     size_t errlen)
{
	int ret = 0;

	inv->devs = calloc(n ? (size_t)n : 1, sizeof(*inv->devs));
	if (!inv->devs)
		return ig_fail(-ENOMEM, err, errlen, "out of memory");
	for (int i = 0; !ret && i < n; i++) {
		struct ig_inv_dev *d = &inv->devs[inv->ndevs];

		if (!ig_fp_name_ok(v[i]->d_name, sizeof(d->name)))
			continue;
		SET(d->name, v[i]->d_name);
		inv->ndevs++;
		read_dev_attrs(inv->root, d);
		ret = read_ports(inv->root, inv->flags, d, err, errlen);
	}
	return ret;
}

int ig_inv_load(const char *root, unsigned int flags, struct ig_inv **out,
		char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct dirent **v = NULL;
	struct ig_inv *inv;
	struct stat st;
	int n, ret;

	if (!root || !root[0])
		root = "/";
	*out = NULL;
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		return ig_fail(-ENOENT, err, errlen,
			       "root '%s': not a folder (want / or a tree "
			       "that mirrors /sys)",
			       root);
	inv = calloc(1, sizeof(*inv));
	if (!inv)
		return ig_fail(-ENOMEM, err, errlen, "out of memory");
	SET(inv->root, root);
	inv->flags = flags;
	ret = ig_fp_path(path, sizeof(path), root, SYS_IB);
	n = ret ? ret : ig_fp_list(path, &v);
	if (n == -ENOENT)
		n = 0; /* no RDMA device */
	if (n < 0)
		ret = ig_fail(n, err, errlen, "cannot list %s: %s", path,
			      strerror(-n));
	else
		ret = read_devs(inv, v, n, err, errlen);
	if (v)
		ig_fp_list_free(v, n > 0 ? n : 0);
	if (ret) {
		ig_inv_free(inv);
		return ret;
	}
	*out = inv;
	return 0;
}

void ig_inv_free(struct ig_inv *inv)
{
	if (!inv)
		return;
	for (size_t i = 0; i < inv->ndevs; i++) {
		for (size_t j = 0; j < inv->devs[i].nports; j++)
			free(inv->devs[i].ports[j].gids);
		free(inv->devs[i].ports);
	}
	free(inv->devs);
	free(inv);
}

const struct ig_inv_dev *ig_inv_dev(const struct ig_inv *inv, const char *name)
{
	for (size_t i = 0; inv && name && i < inv->ndevs; i++)
		if (!strcmp(inv->devs[i].name, name))
			return &inv->devs[i];
	return NULL;
}

const struct ig_inv_port *ig_inv_port(const struct ig_inv_dev *dev, int num)
{
	for (size_t i = 0; dev && i < dev->nports; i++)
		if (dev->ports[i].num == num)
			return &dev->ports[i];
	return NULL;
}

int ig_inv_first_active(const struct ig_inv *inv, const struct ig_inv_dev **dev,
			const struct ig_inv_port **port)
{
	for (size_t i = 0; inv && i < inv->ndevs; i++)
		for (size_t j = 0; j < inv->devs[i].nports; j++) {
			if (inv->devs[i].ports[j].state != IG_INV_PORT_ACTIVE)
				continue;
			*dev = &inv->devs[i];
			*port = &inv->devs[i].ports[j];
			return 0;
		}
	return -ENODEV;
}

int ig_inv_path(char *buf, size_t len, const char *dev, int port,
		const char *leaf)
{
	int n = port > 0 ? snprintf(buf, len, SYS_IB "/%s/ports/%d/%s", dev,
				    port, leaf)
			 : snprintf(buf, len, SYS_IB "/%s/%s", dev, leaf);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
