// SPDX-License-Identifier: MIT
/*
 * The knobs that are one file of /proc or /sys: sysctls, RPS/XPS masks,
 * the IPoIB mode; and the MTU (SIOCGIFMTU/SIOCSIFMTU in the caller's
 * network namespace).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "common/ethtool.h"
#include "common/fail.h"
#include "tune_int.h"

#define PATH_LEN 512

/* The file of c's knob. */
static void knob_path(const char *root, const struct ig_tune_change *c, char *p,
		      size_t len)
{
	char name[IG_TUNE_NAME_LEN];

	switch (c->kind) {
	case IG_TUNE_SYSCTL:
		snprintf(name, sizeof(name), "%s", c->name);
		for (char *d = name; (d = strchr(d, '.'));)
			*d = '/';
		ig_tune_path(p, len, root, "/proc/sys/%s", name);
		break;
	case IG_TUNE_RPS:
	case IG_TUNE_XPS:
		ig_tune_path(p, len, root, "/sys/class/net/%s/queues/%s/%s",
			     c->dev, c->name,
			     c->kind == IG_TUNE_RPS ? "rps_cpus" : "xps_cpus");
		break;
	case IG_TUNE_IRQ:
		ig_tune_path(p, len, root, "/proc/irq/%s/smp_affinity_list",
			     c->name);
		break;
	default: /* IG_TUNE_IPOIB_MODE */
		ig_tune_path(p, len, root, "/sys/class/net/%s/mode", c->dev);
	}
}

static int file_read(const char *root, const struct ig_tune_change *c,
		     char *val, size_t len)
{
	char p[PATH_LEN];

	knob_path(root, c, p, sizeof(p));
	return ig_tune_read_text(p, val, len);
}

static int file_write(const char *root, const struct ig_tune_change *c,
		      const char *val, char *err, size_t len)
{
	char p[PATH_LEN];

	knob_path(root, c, p, sizeof(p));
	return ig_tune_write_text(p, val, err, len);
}

const struct ig_knob_ops ig_knob_sysctl = { file_read, file_write };
const struct ig_knob_ops ig_knob_rps = { file_read, file_write };
const struct ig_knob_ops ig_knob_irq = { file_read, file_write };
const struct ig_knob_ops ig_knob_ipoib = { file_read, file_write };

static int mtu_ioctl(const char *dev, unsigned long req, int *mtu)
{
	struct ifreq ifr = { .ifr_mtu = *mtu };
	int ret = ig_if_ioctl(dev, req, &ifr);

	*mtu = ifr.ifr_mtu;
	return ret;
}

static int mtu_read(const char *root, const struct ig_tune_change *c, char *val,
		    size_t len)
{
	int mtu = 0, ret = mtu_ioctl(c->dev, SIOCGIFMTU, &mtu);

	if (ret)
		return ret == -ENODEV ? -ENOENT : ret;
	snprintf(val, len, "%d", mtu);
	return 0;
}

static int mtu_write(const char *root, const struct ig_tune_change *c,
		     const char *val, char *err, size_t len)
{
	uint32_t u;
	int mtu, ret;

	if (ig_tune_u32(val, &u) || u > 65535)
		return ig_fail(-EINVAL, err, len,
			       "tune: MTU \"%.32s\" of %s: 68 to 65535 allowed",
			       val, c->dev);
	mtu = (int)u;
	ret = mtu_ioctl(c->dev, SIOCSIFMTU, &mtu);
	if (ret)
		return ig_fail(ret, err, len, "tune: setting MTU %s on %s: %s",
			       val, c->dev, strerror(-ret));
	return 0;
}

const struct ig_knob_ops ig_knob_mtu = { mtu_read, mtu_write };
