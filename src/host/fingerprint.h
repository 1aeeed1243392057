/* SPDX-License-Identifier: MIT */
#ifndef IG_FINGERPRINT_H
#define IG_FINGERPRINT_H

#include <json-c/json.h>

/*
 * What a host ran on, for baselines (docs/design.md, "Baselines"): every
 * field a string as the kernel or library shows it, "" when unknown.
 */
struct ig_fingerprint {
	char kernel[128];    /* /proc/sys/kernel/osrelease */
	char rdma_core[32];  /* rdma-core version of the libibverbs in use */
	char ibgap[32];	     /* IG_VERSION */
	char device[64];     /* RDMA device name */
	char fw_ver[64];     /* <dev>/fw_ver (the RDMA inventory's) */
	char board_id[64];   /* <dev>/board_id */
	char driver[64];     /* e.g. "mlx5_core", "rdma_rxe" */
	char link_rate[64];  /* ports/<p>/rate: "100 Gb/sec (4X EDR)" */
	char link_width[16]; /* from the rate: "4X" */
	char link_speed[32]; /* from the rate: "EDR" ("SDR" when unnamed) */
	char netdev[32];     /* the port's network interface */
	char mtu[16];	     /* /sys/class/net/<netdev>/mtu */
	char ipoib_mode[16]; /* "datagram" or "connected"; "" unless IPoIB */
	char pcie_speed[32]; /* device/current_link_speed: "8.0 GT/s PCIe" */
	char pcie_width[16]; /* device/current_link_width: "16" */
};

/*
 * Reads the fingerprint of RDMA device `device`, port `port` (device "" or
 * NULL: only kernel, rdma_core and ibgap), every path under root ("/" for
 * the live system; tests pass a fixture tree, and then rdma_core comes
 * from root/.ibgap-fixture/rdma_core).  A missing or unreadable file
 * leaves its field "".  Returns 0.
 */
int ig_fingerprint_collect(const char *root, const char *device, int port,
			   struct ig_fingerprint *fp);

/* An object with every field as a string (NULL when out of memory). */
json_object *ig_fingerprint_to_json(const struct ig_fingerprint *fp);

/* Missing keys -> "", unknown keys ignored, values longer than a field
 * truncated; -EINVAL when o is not an object or a known key is not a
 * string (fp then untouched). */
int ig_fingerprint_from_json(json_object *o, struct ig_fingerprint *fp);

/* Field i (0, 1, ...) in a fixed order: its value, and its JSON key in
 * *name; NULL past the last field. */
const char *ig_fingerprint_field(const struct ig_fingerprint *fp,
				 unsigned int i, const char **name);

#endif
