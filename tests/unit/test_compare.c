// SPDX-License-Identifier: MIT
/*
 * Unit tests for compare.c / compare_out.c (verbs next to TCP, N1/2,
 * threshold crossings; JSON, text, CSV) and for result.c (pooling
 * repeated runs).  Inputs are synthetic results with chosen numbers; the
 * expected ratios, CPU costs, latency differences, N1/2 sizes and
 * crossings are worked out here from those numbers.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "engine/result.h"
#include "testmain.h"
#include "transports/transports.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define KB 1024ull
/* us per KiB -> CPU s per GB: (us/KiB) * (1e9 / 1024 KiB per GB) / 1e6 */
#define S_PER_GB(us_kib) ((us_kib)*1e9 / 1024 / 1e6)

struct set {
	struct ig_result *r;
	size_t n, cap;
};

static void set_init(struct set *s, size_t cap)
{
	s->r = calloc(cap, sizeof(*s->r));
	ck_assert_ptr_nonnull(s->r);
	s->n = 0;
	s->cap = cap;
}

/* A result of test t at size and streams; bw in Gb/s, rate in msg/s. */
static struct ig_result *add(struct set *s, enum ig_test t, uint64_t size,
			     uint32_t streams, double bw, double rate)
{
	struct ig_result *r;

	ck_assert_uint_lt(s->n, s->cap);
	r = &s->r[s->n++];
	ig_params_default(&r->params);
	r->params.test = t;
	r->params.size = size;
	r->params.streams = streams;
	r->test = ig_test_name(IG_TESTS, t);
	r->transport = ig_test_transport(IG_TESTS, t);
	r->bw_gbps = bw;
	r->msg_rate = rate;
	r->cpu_client.us_per_kib = -1;
	r->cpu_server.us_per_kib = -1;
	ig_hist_init(&r->lat);
	return r;
}

static void add_lat(struct ig_result *r, uint64_t ns, unsigned int times)
{
	r->has_lat = true;
	for (unsigned int i = 0; i < times; i++)
		ig_hist_add(&r->lat, ns);
}

static const struct ig_pair *find_pair(const struct ig_compare *c,
				       const char *verbs, uint64_t size)
{
	for (size_t i = 0; i < c->npairs; i++)
		if (!strcmp(c->pairs[i].r[IG_V]->test, verbs) &&
		    c->pairs[i].size == size)
			return &c->pairs[i];
	return NULL;
}

static const struct ig_nhalf *find_nhalf(const struct ig_compare *c,
					 const char *test)
{
	for (size_t i = 0; i < c->nnhalf; i++)
		if (!strcmp(c->nhalf[i].test, test))
			return &c->nhalf[i];
	return NULL;
}

static const struct ig_crossing *find_cross(const struct ig_compare *c,
					    const char *verbs, double thr)
{
	for (size_t i = 0; i < c->ncross; i++)
		if (!strcmp(c->cross[i].verbs_test, verbs) &&
		    fabs(c->cross[i].threshold - thr) < 1e-12)
			return &c->cross[i];
	return NULL;
}

/*
 * The "one size" set: every verbs test and both TCP tests at 64K (bw) or
 * 2 bytes (lat), one stream; plus results that must NOT pair:
 *   write_bw 4K           no tcp_bw at 4K
 *   write_bw 128K x1      tcp_bw 128K has 2 streams
 *   send_lat 4            no tcp_lat at 4 bytes
 */
static void one_size_set(struct set *s)
{
	struct ig_result *r;

	set_init(s, 16);
	r = add(s, IG_TEST_WRITE_BW, 64 * KB, 1, 20.0, 40000);
	r->cpu_client.us_per_kib = 0.5;
	r->cpu_server.us_per_kib = 0.25;
	r->has_cpu_server = true;
	ig_facts_set_str(&r->facts, IG_FACT_DEVICE, "mlx5_0");
	ig_facts_set_real(&r->facts, "rate_gbps", 25.0);
	r = add(s, IG_TEST_SEND_BW, 64 * KB, 1, 16.0, 32000);
	r->cpu_client.us_per_kib = 0.75;
	r->cpu_server.us_per_kib = 1.5;
	r->has_cpu_server = true;
	/* send_bw: no device facts -> no port figures */
	r = add(s, IG_TEST_TCP_BW, 64 * KB, 1, 12.0, 24000);
	r->cpu_client.us_per_kib = 2.0;
	r->cpu_server.us_per_kib = 3.0;
	r->has_cpu_server = false; /* the server's CPU is unknown */
	/* latency: values below IG_HIST_SUB (128) are counted exactly */
	r = add(s, IG_TEST_SEND_LAT, 2, 1, 0.001, 500000);
	add_lat(r, 40, 100);
	add_lat(r, 120, 100);
	r = add(s, IG_TEST_WRITE_LAT, 2, 1, 0.001, 600000);
	add_lat(r, 1500, 150); /* all equal: p50 = p99 = 1500 exactly */
	r = add(s, IG_TEST_TCP_LAT, 2, 1, 0.0005, 200000);
	add_lat(r, 90, 100);
	add_lat(r, 127, 100);
	/* no partners */
	add(s, IG_TEST_WRITE_BW, 4 * KB, 1, 5.0, 100000);
	add(s, IG_TEST_WRITE_BW, 128 * KB, 1, 22.0, 20000);
	add(s, IG_TEST_TCP_BW, 128 * KB, 2, 13.0, 13000);
	r = add(s, IG_TEST_SEND_LAT, 4, 1, 0.002, 500000);
	add_lat(r, 50, 10);
}

