// SPDX-License-Identifier: MIT
/*
 * Unit tests of plot.c and its helpers: the points (one per test and size,
 * repeats averaged, latency p50 in microseconds), the scales (log10 latency
 * only past a 20x span, round linear ticks), the size labels, and the files:
 * SVG text with its root element, PNG signature and 1200 x 500 IHDR, pixels
 * that show data in the right panel only when there is some, solid verbs
 * lines and dashed TCP ones, and errors (extension, missing directory, full
 * disk) that name the path and leave no file behind.
 *
 * IG_PLOT_EXAMPLE=path.png makes test_example write its figure there too
 * (that is how docs/plot-example.png is made).
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cairo.h>

#include "plot/plot.h"
#include "plot/plot_int.h"
#include "testmain.h"

#define NSIZES 20 /* 2 .. 1M */
#define NSAMPLES 9

/* Known values of the sweep, per size in bytes. */
static double tcp_bw_of(double s)
{
	return 40.0 * s / (s + 4096);
}

static double write_bw_of(double s)
{
	return 95.0 * s / (s + 512);
}

static uint64_t tcp_lat_ns(uint64_t s)
{
	return 8000 + s / 12;
}

static uint64_t send_lat_ns(uint64_t s)
{
	return 1500 + s / 11;
}

static void make(struct ig_result *r, const char *test, const char *xport,
		 uint64_t size)
{
	memset(r, 0, sizeof(*r));
	r->test = test;
	r->transport = xport;
	r->params.size = size;
	r->params.streams = 1;
	ig_hist_init(&r->lat);
}

static void make_bw(struct ig_result *r, const char *test, const char *xport,
		    uint64_t size, double gbps)
{
	make(r, test, xport, size);
	r->bw_gbps = gbps;
}

/* nsamples samples of ns each: the p50 is ns exactly (min = max). */
static void make_lat(struct ig_result *r, const char *test, const char *xport,
		     uint64_t size, uint64_t ns, int nsamples)
{
	make(r, test, xport, size);
	r->has_lat = true;
	for (int i = 0; i < nsamples; i++)
		ig_hist_add(&r->lat, ns);
	r->bw_gbps = 0.001; /* as a ping-pong has: not a bandwidth result */
}

/* tcp_bw, write_bw, tcp_lat, send_lat at 2 .. 1M, interleaved. */
static struct ig_result *sweep(size_t *n)
{
	struct ig_result *res = calloc(4 * NSIZES, sizeof(*res));
	size_t k = 0;

	ck_assert_ptr_nonnull(res);
	for (unsigned int e = 1; e <= NSIZES; e++) {
		uint64_t s = 1ull << e;

		make_lat(&res[k++], "send_lat", "verbs", s, send_lat_ns(s),
			 NSAMPLES);
		make_bw(&res[k++], "write_bw", "verbs", s,
			write_bw_of((double)s));
		make_lat(&res[k++], "tcp_lat", "tcp", s, tcp_lat_ns(s),
			 NSAMPLES);
		make_bw(&res[k++], "tcp_bw", "tcp", s, tcp_bw_of((double)s));
	}
	*n = k;
	return res;
}

static char *tmp_dir(void)
{
	char *d = strdup("/tmp/test_plot.XXXXXX");

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(mkdtemp(d));
	return d;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(p);
}

