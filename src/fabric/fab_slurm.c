// SPDX-License-Identifier: MIT
/* The fabric's verdicts to Slurm (fab.h): which node a rank is on, why a
 * flagged node is drained, --drain over the flagged nodes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fab.h"
#include "slurm.h"
#include "transports/transports.h"

void ig_fab_slurm_node(const char *host, char *out, size_t len)
{
	const char *env = getenv("SLURMD_NODENAME");

	if (env && *env)
		snprintf(out, len, "%s", env);
	else
		snprintf(out, len, "%.*s", (int)strcspn(host, "."), host);
}

/* Whether every test that flags nd is a latency test (none: false). */
static bool lat_alone(const struct ig_fab_node *nd)
{
	for (int t = 0; t < IG_TEST_COUNT; t++)
		if (nd->tests & 1u << t && !ig_test_is_lat(t))
			return false;
	return nd->tests != 0;
}

void ig_fab_drain_why(const struct ig_fab_run *r, unsigned int i, char *buf,
		      size_t len)
{
	static const char *const side[] = { "", ", send side", ", receive side",
					    ", both sides" };
	const struct ig_fab_node *nd = &r->nodes[i];
	/* latency alone: its measurements are slow, not low (failed ones
	 * have no p50: the median of its others says nothing) */
	bool lat = lat_alone(nd) && nd->lat_ratio >= 0 &&
		   nd->cause != IG_FAB_FAILED;
	char fig[48] = "";

	if (lat)
		snprintf(fig, sizeof(fig), ", p50 latency %.2f x the median",
			 nd->lat_ratio);
	else if (nd->bw_ratio >= 0)
		snprintf(fig, sizeof(fig), ", bandwidth %.2f x the median",
			 nd->bw_ratio);
	snprintf(buf, len, "%u of %u measurements %s%s%s: %s", nd->nflagged,
		 nd->npairs, lat ? "flagged" : "low",
		 side[nd->dir & (IG_FAB_DIR_SEND | IG_FAB_DIR_RECV)], fig,
		 ig_fab_cause_text(nd->cause));
}

#define WHY_LEN 160

int ig_fab_drain(const struct ig_fab_run *r, struct ig_slurm_out *out,
		 FILE *log)
{
	struct ig_slurm_want *w = calloc(r->n, sizeof(*w));
	char(*why)[WHY_LEN] = calloc(r->n, WHY_LEN);
	size_t k = 0;
	int ret = -ENOMEM;

	*out = (struct ig_slurm_out){ 0 };
	if (w && why) {
		for (unsigned int j = 0; j < r->n; j++) {
			unsigned int i = r->order[j];

			if (!r->nodes[i].flagged)
				continue;
			ig_fab_drain_why(r, i, why[k], WHY_LEN);
			w[k] = (struct ig_slurm_want){ .node = r->info[i].node,
						       .why = why[k] };
			k++;
		}
		ret = ig_slurm_drain(w, k, out, log);
	}
	free(w);
	free(why);
	return ret;
}