START_TEST(pairs_found)
{
	struct set s;
	struct ig_compare c;
	const struct ig_pair *p;
	static const char *const want[][2] = {
		{ "write_bw", "tcp_bw" },
		{ "send_bw", "tcp_bw" },
		{ "send_lat", "tcp_lat" },
		{ "write_lat", "tcp_lat" },
	};

	one_size_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	for (int i = 0; i < 4; i++) {
		uint64_t size = strstr(want[i][0], "_lat") ? 2 : 64 * KB;

		p = find_pair(&c, want[i][0], size);
		ck_assert_msg(p, "no pair %s/%s at %llu", want[i][0],
			      want[i][1], (unsigned long long)size);
		ck_assert_str_eq(p->r[IG_T]->test, want[i][1]);
		ck_assert_str_eq(p->r[IG_V]->transport, "verbs");
		ck_assert_str_eq(p->r[IG_T]->transport, "tcp");
		ck_assert_uint_eq(p->r[IG_T]->params.size, size);
		ck_assert_uint_eq(p->r[IG_T]->params.streams,
				  p->r[IG_V]->params.streams);
		ck_assert(p->lat == (strstr(want[i][0], "_lat") != NULL));
	}
	ck_assert_ptr_null(find_pair(&c, "write_bw", 4 * KB));
	ck_assert_ptr_null(find_pair(&c, "write_bw", 128 * KB));
	ck_assert_ptr_null(find_pair(&c, "send_lat", 4));
	/* N1/2 over the sizes of a test at its first streams and window:
	 * write_bw 4K 5, 64K 20, 128K 22 -> half of 22 first reached at 64K;
	 * tcp_bw 64K x1 12, 128K x2 13: one size at 1 stream, none (another
	 * number of streams is another sweep); send_bw has one size: none. */
	ck_assert_ptr_nonnull(find_nhalf(&c, "write_bw"));
	ck_assert_uint_eq(find_nhalf(&c, "write_bw")->size, 64 * KB);
	ck_assert_uint_eq(find_nhalf(&c, "write_bw")->peak_size, 128 * KB);
	ck_assert_ptr_null(find_nhalf(&c, "tcp_bw"));
	ck_assert_ptr_null(find_nhalf(&c, "send_bw"));
	ig_compare_free(&c);
	ck_assert_ptr_null(c.pairs);
	free(s.r);
}
END_TEST

