// SPDX-License-Identifier: MIT
/* The plan's part of ibgap-fabric's report: the estimate printed before
 * the first round, and --pattern sample's phases (docs/fabric.md "Big
 * fabrics: sampling and budget"). */
#include <stdio.h>

#include "common/json.h"
#include "fab.h"
#include "sample.h"

const char *ig_fab_phase(const struct ig_fab_run *r,
			 const struct ig_fab_meas *m)
{
	if (r->o->pattern != IG_FAB_SAMPLE)
		return NULL;
	return r->sample.suspect_from && m->round >= r->sample.suspect_from
		       ? "suspects"
		       : "sample";
}

static json_object *sample_json(const struct ig_fab_run *r)
{
	json_object *o = json_object_new_object();

	ig_json_add_int(o, "per_node", (int)r->sample.per_node);
	json_object_object_add(o, "seed",
			       json_object_new_int64(r->sample.seed));
	if (r->sample.by_budget) {
		ig_json_add_double(o, "budget_min", r->o->budget);
		json_object_object_add(
			o, "budget_fits",
			json_object_new_boolean(r->sample.budget_fits));
	}
	ig_json_add_int(o, "suspects_from_round", (int)r->sample.suspect_from);
	ig_json_add_int(o, "suspect_rounds", (int)r->sample.suspect_rounds);
	ig_json_add_int(o, "suspects", (int)r->sample.suspects);
	ig_json_add_int(o, "flagged", (int)r->sample.flagged);
	ig_json_add_int(o, "good", (int)r->sample.good);
	ig_json_add_int(o, "short_of_good", (int)r->sample.short_good);
	return o;
}

json_object *ig_fab_plan_json(const struct ig_fab_run *r)
{
	json_object *o = json_object_new_object();

	ig_json_add_str(o, "pattern", ig_fab_pattern_name(r->o->pattern));
	ig_json_add_int(o, "rounds", (int)r->plan_rounds);
	ig_json_add_double(o, "estimate_s", r->estimate_s);
	if (r->o->pattern == IG_FAB_SAMPLE)
		ig_json_add(o, "sample", sample_json(r));
	return o;
}

void ig_fab_plan_text(FILE *f, const struct ig_fab_run *r)
{
	if (r->o->pattern != IG_FAB_SAMPLE)
		return;
	fprintf(f, "  sample: %u partner(s) a node (seed %u) in rounds 0-%u",
		r->sample.per_node, r->sample.seed, r->sample.per_node - 1);
	if (r->sample.suspect_rounds)
		fprintf(f,
			"; then %u suspect(s) (%u flagged) against %u good "
			"node(s) in rounds %u-%u",
			r->sample.suspects, r->sample.flagged, r->sample.good,
			r->sample.suspect_from,
			r->sample.suspect_from + r->sample.suspect_rounds - 1);
	else
		fprintf(f, "; no suspect");
	if (r->sample.short_good)
		fprintf(f, " (%u with fewer good partners than %u)",
			r->sample.short_good, IG_FAB_GOOD_PER_SUSPECT);
	fputc('\n', f);
}
