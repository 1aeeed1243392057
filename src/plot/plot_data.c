// SPDX-License-Identifier: MIT
/*
 * The numbers of the figure: one point per series (test name, streams,
 * window, zero-copy) and size, in two panels (bandwidth results, latency
 * results), and the scales that hold them.
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

/* What the figure's results differ in, besides test and size: each a
 * part of the series' key and name. */
struct vary {
	bool streams, window, zerocopy;
};

static bool zc_of(const struct ig_result *r)
{
	return r->local.sock.zerocopy == IG_ZC_ON;
}

static void vary_of(const struct ig_result *res, size_t n, struct vary *v)
{
	memset(v, 0, sizeof(*v));
	for (size_t i = 1; i < n; i++) {
		v->streams |= res[i].params.streams != res[0].params.streams;
		v->window |= res[i].params.sock.window !=
			     res[0].params.sock.window;
		v->zerocopy |= zc_of(&res[i]) != zc_of(&res[0]);
	}
}

/* "tcp_bw@ADDR -P 4 --window 64K zerocopy", the parts that vary */
static void series_name(const struct ig_result *r, const struct vary *v,
			char *buf, size_t len)
{
	const char *at = r->transport ? strchr(r->transport, '@') : NULL;
	char win[32] = "default";
	int k;

	if (r->params.sock.window)
		ig_size_str(r->params.sock.window, win, sizeof(win));
	k = snprintf(buf, len, "%s%s", r->test ? r->test : "unknown",
		     at ? at : "");
	if (v->streams && k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " -P %u",
			      (unsigned int)r->params.streams);
	if (v->window && k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " --window %s", win);
	if (v->zerocopy && zc_of(r) && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, " zerocopy");
}

static struct ig_plot_series *series_get(struct ig_plot_panel *p,
					 const struct ig_result *r,
					 const struct vary *v)
{
	static const struct vary none;
	struct ig_plot_series *s;
	unsigned int style;
	char name[80], base[80];

	series_name(r, v, name, sizeof(name));
	for (size_t i = 0; i < p->nseries; i++)
		if (!strcmp(p->series[i].name, name))
			return &p->series[i];
	series_name(r, &none, base, sizeof(base));
	style = known_style(base);
	if (style == IG_TEST_COUNT) /* unknown: after the known, in order */
		style += (unsigned int)p->nseries;
	s = &p->series[p->nseries];
	*s = (struct ig_plot_series){
		.dashed = !(r->transport && !strcmp(r->transport, "verbs")),
		.style = style,
		.id = (unsigned int)p->nseries++,
		.streams = r->params.streams,
		.window = r->params.sock.window,
		.zerocopy = zc_of(r),
	};
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

static void point_add(struct ig_plot_panel *p, unsigned int series,
		      uint64_t size, double v)
{
	struct ig_plot_pt *pt;
	size_t i;

	for (i = 0; i < p->npts; i++)
		if (p->pts[i].series == series && p->pts[i].size == size)
			break;
	pt = &p->pts[i];
	if (i == p->npts) {
		p->npts++;
		pt->series = series;
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

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_series(const void *a, const void *b)
{
	const struct ig_plot_series *x = a, *y = b;

	if (x->style != y->style)
		return cmp_u64(x->style, y->style);
	if (x->streams != y->streams)
		return cmp_u64(x->streams, y->streams);
	if (x->window != y->window)
		return cmp_u64(x->window, y->window);
	if (x->zerocopy != y->zerocopy)
		return cmp_u64(x->zerocopy, y->zerocopy);
	return cmp_u64(x->id, y->id);
}

static int cmp_pt(const void *a, const void *b)
{
	const struct ig_plot_pt *x = a, *y = b;

	if (x->series != y->series)
		return cmp_u64(x->series, y->series);
	return cmp_u64(x->size, y->size);
}

/* Series in their order, the variants of one style numbered, and each
 * point's series id turned into its place in that order. */
static void panel_sort(struct ig_plot_panel *p)
{
	qsort(p->series, p->nseries, sizeof(*p->series), cmp_series);
	for (size_t i = 1; i < p->nseries; i++) {
		struct ig_plot_series *s = &p->series[i];

		if (s[-1].style == s->style)
			s->variant = s[-1].variant + 1;
	}
	for (size_t k = 0; k < p->npts; k++) {
		size_t i = 0;

		while (i < p->nseries && p->series[i].id != p->pts[k].series)
			i++;
		p->pts[k].series = (unsigned int)i;
	}
	qsort(p->pts, p->npts, sizeof(*p->pts), cmp_pt);
}

static int panel_collect(struct ig_plot_panel *p, const struct ig_result *res,
			 size_t n)
{
	struct vary v;
	double y;

	p->series = calloc(n ? n : 1, sizeof(*p->series));
	p->pts = calloc(n ? n : 1, sizeof(*p->pts));
	if (!p->series || !p->pts)
		return -ENOMEM;
	vary_of(res, n, &v);
	for (size_t i = 0; i < n; i++) {
		if (!result_value(p, &res[i], &y))
			continue;
		point_add(p, series_get(p, &res[i], &v)->id, res[i].params.size,
			  y);
	}
	for (size_t i = 0; i < p->npts; i++)
		p->pts[i].y = p->pts[i].sum / p->pts[i].count;
	panel_sort(p);
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
