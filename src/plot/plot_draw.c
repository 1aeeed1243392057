// SPDX-License-Identifier: MIT
/*
 * Drawing the figure on any cairo surface: the title, then per panel its
 * title, a legend in a row above the plot area (never over the data), the
 * axes and one line with markers per series (test, streams, window).
 */
#include <math.h>
#include <stdio.h>

#include "common/params.h"
#include "plot_int.h"

#define PANEL_W (IG_PLOT_WIDTH / 2)
#define PLOT_LEFT 80  /* panel edge -> plot area: y labels and title */
#define PLOT_RIGHT 24 /* plot area -> panel edge */
#define PLOT_BOTTOM 58
#define LEGEND_TOP 62
#define LEGEND_ROW 18
#define LEGEND_SAMPLE 34 /* the line and marker of one entry */
#define LEGEND_GAP 22

struct style {
	double rgb[3];
	int marker; /* 0 circle, 1 square, 2 diamond */
};

/* By enum ig_test, then for names ibgap does not know. */
static const struct style styles[] = {
	[IG_TEST_TCP_BW] = { { 0.12, 0.47, 0.71 }, 0 },
	[IG_TEST_TCP_LAT] = { { 0.42, 0.24, 0.60 }, 0 },
	[IG_TEST_SEND_BW] = { { 1.00, 0.50, 0.05 }, 1 },
	[IG_TEST_WRITE_BW] = { { 0.17, 0.63, 0.17 }, 2 },
	[IG_TEST_SEND_LAT] = { { 0.84, 0.15, 0.16 }, 1 },
	[IG_TEST_WRITE_LAT] = { { 0.55, 0.34, 0.29 }, 2 },
	{ { 0.89, 0.47, 0.76 }, 0 },
	{ { 0.50, 0.50, 0.50 }, 0 },
	{ { 0.74, 0.74, 0.13 }, 0 },
	{ { 0.09, 0.75, 0.81 }, 0 },
};
#define NSTYLES (sizeof(styles) / sizeof(styles[0]))

/* A series' colour and marker: its test's, and for the further lines of
 * one test (other streams, windows), the next marker and a darker or
 * lighter shade. */
static struct style style_of(const struct ig_plot_series *s)
{
	static const double shade[] = { 0, -0.45, 0.45, -0.7 };
	unsigned int i = s->style;
	struct style st = styles[i < NSTYLES ? i : IG_TEST_COUNT + i % 4];
	double f = shade[s->variant % 4];

	for (int c = 0; c < 3; c++)
		st.rgb[c] = f < 0 ? st.rgb[c] * (1 + f)
				  : st.rgb[c] + (1 - st.rgb[c]) * f;
	st.marker = (st.marker + (int)s->variant) % 3;
	return st;
}

static void marker(cairo_t *cr, const struct style *st, double x, double y)
{
	const double r = 4;

	cairo_new_sub_path(cr);
	if (st->marker == 1) {
		cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7,
				r * 1.7);
	} else if (st->marker == 2) {
		cairo_move_to(cr, x, y - r * 1.2);
		cairo_line_to(cr, x + r * 1.2, y);
		cairo_line_to(cr, x, y + r * 1.2);
		cairo_line_to(cr, x - r * 1.2, y);
		cairo_close_path(cr);
	} else {
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
	}
	cairo_set_source_rgb(cr, st->rgb[0], st->rgb[1], st->rgb[2]);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
}

static void line_style(cairo_t *cr, const struct ig_plot_series *s)
{
	static const double dash[] = { 7, 4 };
	const struct style st = style_of(s);

	cairo_set_source_rgb(cr, st.rgb[0], st.rgb[1], st.rgb[2]);
	cairo_set_line_width(cr, 2);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_dash(cr, dash, s->dashed ? 2 : 0, 0);
}

static void draw_series(cairo_t *cr, const struct ig_plot_fig *f,
			const struct ig_plot_panel *p, size_t k,
			const struct ig_plot_rect *r)
{
	const struct ig_plot_series *s = &p->series[k];
	const struct style st = style_of(s);
	size_t i0 = 0, i1;

	while (i0 < p->npts && p->pts[i0].series != k)
		i0++;
	for (i1 = i0; i1 < p->npts && p->pts[i1].series == k; i1++) {
		double x = ig_plot_map_x(&f->x, r, p->pts[i1].size);
		double y = ig_plot_map_y(&p->y, r, p->pts[i1].y);

		if (i1 == i0)
			cairo_move_to(cr, x, y);
		else
			cairo_line_to(cr, x, y);
	}
	cairo_save(cr);
	line_style(cr, s);
	cairo_stroke(cr);
	cairo_restore(cr);
	for (size_t i = i0; i < i1; i++)
		marker(cr, &st, ig_plot_map_x(&f->x, r, p->pts[i].size),
		       ig_plot_map_y(&p->y, r, p->pts[i].y));
}

