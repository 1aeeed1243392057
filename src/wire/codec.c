// SPDX-License-Identifier: MIT
/*
 * The JSON form of the host facts that travel on the control channel and
 * stand in reports: CPU usage, host identity, the RDMA device of a test.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "common/json.h"
#include "common/params.h"

json_object *ig_cpu_usage_to_json(const struct ig_cpu_usage *u)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add_double(o, "user_pct", u->user_pct) ||
	    ig_json_add_double(o, "sys_pct", u->sys_pct) ||
	    ig_json_add_double(o, "irq_pct", u->irq_pct) ||
	    ig_json_add_double(o, "softirq_pct", u->softirq_pct) ||
	    ig_json_add_double(o, "total_pct", u->total_pct) ||
	    ig_json_add_double(o, "proc_user_s", u->proc_user_s) ||
	    ig_json_add_double(o, "proc_sys_s", u->proc_sys_s) ||
	    ig_json_add_double(o, "seconds", u->seconds) ||
	    ig_json_add_int(o, "ncpus", u->ncpus) ||
	    (u->us_per_kib >= 0 &&
	     ig_json_add_double(o, "us_per_kib", u->us_per_kib))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int ig_cpu_usage_from_json(json_object *o, struct ig_cpu_usage *u)
{
	struct ig_cpu_usage t = { .us_per_kib = -1.0 };

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	if (ig_json_get_double(o, "user_pct", &t.user_pct) ||
	    ig_json_get_double(o, "sys_pct", &t.sys_pct) ||
	    ig_json_get_double(o, "irq_pct", &t.irq_pct) ||
	    ig_json_get_double(o, "softirq_pct", &t.softirq_pct) ||
	    ig_json_get_double(o, "total_pct", &t.total_pct) ||
	    ig_json_get_double(o, "proc_user_s", &t.proc_user_s) ||
	    ig_json_get_double(o, "proc_sys_s", &t.proc_sys_s) ||
	    ig_json_get_double(o, "seconds", &t.seconds) ||
	    ig_json_get_int(o, "ncpus", &t.ncpus))
		return -EINVAL;
	/* us_per_kib is optional: absent means "no payload moved". */
	if (json_object_object_get_ex(o, "us_per_kib", NULL) &&
	    (ig_json_get_double(o, "us_per_kib", &t.us_per_kib) ||
	     t.us_per_kib < 0))
		return -EINVAL;
	*u = t;
	return 0;
}

json_object *ig_sysinfo_to_json(const struct ig_sysinfo *si)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add_str(o, "hostname", si->hostname) ||
	    ig_json_add_str(o, "kernel", si->kernel) ||
	    ig_json_add_str(o, "version", si->version)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int ig_sysinfo_from_json(json_object *o, struct ig_sysinfo *si)
{
	struct ig_sysinfo t;

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	if (ig_json_copy_str(o, "hostname", t.hostname, sizeof(t.hostname)) ||
	    ig_json_copy_str(o, "kernel", t.kernel, sizeof(t.kernel)) ||
	    ig_json_copy_str(o, "version", t.version, sizeof(t.version)))
		return -EINVAL;
	/* the peer's words end up in reports and logs: printable only */
	ig_str_safe(t.hostname, si->hostname, sizeof(si->hostname), SIZE_MAX);
	ig_str_safe(t.kernel, si->kernel, sizeof(si->kernel), SIZE_MAX);
	ig_str_safe(t.version, si->version, sizeof(si->version), SIZE_MAX);
	return 0;
}

json_object *ig_xinfo_to_json(const struct ig_xinfo *x)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "device", json_object_new_string(x->device));
	json_object_object_add(o, "port", json_object_new_int(x->port));
	json_object_object_add(o, "link_layer",
			       json_object_new_string(x->link_layer));
	json_object_object_add(o, "mtu", json_object_new_int(x->mtu));
	json_object_object_add(o, "gid", json_object_new_string(x->gid));
	json_object_object_add(o, "gid_index",
			       json_object_new_int(x->gid_index));
	json_object_object_add(o, "rate_gbps",
			       json_object_new_double(x->rate_gbps));
	json_object_object_add(o, "numa_node",
			       json_object_new_int(x->numa_node));
	json_object_object_add(o, "cpu", json_object_new_int(x->cpu));
	return o;
}

