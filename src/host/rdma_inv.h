/* SPDX-License-Identifier: MIT */
#ifndef IG_RDMA_INV_H
#define IG_RDMA_INV_H

/*
 * The RDMA inventory (docs/design.md, "RDMA inventory"): this host's RDMA
 * devices, their ports, GID tables and network interfaces, read once from
 * sysfs under a root directory: "/" (or "") for the live system, a fixture
 * tree in the tests and under `ibgap doctor --root DIR`.  The one place
 * that lists /sys/class/infiniband; every value is a string as sysfs shows
 * it, "" when the file is missing.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the kernel lists the RDMA devices, as seen from the root. */
#define IG_INV_SYSFS "/sys/class/infiniband"

/* ports/P/state "4: ACTIVE" (enum ib_port_state) */
#define IG_INV_PORT_ACTIVE 4

struct ig_inv_gid {
	int index;	 /* N of ports/P/gids/N */
	uint8_t gid[16]; /* all zero when gids/N is missing */
	char type[16];	 /* gid_attrs/types/N: "IB/RoCE v1", "RoCE v2" */
	char netdev[32]; /* gid_attrs/ndevs/N: RoCE's interface */
};

struct ig_inv_port {
	int num;		 /* P of ports/P, from 1 */
	int state;		 /* the number of "4: ACTIVE"; 0 unknown */
	char state_str[32];	 /* "4: ACTIVE" */
	char phys_state[32];	 /* "5: LinkUp" */
	char link_layer[16];	 /* "InfiniBand" or "Ethernet" */
	char rate[64];		 /* "100 Gb/sec (4X EDR)" */
	char netdev[32];	 /* RoCE: the first GID's with one; IPoIB: the
				  * HCA's interface of type 32 with dev_port
				  * P - 1; else the device's parent (rxe) */
	struct ig_inv_gid *gids; /* used entries (a GID, type or netdev) */
	size_t ngids;
};

struct ig_inv_dev {
	char name[64];		 /* mlx5_0, rxe0 */
	char node_guid[32];	 /* "0c42:a103:0065:e5c0" */
	char fw_ver[64];	 /* "" for Soft-RoCE */
	char board_id[64];	 /* a driver attribute: mlx4/mlx5, not rxe */
	char driver[64];	 /* "mlx5_core", "rdma_rxe", "siw" */
	char parent[32];	 /* rxe and siw: their interface */
	bool soft;		 /* "parent" exists, or no device/ link */
	char pci[32];		 /* device/ link's last part: "0000:3b:00.0" */
	int numa_node;		 /* device/numa_node, -1 unknown */
	char local_cpulist[512]; /* device/local_cpulist */
	char pcie_speed[32];	 /* device/current_link_speed */
	char pcie_width[16];	 /* device/current_link_width */
	char pcie_max_speed[32]; /* device/max_link_speed */
	char pcie_max_width[16]; /* device/max_link_width */
	struct ig_inv_port *ports; /* in port order */
	size_t nports;
};

/* ig_inv_load's flags: read every port's GID table and netdev (rxe's
 * table has 1024 entries; users that need neither leave them out). */
#define IG_INV_GIDS 1u

struct ig_inv {
	char root[4096];	 /* the root it was read under */
	unsigned int flags;	 /* IG_INV_GIDS: gids, ngids, netdev are read */
	struct ig_inv_dev *devs; /* in version order of their names */
	size_t ndevs;
};

/*
 * Reads the inventory under root (NULL, "" or "/": the live system) into
 * a new *out (ig_inv_free); flags: IG_INV_GIDS or 0 (then no port has a
 * GID or a netdev).  No /sys/class/infiniband is no device, not an
 * error.  0, or a negative errno and one line in err: the root is missing
 * (-ENOENT), a device has no readable ports/ or a port or GID entry that
 * is not a number, or a GID that does not parse (-EINVAL), -ENOMEM.
 */
int ig_inv_load(const char *root, unsigned int flags, struct ig_inv **out,
		char *err, size_t errlen);
void ig_inv_free(struct ig_inv *inv);

/* Device name, port num of dev; NULL when there is none. */
const struct ig_inv_dev *ig_inv_dev(const struct ig_inv *inv, const char *name);
const struct ig_inv_port *ig_inv_port(const struct ig_inv_dev *dev, int num);

/* The first ACTIVE port in device, then port order; 0 or -ENODEV. */
int ig_inv_first_active(const struct ig_inv *inv, const struct ig_inv_dev **dev,
			const struct ig_inv_port **port);

/*
 * The RDMA device and port of network interface ifname: the first port
 * whose GID 0 is gid (IPoIB, gid from its hardware address) or, gid NULL,
 * whose GID table names ifname (RoCE); else the device of ifname's parent
 * device (/sys/class/net/IF/device/infiniband/DEV), port dev_port + 1.
 * 0 or -ENODEV (*dev and *port untouched).
 */
int ig_inv_port_of(const struct ig_inv *inv, const char *ifname,
		   const uint8_t *gid, const struct ig_inv_dev **dev,
		   int *port);

/* The same, reading ifname's type and, for IPoIB (type 32), its hardware
 * address under the inventory's root. */
int ig_inv_netdev_port(const struct ig_inv *inv, const char *ifname,
		       const struct ig_inv_dev **dev, int *port);

/*
 * Live: the first IPv4 address (up, not loopback; getifaddrs) of the
 * netdev of an ACTIVE port, in device then port order, trying a port's
 * netdev and then those its GID table names: the address, its interface,
 * the device and the port.  0 or -ENODEV.
 */
int ig_inv_active_addr(const struct ig_inv *inv, char *addr, size_t alen,
		       char *ifname, size_t iflen,
		       const struct ig_inv_dev **dev,
		       const struct ig_inv_port **port);

/*
 * The sysfs path of device dev's attribute leaf (port 0) or of its port's
 * (port >= 1), as seen from the root: "/sys/class/infiniband/mlx5_0/
 * ports/1/rate", for users that quote or watch the file (the doctor's
 * evidence, counters).  0 or -ENAMETOOLONG.
 */
int ig_inv_path(char *buf, size_t len, const char *dev, int port,
		const char *leaf);

/* Live only: the port's active and largest MTU in bytes, which sysfs does
 * not show (ibv_query_port); 0 or a negative errno. */
int ig_inv_port_mtu(const char *dev, int port, int *active, int *max);

/* The GID index a connection without rdma_cm uses on port p (its GIDs
 * read with IG_INV_GIDS): the first link-local (fe80::/10) RoCE v2 GID,
 * else the first RoCE v2 GID, else 0 (RoCE's default GID, fe80::/64
 * from the MAC, there even when the netdev has no address; InfiniBand's
 * port GID). */
int ig_inv_oob_gid(const struct ig_inv_port *p);

#endif