/* Lays the legend out in rows over [x, x + w]; draws it when draw is set.
 * Returns the number of rows. */
static int legend(cairo_t *cr, const struct ig_plot_panel *p, double x,
		  double w, bool draw)
{
	double cx = x, y = LEGEND_TOP;
	int rows = p->nseries ? 1 : 0;
	cairo_text_extents_t te;

	ig_plot_font(cr, 12, false);
	for (size_t i = 0; i < p->nseries; i++) {
		const struct ig_plot_series *s = &p->series[i];
		const struct style st = style_of(s);
		double ew;

		cairo_text_extents(cr, s->name, &te);
		ew = LEGEND_SAMPLE + 6 + te.x_advance;
		if (cx > x && cx + ew > x + w) {
			cx = x;
			y += LEGEND_ROW;
			rows++;
		}
		if (draw) {
			cairo_save(cr);
			line_style(cr, s);
			cairo_move_to(cr, cx, y);
			cairo_line_to(cr, cx + LEGEND_SAMPLE, y);
			cairo_stroke(cr);
			cairo_restore(cr);
			marker(cr, &st, cx + LEGEND_SAMPLE / 2, y);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			ig_plot_text(cr, cx + LEGEND_SAMPLE + 6, y, 0, s->name);
		}
		cx += ew + LEGEND_GAP;
	}
	return rows;
}

/* The plot area of panel k, below legends of rows rows. */
static void panel_rect(int k, int rows, struct ig_plot_rect *r)
{
	r->x = k * PANEL_W + PLOT_LEFT;
	r->w = PANEL_W - PLOT_LEFT - PLOT_RIGHT;
	r->y = LEGEND_TOP + rows * LEGEND_ROW + 4;
	r->h = IG_PLOT_HEIGHT - PLOT_BOTTOM - r->y;
}

static void draw_panel(cairo_t *cr, const struct ig_plot_fig *f, int k,
		       int rows)
{
	const struct ig_plot_panel *p = &f->panel[k];
	struct ig_plot_rect r;

	panel_rect(k, rows, &r);
	ig_plot_font(cr, 13, true);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	ig_plot_text(cr, r.x + r.w / 2, 42, 0.5, p->title);
	ig_plot_axes(cr, f, p, &r);
	legend(cr, p, r.x, r.w, true);
	if (!p->npts) {
		ig_plot_font(cr, 13, false);
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		ig_plot_text(cr, r.x + r.w / 2, r.y + r.h / 2, 0.5, p->empty);
		return;
	}
	for (size_t i = 0; i < p->nseries; i++)
		draw_series(cr, f, p, i, &r);
}

/* "64 KiB" for the title: exact, in the largest unit that divides. */
static void size_text(uint64_t s, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned int u = 0;

	while (u < 3 && s && !(s & 1023)) {
		s >>= 10;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)s, unit[u]);
}

static void draw_title(cairo_t *cr, const struct ig_plot_fig *f)
{
	char a[32], b[32], t[128];

	size_text(f->size_min, a, sizeof(a));
	size_text(f->size_max, b, sizeof(b));
	if (!f->size_min)
		snprintf(t, sizeof(t), "ibgap: no results");
	else if (f->size_min == f->size_max)
		snprintf(t, sizeof(t),
			 "ibgap: bandwidth and latency, message size %s", a);
	else
		snprintf(t, sizeof(t),
			 "ibgap: bandwidth and latency, message sizes %s to %s",
			 a, b);
	ig_plot_font(cr, 14, true);
	cairo_set_source_rgb(cr, 0, 0, 0);
	ig_plot_text(cr, IG_PLOT_WIDTH / 2.0, 16, 0.5, t);
}

void ig_plot_draw(cairo_t *cr, const struct ig_plot_fig *f)
{
	struct ig_plot_rect r;
	int rows = 1;

	/* Both plot areas start below the taller legend, so they line up. */
	for (int k = 0; k < 2; k++) {
		int n;

		panel_rect(k, 1, &r);
		n = legend(cr, &f->panel[k], r.x, r.w, false);
		rows = n > rows ? n : rows;
	}
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	draw_title(cr, f);
	for (int k = 0; k < 2; k++)
		draw_panel(cr, f, k, rows);
}
