// SPDX-License-Identifier: MIT
/* --plot: N x N heat maps (row a is the client of column b: it sends in
 * a bandwidth test), one panel per measured test kind and transport:
 * bandwidth above, latency (p50) below, verbs left, TCP right; a
 * transport or kind with no measurement gets no panel.  Each cell is
 * coloured by its figure against the median of its test (the retest's
 * figure for a transient, framed white), with the colour scale under the
 * panels; grey when not measured, black when the pair failed. */
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
#define TOP 56.0	/* above a panel: its title and the column numbers */
#define MIN_WIDTH 660.0 /* the legend's lines */
#define GAP 48.0	/* between the panels */
#define TITLE_W 200.0	/* a panel's title: "write_bw, median 100.00 Gb/s" */
#define LEGEND 92.0	/* under the panels: the scale and the legend */
#define SCALE_W 300.0
#define SCALE_H 12.0
#define SCALE_STEPS 48

/* The first measured test of transport x and kind (latency or not). */
static int pick(const struct ig_fab_run *r, enum ig_xport_id x, bool lat)
{
	for (size_t i = 0; i < r->k; i++)
		if (ig_test_xport(IG_TESTS, r->m[i].test) == x &&
		    ig_test_is_lat(r->m[i].test) == lat)
			return (int)r->m[i].test;
	return -1;
}

void ig_fab_plot_layout(const struct ig_fab_run *r, struct ig_fab_layout *l)
{
	static const enum ig_xport_id xs[2] = { IG_XPORT_VERBS, IG_XPORT_TCP };
	int t[2][2]; /* [kind][transport] */
	bool col[2] = { false }, row[2] = { false };
	double side, pitch, x, y = TOP;

	memset(l, 0, sizeof(*l));
	l->cell = r->n && PANEL / r->n < CELL_MAX ? PANEL / r->n : CELL_MAX;
	side = r->n * l->cell;
	pitch = (side > TITLE_W ? side : TITLE_W) + GAP;
	for (int k = 0; k < 2; k++)
		for (int c = 0; c < 2; c++) {
			t[k][c] = pick(r, xs[c], k == 1);
			row[k] |= t[k][c] >= 0;
			col[c] |= t[k][c] >= 0;
		}
	for (int k = 0; k < 2; k++) {
		if (!row[k])
			continue;
		x = MARGIN;
		for (int c = 0; c < 2; c++) {
			if (!col[c])
				continue;
			if (t[k][c] >= 0)
				l->p[l->np++] = (struct ig_fab_panel){
					.test = t[k][c], .x = x, .y = y
				};
			x += pitch;
		}
		y += side + TOP;
	}
	l->w = 2 * MARGIN + (col[0] + col[1]) * pitch - GAP;
	if (l->w < MIN_WIDTH)
		l->w = MIN_WIDTH;
	l->h = (row[0] || row[1] ? y - TOP : TOP) + LEGEND;
	l->scale_x = MARGIN;
	l->scale_y = l->h - LEGEND + 24;
	l->scale_w = SCALE_W;
}

double ig_fab_cell(const struct ig_fab_meas *m, double median, bool *transient)
{
	bool lat = ig_test_is_lat(m->test);
	double x = ig_fab_meas_x(m);
	double q;

	*transient = m->transient;
	if (m->transient)
		x = lat ? m->retest_p50_us : m->retest_bw_gbps;
	if (!m->ok && !m->transient)
		return -1;
	if (!(median > 0) || !(x >= 0))
		return -1;
	/* bandwidth: 0 at half the median or less, 1 at it or above;
	 * latency: 0 at twice the median or more, 1 at it or below */
	q = lat ? 2 - x / median : (x / median - 0.5) * 2;
	return q < 0 ? 0 : q > 1 ? 1 : q;
}

/* The colour of q (0 red .. 1 green); q < 0: black (failed). */
static void colour(cairo_t *cr, double q)
{
	if (q < 0)
		cairo_set_source_rgb(cr, 0, 0, 0);
	else
		cairo_set_source_rgb(cr, 0.9 * (1 - q), 0.2 + 0.6 * q, 0.1);
}

/* Rank numbers: clients down the left, servers across the top (every
 * one when they fit, else every tenth). */
static void labels(cairo_t *cr, unsigned int n, double x0, double y0,
		   double cell)
{
	unsigned int step = cell >= 12 ? 1 : 10;
	char b[16];

	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 9);
	for (unsigned int i = 0; i < n; i += step) {
		snprintf(b, sizeof(b), "%u", i);
		cairo_move_to(cr, x0 - 16, y0 + i * cell + cell * 0.7);
		cairo_show_text(cr, b);
		cairo_move_to(cr, x0 + i * cell + 2, y0 - 4);
		cairo_show_text(cr, b);
	}
	cairo_set_font_size(cr, 12);
}

