// SPDX-License-Identifier: MIT
/* Unit tests for the RDMA inventory (host/rdma_inv.h): what it reads from
 * the committed fixture trees (tests/data/doctor, tests/data/fingerprint),
 * its lookups, and trees that are missing or malformed. */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/rdma_inv.h"
#include "testdata.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct gid_want {
	int index;
	const char *gid, *type, *netdev;
};

/* One device of a tree, its port 1, and the start of its GID table. */
struct inv_case {
	const char *tree, *dev;
	size_t ndevs;
	const char *fw_ver, *pci, *parent, *driver; /* NULL: not checked */
	bool soft;
	bool no_phys; /* the tree has no phys_state */
	int numa_node;
	const char *link_layer, *rate, *netdev;
	size_t ngids;
	struct gid_want gids[4];
};

#define IB_GID0 "fe80:0000:0000:0000:0c42:a103:00b5:1c2e"
#define ROCE_LL "fe80:0000:0000:0000:0e42:a1ff:feb5:1c2e"
#define ROCE_V4 "0000:0000:0000:0000:0000:ffff:c000:020a"

static const struct inv_case cases[] = {
	{ .tree = "doctor/healthy",
	  .dev = "mlx5_1",
	  .ndevs = 2,
	  .fw_ver = "20.39.1002",
	  .pci = "0000:3b:00.1",
	  .parent = "",
	  .numa_node = 0,
	  .link_layer = "InfiniBand",
	  .rate = "100 Gb/sec (4X EDR)",
	  .netdev = "ib1",
	  .ngids = 1,
	  .gids = { { 0, "fe80:0000:0000:0000:0c42:a103:00b5:1c2f", "", "" } } },
	{ .tree = "doctor/ipoib_dgram_2044",
	  .dev = "mlx4_0",
	  .ndevs = 1,
	  .pci = "0000:3b:00.0",
	  .numa_node = 0,
	  .link_layer = "InfiniBand",
	  .rate = "56 Gb/sec (4X FDR)",
	  .netdev = "ib0",
	  .ngids = 1,
	  .gids = { { 0, IB_GID0, "", "" } } },
	{ .tree = "doctor/numa_far",
	  .dev = "mlx5_0",
	  .ndevs = 1,
	  .numa_node = 1,
	  .link_layer = "InfiniBand",
	  .rate = "100 Gb/sec (4X EDR)",
	  .netdev = "ib0",
	  .ngids = 1,
	  .gids = { { 0, IB_GID0, "", "" } } },
	{ .tree = "doctor/degraded",
	  .dev = "mlx5_0",
	  .ndevs = 1,
	  .numa_node = 0,
	  .link_layer = "InfiniBand",
	  .rate = "25 Gb/sec (1X EDR)",
	  .netdev = "ib0",
	  .ngids = 1,
	  .gids = { { 0, IB_GID0, "", "" } } },
	{ .tree = "doctor/roce_100g",
	  .dev = "mlx5_0",
	  .ndevs = 1,
	  .pci = "0000:3b:00.0",
	  .numa_node = 0,
	  .link_layer = "Ethernet",
	  .rate = "100 Gb/sec (4X EDR)",
	  .netdev = "ens1f0np0",
	  .ngids = 4,
	  .gids = { { 0, ROCE_LL, "IB/RoCE v1", "ens1f0np0" },
		    { 1, ROCE_LL, "RoCE v2", "ens1f0np0" },
		    { 2, ROCE_V4, "IB/RoCE v1", "ens1f0np0" },
		    { 3, ROCE_V4, "RoCE v2", "ens1f0np0" } } },
	{ .tree = "doctor/rxe_veth",
	  .dev = "rxe0",
	  .ndevs = 1,
	  .fw_ver = "",
	  .pci = "",
	  .parent = "veth0",
	  .driver = "rdma_rxe",
	  .soft = true,
	  .numa_node = -1,
	  .link_layer = "Ethernet",
	  .rate = "10 Gb/sec (1X FDR10)",
	  .netdev = "veth0",
	  .ngids = 2,
	  .gids = { { 0, "fe80:0000:0000:0000:a0b1:c2ff:fed3:e4f5", "",
		      "veth0" },
		    { 1, "0000:0000:0000:0000:0000:ffff:0ae9:0001", "",
		      "veth0" } } },
	/* no gids/ at all: the entries come from gid_attrs/ndevs alone,
	 * and unused ones (empty) are left out */
	{ .tree = "fingerprint/mlx5_ipoib",
	  .dev = "mlx5_0",
	  .ndevs = 1,
	  .fw_ver = "20.31.1014",
	  .pci = "0000:3b:00.0",
	  .driver = "mlx5_core",
	  .no_phys = true,
	  .numa_node = -1,
	  .link_layer = "InfiniBand",
	  .rate = "200 Gb/sec (4X HDR)",
	  .netdev = "ib0",
	  .ngids = 0 },
};