START_TEST(pair_bw_figures)
{
	struct set s;
	struct ig_compare c;
	const struct ig_pair *w, *sd;

	one_size_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	w = find_pair(&c, "write_bw", 64 * KB);
	sd = find_pair(&c, "send_bw", 64 * KB);
	ck_assert_ptr_nonnull(w);
	ck_assert_ptr_nonnull(sd);
	ck_assert_double_eq(w->bw[IG_V], 20.0);
	ck_assert_double_eq(w->bw[IG_T], 12.0);
	ck_assert_double_eq_tol(w->bw_ratio, 12.0 / 20.0, 1e-15);
	ck_assert_double_eq_tol(sd->bw_ratio, 12.0 / 16.0, 1e-15);
	ck_assert_double_eq_tol(w->rate_ratio, 24000.0 / 40000, 1e-15);
	ck_assert_double_eq_tol(sd->rate_ratio, 24000.0 / 32000, 1e-15);
	/* CPU s/GB = us/KiB * 1e9 / 1024 / 1e6 */
	ck_assert_double_eq_tol(w->cpu_gb[IG_CLI][IG_V], 0.48828125, 1e-12);
	ck_assert_double_eq_tol(w->cpu_gb[IG_CLI][IG_V], S_PER_GB(0.5), 1e-12);
	ck_assert_double_eq_tol(w->cpu_gb[IG_CLI][IG_T], S_PER_GB(2.0), 1e-12);
	ck_assert_double_eq_tol(w->cpu_gb[IG_SRV][IG_V], S_PER_GB(0.25), 1e-12);
	ck_assert_double_eq_tol(sd->cpu_gb[IG_CLI][IG_V], S_PER_GB(0.75),
				1e-12);
	ck_assert_double_eq_tol(sd->cpu_gb[IG_SRV][IG_V], S_PER_GB(1.5), 1e-12);
	/* tcp_bw has no server CPU: unknown (negative) */
	ck_assert_double_lt(w->cpu_gb[IG_SRV][IG_T], 0);
	ck_assert_double_lt(sd->cpu_gb[IG_SRV][IG_T], 0);
	/* port rate from the verbs result's facts */
	ck_assert_double_eq(w->port_gbps, 25.0);
	ck_assert_double_eq(sd->port_gbps, 0);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

START_TEST(pair_lat_figures)
{
	struct set s;
	struct ig_compare c;
	const struct ig_pair *sl, *wl;

	one_size_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	sl = find_pair(&c, "send_lat", 2);
	wl = find_pair(&c, "write_lat", 2);
	ck_assert_ptr_nonnull(sl);
	ck_assert_ptr_nonnull(wl);
	/* send_lat: 100 x 40 ns + 100 x 120 ns: p50 (rank 100) 40 ns,
	 * p99 (rank 198) 120 ns; tcp_lat 100 x 90 + 100 x 127: 90, 127. */
	ck_assert(sl->has_p50 && sl->has_p99);
	ck_assert_double_eq_tol(sl->p50[IG_V], 0.040, 1e-12);
	ck_assert_double_eq_tol(sl->p50[IG_T], 0.090, 1e-12);
	ck_assert_double_eq_tol(sl->p99[IG_V], 0.120, 1e-12);
	ck_assert_double_eq_tol(sl->p99[IG_T], 0.127, 1e-12);
	/* write_lat: 150 x 1500 ns: 1.5 us at every percentile */
	ck_assert(wl->has_p50 && wl->has_p99);
	ck_assert_double_eq_tol(wl->p50[IG_V], 1.5, 1e-12);
	ck_assert_double_eq_tol(wl->p99[IG_V], 1.5, 1e-12);
	ck_assert_double_eq_tol(wl->p50[IG_T], 0.090, 1e-12);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* Fewer than 100 samples: p50 but no p99. */
START_TEST(pair_lat_few_samples)
{
	struct set s;
	struct ig_compare c;
	const struct ig_pair *p;

	set_init(&s, 2);
	add_lat(add(&s, IG_TEST_SEND_LAT, 8, 1, 0, 0), 30, 10);
	add_lat(add(&s, IG_TEST_TCP_LAT, 8, 1, 0, 0), 70, 10);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	ck_assert_uint_eq(c.npairs, 1);
	p = &c.pairs[0];
	ck_assert(p->lat);
	ck_assert(p->has_p50);
	ck_assert(!p->has_p99);
	ck_assert_double_eq_tol(p->p50[IG_T] - p->p50[IG_V], 0.040, 1e-12);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/*
 * A sweep 1K..64K of write_bw, send_bw, tcp_bw (Gb/s), in scrambled order:
 *          1K    2K    4K    8K    16K   32K   64K
 * write   0.5   1     2     5     7     9     10     peak 10 -> N1/2 8K
 * send    0.4   0.5   2     1.6   6     6     10     peak 10 -> N1/2 16K
 * tcp     0.1   0.3   0.8   1.5   3     6     8      peak 8  -> N1/2 32K
 * tcp/write .2  .3    .4    .3    .43   .67   .8     0.5 at 32K, 0.9 never
 * tcp/send  .25 .6    .4    .94   .5    1.0   .8     0.5 at 2K, 0.9 at 8K
 * tcp_lat at three sizes: never an N1/2 entry (not a bandwidth test).
 */
static const double sweep_bw[3][7] = {
	{ 0.5, 1, 2, 5, 7, 9, 10 },
	{ 0.4, 0.5, 2, 1.6, 6, 6, 10 },
	{ 0.1, 0.3, 0.8, 1.5, 3, 6, 8 },
};
static const enum ig_test sweep_tests[3] = { IG_TEST_WRITE_BW, IG_TEST_SEND_BW,
					     IG_TEST_TCP_BW };

static void sweep_set(struct set *s)
{
	static const int order[7] = { 3, 6, 0, 5, 1, 4, 2 };

	set_init(s, 32);
	for (int k = 0; k < 7; k++) {
		int i = order[k];

		for (int t = 0; t < 3; t++)
			add(s, sweep_tests[t], KB << i, 1, sweep_bw[t][i],
			    sweep_bw[t][i] * 1e9 / 8 / (double)(KB << i));
	}
	for (int i = 0; i < 3; i++)
		add_lat(add(s, IG_TEST_TCP_LAT, 2 << i, 1, 0, 0), 50, 4);
}

START_TEST(sweep_nhalf)
{
	struct set s;
	struct ig_compare c;
	static const uint64_t want_size[3] = { 8 * KB, 16 * KB, 32 * KB };
	static const double want_peak[3] = { 10, 10, 8 };

	sweep_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	for (int t = 0; t < 3; t++) {
		const struct ig_nhalf *h =
			find_nhalf(&c, ig_test_name(IG_TESTS, sweep_tests[t]));

		ck_assert_msg(h, "no N1/2 for %s",
			      ig_test_name(IG_TESTS, sweep_tests[t]));
		ck_assert_msg(h->size == want_size[t],
			      "N1/2 %s = %llu, want %llu", h->test,
			      (unsigned long long)h->size,
			      (unsigned long long)want_size[t]);
		ck_assert_double_eq(h->peak_gbps, want_peak[t]);
		ck_assert_uint_eq(h->peak_size, 64 * KB);
	}
	ck_assert_ptr_null(find_nhalf(&c, "tcp_lat"));
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* tcp_bw 512..8K with the peak in the middle, and a size above it that
 * falls under half. */
static void mid_peak_set(struct set *s)
{
	static const double bw[5] = { 1, 5.9, 6, 12, 3 };

	set_init(s, 5);
	for (int i = 4; i >= 0; i--)
		add(s, IG_TEST_TCP_BW, 512ull << i, 1, bw[i], 1);
}

/* N1/2 is still the smallest size reaching half the peak. */
START_TEST(sweep_nhalf_mid_peak)
{
	struct set s;
	struct ig_compare c;
	const struct ig_nhalf *h;

	mid_peak_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	h = find_nhalf(&c, "tcp_bw");
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->peak_size, 4 * KB);
	ck_assert_double_eq(h->peak_gbps, 12);
	ck_assert_uint_eq(h->size, 2 * KB); /* 6 >= 12 / 2; 5.9 is not */
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

START_TEST(sweep_crossings)
{
	struct set s;
	struct ig_compare c;
	const struct ig_crossing *x;

	sweep_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	x = find_cross(&c, "write_bw", 0.5);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->size, 32 * KB);
	x = find_cross(&c, "write_bw", 0.9);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->size, 0); /* not reached */
	x = find_cross(&c, "send_bw", 0.5);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->size, 2 * KB);
	x = find_cross(&c, "send_bw", 0.9);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->size, 8 * KB);
	/* each ratio is tcp / verbs at that size */
	for (int i = 0; i < 7; i++) {
		const struct ig_pair *p = find_pair(&c, "send_bw", KB << i);

		ck_assert_ptr_nonnull(p);
		ck_assert_double_eq_tol(p->bw_ratio,
					sweep_bw[2][i] / sweep_bw[1][i], 1e-15);
	}
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

static void single_size_set(struct set *s)
{
	set_init(s, 2);
	add(s, IG_TEST_WRITE_BW, 64 * KB, 1, 10, 1);
	add(s, IG_TEST_TCP_BW, 64 * KB, 1, 5, 1);
}

static void empty_set(struct set *s)
{
	s->r = NULL;
	s->n = s->cap = 0;
}

/* Builds the comparison of a set, for row `row`. */
static void build(const char *row, void (*set)(struct set *), struct set *s,
		  struct ig_compare *c)
{
	set(s);
	ck_assert_msg(!ig_compare_build(s->r, s->n, c), "%s: not built", row);
}

/* How many pairs, N1/2 entries and crossings a set gives. */
static const struct count_case {
	const char *name;
	void (*set)(struct set *s);
	size_t npairs, nnhalf, ncross;
} count_cases[] = {
	/* one pair per verbs test: no crossings */
	{ "one_size", one_size_set, 4, 1, 0 },
	{ "sweep", sweep_set, 14, 3, 4 },
	{ "mid_peak", mid_peak_set, 0, 1, 0 },
	{ "single_size", single_size_set, 1, 0, 0 },
	{ "empty", empty_set, 0, 0, 0 },
};

START_TEST(set_counts)
{
	const struct count_case *t = &count_cases[_i];
	struct ig_compare c;
	struct set s;

	build(t->name, t->set, &s, &c);
	ck_assert_msg(c.npairs == t->npairs, "%s: %zu pairs, want %zu", t->name,
		      c.npairs, t->npairs);
	ck_assert_msg(c.nnhalf == t->nnhalf, "%s: %zu N1/2, want %zu", t->name,
		      c.nnhalf, t->nnhalf);
	ck_assert_msg(c.ncross == t->ncross, "%s: %zu crossings, want %zu",
		      t->name, c.ncross, t->ncross);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* ---- output ---- */

static json_object *jget(json_object *o, const char *path)
{
	char buf[128], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o;
	     tok = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, tok, &o))
			return NULL;
	return o;
}

static double jnum(json_object *o, const char *path)
{
	json_object *v = jget(o, path);

	ck_assert_msg(v, "no key %s in %s", path,
		      json_object_to_json_string(o));
	ck_assert_msg(json_object_is_type(v, json_type_double) ||
			      json_object_is_type(v, json_type_int),
		      "%s is not a number", path);
	return json_object_get_double(v);
}

static const char *jstr(json_object *o, const char *path)
{
	json_object *v = jget(o, path);

	ck_assert_msg(v && json_object_is_type(v, json_type_string),
		      "%s is not a string", path);
	return json_object_get_string(v);
}

/* Serialises, parses back: what a reader of the report sees. */
static json_object *compare_json_roundtrip(const struct ig_compare *c)
{
	json_object *o = ig_compare_to_json(c), *back;

	ck_assert_ptr_nonnull(o);
	back = json_tokener_parse(json_object_to_json_string(o));
	json_object_put(o);
	ck_assert_ptr_nonnull(back);
	return back;
}

