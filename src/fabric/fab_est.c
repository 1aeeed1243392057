// SPDX-License-Identifier: MIT
/* The run's estimate before its first round, and --budget's K
 * (sample.h). */
#include <math.h>
#include <stdio.h>

#include "common/repeat.h"
#include "sample.h"
#include "transports/transports.h"

void ig_fab_est_round(const struct ig_fab_opts *o, bool rdma,
		      struct ig_fab_est *e)
{
	double test_s = (double)(o->p.duration_ns + o->p.warmup_ns) / 1e9;

	*e = (struct ig_fab_est){ .timed = o->p.duration_ns != 0 };
	for (unsigned int i = 0; i < o->ntests; i++) {
		enum ig_test t = o->tests[i];

		if (ig_test_xport(IG_TESTS, t) == IG_XPORT_VERBS && !rdma)
			continue;
		e->tests++;
		e->back += o->both &&
			   ig_test_pattern(IG_TESTS, t) == IG_PATTERN_BW;
	}
	e->runs = o->rep.runs	 ? o->rep.runs
		  : o->rep.level ? IG_CONF_MAX_DEFAULT
				 : 1;
	e->round_s = e->tests * e->runs * test_s + IG_FAB_ROUND_OVERHEAD_S;
	if (o->both)
		e->round_s +=
			e->back * e->runs * test_s + IG_FAB_ROUND_OVERHEAD_S;
}

unsigned int ig_fab_budget_k(double budget_s, double round_s,
			     unsigned int extra, unsigned int kmax, bool *fits)
{
	double fit = round_s > 0 ? floor(budget_s / round_s) : (double)kmax;
	double k = fit - extra;

	*fits = k >= 1;
	if (k < 1)
		return 1;
	return k > kmax ? kmax : (unsigned int)k;
}

void ig_fab_dur_text(double s, char *buf, size_t len)
{
	unsigned long v = (unsigned long)(s + 0.5);

	if (s < 10)
		snprintf(buf, len, "%.1f s", s);
	else if (v < 60)
		snprintf(buf, len, "%lu s", v);
	else if (v < 3600)
		snprintf(buf, len, "%lu min %lu s", v / 60, v % 60);
	else
		snprintf(buf, len, "%lu h %lu min", v / 3600, v / 60 % 60);
}
