/* SPDX-License-Identifier: MIT */
/*
 * Inside the plot module (plot.c, plot_data.c, plot_axes.c, plot_draw.c)
 * and its unit test; not an interface for the rest of ibgap.
 */
#ifndef IG_PLOT_INT_H
#define IG_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cairo.h>

#include "engine/result.h"

#define IG_PLOT_WIDTH 1200
#define IG_PLOT_HEIGHT 500

/*
 * One line of a panel: one measurement of every size, a test name
 * ("tcp_bw@ADDR" for --also's) at one number of streams, one window and
 * one zero-copy mode; the name says those the figure's results differ in
 * ("tcp_bw -P 4 --window 64K", "tcp_bw zerocopy").
 */
struct ig_plot_series {
	char name[80];
	bool dashed;	    /* TCP: every transport but "verbs" */
	unsigned int style; /* enum ig_test for known names, else more */
	/* the same style's lines before this one: another marker, shade */
	unsigned int variant;
	unsigned int id; /* order of first appearance */
	uint32_t streams;
	uint64_t window; /* 0: the kernel's default */
	bool zerocopy;
};

/* One point: the mean of every result of one series at one size (the
 * runs of --repeat are pooled already; equal results, averaged). */
struct ig_plot_pt {
	unsigned int series; /* its index in the sorted series */
	uint64_t size;
	double sum;
	unsigned int count;
	double y; /* sum / count */
};

/* An axis in its own units: log2(size), a value, or log10(value). */
struct ig_plot_axis {
	double lo;
	double hi;
	bool log;    /* y only: log10 */
	double step; /* linear y: tick spacing */
};

struct ig_plot_panel {
	const char *title;
	const char *ylabel;
	const char *empty; /* shown when npts = 0 */
	bool lat;	   /* latency: log10 when the values span > 20x */
	/* sorted by style, then streams, window and zero-copy */
	struct ig_plot_series *series;
	size_t nseries;
	struct ig_plot_pt *pts; /* sorted by series, then size */
	size_t npts;
	struct ig_plot_axis y;
};

struct ig_plot_fig {
	struct ig_plot_panel panel[2]; /* bandwidth, latency */
	uint64_t size_min;	       /* over both panels; 0 when empty */
	uint64_t size_max;
	struct ig_plot_axis x; /* shared by both panels */
};

struct ig_plot_rect {
	double x;
	double y;
	double w;
	double h;
};

/* plot_data.c: fills both panels and their scales; 0 or -ENOMEM. */
int ig_plot_collect(struct ig_plot_fig *f, const struct ig_result *res,
		    size_t n);
void ig_plot_fig_free(struct ig_plot_fig *f);

/* plot_axes.c */
void ig_plot_font(cairo_t *cr, double px, bool bold);
/* Draws s with its anchor at (x, y): ax 0 left .. 1 right, y the middle. */
void ig_plot_text(cairo_t *cr, double x, double y, double ax, const char *s);
void ig_plot_scale_x(struct ig_plot_axis *a, uint64_t smin, uint64_t smax);
/* Linear from 0 to a round value above vmax, with about 5 ticks. */
void ig_plot_scale_lin(struct ig_plot_axis *a, double vmax);
/* Log10 over whole decades when vmin > 0 and vmax / vmin > 20, else lin. */
void ig_plot_scale_lat(struct ig_plot_axis *a, double vmin, double vmax);
/* "2", "64", "1K", "64K", "1M": sizes that are powers of two (2^63,
 * "8E", for any exp2 above 63). */
void ig_plot_size_label(unsigned int exp2, char *buf, size_t len);
double ig_plot_map_x(const struct ig_plot_axis *a, const struct ig_plot_rect *r,
		     uint64_t size);
double ig_plot_map_y(const struct ig_plot_axis *a, const struct ig_plot_rect *r,
		     double v);
void ig_plot_axes(cairo_t *cr, const struct ig_plot_fig *f,
		  const struct ig_plot_panel *p, const struct ig_plot_rect *r);

/* plot_draw.c */
void ig_plot_draw(cairo_t *cr, const struct ig_plot_fig *f);

#endif