static json_object *json_pair(json_object *pairs, const char *verbs,
			      uint64_t size)
{
	for (size_t i = 0; i < json_object_array_length(pairs); i++) {
		json_object *p = json_object_array_get_idx(pairs, i);

		if (!strcmp(jstr(p, "verbs_test"), verbs) &&
		    (uint64_t)jnum(p, "size") == size)
			return p;
	}
	return NULL;
}

START_TEST(json_pairs)
{
	struct set s;
	struct ig_compare c;
	json_object *o, *pairs, *p;

	one_size_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	o = compare_json_roundtrip(&c);
	pairs = jget(o, "pairs");
	ck_assert(pairs && json_object_is_type(pairs, json_type_array));
	ck_assert_uint_eq(json_object_array_length(pairs), 4);
	ck_assert(json_object_is_type(jget(o, "n_half"), json_type_array));
	ck_assert(json_object_is_type(jget(o, "crossings"), json_type_array));
	ck_assert_uint_eq(json_object_array_length(jget(o, "n_half")), 1);
	ck_assert_uint_eq(json_object_array_length(jget(o, "crossings")), 0);

	p = json_pair(pairs, "write_bw", 64 * KB);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(jstr(p, "tcp_test"), "tcp_bw");
	ck_assert_double_eq(jnum(p, "streams"), 1);
	ck_assert_double_eq_tol(jnum(p, "bw_gbps.verbs"), 20, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "bw_gbps.tcp"), 12, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "bw_gbps.ratio"), 0.6, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "msg_rate.ratio"), 0.6, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "cpu_s_per_gb.client.verbs"),
				S_PER_GB(0.5), 1e-12);
	ck_assert_double_eq_tol(jnum(p, "cpu_s_per_gb.client.tcp"),
				S_PER_GB(2.0), 1e-12);
	ck_assert_double_eq_tol(jnum(p, "cpu_s_per_gb.client.ratio"), 4, 1e-12);
	/* tcp_bw has no server CPU: no server entry */
	ck_assert_ptr_null(jget(p, "cpu_s_per_gb.server"));
	ck_assert_double_eq_tol(jnum(p, "port_gbps"), 25, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "port_share.verbs"), 0.8, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "port_share.tcp"), 12.0 / 25, 1e-12);
	ck_assert_ptr_null(jget(p, "lat_us"));

	p = json_pair(pairs, "send_bw", 64 * KB);
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(jnum(p, "bw_gbps.ratio"), 0.75, 1e-12);
	ck_assert_ptr_null(jget(p, "port_gbps"));

	p = json_pair(pairs, "send_lat", 2);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(jstr(p, "tcp_test"), "tcp_lat");
	ck_assert_double_eq_tol(jnum(p, "lat_us.p50.verbs"), 0.040, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "lat_us.p50.tcp"), 0.090, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "lat_us.p50.added"), 0.050, 1e-12);
	ck_assert_double_eq_tol(jnum(p, "lat_us.p99.added"), 0.007, 1e-12);
	ck_assert_ptr_null(jget(p, "bw_gbps"));

	p = json_pair(pairs, "write_lat", 2);
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(jnum(p, "lat_us.p50.added"), 0.090 - 1.5,
				1e-12);
	json_object_put(o);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