int ig_xinfo_from_json(json_object *o, struct ig_xinfo *x)
{
	struct ig_xinfo t = { .valid = true };

	if (ig_json_copy_str(o, "device", t.device, sizeof(t.device)) ||
	    ig_json_get_int(o, "port", &t.port) ||
	    ig_json_copy_str(o, "link_layer", t.link_layer,
			     sizeof(t.link_layer)) ||
	    ig_json_get_int(o, "mtu", &t.mtu) ||
	    ig_json_copy_str(o, "gid", t.gid, sizeof(t.gid)) ||
	    ig_json_get_int(o, "gid_index", &t.gid_index) ||
	    ig_json_get_int(o, "numa_node", &t.numa_node) ||
	    ig_json_get_int(o, "cpu", &t.cpu) ||
	    ig_json_get_double(o, "rate_gbps", &t.rate_gbps))
		return -EINVAL;
	*x = t;
	return 0;
}

/* The members of a tcp_info object; every one fits in 32 bits. */
static const struct {
	const char *key;
	size_t off;
	bool wide; /* a uint64_t member, else uint32_t */
} tcpinfo_keys[] = {
	{ "retrans", offsetof(struct ig_tcpinfo, retrans), true },
	{ "retrans_total", offsetof(struct ig_tcpinfo, retrans_total), true },
	{ "rtt_us", offsetof(struct ig_tcpinfo, rtt_us), false },
	{ "rttvar_us", offsetof(struct ig_tcpinfo, rttvar_us), false },
	{ "snd_cwnd", offsetof(struct ig_tcpinfo, snd_cwnd), false },
	{ "snd_mss", offsetof(struct ig_tcpinfo, snd_mss), false },
	{ "pmtu", offsetof(struct ig_tcpinfo, pmtu), false },
	{ "reordering", offsetof(struct ig_tcpinfo, reordering), false },
};

#define NTCPINFO (sizeof(tcpinfo_keys) / sizeof(tcpinfo_keys[0]))

static uint64_t tcpinfo_get(const struct ig_tcpinfo *ti, size_t i)
{
	const char *p = (const char *)ti + tcpinfo_keys[i].off;

	if (tcpinfo_keys[i].wide)
		return *(const uint64_t *)(const void *)p;
	return *(const uint32_t *)(const void *)p;
}

static void tcpinfo_set(struct ig_tcpinfo *ti, size_t i, uint64_t v)
{
	char *p = (char *)ti + tcpinfo_keys[i].off;

	if (tcpinfo_keys[i].wide)
		*(uint64_t *)(void *)p = v;
	else
		*(uint32_t *)(void *)p = (uint32_t)v;
}

json_object *ig_tcpinfo_to_json(const struct ig_tcpinfo *ti)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < NTCPINFO; i++) {
		if (ig_json_add_u64(o, tcpinfo_keys[i].key,
				    tcpinfo_get(ti, i))) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

int ig_tcpinfo_from_json(json_object *o, struct ig_tcpinfo *ti)
{
	struct ig_tcpinfo t = { .valid = true };
	uint64_t v;

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	for (size_t i = 0; i < NTCPINFO; i++) {
		if (ig_json_get_u64(o, tcpinfo_keys[i].key, &v) ||
		    v > UINT32_MAX)
			return -EINVAL;
		tcpinfo_set(&t, i, v);
	}
	*ti = t;
	return 0;
}

json_object *ig_tcpinfo_array_to_json(const struct ig_tcpinfo *ti,
				      unsigned int n)
{
	json_object *a = json_object_new_array();

	for (unsigned int i = 0; a && i < n; i++) {
		json_object *e = ig_tcpinfo_to_json(&ti[i]);

		if (!e || json_object_array_add(a, e) < 0) {
			json_object_put(e);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

int ig_tcpinfo_array_from_json(json_object *a, struct ig_tcpinfo *ti,
			       unsigned int n)
{
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != n)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (ig_tcpinfo_from_json(json_object_array_get_idx(a, i),
					 &ti[i]))
			return -EINVAL;
	return 0;
}
