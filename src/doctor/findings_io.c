// SPDX-License-Identifier: MIT
/* Doctor report <-> JSON (the FINDINGS message, --format json); the text
 * form is findings_text.c's. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "doctor_int.h"

static void add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

json_object *ig_dr_finding_to_json(const struct ig_dr_finding *f)
{
	json_object *o = json_object_new_object(), *ev;

	if (!o)
		return NULL;
	add_str(o, "severity", ig_dr_sev_name(f->sev));
	add_str(o, "id", f->id);
	add_str(o, "what", f->what);
	ev = json_object_new_array();
	for (unsigned int i = 0; ev && i < f->nev; i++) {
		json_object *e = json_object_new_object();

		add_str(e, "source", f->ev[i].source);
		add_str(e, "value", f->ev[i].value);
		json_object_array_add(ev, e);
	}
	json_object_object_add(o, "evidence", ev);
	add_str(o, "fix", f->fix);
	json_object_object_add(o, "trial", ig_dr_trial_to_json(&f->trial));
	return o;
}

static json_object *path_to_json(const struct ig_dr_path *p)
{
	json_object *o = json_object_new_object(), *rd = NULL;

	add_str(o, "address", p->addr);
	add_str(o, "route_type", p->route_type);
	add_str(o, "route_dev", p->route_dev);
	add_str(o, "source", p->src);
	add_str(o, "netdev", p->netdev);
	add_str(o, "kind", p->kind);
	if (p->rdma_dev[0]) {
		rd = json_object_new_object();
		add_str(rd, "device", p->rdma_dev);
		json_object_object_add(rd, "port",
				       json_object_new_int(p->port));
		add_str(rd, "link_layer", p->link_layer);
		json_object_object_add(rd, "rate_gbps",
				       json_object_new_double(p->rate_gbps));
	}
	json_object_object_add(o, "rdma", rd);
	return o;
}

/* The two lists of {key0, key1} strings: read errors and layers not
 * examined, each an array of a struct of two char arrays. */
struct pair_list {
	const char *name, *key[2];
	size_t sz, off[2], len[2];
};

static const struct pair_list read_errors = {
	"read_errors",
	{ "source", "error" },
	sizeof(struct ig_dr_read_err),
	{ offsetof(struct ig_dr_read_err, source),
	  offsetof(struct ig_dr_read_err, error) },
	{ sizeof(((struct ig_dr_read_err *)0)->source),
	  sizeof(((struct ig_dr_read_err *)0)->error) },
};

static const struct pair_list not_examined = {
	"not_examined",
	{ "layer", "reason" },
	sizeof(struct ig_dr_not_examined),
	{ offsetof(struct ig_dr_not_examined, layer),
	  offsetof(struct ig_dr_not_examined, reason) },
	{ sizeof(((struct ig_dr_not_examined *)0)->layer),
	  sizeof(((struct ig_dr_not_examined *)0)->reason) },
};

static void pairs_to_json(json_object *o, const struct pair_list *l,
			  const void *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		const char *x = (const char *)v + i * l->sz;
		json_object *e = json_object_new_object();

		add_str(e, l->key[0], x + l->off[0]);
		add_str(e, l->key[1], x + l->off[1]);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, l->name, a);
}

/* *v (calloc'ed, the caller frees) from o's member l->name */
static int pairs_from_json(json_object *o, const struct pair_list *l, void **v,
			   size_t *n, size_t *cap)
{
	json_object *a = ig_json_get_array(o, l->name);
	size_t len = a ? json_object_array_length(a) : 0;
	char *x;

	*v = calloc(len ? len : 1, l->sz);
	if (!*v)
		return -ENOMEM;
	*cap = len ? len : 1;
	for (x = *v; *n < len; (*n)++, x += l->sz) {
		json_object *e = json_object_array_get_idx(a, *n);

		if (ig_json_copy_str_opt(e, l->key[0], x + l->off[0],
					 l->len[0]) ||
		    ig_json_copy_str_opt(e, l->key[1], x + l->off[1],
					 l->len[1]))
			return -EINVAL;
	}
	return 0;
}

json_object *ig_dr_report_to_json(const struct ig_dr_report *r)
{
	json_object *o = json_object_new_object();
	json_object *pa = json_object_new_array();
	json_object *fa = json_object_new_array();

	for (size_t i = 0; i < r->npaths; i++)
		json_object_array_add(pa, path_to_json(&r->paths[i]));
	for (size_t i = 0; i < r->n; i++)
		json_object_array_add(fa, ig_dr_finding_to_json(&r->f[i]));
	json_object_object_add(o, "paths", pa);
	json_object_object_add(o, "findings", fa);
	pairs_to_json(o, &read_errors, r->err, r->nerr);
	pairs_to_json(o, &not_examined, r->ne, r->nne);
	if (r->dropped)
		json_object_object_add(
			o, "dropped",
			json_object_new_int64((int64_t)r->dropped));
	return o;
}

