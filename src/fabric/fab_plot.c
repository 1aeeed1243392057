// SPDX-License-Identifier: MIT
/* --plot: an N x N heat map of bandwidth (row a sends to column b), the
 * verbs test left and TCP right, each cell coloured by its ratio to the
 * median of its test: green at the median or above, red at half or less,
 * grey when not measured, black when the pair failed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>
#include <cairo.h>

#include "common/fail.h"
#include "fab.h"
#include "plot/plot.h"
#include "transports/transports.h"

#define CELL_MAX 24.0
#define PANEL 480.0
#define MARGIN 48.0
#define MIN_WIDTH 620.0
#define GAP 160.0 /* between the panels: the right title fits */

/* The first bandwidth test of transport x that was measured. */
static int pick(const struct ig_fab_run *r, enum ig_xport_id x)
{
	for (size_t i = 0; i < r->k; i++)
		if (ig_test_xport(IG_TESTS, r->m[i].test) == x &&
		    ig_test_pattern(IG_TESTS, r->m[i].test) == IG_PATTERN_BW)
			return (int)r->m[i].test;
	return -1;
}

static void colour(cairo_t *cr, const struct ig_fab_meas *m, double median)
{
	double q;

	if (!m) {
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		return;
	}
	if (!m->ok || median <= 0) {
		cairo_set_source_rgb(cr, 0, 0, 0);
		return;
	}
	q = (m->bw_gbps / median - 0.5) * 2; /* 0 at half, 1 at the median */
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	cairo_set_source_rgb(cr, 0.9 * (1 - q), 0.2 + 0.6 * q, 0.1);
}

/* Rank numbers: senders down the left, receivers across the top (every
 * one when they fit, else every tenth). */
static void labels(cairo_t *cr, unsigned int n, double x0, double cell)
{
	unsigned int step = cell >= 12 ? 1 : 10;
	char b[16];

	cairo_set_font_size(cr, 9);
	for (unsigned int i = 0; i < n; i += step) {
		snprintf(b, sizeof(b), "%u", i);
		cairo_move_to(cr, x0 - 16, MARGIN + i * cell + cell * 0.7);
		cairo_show_text(cr, b);
		cairo_move_to(cr, x0 + i * cell + 2, MARGIN - 4);
		cairo_show_text(cr, b);
	}
	cairo_set_font_size(cr, 12);
}

static void panel(cairo_t *cr, const struct ig_fab_run *r, int t, double x0,
		  double cell)
{
	char title[96];

	if (t < 0)
		snprintf(title, sizeof(title), "%s: not measured",
			 x0 > MARGIN ? "TCP" : "verbs");
	else
		snprintf(title, sizeof(title), "%s, median %.2f Gb/s",
			 ig_test_name(IG_TESTS, t), r->medians[t]);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_move_to(cr, x0, MARGIN - 24);
	cairo_show_text(cr, title);
	labels(cr, r->n, x0, cell);
	for (unsigned int a = 0; a < r->n; a++)
		for (unsigned int b = 0; b < r->n; b++) {
			const struct ig_fab_meas *m = NULL;

			for (size_t i = 0; t >= 0 && i < r->k; i++)
				if (r->m[i].a == a && r->m[i].b == b &&
				    r->m[i].test == (enum ig_test)t)
					m = &r->m[i];
			colour(cr, m, t < 0 ? 0 : r->medians[t]);
			cairo_rectangle(cr, x0 + b * cell, MARGIN + a * cell,
					cell - 1, cell - 1);
			cairo_fill(cr);
		}
}

static void draw(cairo_t *cr, const struct ig_fab_run *r, double cell)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 12);
	panel(cr, r, pick(r, IG_XPORT_VERBS), MARGIN, cell);
	panel(cr, r, pick(r, IG_XPORT_TCP), MARGIN + GAP + r->n * cell, cell);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 10);
	cairo_move_to(cr, MARGIN, 2 * MARGIN + r->n * cell - 22);
	cairo_show_text(cr, "row sends to column; green: at the median or "
			    "above, red: half or less, grey: not measured, "
			    "black: failed");
}

int ig_fab_plot(const struct ig_fab_run *r, const char *path, char *err,
		size_t errlen)
{
	double cell = PANEL / r->n > CELL_MAX ? CELL_MAX : PANEL / r->n;
	double w = 2 * MARGIN + GAP + 2 * r->n * cell;
	double h = 2 * MARGIN + r->n * cell;
	bool svg = ig_plot_format(path, err, errlen) == IG_PLOT_SVG;
	cairo_surface_t *s;
	cairo_t *cr;
	int ret = 0;

	if (w < MIN_WIDTH) /* the legend's line */
		w = MIN_WIDTH;

	s = svg ? cairo_svg_surface_create(path, w, h)
		: cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w,
					     (int)h);
	cr = cairo_create(s);
	draw(cr, r, cell);
	cairo_destroy(cr);
	if (!svg && cairo_surface_write_to_png(s, path) != CAIRO_STATUS_SUCCESS)
		ret = -EIO;
	cairo_surface_finish(s);
	if (!ret && cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		ret = -EIO;
	cairo_surface_destroy(s);
	ig_plot_release_caches();
	if (ret)
		return ig_fail(ret, err, errlen, "--plot: cannot write '%s'",
			       path);
	return 0;
}