START_TEST(json_sweep)
{
	struct set s;
	struct ig_compare c;
	json_object *o, *nh, *cr;
	int seen_null = 0, seen_8k = 0;

	sweep_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	o = compare_json_roundtrip(&c);
	ck_assert_uint_eq(json_object_array_length(jget(o, "pairs")), 14);
	nh = jget(o, "n_half");
	ck_assert_uint_eq(json_object_array_length(nh), 3);
	for (size_t i = 0; i < 3; i++) {
		json_object *e = json_object_array_get_idx(nh, i);
		const char *t = jstr(e, "test");
		double want = !strcmp(t, "write_bw")  ? 8.0 * KB
			      : !strcmp(t, "send_bw") ? 16.0 * KB
			      : !strcmp(t, "tcp_bw")  ? 32.0 * KB
						      : -1;

		ck_assert_double_eq(jnum(e, "size"), want);
		ck_assert_double_eq(jnum(e, "peak_size"), 64 * KB);
		ck_assert_double_gt(jnum(e, "peak_gbps"), 0);
	}
	cr = jget(o, "crossings");
	ck_assert_uint_eq(json_object_array_length(cr), 4);
	for (size_t i = 0; i < 4; i++) {
		json_object *e = json_object_array_get_idx(cr, i), *sz;

		ck_assert(json_object_object_get_ex(e, "size", &sz));
		jstr(e, "verbs_test");
		jnum(e, "threshold");
		if (!sz) {
			/* write_bw never reaches 0.9 */
			ck_assert_str_eq(jstr(e, "verbs_test"), "write_bw");
			ck_assert_double_eq(jnum(e, "threshold"), 0.9);
			seen_null++;
		} else if (json_object_get_uint64(sz) == 8 * KB) {
			ck_assert_str_eq(jstr(e, "verbs_test"), "send_bw");
			seen_8k++;
		}
	}
	ck_assert_int_eq(seen_null, 1);
	ck_assert_int_eq(seen_8k, 1);
	json_object_put(o);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* Runs one of the writers into a string. */
static char *capture(void (*fn)(FILE *, const struct ig_compare *),
		     const struct ig_compare *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(f, c);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static int starts_with_pair(const char *line, const struct ig_compare *c)
{
	for (size_t i = 0; i < c->npairs; i++) {
		size_t n = strlen(c->pairs[i].r[IG_V]->test);

		if (!strncmp(line, c->pairs[i].r[IG_V]->test, n) &&
		    line[n] == ' ')
			return 1;
	}
	return 0;
}

/* Asserts that the text table has one line per pair; out is cut up. */
static void assert_pair_lines(const char *row, char *out,
			      const struct ig_compare *c)
{
	char *line, *save = NULL;
	size_t rows = 0;

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		rows += starts_with_pair(line, c);
	ck_assert_msg(rows == c->npairs, "%s: %zu pair lines, want %zu", row,
		      rows, c->npairs);
}

/* What the text table of a set must say: phrases anywhere in it, and
 * phrases in the line that starts with a given text. */
static const struct text_case {
	const char *name;
	void (*set)(struct set *s);
	const char *has[6];
	const char *line; /* NULL: none */
	const char *line_has[3];
} text_cases[] = {
	{
		.name = "one_size",
		.set = one_size_set,
		.has = { "verbs next to TCP", "verbs Gb/s", "tcp Gb/s",
			 "verbs p50", "tcp p99", "client CPU s/GB" },
		/* 20.00 12.00 0.60x, 80% of the port */
		.line = "write_bw ",
		.line_has = { "20.00", "0.60x", "80%" },
	},
	{
		.name = "sweep",
		.set = sweep_set,
		.has = { "N1/2", "write_bw 8K", "tcp_bw 32K",
			 "not within the sweep" },
	},
};

/* The line of the text that starts with `start`, copied into buf. */
static const char *text_line(const char *out, const char *start, char *buf,
			     size_t len)
{
	char want[64];
	const char *at;

	snprintf(want, sizeof(want), "\n%s", start);
	at = strstr(out, want);
	if (!at)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(at + 1, "\n"), at + 1);
	return buf;
}

static void assert_line(const struct text_case *t, const char *out)
{
	char line[512];

	ck_assert_msg(text_line(out, t->line, line, sizeof(line)),
		      "%s: no line '%s'", t->name, t->line);
	for (size_t i = 0; i < ARRAY_SIZE(t->line_has) && t->line_has[i]; i++)
		ck_assert_msg(strstr(line, t->line_has[i]),
			      "%s: no '%s' in '%s'", t->name, t->line_has[i],
			      line);
}

START_TEST(text_table)
{
	const struct text_case *t = &text_cases[_i];
	struct ig_compare c;
	struct set s;
	char *out;

	build(t->name, t->set, &s, &c);
	out = capture(ig_compare_text, &c);
	for (size_t i = 0; i < ARRAY_SIZE(t->has) && t->has[i]; i++)
		ck_assert_msg(strstr(out, t->has[i]), "%s: no '%s' in:\n%s",
			      t->name, t->has[i], out);
	if (t->line)
		assert_line(t, out);
	assert_pair_lines(t->name, out, &c);
	free(out);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

static size_t count_char(const char *s, char ch)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == ch;
	return n;
}

/* A -P 1,2 --window default,256K run: each pair's text row says its
 * streams and window, each CSV row its window; a one-point run has
 * neither column. */
START_TEST(matrix_rows_labelled)
{
	static const uint32_t streams[2] = { 1, 2 };
	static const uint64_t win[2] = { 0, 256 * KB };
	static const char *const want[4] = { "1/default", "1/256K", "2/default",
					     "2/256K" };
	struct set s;
	struct ig_compare c;
	char *out, *csv;

	set_init(&s, 8);
	for (int i = 0; i < 4; i++) {
		struct ig_result *v, *t;

		v = add(&s, IG_TEST_WRITE_BW, 64 * KB, streams[i / 2], 10.0 + i,
			1000);
		t = add(&s, IG_TEST_TCP_BW, 64 * KB, streams[i / 2], 1.0 + i,
			100);
		v->params.sock.window = t->params.sock.window = win[i % 2];
	}
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	ck_assert_uint_eq(c.npairs, 4);
	out = capture(ig_compare_text, &c);
	ck_assert_msg(strstr(out, "streams/window"), "no column in:\n%s", out);
	for (int i = 0; i < 4; i++) {
		char bw[16], line[512];
		const char *at = strstr(out, want[i]);

		ck_assert_msg(at, "no '%s' in:\n%s", want[i], out);
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(at, "\n"),
			 at);
		/* the row of that point carries that point's figures */
		snprintf(bw, sizeof(bw), "%.2f", 10.0 + i);
		ck_assert_msg(strstr(line, bw), "row '%s' lacks %s", line, bw);
	}
	csv = capture(ig_compare_csv, &c);
	ck_assert_msg(strstr(csv, ",window\n"), "no window column:\n%s", csv);
	ck_assert_msg(strstr(csv, ",262144\n"), "no 256K row:\n%s", csv);
	free(csv);
	free(out);
	ig_compare_free(&c);
	free(s.r);
	one_size_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	out = capture(ig_compare_text, &c);
	ck_assert_msg(!strstr(out, "streams/window"), "column in:\n%s", out);
	free(out);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

START_TEST(csv_output)
{
	struct set s;
	struct ig_compare c;
	char *out, *line, *save = NULL, *head = NULL;
	size_t rows = 0, ncol = 0;

	one_size_set(&s);
	ck_assert_int_eq(ig_compare_build(s.r, s.n, &c), 0);
	out = capture(ig_compare_csv, &c);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!head) {
			head = line;
			ck_assert_msg(!strncmp(line, "pair,size,", 10),
				      "first line '%s' is not the header",
				      line);
			ncol = count_char(line, ',') + 1;
			ck_assert_ptr_nonnull(strstr(line, "bw_ratio"));
			ck_assert_ptr_nonnull(strstr(line, "added_p50_us"));
			continue;
		}
		rows++;
		ck_assert_msg(count_char(line, ',') + 1 == ncol,
			      "row '%s' has %zu fields, header %zu", line,
			      count_char(line, ',') + 1, ncol);
		if (!strncmp(line, "write_bw/tcp_bw,65536,1,", 24)) {
			double v, t, ratio;

			ck_assert_int_eq(sscanf(line + 24, "%lf,%lf,%lf", &v,
						&t, &ratio),
					 3);
			ck_assert_double_eq_tol(v, 20, 1e-6);
			ck_assert_double_eq_tol(t, 12, 1e-6);
			ck_assert_double_eq_tol(ratio, 0.6, 1e-6);
		}
	}
	ck_assert_ptr_nonnull(head);
	ck_assert_msg(rows == c.npairs, "%zu rows, want %zu", rows, c.npairs);
	free(out);
	out = capture(ig_compare_csv, &c);
	ck_assert_ptr_nonnull(strstr(out, "\nwrite_bw/tcp_bw,65536,1,"));
	ck_assert_ptr_nonnull(strstr(out, "\nsend_bw/tcp_bw,65536,1,"));
	ck_assert_ptr_nonnull(strstr(out, "\nsend_lat/tcp_lat,2,1,"));
	ck_assert_ptr_nonnull(strstr(out, "\nwrite_lat/tcp_lat,2,1,"));
	free(out);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* ---- the pairs of -t all, datagram IPoIB ---- */

/*
 * Every test at one size (64K bandwidth, 2 B latency), as -t all runs
 * them, plus tcp_bw and tcp_lat of --also's column (tcp@127.0.0.2), which
 * must pair with nothing, and a failed write_bw at 128K that must not
 * pair either.  Bandwidths (Gb/s), p50 = p99 (ns, 200 equal samples):
 *   write 20  send 16  read 18  ud_send 10  tcp 8  rs 14  tcp@ 4
 *   send 40   write 30 read 60  ud_send 50  tcp 100 rs 70 tcp@ 120
 */
