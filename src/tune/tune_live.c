// SPDX-License-Identifier: MIT
/* Knobs read, changed and put back on the live system (tune.h). */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/fail.h"
#include "tune_int.h"

static const struct ig_knob_ops *ops_of(enum ig_tune_kind k)
{
	static const struct ig_knob_ops *const ops[IG_TUNE_KIND_MAX] = {
		[IG_TUNE_SYSCTL] = &ig_knob_sysctl,
		[IG_TUNE_FEATURE] = &ig_knob_feature,
		[IG_TUNE_RING] = &ig_knob_ring,
		[IG_TUNE_COALESCE] = &ig_knob_coalesce,
		[IG_TUNE_CHANNELS] = &ig_knob_channels,
		[IG_TUNE_RPS] = &ig_knob_rps,
		[IG_TUNE_XPS] = &ig_knob_rps,
		[IG_TUNE_IRQ] = &ig_knob_irq,
		[IG_TUNE_GOVERNOR] = &ig_knob_governor,
		[IG_TUNE_MTU] = &ig_knob_mtu,
		[IG_TUNE_IPOIB_MODE] = &ig_knob_ipoib,
		[IG_TUNE_QDISC] = &ig_knob_qdisc,
	};

	return (unsigned)k < IG_TUNE_KIND_MAX ? ops[k] : NULL;
}

int ig_tune_read(const char *root, const struct ig_tune_change *c, char *val,
		 size_t len)
{
	const struct ig_knob_ops *o = ops_of(c->kind);

	return o ? o->read(root, c, val, len) : -EINVAL;
}

/* "sysctl net.core.busy_poll" for the error lines. */
static void what(const struct ig_tune_change *c, char *buf, size_t len)
{
	const char *kn = ig_tune_kind_name(c->kind);

	snprintf(buf, len, "%s %s%s%s", kn ? kn : "?", c->dev,
		 *c->dev ? " " : "", c->name);
}

/* A write of this kind is several steps (a feature's strings, every
 * cpu's governor, a qdisc deleted then added): a failed one may have made
 * some. */
static bool partial(enum ig_tune_kind k)
{
	return k == IG_TUNE_FEATURE || k == IG_TUNE_GOVERNOR ||
	       k == IG_TUNE_QDISC;
}

int ig_tune_apply(const char *root, struct ig_tune_change *c, char *err,
		  size_t len)
{
	const struct ig_knob_ops *o = ops_of(c->kind);
	char w[128], old[IG_TUNE_VAL_LEN], e2[256];
	int ret;

	c->from[0] = 0;
	ret = ig_tune_check(c, err, len);
	if (ret)
		return ret;
	what(c, w, sizeof(w));
	ret = o->read(root, c, old, sizeof(old));
	if (ret)
		return ig_fail(ret, err, len,
			       "tune: reading %s before changing it: %s", w,
			       strerror(-ret));
	snprintf(c->from, sizeof(c->from), "%s", old);
	if (ig_tune_check(c, e2, sizeof(e2))) {
		c->from[0] = 0;
		return ig_fail(
			-EINVAL, err, len,
			"tune: %s reads \"%.80s\", which could not be put back: not changed",
			w, old);
	}
	c->from[0] = 0;
	ret = o->write(root, c, c->to, err, len);
	if (ret && partial(c->kind)) {
		if (o->write(root, c, old, e2, sizeof(e2)))
			fprintf(stderr,
				"ibgap: %s; putting %s back failed: %s\n", err,
				w, e2);
	}
	if (ret)
		return ret;
	snprintf(c->from, sizeof(c->from), "%s", old);
	return 0;
}

int ig_tune_revert(const char *root, const struct ig_tune_change *c, char *err,
		   size_t len)
{
	const struct ig_knob_ops *o = ops_of(c->kind);
	char w[128];
	int ret = ig_tune_check(c, err, len);

	if (ret)
		return ret;
	what(c, w, sizeof(w));
	if (!*c->from && c->kind != IG_TUNE_QDISC)
		return ig_fail(
			-EINVAL, err, len,
			"tune: %s has no old value to put back (never applied)",
			w);
	return o->write(root, c, c->from, err, len);
}

/* The capability is in this process's effective set. */
static bool has_cap(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

int ig_tune_allowed(const struct ig_tune_change *c)
{
	bool sys = c->kind == IG_TUNE_GOVERNOR || c->kind == IG_TUNE_IRQ;

	if (!geteuid())
		return 0;
	return has_cap(sys ? CAP_SYS_ADMIN : CAP_NET_ADMIN) ? 0 : -EPERM;
}
