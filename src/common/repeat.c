// SPDX-License-Identifier: MIT
/* Confidence intervals of repeated measurements (netperf's -i/-I idea). */
#include <math.h>

#include "repeat.h"

/* t quantiles 0.975 and 0.995 for df 1..30, then 40, 60, 120, infinity */
static const double t95[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,	2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,	2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};
static const double t99[] = {
	63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
	3.106,	3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
	2.831,	2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750,
};
static const struct {
	unsigned int df;
	double t95, t99;
} tail[] = { { 120, 1.980, 2.617 },
	     { 60, 2.000, 2.660 },
	     { 40, 2.021, 2.704 },
	     { 30, 2.042, 2.750 } };

double ig_t_quantile(unsigned int level, unsigned int df)
{
	if (!df)
		return INFINITY;
	if (df <= 30)
		return level == 99 ? t99[df - 1] : t95[df - 1];
	for (unsigned int i = 0; i < sizeof(tail) / sizeof(*tail); i++)
		if (df >= tail[i].df)
			return level == 99 ? tail[i].t99 : tail[i].t95;
	return level == 99 ? 2.750 : 2.042;
}

void ig_repeat_stats(const double *x, unsigned int n, unsigned int level,
		     double width_pct, struct ig_repeat *r)
{
	double sum = 0, ss = 0, half;

	r->n = n;
	r->level = level;
	r->width_pct = width_pct;
	r->met = false;
	r->mean = r->stdev = r->ci_lo = r->ci_hi = 0;
	if (!n)
		return;
	for (unsigned int i = 0; i < n; i++)
		sum += x[i];
	r->mean = sum / n;
	for (unsigned int i = 0; i < n; i++)
		ss += (x[i] - r->mean) * (x[i] - r->mean);
	if (n < 2) {
		r->ci_lo = r->ci_hi = r->mean;
		return;
	}
	r->stdev = sqrt(ss / (n - 1));
	half = ig_t_quantile(level, n - 1) * r->stdev / sqrt(n);
	r->ci_lo = r->mean - half;
	r->ci_hi = r->mean + half;
	r->met = width_pct > 0 && r->mean != 0 &&
		 half <= fabs(r->mean) * width_pct / 200;
}

/* (a / b - 1) in %; b <= 0 has no ratio: 0 */
static double pct_of(double a, double b)
{
	return b > 0 ? (a / b - 1) * 100 : 0;
}

void ig_repeat_change(const struct ig_repeat *before,
		      const struct ig_repeat *after, bool higher_better,
		      struct ig_change *c)
{
	bool up = after->mean > before->mean;

	c->pct = pct_of(after->mean, before->mean);
	if (before->ci_lo > 0) {
		c->pct_lo = pct_of(after->ci_lo, before->ci_hi);
		c->pct_hi = pct_of(after->ci_hi, before->ci_lo);
	} else {
		/* before's interval reaches 0: the ratio's bounds have no
		 * meaning; the difference's interval (the half-widths added
		 * in quadrature) over before's mean */
		double hb = (before->ci_hi - before->ci_lo) / 2;
		double ha = (after->ci_hi - after->ci_lo) / 2;
		double h = before->mean > 0 ? sqrt(hb * hb + ha * ha) /
						      before->mean * 100
					    : 0;

		c->pct_lo = c->pct - h;
		c->pct_hi = c->pct + h;
	}
	if (before->n < 2 || after->n < 2)
		c->verdict = IG_VERDICT_UNJUDGED;
	else if ((after->ci_lo <= before->ci_hi &&
		  before->ci_lo <= after->ci_hi) ||
		 fabs(c->pct) < IG_MIN_EFFECT_PCT)
		c->verdict = IG_VERDICT_NONE;
	else
		c->verdict = up == higher_better ? IG_VERDICT_HELPS
						 : IG_VERDICT_HURTS;
}

const char *ig_verdict_name(enum ig_verdict v)
{
	static const char *const names[] = {
		[IG_VERDICT_UNJUDGED] = "not judged (one run)",
		[IG_VERDICT_HELPS] = "helps",
		[IG_VERDICT_NONE] = "no effect",
		[IG_VERDICT_HURTS] = "hurts",
	};

	return v <= IG_VERDICT_HURTS ? names[v] : "?";
}
