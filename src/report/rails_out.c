// SPDX-License-Identifier: MIT
/* The rails' report: text blocks and the JSON "rails" array. */
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "compare.h"
#include "rails.h"
#include "report_int.h"
#include "wire/railmsg.h"

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

/* One figure of r: "0.95 Gb/s" or "p50 31.2 us". */
static void figure(const struct ig_result *r, char *buf, size_t len)
{
	struct ig_rep_lat lv;

	if (r->failed) {
		snprintf(buf, len, "failed");
		return;
	}
	if (!r->has_lat) {
		snprintf(buf, len, "%.2f Gb/s", r->bw_gbps);
		return;
	}
	ig_rep_lat_view(r, &lv);
	if (lv.has[LAT_P50])
		snprintf(buf, len, "p50 %.1f us", lv.us[LAT_P50]);
	else
		snprintf(buf, len, "-");
}

/* Which side of a rail without an address has none. */
static const char *no_addr_side(const struct ig_rail_run *r)
{
	if (!r->local.addr[0])
		return r->by != IG_RAIL_NONE && !r->remote.addr[0] ? "both"
								   : "client";
	return "server";
}

/* The first of r's results that connected without rdma_cm, or NULL. */
static const struct ig_result *oob_result(const struct ig_rail_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(ig_facts_str(&r->res[i].facts, "connect"),
			    "out-of-band"))
			return &r->res[i];
	return NULL;
}

/* A rail without an address: how its verbs connected, with which GID. */
static void text_no_addr(FILE *f, const struct ig_rail_run *r)
{
	const struct ig_result *o = oob_result(r);
	const char *side = no_addr_side(r);
	char where[96];

	if (!strcmp(side, "both"))
		snprintf(where, sizeof(where), "%s nor the server's %s",
			 or_dash(r->local.netdev), or_dash(r->remote.netdev));
	else if (!strcmp(side, "client"))
		snprintf(where, sizeof(where), "%s", or_dash(r->local.netdev));
	else
		snprintf(where, sizeof(where), "the server's %s",
			 or_dash(r->remote.netdev));
	fprintf(f, "  no IPv4 address on %s: verbs without rdma_cm", where);
	if (o)
		fprintf(f,
			", GID %s (index %lld), endpoints over the control "
			"connection",
			ig_facts_str(&o->facts, "gid"),
			ig_facts_int(&o->facts, "gid_index", -1));
	fputc('\n', f);
}

static void text_head(FILE *f, const struct ig_rail_run *r)
{
	const struct ig_rail *l = &r->local, *s = &r->remote;

	fprintf(f, "\nrail %s port %d: %s", l->device, l->port,
		or_dash(l->netdev));
	if (l->addr[0])
		fprintf(f, " %s/%d", l->addr, l->prefix);
	fprintf(f, ", NUMA node %d, %s, MTU %s%s%s, fw %s\n", l->numa_node,
		or_dash(l->fp.link_rate), or_dash(l->fp.mtu),
		l->fp.ipoib_mode[0] ? ", IPoIB " : "", l->fp.ipoib_mode,
		or_dash(l->fp.fw_ver));
	if (r->by == IG_RAIL_NONE)
		fprintf(f, "  server: none (the server has fewer rails)\n");
	else
		fprintf(f, "  server: %s port %d: %s %s (paired by %s)\n",
			s->device, s->port, or_dash(s->netdev),
			or_dash(s->addr), ig_rail_by_name(r->by));
	if (r->cpu >= 0)
		fprintf(f, "  threads: on CPU %d (--cpu or --rails-cpu)\n",
			r->cpu);
	else if (l->local_cpulist[0])
		fprintf(f,
			"  threads: verbs and TCP on the HCA's local CPUs %s "
			"(NUMA node %d)\n",
			l->local_cpulist, l->numa_node);
	else
		fprintf(f, "  threads: not pinned (the HCA names no local "
			   "CPUs)\n");
	if (ig_rail_no_addr(r))
		text_no_addr(f, r);
}

