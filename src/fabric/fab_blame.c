// SPDX-License-Identifier: MIT
/*
 * ibgap-fabric's blame in the run and the report: the ranks placed on
 * the topology, the pairs blamed (blame.c), the nodes whose low pairs a
 * link, switch or group explains no longer flagged, and the "blamed"
 * list of the text and the JSON (docs/fabric.md "Blame").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "fab.h"

int ig_fab_place(struct ig_fab_run *r, const struct ig_topo *topo, FILE *warn)
{
	r->topo = topo;
	if (r->place)
		return 0;
	r->place = calloc((size_t)r->n + 1, sizeof(*r->place));
	if (!r->place)
		return -ENOMEM;
	for (unsigned int i = 0; i < r->n; i++) {
		r->place[i] =
			ig_topo_place(topo, r->info[i].host, r->info[i].addr);
		if (r->place[i] < 0 && warn)
			fprintf(warn,
				"ibgap-fabric: rank %u (%s, %s) is not in "
				"the topology: unplaced, its pairs can blame "
				"the node alone\n",
				i, r->info[i].host, r->info[i].addr);
	}
	return 0;
}

/* A flagged node whose low pairs a blamed link, switch or group
 * explains: no longer flagged; explained[] keeps those nodes only. */
static void unflag_explained(struct ig_fab_run *r)
{
	for (unsigned int i = 0; i < r->n; i++) {
		if (!r->blame.explained[i] || !r->nodes[i].flagged) {
			r->blame.explained[i] = false;
			continue;
		}
		r->nodes[i].flagged = false;
		r->nodes[i].cause = IG_FAB_OK;
		r->nodes[i].dir = 0; /* no side flags it either */
	}
	ig_fab_rank_nodes(r->nodes, r->n, r->order);
}

int ig_fab_blame(struct ig_fab_run *r, const struct ig_topo *topo, FILE *warn)
{
	struct ig_blame_pair *p = NULL;
	ssize_t np = ig_blame_pairs(r->m, r->k, r->medians, &p);
	int ret = np < 0 ? (int)np : 0;

	r->topo = topo;
	if (!ret && topo)
		ret = ig_fab_place(r, topo, warn);
	if (!ret && topo)
		ret = ig_blame_topo(topo, r->place, r->n, p, (size_t)np,
				    &r->blame);
	else if (!ret)
		ret = ig_blame_groups(r->n, p, (size_t)np, &r->blame);
	free(p);
	if (ret)
		return ret;
	r->blamed = true;
	unflag_explained(r);
	return 0;
}

static int one_hops(void *ctx, size_t i, unsigned int src,
		    const unsigned int *links, int n)
{
	struct ig_fab_run *r = ctx;

	(void)src;
	r->m[i].hops_known = n >= 0;
	r->m[i].hops = n < 0 ? 0
			     : ig_topo_hops(r->topo, links, (unsigned int)n);
	return 0;
}

int ig_fab_hops(struct ig_fab_run *r)
{
	struct ig_topo_pairs ps = { .t = r->topo,
				    .place = r->place,
				    .stride = sizeof(*r->m),
				    .k = r->k };

	if (!r->topo || !r->place || !r->k)
		return 0;
	ps.a = &r->m[0].a;
	ps.b = &r->m[0].b;
	return ig_topo_pair_paths(&ps, one_hops, r);
}

void ig_fab_blame_free(struct ig_fab_run *r)
{
	free(r->place);
	r->place = NULL;
	if (r->blamed)
		ig_blame_free(&r->blame);
	r->blamed = false;
}

static const char *const kind_names[] = { "node", "link", "switch", "group" };

/* An item's name: a node's host, "leaf1—spine1", a switch's, a group's
 * members "{n05,n06}" (its first 8, then "...", and how many). */
static void ref_name(const struct ig_fab_run *r, struct ig_blame_ref ref,
		     char *buf, size_t len)
{
	const struct ig_topo *t = r->topo;
	size_t o = 0;
	unsigned int cnt = 0;

	buf[0] = '\0';
	if (ref.kind == IG_BLAME_NODE) {
		snprintf(buf, len, "%s", r->info[ref.id].host);
	} else if (ref.kind == IG_BLAME_LINK) {
		snprintf(buf, len, "%s\u2014%s", t->v[t->l[ref.id].a].name,
			 t->v[t->l[ref.id].b].name);
	} else if (ref.kind == IG_BLAME_SWITCH) {
		snprintf(buf, len, "%s", t->v[ref.id].name);
	} else {
		for (unsigned int i = 0; i < r->n && o + 1 < len; i++) {
			if (r->blame.group[i] != ref.id || ++cnt > 8)
				continue;
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      cnt > 1 ? "," : "{",
					      r->info[i].host);
		}
		if (o + 1 < len)
			snprintf(buf + o, len - o, cnt > 8 ? ",... (%u)}" : "}",
				 cnt);
	}
}

