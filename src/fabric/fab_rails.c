// SPDX-License-Identifier: MIT
/* --rails in the fabric (docs/fabric.md "Rails"): what a rank announces
 * of its rails, and the report's rails: each measurement's rail pair,
 * each node's rails with their verdicts (ig_fab_judge_rails). */
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "fab.h"
#include "transports/transports.h"

void ig_fab_rails_announce(const struct ig_rails *r, struct ig_fab_info *i)
{
	i->nrails = 0;
	for (size_t j = 0; j < r->n && j < IG_RAILS_MAX; j++) {
		struct ig_fab_rail *d = &i->rails[i->nrails++];

		snprintf(d->device, sizeof(d->device), "%s", r->r[j].device);
		d->port = r->r[j].port;
		snprintf(d->netdev, sizeof(d->netdev), "%s", r->r[j].netdev);
		snprintf(d->addr, sizeof(d->addr), "%s", r->r[j].addr);
		d->prefix = r->r[j].prefix;
	}
}

void ig_fab_rails_of(const struct ig_fab_info *i, struct ig_rails *r)
{
	memset(r, 0, sizeof(*r));
	for (unsigned int j = 0; j < i->nrails && j < IG_RAILS_MAX; j++) {
		const struct ig_fab_rail *s = &i->rails[j];
		struct ig_rail *d = &r->r[r->n++];

		snprintf(d->device, sizeof(d->device), "%s", s->device);
		d->port = s->port;
		snprintf(d->netdev, sizeof(d->netdev), "%s", s->netdev);
		snprintf(d->addr, sizeof(d->addr), "%s", s->addr);
		d->prefix = s->prefix;
		d->numa_node = -1;
	}
}

void ig_fab_rail_name(const struct ig_fab_info *i, unsigned int j, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s:%s", i->node[0] ? i->node : i->host,
		 j < i->nrails ? i->rails[j].device : "?");
}

static const char *dev_of(const struct ig_fab_info *i, unsigned int j)
{
	return j < i->nrails ? i->rails[j].device : "?";
}

json_object *ig_fab_meas_rails_json(const struct ig_fab_run *r,
				    const struct ig_fab_meas *m)
{
	const struct ig_fab_info *a = &r->info[m->a], *b = &r->info[m->b];
	json_object *o = json_object_new_object();

	ig_json_add_str(o, "a", dev_of(a, m->rail_a));
	ig_json_add_str(o, "b", dev_of(b, m->rail_b));
	if (m->rail_a < a->nrails)
		ig_json_add_str(o, "a_addr", a->rails[m->rail_a].addr);
	if (m->rail_b < b->nrails)
		ig_json_add_str(o, "b_addr", b->rails[m->rail_b].addr);
	ig_json_add_int(o, "group", (int)m->rail_a);
	ig_json_add_str(o, "paired_by",
			ig_rail_by_name((enum ig_rail_by)m->rail_by));
	return o;
}

void ig_fab_meas_rails_text(const struct ig_fab_run *r,
			    const struct ig_fab_meas *m, bool back, char *buf,
			    size_t len)
{
	const char *da = dev_of(&r->info[m->a], m->rail_a);
	const char *db = dev_of(&r->info[m->b], m->rail_b);

	snprintf(buf, len, " (%s -> %s)", back ? db : da, back ? da : db);
}

/* Node i's rail j's verdict: the group where it was measured, or NULL. */
static const struct ig_fab_node *rail_node(const struct ig_fab_run *r,
					   unsigned int i, unsigned int j)
{
	for (unsigned int g = 0; r->rail_idx && g < r->nrail_groups; g++)
		if (r->rail_idx[(size_t)g * r->n + i] == (int)j)
			return &r->rail_nodes[(size_t)g * r->n + i];
	return NULL;
}

void ig_fab_node_figs_json(json_object *o, const struct ig_fab_node *nd)
{
	json_object *bw = json_object_new_object();
	json_object *lat = json_object_new_object();

	for (int t = 0; nd && t < IG_TEST_COUNT; t++) {
		if (nd->bw_gbps[t] > 0)
			ig_json_add_double(bw, ig_test_name(IG_TESTS, t),
					   nd->bw_gbps[t]);
		if (nd->lat_us[t] > 0)
			ig_json_add_double(lat, ig_test_name(IG_TESTS, t),
					   nd->lat_us[t]);
	}
	ig_json_add(o, "bw_gbps", bw);
	ig_json_add(o, "lat_us", lat);
}