static int finding_from_json(json_object *o, struct ig_dr_finding *f)
{
	char sev[16];
	json_object *ev, *t;

	memset(f, 0, sizeof(*f));
	if (ig_json_copy_str_opt(o, "severity", sev, sizeof(sev)) ||
	    ig_json_copy_str_opt(o, "id", f->id, sizeof(f->id)) ||
	    ig_json_copy_str_opt(o, "what", f->what, sizeof(f->what)) ||
	    ig_json_copy_str_opt(o, "fix", f->fix, sizeof(f->fix)) || !f->id[0])
		return -EINVAL;
	if (!strcmp(sev, "crit"))
		f->sev = IG_DR_SEV_CRIT;
	else if (!strcmp(sev, "warn"))
		f->sev = IG_DR_SEV_WARN;
	else if (!strcmp(sev, "info"))
		f->sev = IG_DR_SEV_INFO;
	else
		return -EINVAL;
	if (json_object_object_get_ex(o, "trial", &t) &&
	    ig_dr_trial_from_json(t, &f->trial))
		return -EINVAL;
	if (!json_object_object_get_ex(o, "evidence", &ev) ||
	    !json_object_is_type(ev, json_type_array))
		return 0;
	for (size_t i = 0;
	     i < json_object_array_length(ev) && f->nev < IG_DR_MAX_EV; i++) {
		json_object *e = json_object_array_get_idx(ev, i);
		struct ig_dr_evidence *x = &f->ev[f->nev++];

		if (ig_json_copy_str_opt(e, "source", x->source,
					 sizeof(x->source)) ||
		    ig_json_copy_str_opt(e, "value", x->value,
					 sizeof(x->value)))
			return -EINVAL;
	}
	return 0;
}

static int path_from_json(json_object *o, struct ig_dr_path *p)
{
	json_object *rd, *v;

	memset(p, 0, sizeof(*p));
	if (ig_json_copy_str_opt(o, "address", p->addr, sizeof(p->addr)) ||
	    ig_json_copy_str_opt(o, "route_type", p->route_type,
				 sizeof(p->route_type)) ||
	    ig_json_copy_str_opt(o, "route_dev", p->route_dev,
				 sizeof(p->route_dev)) ||
	    ig_json_copy_str_opt(o, "source", p->src, sizeof(p->src)) ||
	    ig_json_copy_str_opt(o, "netdev", p->netdev, sizeof(p->netdev)) ||
	    ig_json_copy_str_opt(o, "kind", p->kind, sizeof(p->kind)))
		return -EINVAL;
	if (!json_object_object_get_ex(o, "rdma", &rd) || !rd)
		return 0;
	if (ig_json_copy_str_opt(rd, "device", p->rdma_dev,
				 sizeof(p->rdma_dev)) ||
	    ig_json_copy_str_opt(rd, "link_layer", p->link_layer,
				 sizeof(p->link_layer)))
		return -EINVAL;
	if (json_object_object_get_ex(rd, "port", &v))
		p->port = json_object_get_int(v);
	if (json_object_object_get_ex(rd, "rate_gbps", &v))
		p->rate_gbps = json_object_get_double(v);
	return 0;
}

int ig_dr_report_from_json(json_object *o, struct ig_dr_report *r)
{
	json_object *pa = ig_json_get_array(o, "paths"),
		    *fa = ig_json_get_array(o, "findings");
	size_t n = fa ? json_object_array_length(fa) : 0;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!fa || !pa)
		return -EINVAL;
	for (size_t i = 0;
	     i < json_object_array_length(pa) && r->npaths < IG_DR_MAX_PATHS;
	     i++)
		if (path_from_json(json_object_array_get_idx(pa, i),
				   &r->paths[r->npaths++]))
			return -EINVAL;
	r->f = calloc(n ? n : 1, sizeof(*r->f));
	if (!r->f)
		return -ENOMEM;
	r->cap = n ? n : 1;
	for (size_t i = 0; i < n; i++)
		if (finding_from_json(json_object_array_get_idx(fa, i),
				      &r->f[r->n++]))
			return -EINVAL;
	ret = pairs_from_json(o, &read_errors, (void **)&r->err, &r->nerr,
			      &r->errcap);
	if (!ret)
		ret = pairs_from_json(o, &not_examined, (void **)&r->ne,
				      &r->nne, &r->necap);
	if (ret)
		return ret;
	ig_dr_sort(r);
	return 0;
}
