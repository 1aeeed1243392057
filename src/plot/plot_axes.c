// SPDX-License-Identifier: MIT
/*
 * Scales and axes of the figure: a log2 size axis with ticks at powers of
 * two, a linear axis from 0 with round ticks, a log10 axis over whole
 * decades; the grid, the frame, tick labels and axis titles; and the font
 * and anchored text that every label of the figure is drawn with.
 */
#include <math.h>
#include <stdio.h>

#include "plot_int.h"

#define GRID_MAJOR 0.83
#define GRID_MID 0.89
#define GRID_MINOR 0.94
#define X_LABEL_PX 48 /* room for one size label */

void ig_plot_scale_x(struct ig_plot_axis *a, uint64_t smin, uint64_t smax)
{
	double lo = smin ? log2((double)smin) : 1;
	double hi = smax ? log2((double)smax) : 20;

	/* Half an octave each side, a whole one for a single size. */
	a->lo = lo - (hi - lo < 1 ? 1 : 0.5);
	a->hi = hi + (hi - lo < 1 ? 1 : 0.5);
	a->log = false;
	a->step = 1;
}

/* 1, 2, 2.5 or 5 times a power of ten, at least span / nticks. */
static double nice_step(double span, int nticks)
{
	double raw = span / nticks;
	double mag = pow(10, floor(log10(raw)));
	double norm = raw / mag;

	if (norm <= 1)
		return mag;
	if (norm <= 2)
		return 2 * mag;
	if (norm <= 2.5)
		return 2.5 * mag;
	if (norm <= 5)
		return 5 * mag;
	return 10 * mag;
}

void ig_plot_scale_lin(struct ig_plot_axis *a, double vmax)
{
	a->log = false;
	a->lo = 0;
	if (!(vmax > 0) || !isfinite(vmax)) {
		a->step = 0.2;
		a->hi = 1;
		return;
	}
	a->step = nice_step(vmax, 5);
	/* A little room above the top point, so its marker stays inside. */
	a->hi = a->step * ceil(vmax * 1.02 / a->step);
}

void ig_plot_scale_lat(struct ig_plot_axis *a, double vmin, double vmax)
{
	if (!(vmin > 0) || !isfinite(vmax) || vmax / vmin <= 20) {
		ig_plot_scale_lin(a, vmax);
		return;
	}
	a->log = true;
	a->lo = floor(log10(vmin));
	a->hi = ceil(log10(vmax));
	a->step = 1;
}

void ig_plot_size_label(unsigned int exp2, char *buf, size_t len)
{
	static const char unit[] = { 0, 'K', 'M', 'G', 'T', 'P', 'E' };

	/* a size is a uint64_t: 2^63 (8E) at most; the mantissa then fits
	 * 3 digits, which -O3's format-truncation check can see */
	if (exp2 > 63)
		exp2 = 63;
	if (exp2 < 10)
		snprintf(buf, len, "%u", 1u << exp2);
	else
		snprintf(buf, len, "%u%c", 1u << (exp2 % 10), unit[exp2 / 10]);
}

double ig_plot_map_x(const struct ig_plot_axis *a, const struct ig_plot_rect *r,
		     uint64_t size)
{
	return r->x + (log2((double)size) - a->lo) / (a->hi - a->lo) * r->w;
}

double ig_plot_map_y(const struct ig_plot_axis *a, const struct ig_plot_rect *r,
		     double v)
{
	double u = a->log ? log10(v) : v;

	return r->y + r->h - (u - a->lo) / (a->hi - a->lo) * r->h;
}

void ig_plot_font(cairo_t *cr, double px, bool bold)
{
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD
				    : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, px);
}

void ig_plot_text(cairo_t *cr, double x, double y, double ax, const char *s)
{
	cairo_font_extents_t fe;
	cairo_text_extents_t te;

	cairo_font_extents(cr, &fe);
	cairo_text_extents(cr, s, &te);
	/* Middle of the font's ascent, so labels of one row line up. */
	cairo_move_to(cr, x - ax * te.x_advance,
		      y + (fe.ascent - fe.descent) / 2);
	cairo_show_text(cr, s);
}

static void line(cairo_t *cr, double x0, double y0, double x1, double y1,
		 double grey)
{
	cairo_set_source_rgb(cr, grey, grey, grey);
	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1, y1);
	cairo_stroke(cr);
}