/* One cell: its colour, and a white frame for a transient. */
static void cell(cairo_t *cr, const struct ig_fab_meas *m, double median,
		 double x, double y, double side)
{
	bool transient = false;

	if (m)
		colour(cr, ig_fab_cell(m, median, &transient));
	else
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
	cairo_rectangle(cr, x, y, side - 1, side - 1);
	cairo_fill(cr);
	if (!transient)
		return;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, side > 8 ? 2 : 1);
	cairo_rectangle(cr, x + 2, y + 2, side - 5, side - 5);
	cairo_stroke(cr);
}

/* The measurement of test t from a to b (the last one), or NULL. */
static const struct ig_fab_meas *find(const struct ig_fab_run *r, int t,
				      unsigned int a, unsigned int b)
{
	const struct ig_fab_meas *m = NULL;

	for (size_t i = 0; i < r->k; i++)
		if (r->m[i].a == a && r->m[i].b == b &&
		    r->m[i].test == (enum ig_test)t)
			m = &r->m[i];
	return m;
}

static void panel(cairo_t *cr, const struct ig_fab_run *r,
		  const struct ig_fab_panel *p, double side)
{
	char title[96];

	snprintf(title, sizeof(title), "%s, median %.2f %s",
		 ig_test_name(IG_TESTS, p->test), r->medians[p->test],
		 ig_test_is_lat(p->test) ? "us (p50)" : "Gb/s");
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_move_to(cr, p->x, p->y - 24);
	cairo_show_text(cr, title);
	labels(cr, r->n, p->x, p->y, side);
	for (unsigned int a = 0; a < r->n; a++)
		for (unsigned int b = 0; b < r->n; b++)
			cell(cr, find(r, p->test, a, b), r->medians[p->test],
			     p->x + b * side, p->y + a * side, side);
}

static void text_at(cairo_t *cr, double x, double y, const char *s)
{
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

/* The colour scale, what its ends mean, and the other cells' colours. */
static void scale(cairo_t *cr, const struct ig_fab_layout *l)
{
	double x = l->scale_x, y = l->scale_y, w = SCALE_W / SCALE_STEPS;

	for (int i = 0; i < SCALE_STEPS; i++) {
		colour(cr, (double)i / (SCALE_STEPS - 1));
		cairo_rectangle(cr, x + i * w, y, w + 0.5, SCALE_H);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 10);
	text_at(cr, x, y - 6, "x the median of the test:");
	text_at(cr, x, y + SCALE_H + 12, "bandwidth 0.5 or less");
	text_at(cr, x + SCALE_W / 2 - 10, y + SCALE_H + 12, "0.75");
	text_at(cr, x + SCALE_W - 40, y + SCALE_H + 12, "1 or more");
	text_at(cr, x, y + SCALE_H + 24, "latency 2 or more");
	text_at(cr, x + SCALE_W / 2 - 10, y + SCALE_H + 24, "1.5");
	text_at(cr, x + SCALE_W - 40, y + SCALE_H + 24, "1 or less");
	text_at(cr, x + SCALE_W + 24, y + 2,
		"row a is the client of column b (it sends)");
	text_at(cr, x + SCALE_W + 24, y + 16,
		"grey: not measured; black: failed");
	text_at(cr, x + SCALE_W + 24, y + 30,
		"white frame: transient (low, then fine when");
	text_at(cr, x + SCALE_W + 24, y + 42,
		"measured again): the retest's figure");
}

static void draw(cairo_t *cr, const struct ig_fab_run *r,
		 const struct ig_fab_layout *l)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 12);
	for (unsigned int i = 0; i < l->np; i++)
		panel(cr, r, &l->p[i], l->cell);
	if (!l->np) {
		cairo_set_source_rgb(cr, 0, 0, 0);
		text_at(cr, MARGIN, TOP - 24, "nothing measured");
	}
	scale(cr, l);
}

int ig_fab_plot(const struct ig_fab_run *r, const char *path, char *err,
		size_t errlen)
{
	bool svg = ig_plot_format(path, err, errlen) == IG_PLOT_SVG;
	struct ig_fab_layout l;
	cairo_surface_t *s;
	cairo_t *cr;
	int ret = 0;

	ig_fab_plot_layout(r, &l);
	s = svg ? cairo_svg_surface_create(path, l.w, l.h)
		: cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)l.w,
					     (int)l.h);
	cr = cairo_create(s);
	draw(cr, r, &l);
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
