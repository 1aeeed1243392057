// SPDX-License-Identifier: MIT
/* Unit tests for fingerprint.c: sysfs fixture trees, JSON round trip. */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/fingerprint.h"
#include "host/sysinfo.h"
#include "testdata.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The fields a row expects, as struct ig_fingerprint names them; NULL:
 * not checked. */
struct fp_want {
	const char *kernel, *rdma_core, *ibgap, *device, *fw_ver, *board_id;
	const char *driver, *link_rate, *link_width, *link_speed, *netdev;
	const char *mtu, *ipoib_mode, *pcie_speed, *pcie_width;
};

/* A field's name and its place in the fingerprint and in a want. */
#define FP_FIELD(f)                                                    \
	{                                                              \
		.name = #f, .got = offsetof(struct ig_fingerprint, f), \
		.want = offsetof(struct fp_want, f)                    \
	}

static const struct {
	const char *name;
	size_t got, want;
} fp_fields[] = {
	FP_FIELD(kernel),     FP_FIELD(rdma_core),  FP_FIELD(ibgap),
	FP_FIELD(device),     FP_FIELD(fw_ver),	    FP_FIELD(board_id),
	FP_FIELD(driver),     FP_FIELD(link_rate),  FP_FIELD(link_width),
	FP_FIELD(link_speed), FP_FIELD(netdev),	    FP_FIELD(mtu),
	FP_FIELD(ipoib_mode), FP_FIELD(pcie_speed), FP_FIELD(pcie_width),
};
_Static_assert(ARRAY_SIZE(fp_fields) == sizeof(struct fp_want) / sizeof(char *),
	       "fp_fields[] lists every field of struct fp_want");

/* One collection from a fixture tree, and what it must find. */
struct fp_case {
	const char *name;
	const char *tree, *dev; /* tree under tests/data */
	int port;
	struct fp_want want;
};

static const struct fp_case fp_cases[] = {
	{
		.name = "mlx5_ipoib_host",
		.tree = "fingerprint/mlx5_ipoib",
		.dev = "mlx5_0",
		.port = 1,
		.want = { .kernel = "6.1.0-18-amd64",
			  .rdma_core = "50.0",
			  .ibgap = IG_VERSION,
			  .device = "mlx5_0",
			  .fw_ver = "20.31.1014",
			  .board_id = "MT_0000000222",
			  .driver = "mlx5_core",
			  .link_rate = "200 Gb/sec (4X HDR)",
			  .link_width = "4X",
			  .link_speed = "HDR",
			  .netdev = "ib0",
			  .mtu = "2044",
			  .ipoib_mode = "datagram",
			  .pcie_speed = "8.0 GT/s PCIe",
			  .pcie_width = "16" },
	},
	{
		.name = "rxe_veth_host",
		.tree = "fingerprint/rxe_veth",
		.dev = "rxe0",
		.port = 1,
		.want = { .kernel = "6.1.0-57-amd64",
			  .rdma_core = "44.0",
			  .device = "rxe0",
			  .fw_ver = "",
			  .board_id = "",
			  .driver = "rdma_rxe",
			  .link_rate = "10 Gb/sec (1X FDR10)",
			  .link_width = "1X",
			  .link_speed = "FDR10",
			  .netdev = "veth0",
			  .mtu = "1500",
			  .ipoib_mode = "", /* Ethernet: no mode */
			  .pcie_speed = "",
			  .pcie_width = "" },
	},
	{
		/* Port 2 does not exist: no rate, and ib0 (dev_port 0) is
		 * port 1's. */
		.name = "other_port_has_no_netdev",
		.tree = "fingerprint/mlx5_ipoib",
		.dev = "mlx5_0",
		.port = 2,
		.want = { .fw_ver = "20.31.1014",
			  .link_rate = "",
			  .link_width = "",
			  .link_speed = "",
			  .netdev = "",
			  .mtu = "",
			  .ipoib_mode = "" },
	},
	{
		.name = "no_device",
		.tree = "fingerprint/mlx5_ipoib",
		.dev = "",
		.port = 1,
		.want = { .kernel = "6.1.0-18-amd64",
			  .ibgap = IG_VERSION,
			  .device = "",
			  .fw_ver = "",
			  .driver = "",
			  .netdev = "" },
	},
	{
		/* a device that does not exist */
		.name = "missing_device",
		.tree = "fingerprint/mlx5_ipoib",
		.dev = "mlx5_9",
		.port = 1,
		.want = { .device = "mlx5_9",
			  .fw_ver = "",
			  .link_rate = "",
			  .pcie_speed = "" },
	},
	{
		/* names that are not one */
		.name = "device_path",
		.tree = "fingerprint/mlx5_ipoib",
		.dev = "../mlx5_0",
		.port = 1,
		.want = { .device = "", .fw_ver = "" },
	},
	{
		.name = "null_device",
		.tree = "fingerprint/mlx5_ipoib",
		.dev = NULL,
		.port = 1,
		.want = { .device = "" },
	},
	{
		/* a root that does not exist at all */
		.name = "no_such_tree",
		.tree = "fingerprint/no_such_tree",
		.dev = "mlx5_0",
		.port = 1,
		.want = { .kernel = "",
			  .rdma_core = "",
			  .ibgap = IG_VERSION,
			  .fw_ver = "" },
	},
};

static void collect(const char *tree, const char *dev, int port,
		    struct ig_fingerprint *fp)
{
	char root[PATH_MAX];