static void gid_text(const uint8_t g[16], char *buf)
{
	for (int i = 0; i < 16; i += 2)
		sprintf(buf + i / 2 * 5, "%02x%02x%s", g[i], g[i + 1],
			i < 14 ? ":" : "");
}

static struct ig_inv *load(const char *tree)
{
	char root[PATH_MAX], err[256] = "";
	struct ig_inv *inv = NULL;
	int ret;

	data_path(root, sizeof(root), tree);
	ret = ig_inv_load(root, IG_INV_GIDS, &inv, err, sizeof(err));
	ck_assert_msg(!ret && inv, "%s: %s (%d)", tree, err, ret);
	return inv;
}

static void expect_str(const char *who, const char *what, const char *got,
		       const char *want)
{
	if (want)
		ck_assert_msg(!strcmp(got, want), "%s: %s '%s', want '%s'", who,
			      what, got, want);
}

static void expect_gids(const struct inv_case *c, const struct ig_inv_port *p)
{
	char text[48];

	ck_assert_msg(p->ngids == c->ngids, "%s: %zu GIDs, want %zu", c->tree,
		      p->ngids, c->ngids);
	for (size_t i = 0; i < c->ngids && i < ARRAY_SIZE(c->gids); i++) {
		const struct ig_inv_gid *g = &p->gids[i];

		ck_assert_int_eq(g->index, c->gids[i].index);
		gid_text(g->gid, text);
		expect_str(c->tree, "GID", text, c->gids[i].gid);
		expect_str(c->tree, "GID type", g->type, c->gids[i].type);
		expect_str(c->tree, "GID netdev", g->netdev, c->gids[i].netdev);
	}
}

