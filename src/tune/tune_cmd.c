// SPDX-License-Identifier: MIT
/* A change as the command a person would type, and as JSON (tune.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/fail.h"
#include "common/json.h"
#include "tune_int.h"

/* The cpupower line(s) for a governor value: one governor, or the
 * "cpu0=x cpu1=y" of "all" whose cpus differed. */
static void governor_cmd(const char *name, const char *v, char *buf, size_t len)
{
	char tmp[IG_TUNE_VAL_LEN], *save = NULL, *t;
	size_t n = 0;

	if (!strchr(v, '=')) {
		if (!strcmp(name, "all"))
			snprintf(buf, len, "cpupower frequency-set -g %s", v);
		else
			snprintf(buf, len, "cpupower -c %s frequency-set -g %s",
				 name + 3, v);
		return;
	}
	buf[0] = 0;
	snprintf(tmp, sizeof(tmp), "%s", v);
	for (t = strtok_r(tmp, " ", &save); t && n < len;
	     t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');

		if (!eq)
			continue;
		*eq = 0;
		n += (size_t)snprintf(buf + n, len - n,
				      "%scpupower -c %s frequency-set -g %s",
				      n ? "; " : "", t + 3, eq + 1);
	}
}

/* "ethtool -K dev gro on", or the kernel's strings one by one for a
 * feature whose strings differed ("tx-tcp-segmentation=on ..."). */
static void feature_cmd(const struct ig_tune_change *c, const char *v,
			char *buf, size_t len)
{
	char tmp[IG_TUNE_VAL_LEN], *p;

	if (!strchr(v, '=')) {
		snprintf(buf, len, "ethtool -K %s %s %s", c->dev, c->name, v);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s", v);
	for (p = tmp; (p = strchr(p, '='));)
		*p = ' ';
	snprintf(buf, len, "ethtool -K %s %s", c->dev, tmp);
}

static void qdisc_cmd(const struct ig_tune_change *c, const char *v, char *buf,
		      size_t len)
{
	struct ig_qdisc_saved q;

	if (!*v)
		snprintf(buf, len, "tc qdisc del dev %s %s", c->dev, c->name);
	else if (ig_qdisc_parse(v, &q))
		snprintf(buf, len,
			 "tc qdisc replace dev %s %s (not a saved qdisc: %s)",
			 c->dev, c->name, v);
	else
		ig_qdisc_cmd(&q, c->dev, buf, len);
}

static void sysctl_cmd(const struct ig_tune_change *c, const char *v, char *buf,
		       size_t len)
{
	snprintf(buf, len,
		 strchr(v, ' ') ? "sysctl -w %s='%s'" : "sysctl -w %s=%s",
		 c->name, v);
}

void ig_tune_cmd(const struct ig_tune_change *c, bool revert, char *buf,
		 size_t len)
{
	static const char *const eth_opt[IG_TUNE_KIND_MAX] = {
		[IG_TUNE_RING] = "-G",
		[IG_TUNE_COALESCE] = "-C",
		[IG_TUNE_CHANNELS] = "-L",
	};
	const char *v = revert ? c->from : c->to;

	switch (c->kind) {
	case IG_TUNE_SYSCTL:
		return sysctl_cmd(c, v, buf, len);
	case IG_TUNE_FEATURE:
		return feature_cmd(c, v, buf, len);
	case IG_TUNE_RING:
	case IG_TUNE_COALESCE:
	case IG_TUNE_CHANNELS:
		snprintf(buf, len, "ethtool %s %s %s %s", eth_opt[c->kind],
			 c->dev, c->name, v);
		return;
	case IG_TUNE_RPS:
	case IG_TUNE_XPS:
		snprintf(buf, len, "echo %s > /sys/class/net/%s/queues/%s/%s",
			 v, c->dev, c->name,
			 c->kind == IG_TUNE_RPS ? "rps_cpus" : "xps_cpus");
		return;
	case IG_TUNE_IRQ:
		snprintf(buf, len, "echo %s > /proc/irq/%s/smp_affinity_list",
			 v, c->name);
		return;
	case IG_TUNE_GOVERNOR:
		return governor_cmd(c->name, v, buf, len);
	case IG_TUNE_MTU:
		snprintf(buf, len, "ip link set dev %s mtu %s", c->dev, v);
		return;
	case IG_TUNE_IPOIB_MODE:
		snprintf(buf, len, "echo %s > /sys/class/net/%s/mode", v,
			 c->dev);
		return;
	case IG_TUNE_QDISC:
		return qdisc_cmd(c, v, buf, len);
	default:
		snprintf(buf, len, "(unknown change kind %d)", (int)c->kind);
	}
}

json_object *ig_tune_to_json(const struct ig_tune_change *c)
{
	json_object *o = json_object_new_object();
	char cmd[IG_TUNE_CMD_LEN];
	const char *kn = ig_tune_kind_name(c->kind);
	int ret;

	if (!o)
		return NULL;
	ig_tune_cmd(c, false, cmd, sizeof(cmd));
	ret = ig_json_add_str(o, "kind", kn ? kn : "?") ||
	      ig_json_add_str(o, "dev", c->dev) ||
	      ig_json_add_str(o, "name", c->name) ||
	      ig_json_add_str(o, "to", c->to) || ig_json_add_str(o, "cmd", cmd);
	if (!ret && *c->from) {
		ig_tune_cmd(c, true, cmd, sizeof(cmd));
		ret = ig_json_add_str(o, "from", c->from) ||
		      ig_json_add_str(o, "revert", cmd);
	}
	if (ret) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* o's string key into buf: -EINVAL when absent (unless opt: ""), not a
 * string, or too long for buf. */
static int copy(json_object *o, const char *key, char *buf, size_t len,
		bool opt)
{
	const char *s;
	json_object *v;

	buf[0] = 0;
	if (opt && (!json_object_object_get_ex(o, key, &v) || !v))
		return 0;
	if (ig_json_get_str(o, key, &s) || strlen(s) >= len)
		return -EINVAL;
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

int ig_tune_from_json(json_object *o, struct ig_tune_change *c, char *err,
		      size_t len)
{
	const char *kind = NULL;

	memset(c, 0, sizeof(*c));
	if (!json_object_is_type(o, json_type_object) ||
	    ig_json_get_str(o, "kind", &kind))
		return ig_fail(
			-EINVAL, err, len,
			"tune: a change must be a JSON object with a string \"kind\"");
	if (ig_tune_kind_parse(kind, &c->kind))
		return ig_fail(
			-EINVAL, err, len,
			"tune: change kind \"%.32s\" is unknown; allowed: sysctl, feature, ring, coalesce, channels, rps, xps, irq, governor, mtu, ipoib_mode, qdisc",
			kind);
	if (copy(o, "dev", c->dev, sizeof(c->dev), true) ||
	    copy(o, "name", c->name, sizeof(c->name), true) ||
	    copy(o, "to", c->to, sizeof(c->to), false) ||
	    copy(o, "from", c->from, sizeof(c->from), true))
		return ig_fail(
			-EINVAL, err, len,
			"tune: %s change: \"to\" must be a string, \"dev\", \"name\", \"from\" strings or absent, each shorter than %d, %d, %d",
			kind, IG_TUNE_DEV_LEN, IG_TUNE_NAME_LEN,
			IG_TUNE_VAL_LEN);
	return ig_tune_check(c, err, len);
}