static void all_tests_set(struct set *s)
{
	static const struct {
		enum ig_test t;
		double v; /* Gb/s, or the latency in ns */
	} row[] = {
		{ IG_TEST_WRITE_BW, 20 }, { IG_TEST_SEND_BW, 16 },
		{ IG_TEST_READ_BW, 18 },  { IG_TEST_UD_SEND_BW, 10 },
		{ IG_TEST_TCP_BW, 8 },	  { IG_TEST_RS_BW, 14 },
		{ IG_TEST_SEND_LAT, 40 }, { IG_TEST_WRITE_LAT, 30 },
		{ IG_TEST_READ_LAT, 60 }, { IG_TEST_UD_SEND_LAT, 50 },
		{ IG_TEST_TCP_LAT, 100 }, { IG_TEST_RS_LAT, 70 },
	};
	struct ig_result *r;

	set_init(s, 16);
	/* first, so that a search that took any tcp_bw would take them */
	r = add(s, IG_TEST_TCP_BW, 64 * KB, 1, 4, 4000);
	r->transport = "tcp@127.0.0.2";
	r = add(s, IG_TEST_TCP_LAT, 2, 1, 0, 120000);
	r->transport = "tcp@127.0.0.2";
	add_lat(r, 120, 200);
	for (size_t i = 0; i < ARRAY_SIZE(row); i++) {
		bool lat = ig_test_pattern(IG_TESTS, row[i].t) ==
			   IG_PATTERN_LAT;

		r = add(s, row[i].t, lat ? 2 : 64 * KB, 1, lat ? 0 : row[i].v,
			1000 * row[i].v);
		if (lat)
			add_lat(r, (uint64_t)row[i].v, 200);
	}
	r = add(s, IG_TEST_WRITE_BW, 128 * KB, 1, 0, 0);
	r->failed = true;
	add(s, IG_TEST_TCP_BW, 128 * KB, 1, 9, 9000);
}

/* The pairs of -t all: (a, b), b / a of bandwidth or b - a of p50 (us),
 * and the pairing's label (NULL: verbs next to TCP). */
static const struct new_pair_case {
	const char *a, *b;
	double want;
	const char *label;
} new_pair_cases[] = {
	{ "write_bw", "tcp_bw", 8.0 / 20, NULL },
	{ "send_bw", "tcp_bw", 8.0 / 16, NULL },
	{ "read_bw", "tcp_bw", 8.0 / 18, NULL },
	{ "ud_send_bw", "tcp_bw", 8.0 / 10, NULL },
	{ "rs_bw", "tcp_bw", 8.0 / 14, "rsockets vs tcp" },
	{ "write_bw", "rs_bw", 14.0 / 20, "verbs vs rsockets" },
	{ "send_lat", "tcp_lat", 0.060, NULL },
	{ "write_lat", "tcp_lat", 0.070, NULL },
	{ "read_lat", "tcp_lat", 0.040, NULL },
	{ "ud_send_lat", "tcp_lat", 0.050, NULL },
	{ "rs_lat", "tcp_lat", 0.030, "rsockets vs tcp" },
	{ "send_lat", "rs_lat", 0.030, "verbs vs rsockets" },
};

static const struct ig_pair *find_ab(const struct ig_compare *c, const char *a,
				     const char *b)
{
	for (size_t i = 0; i < c->npairs; i++)
		if (!strcmp(c->pairs[i].r[IG_V]->test, a) &&
		    !strcmp(c->pairs[i].r[IG_T]->test, b))
			return &c->pairs[i];
	return NULL;
}