START_TEST(fixture_tree)
{
	const struct inv_case *c = &cases[_i];
	struct ig_inv *inv = load(c->tree);
	const struct ig_inv_dev *d = ig_inv_dev(inv, c->dev);
	const struct ig_inv_port *p;

	ck_assert_msg(inv->ndevs == c->ndevs, "%s: %zu devices, want %zu",
		      c->tree, inv->ndevs, c->ndevs);
	ck_assert_msg(d, "%s: no device %s", c->tree, c->dev);
	expect_str(c->tree, "fw_ver", d->fw_ver, c->fw_ver);
	expect_str(c->tree, "pci", d->pci, c->pci);
	expect_str(c->tree, "parent", d->parent, c->parent);
	expect_str(c->tree, "driver", d->driver, c->driver);
	ck_assert_msg(d->soft == c->soft, "%s: soft %d", c->tree, d->soft);
	ck_assert_int_eq(d->numa_node, c->numa_node);
	ck_assert_uint_eq(d->nports, 1);
	p = ig_inv_port(d, 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_null(ig_inv_port(d, 2));
	ck_assert_int_eq(p->state, IG_INV_PORT_ACTIVE);
	expect_str(c->tree, "state", p->state_str, "4: ACTIVE");
	expect_str(c->tree, "phys_state", p->phys_state,
		   c->no_phys ? "" : "5: LinkUp");
	expect_str(c->tree, "link_layer", p->link_layer, c->link_layer);
	expect_str(c->tree, "rate", p->rate, c->rate);
	expect_str(c->tree, "netdev", p->netdev, c->netdev);
	expect_gids(c, p);
	ig_inv_free(inv);
}
END_TEST

/* netdev -> device and port: IPoIB by GID 0, RoCE and rxe by the GID
 * table, a netdev without RDMA none. */
/* The device's PCIe link and local CPUs, where the trees differ. */
START_TEST(pcie_and_cpus)
{
	static const struct {
		const char *tree, *speed, *width, *max_speed, *max_width, *cpus;
	} rows[] = {
		{ "doctor/pcie_gen3x8_200g", "8.0 GT/s PCIe", "8",
		  "16.0 GT/s PCIe", "16", "0-3" },
		{ "doctor/numa_far", "8.0 GT/s PCIe", "16", "8.0 GT/s PCIe",
		  "16", "4-7" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct ig_inv *inv = load(rows[i].tree);
		const struct ig_inv_dev *d = ig_inv_dev(inv, "mlx5_0");

		ck_assert_ptr_nonnull(d);
		ck_assert_str_eq(d->pcie_speed, rows[i].speed);
		ck_assert_str_eq(d->pcie_width, rows[i].width);
		ck_assert_str_eq(d->pcie_max_speed, rows[i].max_speed);
		ck_assert_str_eq(d->pcie_max_width, rows[i].max_width);
		ck_assert_str_eq(d->local_cpulist, rows[i].cpus);
		ig_inv_free(inv);
	}
}
END_TEST

START_TEST(netdev_to_port)
{
	static const struct {
		const char *tree, *ifname, *dev;
		int port;
	} rows[] = {
		{ "doctor/healthy", "ib0", "mlx5_0", 1 },
		{ "doctor/healthy", "ib1", "mlx5_1", 1 },
		{ "doctor/healthy", "eth0", NULL, 0 },
		{ "doctor/healthy", "lo", NULL, 0 },
		{ "doctor/roce_100g", "ens1f0np0", "mlx5_0", 1 },
		{ "doctor/rxe_veth", "veth0", "rxe0", 1 },
		{ "doctor/rxe_veth", "nosuch0", NULL, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct ig_inv *inv = load(rows[i].tree);
		const struct ig_inv_dev *d = NULL;
		int port = 0, ret;

		ret = ig_inv_netdev_port(inv, rows[i].ifname, &d, &port);
		if (!rows[i].dev) {
			ck_assert_msg(ret == -ENODEV, "%s %s: %d, want -ENODEV",
				      rows[i].tree, rows[i].ifname, ret);
		} else {
			ck_assert_msg(!ret && d, "%s %s: %d", rows[i].tree,
				      rows[i].ifname, ret);
			ck_assert_str_eq(d->name, rows[i].dev);
			ck_assert_int_eq(port, rows[i].port);
		}
		ig_inv_free(inv);
	}
}
END_TEST

START_TEST(first_active_and_path)
{
	struct ig_inv *inv = load("doctor/healthy");
	const struct ig_inv_port *p;
	const struct ig_inv_dev *d;
	char path[128];

	ck_assert_int_eq(ig_inv_first_active(inv, &d, &p), 0);
	ck_assert_str_eq(d->name, "mlx5_0");
	ck_assert_int_eq(p->num, 1);
	ck_assert_ptr_null(ig_inv_dev(inv, "mlx5_9"));
	ck_assert_int_eq(ig_inv_path(path, sizeof(path), "mlx5_0", 1, "rate"),
			 0);
	ck_assert_str_eq(path, "/sys/class/infiniband/mlx5_0/ports/1/rate");
	ck_assert_int_eq(ig_inv_path(path, sizeof(path), "mlx5_0", 0, "device"),
			 0);
	ck_assert_str_eq(path, "/sys/class/infiniband/mlx5_0/device");
	ck_assert_int_eq(ig_inv_path(path, 16, "mlx5_0", 0, "device"),
			 -ENAMETOOLONG);
	ig_inv_free(inv);
}
END_TEST

/* Without IG_INV_GIDS: the ports' facts, no GID table and no netdev. */
START_TEST(without_gids)
{
	char root[PATH_MAX], err[256];
	const struct ig_inv_port *p;
	struct ig_inv *inv;

	data_path(root, sizeof(root), "doctor/roce_100g");
	ck_assert_int_eq(ig_inv_load(root, 0, &inv, err, sizeof(err)), 0);
	p = ig_inv_port(ig_inv_dev(inv, "mlx5_0"), 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->state, IG_INV_PORT_ACTIVE);
	ck_assert_str_eq(p->rate, "100 Gb/sec (4X EDR)");
	ck_assert_uint_eq(p->ngids, 0);
	ck_assert_str_eq(p->netdev, "");
	ig_inv_free(inv);
}
END_TEST

/* A scratch tree under /tmp, written file by file. */
struct scratch {
	char root[64];
};

static void put(struct scratch *t, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	for (char *s = strchr(path + strlen(t->root) + 1, '/'); s;
	     s = strchr(s + 1, '/')) {
		*s = '\0';
		ck_assert_msg(!mkdir(path, 0755) || errno == EEXIST, "%s",
			      path);
		*s = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void scratch_new(struct scratch *t)
{
	snprintf(t->root, sizeof(t->root), "/tmp/ig_inv.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->root));
}

static void scratch_free(struct scratch *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	ck_assert_int_eq(system(cmd), 0);
}

#define IBP "sys/class/infiniband/"

/* A device of two ports, the first down: the first ACTIVE port is the
 * second device's first, the state's number as sysfs gives it. */
START_TEST(down_port_skipped)
{
	const struct ig_inv_port *p;
	const struct ig_inv_dev *d;
	struct scratch t;
	struct ig_inv *inv;
	char err[256];

	scratch_new(&t);
	put(&t, IBP "dev0/ports/1/state", "1: DOWN");
	put(&t, IBP "dev0/ports/10/state", "2: INIT");
	put(&t, IBP "dev0/ports/2/state", "2: INIT");
	put(&t, IBP "dev1/ports/1/state", "4: ACTIVE");
	put(&t, IBP "dev1/ports/1/gids/0", ROCE_V4);
	put(&t, IBP "dev1/ports/1/gids/1",
	    "0000:0000:0000:0000:0000:0000:0000:0000");
	ck_assert_int_eq(
		ig_inv_load(t.root, IG_INV_GIDS, &inv, err, sizeof(err)), 0);
	ck_assert_uint_eq(inv->ndevs, 2);
	d = ig_inv_dev(inv, "dev0");
	ck_assert_uint_eq(d->nports, 3);
	ck_assert_int_eq(d->ports[0].state, 1);
	ck_assert_int_eq(d->ports[1].num, 2); /* version order: 2 before 10 */
	ck_assert_int_eq(d->ports[2].num, 10);
	ck_assert_int_eq(ig_inv_first_active(inv, &d, &p), 0);
	ck_assert_str_eq(d->name, "dev1");
	ck_assert_uint_eq(p->ngids, 1); /* the zero GID is unused */
	ck_assert_str_eq(p->netdev, "");
	ig_inv_free(inv);
	scratch_free(&t);
}
END_TEST

/* Missing and malformed trees: an error and one line, never a crash. */
START_TEST(bad_trees)
{
	static const struct {
		const char *rel, *text; /* NULL: an empty root */
		int ret;
		const char *says;
	} rows[] = {
		{ NULL, NULL, 0, "" },
		{ IBP "dev0/node_guid", "0", -EINVAL, "ports" },
		{ IBP "dev0/ports/one/state", "4: ACTIVE", -EINVAL,
		  "not a port number" },
		{ IBP "dev0/ports/1/gids/0", "fe80::1", -EINVAL,
		  "is not a GID" },
		{ IBP "dev0/ports/1/gid_attrs/ndevs/x", "eth0", -EINVAL,
		  "not a GID index" },
	};
	struct ig_inv *inv = (void *)1;
	char err[256];

	ck_assert_int_eq(ig_inv_load("/nonexistent/ig_inv", IG_INV_GIDS, &inv,
				     err, sizeof(err)),
			 -ENOENT);
	ck_assert_ptr_null(inv);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/ig_inv"));
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct scratch t;
		int ret;

		scratch_new(&t);
		if (rows[i].rel)
			put(&t, rows[i].rel, rows[i].text);
		err[0] = '\0';
		ret = ig_inv_load(t.root, IG_INV_GIDS, &inv, err, sizeof(err));
		ck_assert_msg(ret == rows[i].ret, "row %zu: %d, want %d (%s)",
			      i, ret, rows[i].ret, err);
		ck_assert_msg(strstr(err, rows[i].says), "row %zu: '%s'", i,
			      err);
		if (!ret)
			ck_assert_uint_eq(inv->ndevs, 0);
		else
			ck_assert_ptr_null(inv);
		ig_inv_free(ret ? NULL : inv);
		scratch_free(&t);
	}
}
END_TEST

/* A rail without an address: the link-local RoCE v2 GID, else any
 * RoCE v2 one, else 0. */
START_TEST(oob_gid_choice)
{
	struct ig_inv_gid g[] = {
		{ .index = 0,
		  .gid = { 0xfe, 0x80, [15] = 1 },
		  .type = "IB/RoCE v1" },
		{ .index = 1, .gid = { 0 }, .type = "RoCE v2" },
		{ .index = 2,
		  .gid = { 0x20, 0x01, [15] = 2 },
		  .type = "RoCE v2" },
		{ .index = 3,
		  .gid = { 0xfe, 0x80, [15] = 1 },
		  .type = "RoCE v2" },
	};
	struct ig_inv_port p = { .num = 1, .gids = g, .ngids = 4 };

	ck_assert_int_eq(ig_inv_oob_gid(&p), 3);
	p.ngids = 3; /* no link-local v2: the first v2 with a GID */
	ck_assert_int_eq(ig_inv_oob_gid(&p), 2);
	p.ngids = 2; /* v1 only (a zero v2 entry is unused) */
	ck_assert_int_eq(ig_inv_oob_gid(&p), 0);
	p.ngids = 0;
	ck_assert_int_eq(ig_inv_oob_gid(&p), 0);
	ck_assert_int_eq(ig_inv_oob_gid(NULL), 0);
}
END_TEST

static Suite *inventory_suite(void)
{
	Suite *s = suite_create("inventory");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, fixture_tree, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, pcie_and_cpus);
	tcase_add_test(tc, netdev_to_port);
	tcase_add_test(tc, first_active_and_path);
	tcase_add_test(tc, without_gids);
	tcase_add_test(tc, down_port_skipped);
	tcase_add_test(tc, bad_trees);
	tcase_add_test(tc, oob_gid_choice);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(inventory_suite());
}
