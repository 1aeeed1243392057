// SPDX-License-Identifier: MIT
/* Unit tests for fingerprint.c: sysfs fixture trees, JSON round trip. */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/fingerprint.h"
#include "host/sysinfo.h"
#include "testdata.h"

static void collect(const char *tree, const char *dev, int port,
		    struct ig_fingerprint *fp)
{
	char root[PATH_MAX];

	data_path(root, sizeof(root), tree);
	memset(fp, 0x5a, sizeof(*fp)); /* every field must be written */
	ck_assert_int_eq(ig_fingerprint_collect(root, dev, port, fp), 0);
}

START_TEST(mlx5_ipoib_host)
{
	struct ig_fingerprint fp;

	collect("fingerprint/mlx5_ipoib", "mlx5_0", 1, &fp);
	ck_assert_str_eq(fp.kernel, "6.1.0-18-amd64");
	ck_assert_str_eq(fp.rdma_core, "50.0");
	ck_assert_str_eq(fp.ibgap, IG_VERSION);
	ck_assert_str_eq(fp.device, "mlx5_0");
	ck_assert_str_eq(fp.fw_ver, "20.31.1014");
	ck_assert_str_eq(fp.board_id, "MT_0000000222");
	ck_assert_str_eq(fp.driver, "mlx5_core");
	ck_assert_str_eq(fp.link_rate, "200 Gb/sec (4X HDR)");
	ck_assert_str_eq(fp.link_width, "4X");
	ck_assert_str_eq(fp.link_speed, "HDR");
	ck_assert_str_eq(fp.netdev, "ib0");
	ck_assert_str_eq(fp.mtu, "2044");
	ck_assert_str_eq(fp.ipoib_mode, "datagram");
	ck_assert_str_eq(fp.pcie_speed, "8.0 GT/s PCIe");
	ck_assert_str_eq(fp.pcie_width, "16");
}
END_TEST

START_TEST(rxe_veth_host)
{
	struct ig_fingerprint fp;

	collect("fingerprint/rxe_veth", "rxe0", 1, &fp);
	ck_assert_str_eq(fp.kernel, "6.1.0-57-amd64");
	ck_assert_str_eq(fp.rdma_core, "44.0");
	ck_assert_str_eq(fp.device, "rxe0");
	ck_assert_str_eq(fp.fw_ver, "");
	ck_assert_str_eq(fp.board_id, "");
	ck_assert_str_eq(fp.driver, "rdma_rxe");
	ck_assert_str_eq(fp.link_rate, "10 Gb/sec (1X FDR10)");
	ck_assert_str_eq(fp.link_width, "1X");
	ck_assert_str_eq(fp.link_speed, "FDR10");
	ck_assert_str_eq(fp.netdev, "veth0");
	ck_assert_str_eq(fp.mtu, "1500");
	ck_assert_str_eq(fp.ipoib_mode, ""); /* Ethernet: no mode */
	ck_assert_str_eq(fp.pcie_speed, "");
	ck_assert_str_eq(fp.pcie_width, "");
}
END_TEST

/* Port 2 does not exist: no rate, and ib0 (dev_port 0) is port 1's. */
START_TEST(other_port_has_no_netdev)
{
	struct ig_fingerprint fp;

	collect("fingerprint/mlx5_ipoib", "mlx5_0", 2, &fp);
	ck_assert_str_eq(fp.fw_ver, "20.31.1014");
	ck_assert_str_eq(fp.link_rate, "");
	ck_assert_str_eq(fp.link_width, "");
	ck_assert_str_eq(fp.link_speed, "");
	ck_assert_str_eq(fp.netdev, "");
	ck_assert_str_eq(fp.mtu, "");
	ck_assert_str_eq(fp.ipoib_mode, "");
}
END_TEST

START_TEST(no_device_and_missing_files)
{
	struct ig_fingerprint fp;

	collect("fingerprint/mlx5_ipoib", "", 1, &fp);
	ck_assert_str_eq(fp.kernel, "6.1.0-18-amd64");
	ck_assert_str_eq(fp.ibgap, IG_VERSION);
	ck_assert_str_eq(fp.device, "");
	ck_assert_str_eq(fp.fw_ver, "");
	ck_assert_str_eq(fp.driver, "");
	ck_assert_str_eq(fp.netdev, "");

	/* a device that does not exist, and names that are not one */
	collect("fingerprint/mlx5_ipoib", "mlx5_9", 1, &fp);
	ck_assert_str_eq(fp.device, "mlx5_9");
	ck_assert_str_eq(fp.fw_ver, "");
	ck_assert_str_eq(fp.link_rate, "");
	ck_assert_str_eq(fp.pcie_speed, "");
	collect("fingerprint/mlx5_ipoib", "../mlx5_0", 1, &fp);
	ck_assert_str_eq(fp.device, "");
	ck_assert_str_eq(fp.fw_ver, "");
	collect("fingerprint/mlx5_ipoib", NULL, 1, &fp);
	ck_assert_str_eq(fp.device, "");

	/* a root that does not exist at all */
	collect("fingerprint/no_such_tree", "mlx5_0", 1, &fp);
	ck_assert_str_eq(fp.kernel, "");
	ck_assert_str_eq(fp.rdma_core, "");
	ck_assert_str_eq(fp.ibgap, IG_VERSION);
	ck_assert_str_eq(fp.fw_ver, "");
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

	tcase_add_test(tc, mlx5_ipoib_host);
	tcase_add_test(tc, rxe_veth_host);
	tcase_add_test(tc, other_port_has_no_netdev);
	tcase_add_test(tc, no_device_and_missing_files);
	tcase_add_test(tc, live_system);
	tcase_add_test(tc, json_round_trip);
	tcase_add_test(tc, json_missing_and_wrong_types);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fingerprint_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