/* Each pair: its row, verbs, TCP, TCP/verbs. */
static void text_pairs(FILE *f, const struct ig_compare *c)
{
	char row[128], v[32], t[32];

	for (size_t i = 0; i < c->npairs; i++) {
		const struct ig_pair *p = &c->pairs[i];

		figure(p->r[IG_V], v, sizeof(v));
		figure(p->r[IG_T], t, sizeof(t));
		fprintf(f, "  %-26s %-8s %-14s %-8s %-14s",
			ig_rep_row(p->r[IG_V], row, sizeof(row)),
			ig_rep_transport(p->r[IG_V]), v,
			ig_rep_transport(p->r[IG_T]), t);
		if (!p->lat && p->bw_ratio > 0)
			fprintf(f, " tcp/verbs %.2f", p->bw_ratio);
		fputc('\n', f);
	}
}

/* The results in no pair (a rail without an address: verbs alone). */
static void text_alone(FILE *f, const struct ig_rail_run *r,
		       const struct ig_compare *c)
{
	char row[128], v[32];

	for (size_t i = 0; i < r->n; i++) {
		bool paired = false;

		for (size_t k = 0; k < c->npairs && !paired; k++)
			paired = c->pairs[k].r[IG_V] == &r->res[i] ||
				 c->pairs[k].r[IG_T] == &r->res[i];
		if (paired)
			continue;
		figure(&r->res[i], v, sizeof(v));
		fprintf(f, "  %-26s %-8s %-14s %s\n",
			ig_rep_row(&r->res[i], row, sizeof(row)),
			ig_rep_transport(&r->res[i]), v,
			ig_rail_no_addr(r) ? "tcp: no IPoIB address" : "");
	}
}

static void text_rail(FILE *f, const struct ig_rail_run *r)
{
	struct ig_compare c;

	text_head(f, r);
	if (r->error[0])
		fprintf(f, "  failed: %s\n", r->error);
	if (ig_compare_build(r->res, r->n, &c)) {
		fprintf(f, "  (out of memory pairing the results)\n");
		return;
	}
	text_pairs(f, &c);
	text_alone(f, r, &c);
	ig_compare_free(&c);
}

static void text_odd(FILE *f, const struct ig_rails_report *rep)
{
	size_t odd = 0;

	fprintf(f,
		"\nodd rails (below %.0f%% of the median rail, or a "
		"fingerprint that differs):\n",
		100 * IG_RAIL_LOW);
	for (size_t i = 0; i < rep->n; i++) {
		const struct ig_rail_run *r = &rep->r[i];

		if (!r->flags)
			continue;
		odd++;
		fprintf(f, "  %s: %s%s\n", r->local.device,
			ig_rail_tcp_low_alone(r) ? "TCP low alone: " : "",
			r->why);
		for (size_t k = 0; k < r->nf; k++)
			fprintf(f, "    doctor: [%s] %s: %s\n",
				ig_dr_sev_name(r->f[k].sev), r->f[k].id,
				r->f[k].what);
		if (r->nshared)
			fprintf(f,
				"    doctor: %zu more finding(s) that a rail "
				"not flagged has too, left out\n",
				r->nshared);
	}
	if (!odd)
		fprintf(f, "  none\n");
}

static void text_sum(FILE *f, const char *name, const struct ig_rails_sum *s)
{
	fprintf(f, "  %-6s each alone %.2f Gb/s, together %.2f Gb/s", name,
		s->each, s->together);
	if (s->each > 0)
		fprintf(f, ", together / each alone %.2f",
			s->together / s->each);
	fputc('\n', f);
}

static void text_together(FILE *f, const struct ig_rails_report *rep)
{
	fprintf(f, "\ntogether (every rail at once, best bandwidth):\n");
	for (size_t i = 0; i < rep->n; i++) {
		fprintf(f, "  %-10s verbs %.2f Gb/s, ", rep->r[i].local.device,
			rep->verbs_together[i]);
		if (ig_rail_no_addr(&rep->r[i]))
			fprintf(f, "tcp: no IPoIB address\n");
		else
			fprintf(f, "tcp %.2f Gb/s\n", rep->tcp_together[i]);
	}
	text_sum(f, "verbs", &rep->verbs);
	text_sum(f, "tcp", &rep->tcp);
}

void ig_rails_text(FILE *f, const struct ig_rails_report *rep)
{
	fprintf(f, "rails: %zu, each in turn%s\n", rep->n,
		rep->together ? ", then all at once" : "");
	for (size_t i = 0; i < rep->n; i++)
		text_rail(f, &rep->r[i]);
	text_odd(f, rep);
	if (rep->together)
		text_together(f, rep);
}