static void rm_tmp(char *d)
{
	ck_assert_int_eq(nftw(d, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(d);
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	ck_assert_int_gt(asprintf(&p, "%s/%s", dir, name), 0);
	return p;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f, "cannot open %s: %s", path, strerror(errno));
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_ok(const char *path, const struct ig_result *res, size_t n)
{
	char err[256] = "";
	int ret = ig_plot_write(path, res, n, err, sizeof(err));

	ck_assert_msg(ret == 0, "ig_plot_write(%s) = %d: %s", path, ret, err);
}

static void check_svg(const char *path)
{
	size_t len;
	char *s = slurp(path, &len);
	char *end;

	ck_assert_msg(len > 1024, "%s: only %zu bytes", path, len);
	ck_assert_msg(!strncmp(s, "<?xml", 5), "%s: no XML declaration", path);
	ck_assert_ptr_nonnull(strstr(s, "<svg"));
	ck_assert_ptr_nonnull(strstr(s, "width=\"1200"));
	ck_assert_ptr_nonnull(strstr(s, "height=\"500"));
	end = strstr(s, "</svg>");
	ck_assert_ptr_nonnull(end);
	/* Nothing but white space after the root element. */
	ck_assert_uint_eq(strspn(end + 6, " \r\n\t"), strlen(end + 6));
	free(s);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void check_png_header(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'P',  'N',	'G',
					      '\r', '\n', 0x1a, '\n' };
	size_t len;
	unsigned char *b = (unsigned char *)slurp(path, &len);

	ck_assert_msg(len > 1024, "%s: only %zu bytes", path, len);
	ck_assert_int_eq(memcmp(b, sig, 8), 0);
	ck_assert_uint_eq(be32(b + 8), 13);
	ck_assert_int_eq(memcmp(b + 12, "IHDR", 4), 0);
	ck_assert_uint_eq(be32(b + 16), 1200);
	ck_assert_uint_eq(be32(b + 20), 500);
	free(b);
}

/* Pixels read back from a PNG through cairo. */
struct img {
	cairo_surface_t *s;
	const unsigned char *data;
	int stride;
};

static void img_open(struct img *im, const char *path)
{
	im->s = cairo_image_surface_create_from_png(path);
	ck_assert_int_eq(cairo_surface_status(im->s), CAIRO_STATUS_SUCCESS);
	ck_assert_int_eq(cairo_image_surface_get_width(im->s), 1200);
	ck_assert_int_eq(cairo_image_surface_get_height(im->s), 500);
	cairo_surface_flush(im->s);
	im->data = cairo_image_surface_get_data(im->s);
	im->stride = cairo_image_surface_get_stride(im->s);
}

static uint32_t px(const struct img *im, int x, int y)
{
	return *(const uint32_t *)(im->data + y * im->stride + x * 4);
}

/* A pixel of a data colour, not white, black or grey. */
static bool coloured(const struct img *im, int x, int y)
{
	uint32_t v = px(im, x, y);
	int r = v >> 16 & 255, g = v >> 8 & 255, b = v & 255;
	int hi = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int lo = r < g ? (r < b ? r : b) : (g < b ? g : b);

	return hi - lo > 60;
}

static long count_coloured(const struct img *im, int x0, int x1)
{
	long c = 0;

	for (int y = 0; y < 500; y++)
		for (int x = x0; x < x1; x++)
			c += coloured(im, x, y);
	return c;
}

/* Pixels with ink (not near white) in [x0, x1) x [y0, y1). */
static long count_ink(const struct img *im, int x0, int y0, int x1, int y1)
{
	long c = 0;

	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			c += (px(im, x, y) & 0xff) < 200;
	return c;
}

/* The middle of panel k's plot area, where "no ... results" goes, has
 * text in it: nothing else is drawn in an empty panel. */
static void check_empty_text(const struct img *im, int k)
{
	int cx = 600 * k + 328;

	ck_assert_int_gt(count_ink(im, cx - 100, 240, cx + 100, 290), 100);
}

START_TEST(test_size_labels)
{
	static const struct {
		unsigned int e;
		const char *s;
	} t[] = { { 0, "1" },	 { 1, "2" },	{ 6, "64" },	{ 9, "512" },
		  { 10, "1K" },	 { 16, "64K" }, { 19, "512K" }, { 20, "1M" },
		  { 26, "64M" }, { 30, "1G" },	{ 63, "8E" },	{ 64, "8E" } };
	char buf[16];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ig_plot_size_label(t[i].e, buf, sizeof(buf));
		ck_assert_str_eq(buf, t[i].s);
	}
}
END_TEST

/* Linear: from 0, above the maximum by less than a step, 3..10 round
 * ticks of 1, 2, 2.5 or 5 times a power of ten. */
START_TEST(test_scale_lin)
{
	struct ig_plot_axis a;

	for (double v = 0.0013; v < 5e6; v *= 1.37) {
		double m, k;

		ig_plot_scale_lin(&a, v);
		ck_assert(!a.log);
		ck_assert_double_eq(a.lo, 0);
		ck_assert_msg(a.hi >= v && a.hi <= v * 1.02 + a.step + 1e-12,
			      "max %g: top %g step %g", v, a.hi, a.step);
		k = a.hi / a.step;
		ck_assert_double_eq_tol(k, round(k), 1e-9);
		ck_assert(k >= 3 && k <= 10);
		m = a.step / pow(10, floor(log10(a.step) + 1e-12));
		ck_assert_msg(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 ||
				      fabs(m - 2.5) < 1e-9 ||
				      fabs(m - 5) < 1e-9,
			      "step %g is not round", a.step);
	}
	ig_plot_scale_lin(&a, 0);
	ck_assert(a.hi > 0 && a.step > 0);
	ig_plot_scale_lin(&a, NAN);
	ck_assert(a.hi > 0 && a.step > 0);
}
END_TEST

START_TEST(test_scale_lat)
{
	struct ig_plot_axis a;

	ig_plot_scale_lat(&a, 1.0, 20.0); /* exactly 20x: linear */
	ck_assert(!a.log);
	ck_assert_double_eq(a.lo, 0);
	ig_plot_scale_lat(&a, 1.0, 20.5);
	ck_assert(a.log);
	ck_assert_double_eq(a.lo, 0);
	ck_assert_double_eq(a.hi, 2);
	ig_plot_scale_lat(&a, 0.35, 1200);
	ck_assert(a.log);
	ck_assert_double_eq(a.lo, -1);
	ck_assert_double_eq(a.hi, 4);
	ig_plot_scale_lat(&a, 0, 1200); /* no log of 0 */
	ck_assert(!a.log);
	ck_assert(a.hi >= 1200);
}
END_TEST

/* --also's column: tcp_bw on transport tcp@ADDR is a series of its own,
 * named with the address, dashed; a failed result is no point. */
START_TEST(test_collect_also)
{
	struct ig_result *res = calloc(4, sizeof(*res));
	struct ig_plot_fig f;
	struct ig_plot_panel *bw = &f.panel[0];

	ck_assert_ptr_nonnull(res);
	make_bw(&res[0], "tcp_bw", "tcp", 65536, 10);
	make_bw(&res[1], "tcp_bw", "tcp@127.0.0.2", 65536, 4);
	make_bw(&res[2], "tcp_bw", "tcp@127.0.0.2", 1024, 2);
	make_bw(&res[3], "tcp_bw", "tcp@127.0.0.2", 4096, 3);
	res[3].failed = true;
	ck_assert_int_eq(ig_plot_collect(&f, res, 4), 0);
	ck_assert_uint_eq(bw->nseries, 2);
	ck_assert_str_eq(bw->series[0].name, "tcp_bw");
	ck_assert_str_eq(bw->series[1].name, "tcp_bw@127.0.0.2");
	ck_assert(bw->series[1].dashed);
	ck_assert_uint_eq(bw->npts, 3);
	ck_assert_double_eq(bw->pts[0].y, 10);
	ck_assert_double_eq(bw->pts[1].y, 2);
	ck_assert_double_eq(bw->pts[2].y, 4);
	ig_plot_fig_free(&f);
	free(res);
}
END_TEST

/* The sweep: one point per test and size with the value given, series in
 * test order whatever the order of the results, TCP dashed. */
START_TEST(test_collect_sweep)
{
	struct ig_plot_fig f;
	struct ig_plot_panel *bw = &f.panel[0], *lat = &f.panel[1];
	struct ig_result *res;
	size_t n;

	res = sweep(&n);
	ck_assert_int_eq(ig_plot_collect(&f, res, n), 0);
	ck_assert_uint_eq(f.size_min, 2);
	ck_assert_uint_eq(f.size_max, 1 << 20);
	ck_assert_double_eq_tol(f.x.lo, 0.5, 1e-12);
	ck_assert_double_eq_tol(f.x.hi, 20.5, 1e-12);

	ck_assert_uint_eq(bw->nseries, 2);
	ck_assert_str_eq(bw->series[0].name, "tcp_bw");
	ck_assert(bw->series[0].dashed);
	ck_assert_str_eq(bw->series[1].name, "write_bw");
	ck_assert(!bw->series[1].dashed);
	ck_assert_uint_eq(bw->npts, 2 * NSIZES);
	for (unsigned int i = 0; i < NSIZES; i++) {
		const struct ig_plot_pt *t = &bw->pts[i], *w = &bw->pts[i + 20];
		double s = (double)(1ull << (i + 1));

		ck_assert_uint_eq(t->size, 1ull << (i + 1));
		ck_assert_uint_eq(w->size, 1ull << (i + 1));
		ck_assert_double_eq_tol(t->y, tcp_bw_of(s), 1e-12);
		ck_assert_double_eq_tol(w->y, write_bw_of(s), 1e-12);
	}
	ck_assert(!bw->y.log);
	ck_assert_double_eq(bw->y.lo, 0);
	ck_assert(bw->y.hi >= write_bw_of(1 << 20));

	ck_assert_uint_eq(lat->nseries, 2);
	ck_assert_str_eq(lat->series[0].name, "tcp_lat");
	ck_assert(lat->series[0].dashed);
	ck_assert_str_eq(lat->series[1].name, "send_lat");
	ck_assert(!lat->series[1].dashed);
	ck_assert_uint_eq(lat->npts, 2 * NSIZES);
	for (unsigned int i = 0; i < NSIZES; i++) {
		uint64_t s = 1ull << (i + 1);

		ck_assert_double_eq_tol(lat->pts[i].y, tcp_lat_ns(s) / 1e3,
					1e-9);
		ck_assert_double_eq_tol(lat->pts[i + 20].y,
					send_lat_ns(s) / 1e3, 1e-9);
	}
	/* 1.5 us .. 95.2 us: more than 20x, log10 over 1 .. 100 */
	ck_assert(lat->y.log);
	ck_assert_double_eq(lat->y.lo, 0);
	ck_assert_double_eq(lat->y.hi, 2);
	ig_plot_fig_free(&f);
	free(res);
}
END_TEST

/* One size, repeats averaged; a latency result without a p50 left out. */
START_TEST(test_collect_repeats)
{
	struct ig_result *res = calloc(6, sizeof(*res));
	struct ig_plot_fig f;

	ck_assert_ptr_nonnull(res);
	make_bw(&res[0], "send_bw", "verbs", 65536, 10);
	make_bw(&res[1], "send_bw", "verbs", 65536, 20);
	make_bw(&res[2], "send_bw", "verbs", 65536, 36);
	make_lat(&res[3], "write_lat", "verbs", 65536, 7000, 2);
	make_lat(&res[4], "write_lat", "verbs", 65536, 9000, 2);
	make_lat(&res[5], "tcp_lat", "tcp", 65536, 5000, 1); /* no p50 */
	ck_assert_int_eq(ig_plot_collect(&f, res, 6), 0);
	ck_assert_uint_eq(f.panel[0].npts, 1);
	ck_assert_uint_eq(f.panel[0].pts[0].count, 3);
	ck_assert_double_eq_tol(f.panel[0].pts[0].y, 22, 1e-12);
	ck_assert_uint_eq(f.panel[1].nseries, 1);
	ck_assert_str_eq(f.panel[1].series[0].name, "write_lat");
	ck_assert_uint_eq(f.panel[1].npts, 1);
	ck_assert_double_eq_tol(f.panel[1].pts[0].y, 8.0, 1e-9);
	ck_assert(!f.panel[1].y.log);
	/* one size, 64K: an octave either side */
	ck_assert_double_eq_tol(f.x.lo, 15, 1e-12);
	ck_assert_double_eq_tol(f.x.hi, 17, 1e-12);
	ig_plot_fig_free(&f);
	free(res);
}
END_TEST

START_TEST(test_write_svg)
{
	char *d = tmp_dir(), *p = path_in(d, "sweep.svg");
	struct ig_result *res;
	size_t n;

	res = sweep(&n);
	write_ok(p, res, n);
	check_svg(p);
	free(p);
	p = path_in(d, "UPPER.SVG"); /* the extension in any case */
	write_ok(p, res, n);
	check_svg(p);
	free(p);
	free(res);
	rm_tmp(d);
}
END_TEST

START_TEST(test_write_png)
{
	char *d = tmp_dir(), *p = path_in(d, "sweep.Png");
	struct ig_result *res;
	struct img im;
	size_t n;

	res = sweep(&n);
	write_ok(p, res, n);
	check_png_header(p);
	img_open(&im, p);
	ck_assert_uint_eq(px(&im, 2, 2) & 0xffffff, 0xffffff);
	ck_assert_uint_eq(px(&im, 1197, 497) & 0xffffff, 0xffffff);
	ck_assert_int_gt(count_coloured(&im, 0, 600), 1000);
	ck_assert_int_gt(count_coloured(&im, 600, 1200), 1000);
	cairo_surface_destroy(im.s);
	free(p);
	free(res);
	rm_tmp(d);
}
END_TEST

/* The row of the panel with the most coloured pixels, and the number of
 * gaps in it between the markers at its ends (their white rims, 8 px from
 * the first and the last coloured pixel, are not gaps of the line). */
static int row_gaps(const struct img *im, int x0, int x1)
{
	int best = 0, best_y = 0, first = -1, last = -1, gaps = 0;

	for (int y = 0; y < 500; y++) {
		int c = 0;

		for (int x = x0; x < x1; x++)
			c += coloured(im, x, y);
		if (c > best) {
			best = c;
			best_y = y;
		}
	}
	ck_assert_int_gt(best, 150);
	for (int x = x0; x < x1; x++) {
		if (coloured(im, x, best_y)) {
			first = first < 0 ? x : first;
			last = x;
		}
	}
	ck_assert_int_gt(last - first, 400); /* a line across the panel */
	for (int x = first + 9; x < last - 8; x++)
		gaps += coloured(im, x - 1, best_y) && !coloured(im, x, best_y);
	return gaps;
}

/* -s 4K:64K -P 1,4 --window default,64K: one series per streams x
 * window, each point the value measured (old code: one tcp_bw line of
 * the means of all four); the legend names the streams and window. */
START_TEST(test_collect_matrix)
{
	static const char *const names[] = {
		"tcp_bw -P 1 --window default",
		"tcp_bw -P 1 --window 64K",
		"tcp_bw -P 4 --window default",
		"tcp_bw -P 4 --window 64K",
	};
	struct ig_result *res = calloc(9, sizeof(*res));
	struct ig_plot_fig f;
	struct ig_plot_panel *bw = &f.panel[0];
	char *d = tmp_dir(), *path = path_in(d, "matrix.png");
	struct img im;
	size_t k = 0;

	ck_assert_ptr_nonnull(res);
	/* plan order: sizes, streams, windows; value = 10 P + w/4K + s/4K */
	for (uint64_t s = 4096; s <= 65536; s *= 16)
		for (uint32_t p = 1; p <= 4; p *= 4)
			for (uint64_t w = 0; w <= 65536; w += 65536) {
				make_bw(&res[k], "tcp_bw", "tcp", s,
					10.0 * p + w / 4096 + s / 4096);
				res[k].params.streams = p;
				res[k++].params.sock.window = w;
			}
	make_lat(&res[k++], "tcp_lat", "tcp", 2, 9000, NSAMPLES);
	ck_assert_int_eq(ig_plot_collect(&f, res, k), 0);
	ck_assert_uint_eq(bw->nseries, 4);
	ck_assert_uint_eq(bw->npts, 8);
	for (unsigned int i = 0; i < 4; i++) {
		const struct ig_plot_series *se = &bw->series[i];
		double p = i < 2 ? 1 : 4, w = i % 2 ? 16 : 0;

		ck_assert_str_eq(se->name, names[i]);
		ck_assert_uint_eq(se->variant, i);
		ck_assert_uint_eq(bw->pts[2 * i].series, i);
		ck_assert_uint_eq(bw->pts[2 * i].size, 4096);
		ck_assert_uint_eq(bw->pts[2 * i].count, 1);
		ck_assert_double_eq_tol(bw->pts[2 * i].y, 10 * p + w + 1,
					1e-12);
		ck_assert_uint_eq(bw->pts[2 * i + 1].size, 65536);
		ck_assert_double_eq_tol(bw->pts[2 * i + 1].y, 10 * p + w + 16,
					1e-12);
	}
	/* the latency test ran at one combination: named as the others */
	ck_assert_str_eq(f.panel[1].series[0].name,
			 "tcp_lat -P 1 --window default");
	ig_plot_fig_free(&f);
	/* and the figure of them is drawn */
	write_ok(path, res, k);
	img_open(&im, path);
	ck_assert_int_gt(count_coloured(&im, 0, 600),
			 400); /* 4 lines of 2 points */
	cairo_surface_destroy(im.s);
	free(path);
	rm_tmp(d);

	/* --zerocopy both: the copying and the zero-copy line apart */
	res[1] = res[0];
	res[1].local.sock.zerocopy = IG_ZC_ON;
	res[1].bw_gbps = 30;
	res[0].local.sock.zerocopy = IG_ZC_COPY;
	ck_assert_int_eq(ig_plot_collect(&f, res, 2), 0);
	ck_assert_uint_eq(bw->nseries, 2);
	ck_assert_str_eq(bw->series[0].name, "tcp_bw");
	ck_assert_str_eq(bw->series[1].name, "tcp_bw zerocopy");
	ck_assert_double_eq_tol(bw->pts[1].y, 30, 1e-12);
	ig_plot_fig_free(&f);
	free(res);
}
END_TEST

/* A flat line from 2 B to 1 MiB: solid for verbs, dashed for TCP. */
START_TEST(test_line_styles)
{
	struct ig_result *res = calloc(4, sizeof(*res));
	char *d = tmp_dir(), *p = path_in(d, "styles.png");
	struct img im;

	ck_assert_ptr_nonnull(res);
	make_bw(&res[0], "write_bw", "verbs", 2, 50);
	make_bw(&res[1], "write_bw", "verbs", 1 << 20, 50);
	make_lat(&res[2], "tcp_lat", "tcp", 2, 20000, 3);
	make_lat(&res[3], "tcp_lat", "tcp", 1 << 20, 20000, 3);
	write_ok(p, res, 4);
	img_open(&im, p);
	ck_assert_int_eq(row_gaps(&im, 0, 600), 0);
	ck_assert_int_ge(row_gaps(&im, 600, 1200), 20);
	cairo_surface_destroy(im.s);
	free(p);
	free(res);
	rm_tmp(d);
}
END_TEST

/* Bandwidth only: the latency panel has no data colour at all. */
START_TEST(test_no_latency)
{
	char *d = tmp_dir(), *p = path_in(d, "bw.png");
	struct ig_result *res = calloc(3, sizeof(*res));
	struct img im;

	ck_assert_ptr_nonnull(res);
	make_bw(&res[0], "tcp_bw", "tcp", 4096, 9.5);
	make_bw(&res[1], "tcp_bw", "tcp", 8192, 14.25);
	make_lat(&res[2], "send_lat", "verbs", 4096, 1800, 1); /* no p50 */
	write_ok(p, res, 3);
	img_open(&im, p);
	ck_assert_int_gt(count_coloured(&im, 0, 600), 100);
	ck_assert_int_eq(count_coloured(&im, 600, 1200), 0);
	check_empty_text(&im, 1);
	cairo_surface_destroy(im.s);
	free(p);
	free(res);
	rm_tmp(d);
}
END_TEST

/* No results: a valid figure of both panels saying so, not an error. */
START_TEST(test_empty)
{
	char *d = tmp_dir(), *p = path_in(d, "empty.png");
	struct img im;

	write_ok(p, NULL, 0);
	check_png_header(p);
	img_open(&im, p);
	ck_assert_int_eq(count_coloured(&im, 0, 1200), 0);
	check_empty_text(&im, 0);
	check_empty_text(&im, 1);
	cairo_surface_destroy(im.s);
	free(p);
	p = path_in(d, "empty.svg");
	write_ok(p, NULL, 0);
	check_svg(p);
	free(p);
	rm_tmp(d);
}
END_TEST

START_TEST(test_bad_extension)
{
	static const char *const bad[] = { "x.gif",	"svg",	   ".png",
					   "a.svg.txt", "plot.sv", "x.pngx" };
	char *d = tmp_dir();

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "", want[64];
		char *p = path_in(d, bad[i]);

		ck_assert_int_eq(ig_plot_write(bad[i], NULL, 0, err,
					       sizeof(err)),
				 -EINVAL);
		snprintf(want, sizeof(want), "'%s'", bad[i]);
		ck_assert_msg(strstr(err, want), "'%s' -> \"%s\"", bad[i], err);
		ck_assert_ptr_null(strchr(err, '\n'));
		ck_assert_int_eq(ig_plot_write(p, NULL, 0, err, sizeof(err)),
				 -EINVAL);
		ck_assert_int_ne(access(p, F_OK), 0);
		free(p);
	}
	rm_tmp(d);
}
END_TEST

