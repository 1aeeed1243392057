// SPDX-License-Identifier: MIT
/* The rails' figures and which rails differ from the others (pure). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rails.h"

void ig_rails_figures(struct ig_rail_run *r)
{
	r->verbs_gbps = 0;
	r->tcp_gbps = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct ig_result *x = &r->res[i];
		double *best;

		if (x->failed || x->has_lat || !x->transport)
			continue;
		if (!strcmp(x->transport, "verbs"))
			best = &r->verbs_gbps;
		else if (!strcmp(x->transport, "tcp"))
			best = &r->tcp_gbps;
		else
			continue;
		if (x->bw_gbps > *best)
			*best = x->bw_gbps;
	}
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the rails' positive figures at offset off; 0 none. */
static double median(const struct ig_rail_run *r, size_t n, size_t off)
{
	double v[IG_RAILS_MAX];
	size_t k = 0;

	for (size_t i = 0; i < n && k < IG_RAILS_MAX; i++) {
		double x = *(const double *)((const char *)&r[i] + off);

		if (x > 0)
			v[k++] = x;
	}
	if (k < 2)
		return 0; /* one rail differs from no other */
	qsort(v, k, sizeof(*v), dbl_cmp);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* "TCP 0.10 Gb/s is 15% of the median rail's 0.65" after r's why. */
static void add_why(struct ig_rail_run *r, const char *a, double x, double m)
{
	size_t at = strlen(r->why);

	if (at >= sizeof(r->why) - 1)
		return;
	snprintf(r->why + at, sizeof(r->why) - at, "%s", at ? "; " : "");
	at = strlen(r->why);
	snprintf(r->why + at, sizeof(r->why) - at,
		 "%s %.2f Gb/s is %.0f%% of the median rail's %.2f", a, x,
		 m > 0 ? 100 * x / m : 0, m);
}

static void flag_low(struct ig_rail_run *r, size_t n, size_t off,
		     unsigned int flag, const char *name)
{
	double m = median(r, n, off);

	for (size_t i = 0; m > 0 && i < n; i++) {
		double x = *(const double *)((const char *)&r[i] + off);

		if (x <= 0 || x >= IG_RAIL_LOW * m)
			continue;
		r[i].flags |= flag;
		add_why(&r[i], name, x, m);
	}
}

/* The fingerprint's field at off of rail i. */
static const char *fp_field(const struct ig_rail_run *r, size_t off)
{
	return (const char *)&r->local.fp + off;
}

/* Rails whose field differs from the most rails' value; when no value
 * holds a majority every rail is flagged. */
static void flag_field(struct ig_rail_run *r, size_t n, size_t off,
		       const char *name)
{
	size_t best = 0, cnt = 0;

	for (size_t i = 0; i < n; i++) {
		size_t c = 0;

		for (size_t j = 0; j < n; j++)
			c += !strcmp(fp_field(&r[i], off),
				     fp_field(&r[j], off));
		if (c > cnt) {
			cnt = c;
			best = i;
		}
	}
	if (cnt == n)
		return;
	for (size_t i = 0; i < n; i++) {
		size_t at = strlen(r[i].why);

		if (cnt * 2 > n &&
		    !strcmp(fp_field(&r[i], off), fp_field(&r[best], off)))
			continue;
		r[i].flags |= IG_RAILF_FP;
		snprintf(r[i].why + at, sizeof(r[i].why) - at,
			 "%s%s '%s' (others: '%s')", at ? "; " : "", name,
			 fp_field(&r[i], off),
			 fp_field(&r[i == best ? (best + 1) % n : best], off));
	}
}

#define FP_OFF(m) offsetof(struct ig_fingerprint, m)

void ig_rails_flag(struct ig_rail_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		r[i].flags = 0;
		r[i].why[0] = 0;
	}
	flag_low(r, n, offsetof(struct ig_rail_run, verbs_gbps),
		 IG_RAILF_VERBS_LOW, "verbs");
	flag_low(r, n, offsetof(struct ig_rail_run, tcp_gbps), IG_RAILF_TCP_LOW,
		 "TCP");
	flag_field(r, n, FP_OFF(fw_ver), "fw_ver");
	flag_field(r, n, FP_OFF(link_rate), "link rate");
	flag_field(r, n, FP_OFF(mtu), "MTU");
	flag_field(r, n, FP_OFF(ipoib_mode), "IPoIB mode");
}

bool ig_rail_tcp_low_alone(const struct ig_rail_run *r)
{
	return (r->flags & IG_RAILF_TCP_LOW) &&
	       !(r->flags & IG_RAILF_VERBS_LOW);
}