void ig_fab_node_figs_text(FILE *f, const struct ig_fab_node *nd)
{
	for (int t = 0; t < IG_TEST_COUNT; t++) {
		if (nd->bw_gbps[t] > 0)
			fprintf(f, "  %s %.2f Gb/s", ig_test_name(IG_TESTS, t),
				nd->bw_gbps[t]);
		if (nd->lat_us[t] > 0)
			fprintf(f, "  %s %.2f us", ig_test_name(IG_TESTS, t),
				nd->lat_us[t]);
	}
}

static json_object *rail_json(const struct ig_fab_run *r, unsigned int i,
			      unsigned int j)
{
	const struct ig_fab_rail *rl = &r->info[i].rails[j];
	const struct ig_fab_node *nd = rail_node(r, i, j);
	json_object *o = json_object_new_object();
	char name[160];

	ig_fab_rail_name(&r->info[i], j, name, sizeof(name));
	ig_json_add_str(o, "name", name);
	ig_json_add_str(o, "device", rl->device);
	ig_json_add_int(o, "port", rl->port);
	ig_json_add_str(o, "netdev", rl->netdev);
	ig_json_add_str(o, "addr", rl->addr);
	ig_json_add_int(o, "prefix", rl->prefix);
	json_object_object_add(o, "measured",
			       json_object_new_boolean(nd && nd->npairs));
	json_object_object_add(o, "flagged",
			       json_object_new_boolean(nd && nd->flagged));
	if (nd && nd->flagged)
		ig_json_add_str(o, "why", ig_fab_cause_text(nd->cause));
	if (nd)
		ig_fab_node_figs_json(o, nd);
	return o;
}

json_object *ig_fab_node_rails_json(const struct ig_fab_run *r, unsigned int i)
{
	json_object *a = json_object_new_array();

	for (unsigned int j = 0; j < r->info[i].nrails; j++)
		json_object_array_add(a, rail_json(r, i, j));
	return a;
}

/* One rail's line: its name, address, verdict and figures. */
static void rail_line(FILE *f, const struct ig_fab_run *r, unsigned int i,
		      unsigned int j)
{
	const struct ig_fab_node *nd = rail_node(r, i, j);
	const struct ig_fab_rail *rl = &r->info[i].rails[j];
	char name[160];

	ig_fab_rail_name(&r->info[i], j, name, sizeof(name));
	fprintf(f, "  %-24s rank %-3u %s %s/%d  %s", name, i, rl->netdev,
		rl->addr[0] ? rl->addr : "-", rl->prefix,
		!nd || !nd->npairs ? "not measured"
		: nd->flagged	   ? "FLAGGED"
				   : "ok");
	if (nd)
		ig_fab_node_figs_text(f, nd);
	fputc('\n', f);
	if (nd && nd->flagged)
		fprintf(f, "      %u of its %u measurements flagged: %s\n",
			nd->nflagged, nd->npairs, ig_fab_cause_text(nd->cause));
}

unsigned int ig_fab_rails_flagged(const struct ig_fab_run *r,
				  unsigned int *total)
{
	unsigned int flagged = 0;

	*total = 0;
	for (unsigned int i = 0; i < r->n; i++)
		for (unsigned int j = 0; j < r->info[i].nrails; j++) {
			const struct ig_fab_node *nd = rail_node(r, i, j);

			(*total)++;
			flagged += nd && nd->flagged;
		}
	return flagged;
}

void ig_fab_rails_text(FILE *f, const struct ig_fab_run *r)
{
	unsigned int total;

	if (!r->o->rails)
		return;
	fprintf(f, "\nrails (each held against the same rail of the other "
		   "nodes):\n");
	for (unsigned int i = 0; i < r->n; i++)
		for (unsigned int j = 0; j < r->info[i].nrails; j++)
			rail_line(f, r, i, j);
	fprintf(f, "  flagged rails: %u", ig_fab_rails_flagged(r, &total));
	for (unsigned int i = 0; i < r->n; i++)
		for (unsigned int j = 0; j < r->info[i].nrails; j++) {
			const struct ig_fab_node *nd = rail_node(r, i, j);
			char name[160];

			if (!nd || !nd->flagged)
				continue;
			ig_fab_rail_name(&r->info[i], j, name, sizeof(name));
			fprintf(f, " %s (rank %u)", name, i);
		}
	fputc('\n', f);
}