START_TEST(new_pairs)
{
	const struct new_pair_case *t = &new_pair_cases[_i];
	struct ig_compare c;
	const struct ig_pair *p;
	json_object *o, *jp = NULL, *pairs;
	char key[2][32];
	struct set s;

	build(t->a, all_tests_set, &s, &c);
	ck_assert_uint_eq(c.npairs, ARRAY_SIZE(new_pair_cases));
	p = find_ab(&c, t->a, t->b);
	ck_assert_msg(p, "no pair %s/%s", t->a, t->b);
	/* never the --also column's result, never the failed one */
	ck_assert_str_eq(p->r[IG_T]->transport,
			 ig_test_transport(IG_TESTS, p->r[IG_T]->params.test));
	ck_assert(!p->r[IG_V]->failed && p->size != 128 * KB);
	if (p->lat)
		ck_assert_double_eq_tol(p->p50[IG_T] - p->p50[IG_V], t->want,
					1e-12);
	else
		ck_assert_double_eq_tol(p->bw_ratio, t->want, 1e-12);
	ck_assert(!p->like_for_like);
	ck_assert(t->label ? p->g->label && !strcmp(p->g->label, t->label)
			   : !p->g->label);
	/* JSON: each side's test under its transport's name */
	o = compare_json_roundtrip(&c);
	pairs = jget(o, "pairs");
	snprintf(key[0], sizeof(key[0]), "%s_test",
		 ig_test_transport(IG_TESTS, p->r[IG_V]->params.test));
	snprintf(key[1], sizeof(key[1]), "%s_test",
		 ig_test_transport(IG_TESTS, p->r[IG_T]->params.test));
	for (size_t i = 0; i < json_object_array_length(pairs) && !jp; i++) {
		json_object *e = json_object_array_get_idx(pairs, i);

		if (jget(e, key[0]) && jget(e, key[1]) &&
		    !strcmp(jstr(e, key[0]), t->a) &&
		    !strcmp(jstr(e, key[1]), t->b))
			jp = e;
	}
	ck_assert_msg(jp, "no JSON pair %s=%s %s=%s", key[0], t->a, key[1],
		      t->b);
	if (t->label)
		ck_assert_str_eq(jstr(jp, "label"), t->label);
	else
		ck_assert_ptr_null(jget(jp, "label"));
	json_object_put(o);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* The text of -t all: one title per group, one line per pair. */
START_TEST(new_pairs_text)
{
	struct ig_compare c;
	struct set s;
	char *out;

	build("all", all_tests_set, &s, &c);
	out = capture(ig_compare_text, &c);
	ck_assert_ptr_nonnull(strstr(out, "rsockets next to TCP: what "
					  "rsockets gives a socket program "
					  "(r = rs, t = tcp)"));
	ck_assert_ptr_nonnull(strstr(out, "verbs next to rsockets: what "
					  "rsockets leaves on the table"));
	ck_assert_ptr_nonnull(strstr(out, "rs Gb/s"));
	ck_assert_ptr_null(strstr(out, "127.0.0.2"));
	assert_pair_lines("all", out, &c);
	free(out);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* Datagram IPoIB marks the UD pairs like-for-like, and only them. */
static const struct ipoib_case {
	const char *mode;
	size_t like;	      /* pairs marked */
	const char *text;     /* in the text, or NULL */
	const char *not_text; /* never in the text */
	bool json;	      /* like_for_like and ipoib_mode in JSON */
} ipoib_cases[] = {
	{ "datagram", 2, "IPoIB runs in datagram mode", NULL, true },
	{ "connected", 0, NULL, "datagram mode", false },
	{ "", 0, NULL, "like-for-like", false },
};

START_TEST(ipoib_like_for_like)
{
	const struct ipoib_case *t = &ipoib_cases[_i];
	struct ig_compare c;
	struct set s;
	json_object *o;
	char *out, line[512];
	size_t like = 0;

	build(t->mode, all_tests_set, &s, &c);
	ig_compare_set_ipoib(&c, t->mode);
	for (size_t i = 0; i < c.npairs; i++) {
		const struct ig_pair *p = &c.pairs[i];

		like += p->like_for_like;
		if (p->like_for_like)
			ck_assert(strstr(p->r[IG_V]->test, "ud_send") &&
				  !strcmp(p->r[IG_T]->transport, "tcp"));
	}
	ck_assert_uint_eq(like, t->like);
	out = capture(ig_compare_text, &c);
	if (t->text)
		ck_assert_msg(strstr(out, t->text), "%s: no '%s' in:\n%s",
			      t->mode, t->text, out);
	if (t->not_text)
		ck_assert_msg(!strstr(out, t->not_text), "%s: '%s' in:\n%s",
			      t->mode, t->not_text, out);
	ck_assert(text_line(out, "ud_send_bw ", line, sizeof(line)));
	ck_assert(!!strstr(line, "like-for-like") == (t->like > 0));
	ck_assert(text_line(out, "write_bw ", line, sizeof(line)));
	ck_assert_ptr_null(strstr(line, "like-for-like"));
	free(out);
	o = compare_json_roundtrip(&c);
	ck_assert(!!jget(o, "ipoib_mode") == t->json);
	ck_assert(!!jget(json_object_array_get_idx(jget(o, "pairs"), 0),
			 "like_for_like") == t->json);
	json_object_put(o);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* Datagram mode in a run without UD tests: it says how to get them. */
START_TEST(ipoib_datagram_no_ud)
{
	struct ig_compare c;
	struct set s;
	char *out;

	build("one_size", one_size_set, &s, &c);
	ig_compare_set_ipoib(&c, "datagram");
	out = capture(ig_compare_text, &c);
	ck_assert_ptr_nonnull(strstr(out, "which did not run (-t all"));
	ck_assert_ptr_null(strstr(out, "  like-for-like"));
	free(out);
	ig_compare_free(&c);
	free(s.r);
}
END_TEST

/* ---- ig_result_pool ---- */

static void fill_run(struct ig_result *r, uint64_t it, double secs, double user,
		     double total, double us_kib, bool srv)
{
	ig_params_default(&r->params);
	r->params.test = IG_TEST_TCP_LAT;
	r->params.size = 4096;
	r->test = ig_test_name(IG_TESTS, IG_TEST_TCP_LAT);
	r->transport = ig_test_transport(IG_TESTS, IG_TEST_TCP_LAT);
	r->iterations = it;
	r->bytes = it * 4096;
	r->seconds = secs;
	r->bw_gbps = (double)r->bytes * 8 / secs / 1e9;
	r->msg_rate = (double)it / secs;
	r->has_lat = true;
	ig_hist_init(&r->lat);
	r->cpu_client.user_pct = user;
	r->cpu_client.total_pct = total;
	r->cpu_client.sys_pct = total - user;
	r->cpu_client.us_per_kib = us_kib;
	r->cpu_server.user_pct = 2 * user;
	r->cpu_server.total_pct = 2 * total;
	r->cpu_server.us_per_kib = 2 * us_kib;
	r->has_cpu_server = srv;
	r->stream_msgs[0] = it;
}

START_TEST(pool_two_runs)
{
	struct ig_result *acc = calloc(1, sizeof(*acc));
	struct ig_result *b = calloc(1, sizeof(*b));
	uint64_t bytes = (1000 + 3000) * 4096ull;

	ck_assert_ptr_nonnull(acc);
	ck_assert_ptr_nonnull(b);
	fill_run(acc, 1000, 1.0, 10, 20, 1.0, true);
	fill_run(b, 3000, 2.0, 30, 60, 3.0, true);
	for (int i = 0; i < 10; i++)
		ig_hist_add(&acc->lat, 1000 + i);
	for (int i = 0; i < 25; i++)
		ig_hist_add(&b->lat, 5000 + i);
	ig_result_pool(acc, b);
	ig_result_pool_end(acc, 2);
	ck_assert_uint_eq(acc->iterations, 4000);
	ck_assert_uint_eq(acc->bytes, bytes);
	ck_assert_double_eq_tol(acc->seconds, 3.0, 1e-12);
	ck_assert_double_eq_tol(acc->bw_gbps, (double)bytes * 8 / 3.0 / 1e9,
				1e-12);
	ck_assert_double_eq_tol(acc->msg_rate, 4000 / 3.0, 1e-9);
	ck_assert_uint_eq(acc->lat.count, 35);
	ck_assert_uint_eq(acc->lat.min, 1000);
	ck_assert_uint_eq(acc->lat.max, 5024);
	ck_assert_uint_eq(acc->stream_msgs[0], 4000);
	/* percentages and us/KiB averaged */
	ck_assert_double_eq_tol(acc->cpu_client.user_pct, 20, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_client.total_pct, 40, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_client.sys_pct, 20, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_client.us_per_kib, 2.0, 1e-12);
	ck_assert(acc->has_cpu_server);
	ck_assert_double_eq_tol(acc->cpu_server.user_pct, 40, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_server.total_pct, 80, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_server.us_per_kib, 4.0, 1e-12);
	free(acc);
	free(b);
}
END_TEST

/* Every figure covers the same runs: the receiver's count and the
 * reverse direction add up as bytes and seconds do (old code: the last
 * run's rx_bytes, the first run's reverse figures). */
START_TEST(pool_rx_and_reverse)
{
	struct ig_result *acc = calloc(1, sizeof(*acc));
	struct ig_result *b = calloc(1, sizeof(*b));

	ck_assert_ptr_nonnull(acc);
	ck_assert_ptr_nonnull(b);
	fill_run(acc, 1000, 1.0, 10, 20, 1.0, true);
	fill_run(b, 3000, 2.0, 30, 60, 3.0, true);
	acc->has_rx_bytes = b->has_rx_bytes = true;
	acc->rx_bytes = acc->bytes;
	b->rx_bytes = b->bytes;
	acc->has_bidir = b->has_bidir = true;
	acc->rev_bytes = 500 * 4096;
	acc->rev_seconds = 1.0;
	b->rev_bytes = 7000 * 4096;
	b->rev_seconds = 2.5;
	b->partial = true;
	ig_result_pool(acc, b);
	ig_result_pool_end(acc, 2);
	ck_assert(acc->has_rx_bytes);
	ck_assert_uint_eq(acc->rx_bytes, acc->bytes);
	ck_assert(acc->has_bidir);
	ck_assert_uint_eq(acc->rev_bytes, 7500 * 4096ull);
	ck_assert_double_eq_tol(acc->rev_seconds, 3.5, 1e-12);
	ck_assert(acc->partial);

	/* a run without them: absent, not one run's figure */
	fill_run(acc, 1000, 1.0, 10, 20, 1.0, true);
	fill_run(b, 3000, 2.0, 30, 60, 3.0, true);
	acc->has_rx_bytes = acc->has_bidir = true;
	acc->rx_bytes = acc->rev_bytes = 4096;
	acc->rev_seconds = 1.0;
	acc->partial = b->partial = false;
	b->has_rx_bytes = b->has_bidir = false;
	ig_result_pool(acc, b);
	ig_result_pool_end(acc, 2);
	ck_assert(!acc->has_rx_bytes);
	ck_assert(!acc->has_bidir);
	ck_assert(!acc->partial);
	free(acc);
	free(b);
}
END_TEST

/* Three runs: the average divides by 3. */
START_TEST(pool_three_runs)
{
	struct ig_result *acc = calloc(1, sizeof(*acc));
	struct ig_result *b = calloc(1, sizeof(*b));

	ck_assert_ptr_nonnull(acc);
	ck_assert_ptr_nonnull(b);
	fill_run(acc, 100, 0.5, 9, 12, 0.5, true);
	fill_run(b, 200, 0.25, 3, 6, 1.0, true);
	ig_result_pool(acc, b);
	fill_run(b, 300, 0.25, 6, 9, 1.5, true);
	ig_result_pool(acc, b);
	ig_result_pool_end(acc, 3);
	ck_assert_uint_eq(acc->iterations, 600);
	ck_assert_double_eq_tol(acc->seconds, 1.0, 1e-12);
	ck_assert_double_eq_tol(acc->bw_gbps, 600.0 * 4096 * 8 / 1e9, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_client.user_pct, 6, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_client.total_pct, 9, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_client.us_per_kib, 1.0, 1e-12);
	free(acc);
	free(b);
}
END_TEST

/* has_cpu_server only when every run has it, either order. */
START_TEST(pool_server_cpu_missing)
{
	struct ig_result *acc = calloc(1, sizeof(*acc));
	struct ig_result *b = calloc(1, sizeof(*b));

	ck_assert_ptr_nonnull(acc);
	ck_assert_ptr_nonnull(b);
	fill_run(acc, 10, 1, 10, 20, 1, true);
	fill_run(b, 10, 1, 10, 20, 1, false);
	ig_result_pool(acc, b);
	ig_result_pool_end(acc, 2);
	ck_assert(!acc->has_cpu_server);

	fill_run(acc, 10, 1, 10, 20, 1, false);
	fill_run(b, 10, 1, 10, 20, 1, true);
	ig_result_pool(acc, b);
	ig_result_pool_end(acc, 2);
	ck_assert(!acc->has_cpu_server);
	free(acc);
	free(b);
}
END_TEST

/* A run with unknown service demand (negative) makes the pooled one
 * unknown, not an average with a negative number. */
START_TEST(pool_us_per_kib_unknown)
{
	struct ig_result *acc = calloc(1, sizeof(*acc));
	struct ig_result *b = calloc(1, sizeof(*b));

	ck_assert_ptr_nonnull(acc);
	ck_assert_ptr_nonnull(b);
	fill_run(acc, 10, 1, 10, 20, 1.0, true);
	fill_run(b, 10, 1, 10, 20, -1, true);
	ig_result_pool(acc, b);
	ig_result_pool_end(acc, 2);
	ck_assert_double_lt(acc->cpu_client.us_per_kib, 0);
	free(acc);
	free(b);
}
END_TEST

/* k = 1: nothing to average, the result stays as it was. */
START_TEST(pool_end_single)
{
	struct ig_result *acc = calloc(1, sizeof(*acc));

	ck_assert_ptr_nonnull(acc);
	fill_run(acc, 100, 0.5, 9, 12, 0.5, true);
	ig_result_pool_end(acc, 1);
	ck_assert_uint_eq(acc->iterations, 100);
	ck_assert_double_eq_tol(acc->cpu_client.user_pct, 9, 1e-12);
	ck_assert_double_eq_tol(acc->cpu_client.us_per_kib, 0.5, 1e-12);
	ck_assert_double_eq_tol(acc->bw_gbps, 100.0 * 4096 * 8 / 0.5 / 1e9,
				1e-12);
	free(acc);
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("pairs");

	tcase_add_test(tc, pairs_found);
	tcase_add_test(tc, pair_bw_figures);
	tcase_add_test(tc, pair_lat_figures);
	tcase_add_test(tc, pair_lat_few_samples);
	tcase_add_loop_test(tc, set_counts, 0, ARRAY_SIZE(count_cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("sweep");
	tcase_add_test(tc, sweep_nhalf);
	tcase_add_test(tc, sweep_nhalf_mid_peak);
	tcase_add_test(tc, sweep_crossings);
	suite_add_tcase(s, tc);
	tc = tcase_create("output");
	tcase_add_test(tc, json_pairs);
	tcase_add_test(tc, json_sweep);
	tcase_add_loop_test(tc, text_table, 0, ARRAY_SIZE(text_cases));
	tcase_add_test(tc, csv_output);
	tcase_add_test(tc, matrix_rows_labelled);
	suite_add_tcase(s, tc);
	tc = tcase_create("more");
	tcase_add_loop_test(tc, new_pairs, 0, ARRAY_SIZE(new_pair_cases));
	tcase_add_test(tc, new_pairs_text);
	tcase_add_loop_test(tc, ipoib_like_for_like, 0,
			    ARRAY_SIZE(ipoib_cases));
	tcase_add_test(tc, ipoib_datagram_no_ud);
	suite_add_tcase(s, tc);
	tc = tcase_create("pool");
	tcase_add_test(tc, pool_two_runs);
	tcase_add_test(tc, pool_three_runs);
	tcase_add_test(tc, pool_rx_and_reverse);
	tcase_add_test(tc, pool_server_cpu_missing);
	tcase_add_test(tc, pool_us_per_kib_unknown);
	tcase_add_test(tc, pool_end_single);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(compare_suite());
}