static void write_fails(const char *path, int want_errno)
{
	char err[512] = "";
	int ret = ig_plot_write(path, NULL, 0, err, sizeof(err));

	ck_assert_msg(ret == -want_errno, "%s: %d (%s), want %d", path, ret,
		      err, -want_errno);
	ck_assert_msg(strstr(err, path), "'%s' not in \"%s\"", path, err);
	ck_assert_ptr_nonnull(strstr(err, strerror(want_errno)));
}

/* Errors of the file system come back as their errno, naming the path,
 * and a file that failed half-way is removed. */
START_TEST(test_unwritable)
{
	char *d = tmp_dir();
	char *missing = path_in(d, "no-such-dir/x.png");
	char *dir = path_in(d, "dir.svg");
	char *full = path_in(d, "full.png");

	write_fails(missing, ENOENT);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	write_fails(dir, EISDIR);
	if (!access("/dev/full", W_OK)) {
		ck_assert_int_eq(symlink("/dev/full", full), 0);
		write_fails(full, ENOSPC);
		ck_assert_int_ne(access(full, F_OK), 0);
	}
	free(missing);
	free(dir);
	free(full);
	rm_tmp(d);
}
END_TEST

static void example_lat(struct ig_result *r, const char *t, const char *x,
			uint64_t s, double base_us, double gbps)
{
	double us = base_us + (double)s * 8 / (gbps * 1e3);

	make_lat(r, t, x, s, (uint64_t)(us * 1e3), NSAMPLES);
}