static json_object *flags_json(const struct ig_rail_run *r)
{
	json_object *a = json_object_new_array();

	if (a && (r->flags & IG_RAILF_VERBS_LOW))
		json_object_array_add(a, json_object_new_string("verbs_low"));
	if (a && (r->flags & IG_RAILF_TCP_LOW))
		json_object_array_add(a, json_object_new_string("tcp_low"));
	if (a && (r->flags & IG_RAILF_FP))
		json_object_array_add(a, json_object_new_string("fingerprint"));
	if (a && ig_rail_tcp_low_alone(r))
		json_object_array_add(a,
				      json_object_new_string("tcp_low_alone"));
	return a;
}

static json_object *findings_json(const struct ig_rail_run *r)
{
	json_object *a = json_object_new_array();

	for (size_t k = 0; a && k < r->nf; k++)
		json_object_array_add(a, ig_dr_finding_to_json(&r->f[k]));
	return a;
}

/* A rail without an address: {no_address, verbs_connect, gid,
 * gid_index} (the last two once a verbs test connected). */
static int no_addr_json(json_object *o, const struct ig_rail_run *r)
{
	const struct ig_result *x = oob_result(r);

	if (!ig_rail_no_addr(r))
		return 0;
	if (ig_json_add_str(o, "no_address", no_addr_side(r)) ||
	    ig_json_add_str(o, "verbs_connect", "out-of-band"))
		return -1;
	if (!x)
		return 0;
	return ig_json_add_str(o, "gid", ig_facts_str(&x->facts, "gid")) ||
	       ig_json_add_int(o, "gid_index",
			       (int)ig_facts_int(&x->facts, "gid_index", -1));
}

static json_object *rail_json(const struct ig_rails_report *rep, size_t i)
{
	const struct ig_rail_run *r = &rep->r[i];
	json_object *o = ig_rail_to_json(&r->local);

	if (!o ||
	    (r->by != IG_RAIL_NONE &&
	     ig_json_add(o, "server", ig_rail_to_json(&r->remote))) ||
	    ig_json_add_str(o, "paired_by", ig_rail_by_name(r->by)) ||
	    ig_json_add_int(o, "cpu_numa_node", r->cpu_node) ||
	    (r->cpu >= 0 && ig_json_add_int(o, "cpu", r->cpu)) ||
	    ig_json_add_double(o, "verbs_gbps", r->verbs_gbps) ||
	    (ig_rail_no_addr(r)
		     ? ig_json_add_str(o, "tcp", "no IPoIB address")
		     : ig_json_add_double(o, "tcp_gbps", r->tcp_gbps)) ||
	    no_addr_json(o, r) || ig_json_add(o, "flags", flags_json(r)) ||
	    ig_json_add_str(o, "why", r->why) ||
	    (r->nf && ig_json_add(o, "findings", findings_json(r))) ||
	    (r->nshared && ig_json_add_u64(o, "findings_shared", r->nshared)) ||
	    (r->error[0] && ig_json_add_str(o, "error", r->error)) ||
	    (rep->together && (ig_json_add_double(o, "verbs_together_gbps",
						  rep->verbs_together[i]) ||
			       (!ig_rail_no_addr(r) &&
				ig_json_add_double(o, "tcp_together_gbps",
						   rep->tcp_together[i]))))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *ig_rails_json(const struct ig_rails_report *rep)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < rep->n; i++) {
		json_object *o = rail_json(rep, i);

		if (!o || json_object_array_add(a, o)) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

static json_object *sum_json(const struct ig_rails_sum *s)
{
	json_object *o = json_object_new_object();

	if (!o || ig_json_add_double(o, "each_gbps", s->each) ||
	    ig_json_add_double(o, "together_gbps", s->together) ||
	    (s->each > 0 &&
	     ig_json_add_double(o, "ratio", s->together / s->each))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *ig_rails_together_json(const struct ig_rails_report *rep)
{
	json_object *o = json_object_new_object();

	if (!o || ig_json_add(o, "verbs", sum_json(&rep->verbs)) ||
	    ig_json_add(o, "tcp", sum_json(&rep->tcp))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
