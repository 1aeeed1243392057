// SPDX-License-Identifier: MIT
/*
 * The numbers of the figure: one point per test name and size, the mean of
 * every repeat, in two panels (bandwidth results, latency results), and the
 * scales that hold them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "plot_int.h"
#include "transports/transports.h"

/* The style of a test name: its enum ig_test when known, so that colours
 * and the legend's order do not depend on the order of the results. */
static unsigned int known_style(const char *name)
{
	for (unsigned int t = 0; t < IG_TEST_COUNT; t++)
		if (!strcmp(name, ig_test_name(IG_TESTS, (enum ig_test)t)))
			return t;
	return IG_TEST_COUNT;
}

static struct ig_plot_series *series_get(struct ig_plot_panel *p,
					 const struct ig_result *r)
{
	const char *at = r->transport ? strchr(r->transport, '@') : NULL;
	struct ig_plot_series *s;
	unsigned int style;
	char name[80];

	snprintf(name, sizeof(name), "%s%s", r->test ? r->test : "unknown",
		 at ? at : "");
	for (size_t i = 0; i < p->nseries; i++)
		if (!strcmp(p->series[i].name, name))
			return &p->series[i];
	style = known_style(name);
	if (style == IG_TEST_COUNT) /* unknown: after the known, in order */
		style += (unsigned int)p->nseries;
	s = &p->series[p->nseries++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->dashed = !(r->transport && !strcmp(r->transport, "verbs"));
	s->style = style;
	return s;
}

static void point_add(struct ig_plot_panel *p, unsigned int style,
		      uint64_t size, double v)
{
	struct ig_plot_pt *pt;
	size_t i;

	for (i = 0; i < p->npts; i++)
		if (p->pts[i].style == style && p->pts[i].size == size)
			break;
	pt = &p->pts[i];
	if (i == p->npts) {
		p->npts++;
		pt->style = style;
		pt->size = size;
	}
	pt->sum += v;
	pt->count++;
}

/* The value r gives panel p, or false when it gives none. */
static bool result_value(const struct ig_plot_panel *p,
			 const struct ig_result *r, double *v)
{
	double ns;

	if (!r->params.size || r->failed || r->has_lat != p->lat)
		return false;
	if (!p->lat) {
		*v = r->bw_gbps;
		return isfinite(*v) && *v >= 0;
	}
	if (!ig_hist_percentile(&r->lat, 0.5, &ns))
		return false;
	*v = ns / 1000.0;
	return isfinite(*v) && *v >= 0;
}

static int cmp_series(const void *a, const void *b)
{
	const struct ig_plot_series *x = a, *y = b;

	return (x->style > y->style) - (x->style < y->style);
}

static int cmp_pt(const void *a, const void *b)
{
	const struct ig_plot_pt *x = a, *y = b;

	if (x->style != y->style)
		return (x->style > y->style) - (x->style < y->style);
	return (x->size > y->size) - (x->size < y->size);
}

static int panel_collect(struct ig_plot_panel *p, const struct ig_result *res,
			 size_t n)
{
	double v;

	p->series = calloc(n ? n : 1, sizeof(*p->series));
	p->pts = calloc(n ? n : 1, sizeof(*p->pts));
	if (!p->series || !p->pts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!result_value(p, &res[i], &v))
			continue;
		point_add(p, series_get(p, &res[i])->style, res[i].params.size,
			  v);
	}
	for (size_t i = 0; i < p->npts; i++)
		p->pts[i].y = p->pts[i].sum / p->pts[i].count;
	qsort(p->series, p->nseries, sizeof(*p->series), cmp_series);
	qsort(p->pts, p->npts, sizeof(*p->pts), cmp_pt);
	return 0;
}

static void panel_scale(struct ig_plot_panel *p)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < p->npts; i++) {
		lo = fmin(lo, p->pts[i].y);
		hi = fmax(hi, p->pts[i].y);
	}
	if (p->lat)
		ig_plot_scale_lat(&p->y, lo, hi);
	else
		ig_plot_scale_lin(&p->y, hi);
}

int ig_plot_collect(struct ig_plot_fig *f, const struct ig_result *res,
		    size_t n)
{
	static const struct ig_plot_panel init[2] = {
		{ .title = "Bandwidth (higher is better)",
		  .ylabel = "Bandwidth (Gb/s)",
		  .empty = "no bandwidth results" },
		{ .title = "Latency p50, half round trip (lower is better)",
		  .ylabel = "Latency p50 (\xc2\xb5s)",
		  .empty = "no latency results",
		  .lat = true },
	};
	int ret;

	memset(f, 0, sizeof(*f));
	for (int k = 0; k < 2; k++) {
		f->panel[k] = init[k];
		ret = panel_collect(&f->panel[k], res, n);
		if (ret)
			return ret;
		panel_scale(&f->panel[k]);
		for (size_t i = 0; i < f->panel[k].npts; i++) {
			uint64_t s = f->panel[k].pts[i].size;

			if (!f->size_min || s < f->size_min)
				f->size_min = s;
			if (s > f->size_max)
				f->size_max = s;
		}
	}
	ig_plot_scale_x(&f->x, f->size_min, f->size_max);
	return 0;
}

void ig_plot_fig_free(struct ig_plot_fig *f)
{
	for (int k = 0; k < 2; k++) {
		free(f->panel[k].series);
		free(f->panel[k].pts);
		f->panel[k].series = NULL;
		f->panel[k].pts = NULL;
	}
}