/* Vertical grid at every power of two, labels every few. */
static void axis_x(cairo_t *cr, const struct ig_plot_axis *a,
		   const struct ig_plot_rect *r)
{
	static const int steps[] = { 1, 2, 3, 4, 5, 6, 8, 10, 16, 32 };
	int e0 = (int)ceil(a->lo), e1 = (int)floor(a->hi), step = 1;
	int room = (int)(r->w / X_LABEL_PX);
	char buf[16];

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i];
		if (e1 / step - (e0 + step - 1) / step + 1 <= room)
			break;
	}
	for (int e = e0 < 0 ? 0 : e0; e <= e1; e++) {
		double x = floor(ig_plot_map_x(a, r, 1ull << e)) + 0.5;
		bool major = e % step == 0;

		line(cr, x, r->y, x, r->y + r->h,
		     major ? GRID_MAJOR : GRID_MINOR);
		if (!major)
			continue;
		ig_plot_size_label((unsigned int)e, buf, sizeof(buf));
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		ig_plot_text(cr, x, r->y + r->h + 14, 0.5, buf);
	}
}

static void y_label(cairo_t *cr, const struct ig_plot_rect *r, double y,
		    double v, int decimals)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	ig_plot_text(cr, r->x - 8, y, 1, buf);
}

/* Digits after the point that show every multiple of step exactly. */
static int step_decimals(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) >
				1e-6 * pow(10, d))
		d++;
	return d;
}

static void axis_y_lin(cairo_t *cr, const struct ig_plot_axis *a,
		       const struct ig_plot_rect *r)
{
	int d = step_decimals(a->step);
	long nt = lround((a->hi - a->lo) / a->step);

	for (long i = 0; i <= nt; i++) {
		double v = a->lo + (double)i * a->step;
		double y = floor(ig_plot_map_y(a, r, v)) + 0.5;

		line(cr, r->x, y, r->x + r->w, y, GRID_MAJOR);
		y_label(cr, r, y, v, d);
	}
}

/* Major lines at decades, minor at 2..9 times each; over 3 decades or
 * fewer, 2 and 5 times each are labelled too. */
static void axis_y_log(cairo_t *cr, const struct ig_plot_axis *a,
		       const struct ig_plot_rect *r)
{
	bool fine = a->hi - a->lo <= 3;

	for (int e = (int)a->lo; e <= (int)a->hi; e++) {
		double dec = pow(10, e);
		double y = floor(ig_plot_map_y(a, r, dec)) + 0.5;

		line(cr, r->x, y, r->x + r->w, y, GRID_MAJOR);
		y_label(cr, r, y, dec, e < 0 ? -e : 0);
		for (int m = 2; m <= 9 && e < (int)a->hi; m++) {
			bool lab = fine && (m == 2 || m == 5);

			y = floor(ig_plot_map_y(a, r, m * dec)) + 0.5;
			line(cr, r->x, y, r->x + r->w, y,
			     lab ? GRID_MID : GRID_MINOR);
			if (lab)
				y_label(cr, r, y, m * dec, e < 0 ? -e : 0);
		}
	}
}

static void axis_titles(cairo_t *cr, const struct ig_plot_panel *p,
			const struct ig_plot_rect *r)
{
	char buf[64];

	ig_plot_font(cr, 12, false);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	ig_plot_text(cr, r->x + r->w / 2, r->y + r->h + 36, 0.5,
		     "Message size (bytes, log2 scale)");
	snprintf(buf, sizeof(buf), "%s%s", p->ylabel,
		 p->y.log ? ", log10 scale" : "");
	cairo_save(cr);
	cairo_translate(cr, r->x - 56, r->y + r->h / 2);
	cairo_rotate(cr, -M_PI / 2);
	ig_plot_text(cr, 0, 0, 0.5, buf);
	cairo_restore(cr);
}

void ig_plot_axes(cairo_t *cr, const struct ig_plot_fig *f,
		  const struct ig_plot_panel *p, const struct ig_plot_rect *r)
{
	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	ig_plot_font(cr, 11, false);
	/* An empty panel has no scale to show: its ticks would be made up. */
	if (p->npts)
		axis_x(cr, &f->x, r);
	if (p->npts && p->y.log)
		axis_y_log(cr, &p->y, r);
	else if (p->npts)
		axis_y_lin(cr, &p->y, r);
	cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
	cairo_rectangle(cr, floor(r->x) + 0.5, floor(r->y) + 0.5, floor(r->w),
			floor(r->h));
	cairo_stroke(cr);
	axis_titles(cr, p, r);
	cairo_restore(cr);
}