static json_object *item_json(const struct ig_fab_run *r,
			      const struct ig_blame_item *it)
{
	json_object *o = json_object_new_object(), *a;
	char name[600];

	ref_name(r, it->what, name, sizeof(name));
	ig_json_add_str(o, "kind", kind_names[it->what.kind]);
	ig_json_add_str(o, "name", name);
	ig_json_add_int(o, "low", (int)it->k);
	ig_json_add_int(o, "pairs", (int)it->n);
	ig_json_add_double(o, "median_x", it->ratio);
	if (it->leaf >= 0 || it->what.kind == IG_BLAME_GROUP) {
		a = json_object_new_object();
		if (it->leaf >= 0)
			ig_json_add_str(a, "switch", r->topo->v[it->leaf].name);
		ig_json_add_int(a, "low", (int)it->kin);
		ig_json_add_int(a, "pairs", (int)it->nin);
		ig_json_add(o, "inside", a);
	}
	a = json_object_new_array();
	for (unsigned int j = 0; j < it->nalso && j < IG_BLAME_ALSO; j++) {
		ref_name(r, it->also[j], name, sizeof(name));
		json_object_array_add(a, json_object_new_string(name));
	}
	ig_json_add(o, "also", a);
	return o;
}

/* The ranks the verdict flagged and the blame cleared. */
static json_object *explains(const struct ig_fab_run *r)
{
	json_object *a = json_object_new_array();

	for (unsigned int i = 0; i < r->n; i++)
		if (r->blame.explained[i])
			json_object_array_add(a, json_object_new_int((int)i));
	return a;
}

json_object *ig_fab_blame_json(const struct ig_fab_run *r)
{
	json_object *o = json_object_new_object(), *a;

	ig_json_add_str(o, "from", r->topo ? "topology" : "groups");
	if (r->topo) {
		ig_json_add_str(o, "topology", r->o->topology);
		a = json_object_new_array();
		for (unsigned int i = 0; r->place && i < r->n; i++)
			if (r->place[i] < 0)
				json_object_array_add(
					a, json_object_new_int((int)i));
		ig_json_add(o, "unplaced", a);
	}
	a = json_object_new_array();
	for (size_t i = 0; r->blamed && i < r->blame.nitems; i++)
		json_object_array_add(a, item_json(r, &r->blame.items[i]));
	ig_json_add(o, "items", a);
	ig_json_add(o, "unflagged",
		    r->blamed ? explains(r) : json_object_new_array());
	return o;
}

static void text_item(FILE *f, const struct ig_fab_run *r,
		      const struct ig_blame_item *it)
{
	char name[600];

	ref_name(r, it->what, name, sizeof(name));
	if (it->what.kind == IG_BLAME_GROUP)
		fprintf(f,
			"  pairs between %s and the rest are low: a shared "
			"link between them (%u of %u low, median %.2f x the "
			"fabric's; inside: %u of %u low)\n",
			name, it->k, it->n, it->ratio, it->kin, it->nin);
	else
		fprintf(f,
			"  %s %s: %u of %u pairs across it low, median %.2f x "
			"the fabric's",
			kind_names[it->what.kind], name, it->k, it->n,
			it->ratio);
	if (it->what.kind != IG_BLAME_GROUP && it->leaf >= 0)
		fprintf(f, "; inside %s: %u of %u low",
			r->topo->v[it->leaf].name, it->kin, it->nin);
	if (it->what.kind != IG_BLAME_GROUP)
		fputc('\n', f);
	for (unsigned int j = 0; j < it->nalso && j < IG_BLAME_ALSO; j++) {
		ref_name(r, it->also[j], name, sizeof(name));
		fprintf(f, "      or %s %s: the same pairs cross it\n",
			kind_names[it->also[j].kind], name);
	}
}

static bool explained_any(const struct ig_fab_run *r)
{
	for (unsigned int i = 0; i < r->n; i++)
		if (r->blame.explained[i])
			return true;
	return false;
}

void ig_fab_blame_text(FILE *f, const struct ig_fab_run *r)
{
	if (!r->blamed || !r->blame.nitems)
		return;
	fprintf(f, "\nblamed (what explains the low pairs, %u of %u):\n",
		r->blame.nexpl, r->blame.nlow);
	for (size_t i = 0; i < r->blame.nitems; i++)
		text_item(f, r, &r->blame.items[i]);
	if (r->topo)
		fprintf(f, "  (paths: the shortest, through the first switch "
			   "of the file on a tie: ECMP or adaptive routing "
			   "may take another)\n");
	for (unsigned int i = 0, c = 0; i < r->n; i++)
		if (r->blame.explained[i])
			fprintf(f, "%s%s",
				c++ ? " "
				    : "  not flagged (their low "
				      "pairs are explained "
				      "above): ",
				r->info[i].host);
	if (explained_any(r))
		fputc('\n', f);
}
