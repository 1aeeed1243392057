// SPDX-License-Identifier: MIT
/*
 * The JSON form of the host facts that travel on the control channel and
 * stand in reports: CPU usage, host identity, and a transport's named
 * counters and facts, which it carries without reading them.
 */
#include <errno.h>
#include <stdbool.h>
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

/* c's values of group in stream k as an object; NULL when out of memory */
static json_object *stream_to_json(const struct ig_ctrs *c, unsigned int k,
				   const char *group)
{
	json_object *o = json_object_new_object();

	for (unsigned int i = 0; o && i < c->n; i++) {
		if (strcmp(c->def[i].group, group) ||
		    !(c->st[k].have & (1u << i)))
			continue;
		if (ig_json_add_u64(o, c->def[i].name, c->st[k].v[i])) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

json_object *ig_ctrs_group_to_json(const struct ig_ctrs *c, const char *group)
{
	json_object *a = json_object_new_array();

	for (unsigned int k = 0; a && k < c->nstreams; k++) {
		json_object *e = stream_to_json(c, k, group);

		if (!e || json_object_array_add(a, e) < 0) {
			json_object_put(e);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* True when def[i] is the first of its group in the table. */
static bool first_of_group(const struct ig_ctrs *c, unsigned int i)
{
	for (unsigned int j = 0; j < i; j++)
		if (!strcmp(c->def[j].group, c->def[i].group))
			return false;
	return true;
}

int ig_ctrs_to_json(json_object *o, const struct ig_ctrs *c)
{
	for (unsigned int i = 0; i < c->n; i++) {
		const char *g = c->def[i].group;

		if (!first_of_group(c, i) || !ig_ctrs_has_group(c, g))
			continue;
		if (ig_json_add(o, g, ig_ctrs_group_to_json(c, g)))
			return -ENOMEM;
	}
	return 0;
}

/* def[i]'s value of stream k from its group's array a (absent: not read) */
static void value_from_json(struct ig_ctrs *c, json_object *a, unsigned int k,
			    unsigned int i)
{
	json_object *e = json_object_array_get_idx(a, k);
	unsigned int b = c->def[i].bits;
	uint64_t v;

	if (!json_object_is_type(e, json_type_object) ||
	    ig_json_get_u64(e, c->def[i].name, &v) || (b && b < 64 && v >> b))
		return;
	c->st[k].v[i] = v;
	c->st[k].have |= 1u << i;
}

void ig_ctrs_from_json(json_object *o, struct ig_ctrs *c)
{
	for (unsigned int k = 0; k < c->nstreams; k++)
		c->st[k].have = 0;
	for (unsigned int i = 0; i < c->n; i++) {
		json_object *a = ig_json_get_array(o, c->def[i].group);

		if (!a || json_object_array_length(a) != c->nstreams)
			continue;
		for (unsigned int k = 0; k < c->nstreams; k++)
			value_from_json(c, a, k, i);
	}
}

static json_object *fact_to_json(const struct ig_fact *f)
{
	switch (f->kind) {
	case IG_FACT_STR:
		return json_object_new_string(f->str);
	case IG_FACT_INT:
		return json_object_new_int64((int64_t)f->num);
	default:
		return json_object_new_double(f->num);
	}
}

json_object *ig_facts_to_json(const struct ig_facts *fs)
{
	json_object *o = json_object_new_object();

	for (unsigned int i = 0; o && i < fs->n; i++) {
		if (ig_json_add(o, fs->f[i].name, fact_to_json(&fs->f[i]))) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* One member of the peer's facts; other types are left out. */
static void fact_from_json(struct ig_facts *fs, const char *key, json_object *v)
{
	char safe[64];

	switch (json_object_get_type(v)) {
	case json_type_string:
		ig_facts_set_str(fs, key,
				 ig_str_safe(json_object_get_string(v), safe,
					     sizeof(safe), sizeof(safe) - 1));
		break;
	case json_type_int:
		ig_facts_set_int(fs, key, json_object_get_int64(v));
		break;
	case json_type_double:
		ig_facts_set_real(fs, key, json_object_get_double(v));
		break;
	default:
		break;
	}
}

int ig_facts_from_json(json_object *o, struct ig_facts *fs)
{
	struct ig_facts t = { 0 };
	char safe[32];

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	json_object_object_foreach (o, key, v)
		fact_from_json(&t, ig_str_safe(key, safe, sizeof(safe), 23), v);
	*fs = t;
	return 0;
}
