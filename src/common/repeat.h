/* SPDX-License-Identifier: MIT */
#ifndef IG_REPEAT_H
#define IG_REPEAT_H

#include <stdbool.h>

#define IG_MAX_REPEAT 100
/* --confidence without --repeat: netperf's -i 10,3 */
#define IG_CONF_MAX_DEFAULT 10
#define IG_CONF_MIN 3

/* --repeat and --confidence: how often each measurement runs. */
struct ig_repeat_opts {
	/* --repeat N: at most N runs, 1 to IG_MAX_REPEAT (0: one; with a
	 * level, IG_CONF_MAX_DEFAULT) */
	unsigned int runs;
	/* --confidence LEVEL,WIDTH: 95 or 99 (0: none), repeated (at least
	 * IG_CONF_MIN runs) until the interval's full width is within width
	 * percent of the mean */
	unsigned int level;
	double width;
};

/* A measurement repeated: the spread of one metric over the runs. */
struct ig_repeat {
	unsigned int n;	    /* runs made (0: not repeated) */
	unsigned int level; /* confidence level, 95 or 99 */
	double width_pct;   /* requested interval width, % of the mean; 0 */
	const char *metric; /* "bw_gbps" or "lat_us.p50" */
	double mean, stdev, ci_lo, ci_hi;
	bool met; /* the interval is within +/- width_pct / 2 */
};

/* Two-sided Student t quantile for level 95 or 99 and df >= 1
 * (conservative for df > 30: the next tabulated df below). */
double ig_t_quantile(unsigned int level, unsigned int df);
/* Mean, sample stdev and the confidence interval of the mean of x[0..n);
 * met when n >= 2 and the half-width is at most width_pct / 2 percent of
 * the mean (width_pct 0: met is false). */
void ig_repeat_stats(const double *x, unsigned int n, unsigned int level,
		     double width_pct, struct ig_repeat *r);

/* What a change did to a repeated measurement (ibgap doctor --try). */
enum ig_verdict {
	IG_VERDICT_UNJUDGED, /* a side ran once: no interval to judge by */
	IG_VERDICT_HELPS,
	IG_VERDICT_NONE, /* the two intervals overlap */
	IG_VERDICT_HURTS,
};

struct ig_change {
	double pct;	       /* (after - before) / before, in % */
	double pct_lo, pct_hi; /* from the intervals' far ends */
	enum ig_verdict verdict;
};

/* The smallest change, in % of the baseline's mean, that a verdict calls
 * helps or hurts: behind a shaper runs are so steady that -0.09%
 * [-0.17, -0.02] had intervals apart (integ/try, congestion control
 * behind a tbf), and no one tunes a host for that. */
#define IG_MIN_EFFECT_PCT 2.0

/* after against before (the same metric): the change in % of before's
 * mean; its interval runs from after's low end over before's high end to
 * after's high end over before's low end (never narrower than the
 * intervals say); the verdict is "no effect" when the intervals overlap
 * or the change is under IG_MIN_EFFECT_PCT either way, else helps when
 * after moved the better way (up when higher_better), hurts otherwise;
 * unjudged when either ran fewer than 2 times. */
void ig_repeat_change(const struct ig_repeat *before,
		      const struct ig_repeat *after, bool higher_better,
		      struct ig_change *c);
/* "helps", "no effect", "hurts", "not judged (one run)" */
const char *ig_verdict_name(enum ig_verdict v);

#endif