/* All six tests over 2 .. 1M, shaped like a 100 Gb/s HCA: the README's
 * figure.  Checks that every panel has data and the file is small. */
START_TEST(test_example)
{
	struct ig_result *res = calloc(6 * NSIZES, sizeof(*res));
	const char *out = getenv("IG_PLOT_EXAMPLE");
	char *d = tmp_dir(), *p = path_in(d, "example.png");
	struct img im;
	size_t k = 0, len;

	ck_assert_ptr_nonnull(res);
	for (unsigned int e = 1; e <= NSIZES; e++) {
		uint64_t s = 1ull << e;
		double x = (double)s;

		make_bw(&res[k++], "tcp_bw", "tcp", s, 38 * x / (x + 6000));
		make_bw(&res[k++], "send_bw", "verbs", s, 96 * x / (x + 900));
		make_bw(&res[k++], "write_bw", "verbs", s, 97 * x / (x + 700));
		example_lat(&res[k++], "tcp_lat", "tcp", s, 9.5, 30);
		example_lat(&res[k++], "send_lat", "verbs", s, 1.25, 95);
		example_lat(&res[k++], "write_lat", "verbs", s, 1.05, 96);
	}
	write_ok(p, res, k);
	img_open(&im, p);
	ck_assert_int_gt(count_coloured(&im, 0, 600), 1000);
	ck_assert_int_gt(count_coloured(&im, 600, 1200), 1000);
	cairo_surface_destroy(im.s);
	free(slurp(p, &len));
	ck_assert_uint_lt(len, 200 * 1024);
	if (out)
		write_ok(out, res, k);
	free(p);
	free(res);
	rm_tmp(d);
}
END_TEST

static Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_size_labels);
	tcase_add_test(tc, test_scale_lin);
	tcase_add_test(tc, test_scale_lat);
	tcase_add_test(tc, test_collect_sweep);
	tcase_add_test(tc, test_collect_also);
	tcase_add_test(tc, test_collect_repeats);
	tcase_add_test(tc, test_write_svg);
	tcase_add_test(tc, test_write_png);
	tcase_add_test(tc, test_line_styles);
	tcase_add_test(tc, test_collect_matrix);
	tcase_add_test(tc, test_no_latency);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_bad_extension);
	tcase_add_test(tc, test_unwritable);
	tcase_add_test(tc, test_example);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(plot_suite());
}