	data_path(root, sizeof(root), tree);
	memset(fp, 0x5a, sizeof(*fp)); /* every field must be written */
	ck_assert_msg(!ig_fingerprint_collect(root, dev, port, fp),
		      "%s, device %s, port %d: not collected", tree,
		      dev ? dev : "(null)", port);
}

START_TEST(fixture_tree)
{
	const struct fp_case *c = &fp_cases[_i];
	const char *got, *want;
	struct ig_fingerprint fp;

	collect(c->tree, c->dev, c->port, &fp);
	for (size_t i = 0; i < ARRAY_SIZE(fp_fields); i++) {
		got = (const char *)&fp + fp_fields[i].got;
		want = *(const char *const *)((const char *)&c->want +
					      fp_fields[i].want);
		if (want)
			ck_assert_msg(!strcmp(got, want),
				      "%s: %s '%s', want '%s'", c->name,
				      fp_fields[i].name, got, want);
	}
}
END_TEST

/* The live system: the kernel as uname says, rdma-core from the real
 * file name of the libibverbs loaded into this process. */
START_TEST(live_system)
{
	struct ig_fingerprint fp;
	char osrel[128] = "", real[PATH_MAX], want[64];
	const char *base;
	Dl_info info;
	FILE *f;

	ck_assert_int_eq(ig_fingerprint_collect("/", "", 1, &fp), 0);
	f = fopen("/proc/sys/kernel/osrelease", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(osrel, sizeof(osrel), f));
	fclose(f);
	osrel[strcspn(osrel, "\n")] = '\0';
	ck_assert_str_eq(fp.kernel, osrel);

	ck_assert_msg(dladdr(dlsym(RTLD_DEFAULT, "ibv_get_device_list"), &info),
		      "libibverbs is not loaded into the test");
	ck_assert_ptr_nonnull(realpath(info.dli_fname, real));
	base = strrchr(real, '/') + 1;
	ck_assert_msg(fp.rdma_core[0], "no rdma_core from %s", real);
	snprintf(want, sizeof(want), ".%s", fp.rdma_core);
	ck_assert_msg(strlen(base) > strlen(want) &&
			      !strcmp(base + strlen(base) - strlen(want), want),
		      "rdma_core '%s' is not the end of '%s'", fp.rdma_core,
		      base);
	ck_assert_msg(!strncmp(base, "libibverbs.so.1.", 16), "%s", base);
}
END_TEST

START_TEST(json_round_trip)
{
	struct ig_fingerprint a, b;
	json_object *o, *v;
	const char *name, *val;
	unsigned int i;

	collect("fingerprint/mlx5_ipoib", "mlx5_0", 1, &a);
	o = ig_fingerprint_to_json(&a);
	ck_assert_ptr_nonnull(o);
	for (i = 0; (val = ig_fingerprint_field(&a, i, &name)); i++) {
		ck_assert_msg(json_object_object_get_ex(o, name, &v),
			      "key %s missing", name);
		ck_assert_str_eq(json_object_get_string(v), val);
	}
	ck_assert_uint_eq(i, 15);
	ck_assert_int_eq(json_object_object_length(o), 15);
	memset(&b, 0x5a, sizeof(b));
	ck_assert_int_eq(ig_fingerprint_from_json(o, &b), 0);
	/* both zero every field before filling it: whole structs compare */
	ck_assert_mem_eq(&a, &b, sizeof(a));
	json_object_put(o);
}
END_TEST

START_TEST(json_missing_and_wrong_types)
{
	struct ig_fingerprint fp;
	json_object *o;

	o = json_tokener_parse("{\"fw_ver\": \"20.35.2000\", \"extra\": 1}");
	ck_assert_ptr_nonnull(o);
	memset(&fp, 0x5a, sizeof(fp));
	ck_assert_int_eq(ig_fingerprint_from_json(o, &fp), 0);
	ck_assert_str_eq(fp.fw_ver, "20.35.2000");
	ck_assert_str_eq(fp.kernel, "");
	ck_assert_str_eq(fp.pcie_width, "");
	json_object_put(o);

	o = json_tokener_parse("{\"mtu\": 1500}");
	memset(&fp, 0x33, sizeof(fp));
	ck_assert_int_eq(ig_fingerprint_from_json(o, &fp), -EINVAL);
	ck_assert_int_eq((unsigned char)fp.kernel[0], 0x33); /* untouched */
	json_object_put(o);

	o = json_tokener_parse("[\"fw_ver\"]");
	ck_assert_int_eq(ig_fingerprint_from_json(o, &fp), -EINVAL);
	json_object_put(o);
	ck_assert_int_eq(ig_fingerprint_from_json(NULL, &fp), -EINVAL);

	/* too long for its field: truncated, terminated */
	o = json_tokener_parse("{\"mtu\": \"123456789012345678901234\"}");
	ck_assert_int_eq(ig_fingerprint_from_json(o, &fp), 0);
	ck_assert_str_eq(fp.mtu, "123456789012345");
	json_object_put(o);
}
END_TEST

static Suite *fingerprint_suite(void)
{
	Suite *s = suite_create("fingerprint");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, fixture_tree, 0, ARRAY_SIZE(fp_cases));
	tcase_add_test(tc, live_system);
	tcase_add_test(tc, json_round_trip);
	tcase_add_test(tc, json_missing_and_wrong_types);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(fingerprint_suite());
}
