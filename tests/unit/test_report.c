// SPDX-License-Identifier: MIT
/*
 * Unit tests of report.c: the JSON contract (keys present or absent exactly
 * as documented, values as computed from the inputs), the CPU and sysinfo
 * round trips used by the control channel, CSV quoting and shape, and the
 * text table.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/report.h"
#include "sockets/tcp.h"
#include "testmain.h"

#define NS_LAT 50 /* enough for p50 and p90, not for p99 */

static const char *const cpu_keys[] = {
	"user_pct",    "sys_pct",    "irq_pct", "softirq_pct", "total_pct",
	"proc_user_s", "proc_sys_s", "seconds", "ncpus",
};
#define N_CPU_KEYS (sizeof(cpu_keys) / sizeof(cpu_keys[0]))

static void fill_env(struct ig_report_env *env)
{
	memset(env, 0, sizeof(*env));
	strcpy(env->client.hostname, "alpha");
	strcpy(env->client.kernel, "6.1.0-18-amd64");
	strcpy(env->client.version, IG_VERSION);
	strcpy(env->server.hostname, "beta");
	strcpy(env->server.kernel, "6.1.0-17-amd64");
	strcpy(env->server.version, "0.0.9");
}

static void fill_cpu(struct ig_cpu_usage *u, double base)
{
	u->user_pct = base + 1.0 / 3.0;
	u->sys_pct = base * 2 + 0.1;
	u->irq_pct = 0.1 + 0.2;
	u->softirq_pct = base / 7.0;
	u->total_pct = u->user_pct + u->sys_pct + u->irq_pct + u->softirq_pct;
	u->proc_user_s = 1.2345678901234567;
	u->proc_sys_s = 1e-300;
	u->seconds = 10.000000123;
	u->ncpus = 96;
	u->us_per_kib = base / 1000.0 + 1e-17;
}

/* A TCP stream result: no latency, both sides' CPU, a window. */
static void make_bw(struct ig_result *r)
{
	memset(r, 0, sizeof(*r));
	r->params.test = IG_TEST_TCP_BW;
	r->params.size = 65536;
	r->params.streams = 4;
	r->test = "tcp_bw";
	r->transport = "tcp";
	r->iterations = 1000000;
	r->bytes = r->params.size * r->iterations;
	r->seconds = 5.5;
	r->bw_gbps = (double)r->bytes * 8 / r->seconds / 1e9;
	r->msg_rate = (double)r->iterations / r->seconds;
	fill_cpu(&r->cpu_client, 11.0);
	fill_cpu(&r->cpu_server, 22.0);
	r->has_cpu_server = true;
	r->window_requested = 4 << 20;
	r->window_snd = 8 << 20;
	r->window_rcv = 6 << 20;
}

/* Latency sample i in nanoseconds: spread over several buckets. */
static uint64_t lat_sample(int i)
{
	return 1500 + (uint64_t)i * 37 + (uint64_t)(i % 7) * 1000;
}

/* A verbs ping-pong result with NS_LAT samples, no server CPU. */
static void make_lat(struct ig_result *r, int nsamples)
{
	memset(r, 0, sizeof(*r));
	r->params.test = IG_TEST_SEND_LAT;
	r->params.size = 8;
	r->params.streams = 1;
	r->test = "send_lat";
	r->transport = "verbs";
	r->iterations = (uint64_t)nsamples;
	r->bytes = 2 * r->params.size * r->iterations;
	r->seconds = 0.25;
	r->bw_gbps = (double)r->bytes * 8 / r->seconds / 1e9;
	r->msg_rate = (double)r->iterations / r->seconds;
	r->has_lat = true;
	ig_hist_init(&r->lat);
	for (int i = 0; i < nsamples; i++)
		ig_hist_add(&r->lat, lat_sample(i));
	fill_cpu(&r->cpu_client, 3.0);
	r->cpu_client.us_per_kib = -1.0;
	snprintf(r->warning, sizeof(r->warning),
		 "inline size capped at 64, \"max_inline_data\" of the QP");
}

/* Runs ig_report_write into memory; the caller frees. */
static char *render(enum ig_format fmt, const struct ig_report_env *env,
		    const struct ig_result *res, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ig_report_write(f, fmt, env, res, n), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ptr_nonnull(buf);
	return buf;
}

static json_object *render_json(const struct ig_result *res, size_t n)
{
	struct ig_report_env env;
	json_tokener *tok = json_tokener_new();
	json_object *doc;
	char *s;

	fill_env(&env);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	s = render(IG_FMT_JSON, &env, res, n);
	ck_assert_msg(s[0] && s[strlen(s) - 1] == '\n',
		      "JSON does not end with a newline");
	doc = json_tokener_parse_ex(tok, s, (int)strlen(s));
	ck_assert_msg(doc, "JSON does not parse: %s",
		      json_tokener_error_desc(json_tokener_get_error(tok)));
	json_tokener_free(tok);
	free(s);
	return doc;
}

static json_object *key(json_object *o, const char *k)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, k, &v), "key %s missing", k);
	return v;
}

static bool has_key(json_object *o, const char *k)
{
	return json_object_object_get_ex(o, k, NULL);
}

static double dkey(json_object *o, const char *k)
{
	json_object *v = key(o, k);

	ck_assert_msg(json_object_is_type(v, json_type_double),
		      "key %s is not a double", k);
	return json_object_get_double(v);
}

static int64_t ikey(json_object *o, const char *k)
{
	json_object *v = key(o, k);

	ck_assert_msg(json_object_is_type(v, json_type_int),
		      "key %s is not an integer", k);
	return json_object_get_int64(v);
}

static const char *skey(json_object *o, const char *k)
{
	json_object *v = key(o, k);

	ck_assert_msg(json_object_is_type(v, json_type_string),
		      "key %s is not a string", k);
	return json_object_get_string(v);
}

START_TEST(test_format_parse)
{
	ck_assert_int_eq(ig_format_parse("text"), IG_FMT_TEXT);
	ck_assert_int_eq(ig_format_parse("json"), IG_FMT_JSON);
	ck_assert_int_eq(ig_format_parse("csv"), IG_FMT_CSV);
	ck_assert_int_eq(ig_format_parse("JSON"), -EINVAL);
	ck_assert_int_eq(ig_format_parse("Text"), -EINVAL);
	ck_assert_int_eq(ig_format_parse("json "), -EINVAL);
	ck_assert_int_eq(ig_format_parse("cs"), -EINVAL);
	ck_assert_int_eq(ig_format_parse("xml"), -EINVAL);
	ck_assert_int_eq(ig_format_parse(""), -EINVAL);
	ck_assert_int_eq(ig_format_parse(NULL), -EINVAL);
}
END_TEST

START_TEST(test_write_bad_format)
{
	struct ig_report_env env;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill_env(&env);
	ck_assert_int_eq(ig_report_write(f, (enum ig_format)7, &env, NULL, 0),
			 -EINVAL);
	ck_assert_int_eq(ig_report_write(f, IG_FMT_JSON, NULL, NULL, 0),
			 -EINVAL);
	fclose(f);
	free(buf);
}
END_TEST

static void check_cpu_obj(json_object *o, const struct ig_cpu_usage *u)
{
	ck_assert(dkey(o, "user_pct") == u->user_pct);
	ck_assert(dkey(o, "sys_pct") == u->sys_pct);
	ck_assert(dkey(o, "irq_pct") == u->irq_pct);
	ck_assert(dkey(o, "softirq_pct") == u->softirq_pct);
	ck_assert(dkey(o, "total_pct") == u->total_pct);
	ck_assert(dkey(o, "proc_user_s") == u->proc_user_s);
	ck_assert(dkey(o, "proc_sys_s") == u->proc_sys_s);
	ck_assert(dkey(o, "seconds") == u->seconds);
	ck_assert_int_eq(ikey(o, "ncpus"), u->ncpus);
	if (u->us_per_kib >= 0)
		ck_assert(dkey(o, "us_per_kib") == u->us_per_kib);
	else
		ck_assert(!has_key(o, "us_per_kib"));
}

START_TEST(test_json_env_and_bw)
{
	struct ig_result r;
	json_object *doc, *env, *res, *o, *w;

	make_bw(&r);
	doc = render_json(&r, 1);
	ck_assert_str_eq(skey(doc, "schema"), "ibgap/1");
	env = key(doc, "env");
	ck_assert_str_eq(skey(key(env, "client"), "hostname"), "alpha");
	ck_assert_str_eq(skey(key(env, "client"), "kernel"), "6.1.0-18-amd64");
	ck_assert_str_eq(skey(key(env, "client"), "version"), IG_VERSION);
	ck_assert_str_eq(skey(key(env, "server"), "hostname"), "beta");
	ck_assert_str_eq(skey(key(env, "server"), "version"), "0.0.9");
	res = key(doc, "results");
	ck_assert(json_object_is_type(res, json_type_array));
	ck_assert_uint_eq(json_object_array_length(res), 1);
	o = json_object_array_get_idx(res, 0);

	ck_assert_str_eq(skey(o, "test"), "tcp_bw");
	ck_assert_str_eq(skey(o, "transport"), "tcp");
	ck_assert_int_eq(ikey(o, "size"), 65536);
	ck_assert_int_eq(ikey(o, "streams"), 4);
	ck_assert_int_eq(ikey(o, "iterations"), 1000000);
	ck_assert_int_eq(ikey(o, "bytes"), 65536ll * 1000000);
	ck_assert(dkey(o, "seconds") == 5.5);
	/* 65536e6 B * 8 / 5.5 s / 1e9 */
	ck_assert_double_eq_tol(dkey(o, "bw_gbps"), 95.32509090909, 1e-9);
	ck_assert_double_eq_tol(dkey(o, "msg_rate"), 1e6 / 5.5, 1e-6);
	ck_assert(!has_key(o, "lat_us"));
	ck_assert(!has_key(o, "warning"));
	check_cpu_obj(key(key(o, "cpu"), "client"), &r.cpu_client);
	check_cpu_obj(key(key(o, "cpu"), "server"), &r.cpu_server);
	ck_assert_str_eq(skey(o, "direction"), "forward");
	ck_assert(!has_key(key(key(o, "cpu"), "client"), "us_per_tr"));
	w = key(o, "window");
	ck_assert_int_eq(ikey(w, "requested"), 4 << 20);
	ck_assert_int_eq(ikey(w, "snd"), 8 << 20);
	ck_assert_int_eq(ikey(w, "rcv"), 6 << 20);
	json_object_put(doc);
}
END_TEST

/* Expected percentile (us) and whether the histogram supports it. */
static void check_pct(json_object *lat, const struct ig_hist *h, const char *k,
		      double q)
{
	double ns;

	if (ig_hist_percentile(h, q, &ns))
		ck_assert(dkey(lat, k) == ns / 1000.0);
	else
		ck_assert_msg(!has_key(lat, k), "%s present with %llu samples",
			      k, (unsigned long long)h->count);
}

/* Sorted copy of the first n samples, for nearest-rank checks. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

START_TEST(test_json_lat)
{
	uint64_t v[NS_LAT];
	double sum = 0, mean, ss = 0;
	struct ig_result r;
	json_object *doc, *o, *lat, *cpu;

	make_lat(&r, NS_LAT);
	for (int i = 0; i < NS_LAT; i++) {
		v[i] = lat_sample(i);
		sum += (double)v[i];
	}
	qsort(v, NS_LAT, sizeof(v[0]), cmp_u64);
	mean = sum / NS_LAT;
	for (int i = 0; i < NS_LAT; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);

	doc = render_json(&r, 1);
	o = json_object_array_get_idx(key(doc, "results"), 0);
	ck_assert_str_eq(skey(o, "transport"), "verbs");
	/* latency tests keep their bandwidth and round-trip rate */
	ck_assert(dkey(o, "bw_gbps") == 800.0 * 8 / 0.25 / 1e9);
	ck_assert(dkey(o, "msg_rate") == 200.0);
	lat = key(o, "lat_us");
	ck_assert(has_key(lat, "p50") && has_key(lat, "p90"));
	ck_assert(!has_key(lat, "p99") && !has_key(lat, "p999") &&
		  !has_key(lat, "p9999"));
	check_pct(lat, &r.lat, "p50", 0.5);
	check_pct(lat, &r.lat, "p90", 0.9);
	/* nearest rank: p50 is sample 25, p90 sample 45, within 1% */
	ck_assert_double_eq_tol(dkey(lat, "p50"), v[24] / 1000.0,
				v[24] / 1000.0 / 100);
	ck_assert_double_eq_tol(dkey(lat, "p90"), v[44] / 1000.0,
				v[44] / 1000.0 / 100);
	ck_assert(dkey(lat, "min") == v[0] / 1000.0);
	ck_assert(dkey(lat, "max") == v[NS_LAT - 1] / 1000.0);
	ck_assert_double_eq_tol(dkey(lat, "mean"), mean / 1000.0, 1e-9);
	ck_assert_double_eq_tol(dkey(lat, "stdev"),
				sqrt(ss / (NS_LAT - 1)) / 1000.0, 1e-9);
	/* verbs without a window: no window; no server CPU: no cpu.server */
	ck_assert(!has_key(o, "window"));
	cpu = key(o, "cpu");
	ck_assert(has_key(cpu, "client") && !has_key(cpu, "server"));
	ck_assert(!has_key(key(cpu, "client"), "us_per_kib"));
	ck_assert(!has_key(key(cpu, "client"), "us_per_tr"));
	ck_assert(!has_key(o, "direction"));
	ck_assert_str_eq(skey(o, "warning"), r.warning);
	json_object_put(doc);
}
END_TEST

START_TEST(test_json_lat_small_counts)
{
	struct ig_result r[3];
	json_object *doc, *lat;

	make_lat(&r[0], 0);
	make_lat(&r[1], 1);
	make_lat(&r[2], 200);		   /* p99 supported, p99.9 not */
	r[2].params.sock.window = 1 << 20; /* verbs with a window: present */
	doc = render_json(r, 3);

	lat = key(json_object_array_get_idx(key(doc, "results"), 0), "lat_us");
	ck_assert_int_eq(json_object_object_length(lat), 0);

	lat = key(json_object_array_get_idx(key(doc, "results"), 1), "lat_us");
	ck_assert(dkey(lat, "min") == lat_sample(0) / 1000.0);
	ck_assert(dkey(lat, "max") == lat_sample(0) / 1000.0);
	ck_assert(dkey(lat, "mean") == lat_sample(0) / 1000.0);
	ck_assert(!has_key(lat, "stdev") && !has_key(lat, "p50"));

	lat = key(json_object_array_get_idx(key(doc, "results"), 2), "lat_us");
	ck_assert(has_key(lat, "p99") && has_key(lat, "stdev"));
	ck_assert(!has_key(lat, "p999") && !has_key(lat, "p9999"));
	check_pct(lat, &r[2].lat, "p99", 0.99);
	ck_assert(has_key(json_object_array_get_idx(key(doc, "results"), 2),
			  "window"));
	json_object_put(doc);
}
END_TEST

/* NaN or infinity would make invalid JSON: written as null. */
START_TEST(test_json_not_finite)
{
	struct ig_result r;
	json_object *doc, *o;

	make_bw(&r);
	r.bw_gbps = NAN;
	r.msg_rate = INFINITY;
	doc = render_json(&r, 1);
	o = json_object_array_get_idx(key(doc, "results"), 0);
	ck_assert(json_object_is_type(key(o, "bw_gbps"), json_type_null));
	ck_assert(json_object_is_type(key(o, "msg_rate"), json_type_null));
	ck_assert(dkey(o, "seconds") == 5.5);
	json_object_put(doc);
}
END_TEST

static json_object *reparse(json_object *o)
{
	const char *s = json_object_to_json_string(o);
	json_object *p = json_tokener_parse(s);

	ck_assert_ptr_nonnull(p);
	return p;
}

static void check_cpu_roundtrip(const struct ig_cpu_usage *in)
{
	struct ig_cpu_usage out;
	json_object *o = ig_cpu_usage_to_json(in);
	json_object *p;

	ck_assert_ptr_nonnull(o);
	p = reparse(o);
	memset(&out, 0xa5, sizeof(out));
	ck_assert_int_eq(ig_cpu_usage_from_json(p, &out), 0);
	ck_assert(out.user_pct == in->user_pct);
	ck_assert(out.sys_pct == in->sys_pct);
	ck_assert(out.irq_pct == in->irq_pct);
	ck_assert(out.softirq_pct == in->softirq_pct);
	ck_assert(out.total_pct == in->total_pct);
	ck_assert(out.proc_user_s == in->proc_user_s);
	ck_assert(out.proc_sys_s == in->proc_sys_s);
	ck_assert(out.seconds == in->seconds);
	ck_assert_int_eq(out.ncpus, in->ncpus);
	if (in->us_per_kib >= 0)
		ck_assert(out.us_per_kib == in->us_per_kib);
	else
		ck_assert(out.us_per_kib < 0);
	json_object_put(o);
	json_object_put(p);
}

START_TEST(test_cpu_roundtrip)
{
	struct ig_cpu_usage u;

	fill_cpu(&u, 12.345678901234567);
	check_cpu_roundtrip(&u);
	fill_cpu(&u, 1e-310); /* subnormals too */
	u.total_pct = 100.0;
	u.ncpus = 1;
	check_cpu_roundtrip(&u);
	u.us_per_kib = -1.0;
	check_cpu_roundtrip(&u);
	u.us_per_kib = 0.0; /* zero is a value, not "absent" */
	check_cpu_roundtrip(&u);
}
END_TEST

START_TEST(test_cpu_from_json_errors)
{
	struct ig_cpu_usage u, out;
	json_object *o;

	fill_cpu(&u, 5.0);
	for (size_t i = 0; i < N_CPU_KEYS; i++) {
		o = ig_cpu_usage_to_json(&u);
		json_object_object_del(o, cpu_keys[i]);
		memset(&out, 0, sizeof(out));
		ck_assert_msg(ig_cpu_usage_from_json(o, &out) == -EINVAL,
			      "missing %s accepted", cpu_keys[i]);
		ck_assert(out.user_pct == 0 && out.ncpus == 0);
		json_object_put(o);
	}
	for (size_t i = 0; i < N_CPU_KEYS; i++) {
		o = ig_cpu_usage_to_json(&u);
		json_object_object_add(o, cpu_keys[i],
				       json_object_new_string("1.5"));
		ck_assert_msg(ig_cpu_usage_from_json(o, &out) == -EINVAL,
			      "string %s accepted", cpu_keys[i]);
		json_object_put(o);
	}
	o = ig_cpu_usage_to_json(&u);
	json_object_object_add(o, "ncpus", json_object_new_double(4.0));
	ck_assert_int_eq(ig_cpu_usage_from_json(o, &out), -EINVAL);
	json_object_object_add(o, "ncpus", json_object_new_int(4));
	json_object_object_add(o, "us_per_kib", NULL);
	ck_assert_int_eq(ig_cpu_usage_from_json(o, &out), -EINVAL);
	/* an integer where a double is expected is still a JSON number */
	json_object_object_del(o, "us_per_kib");
	json_object_object_add(o, "seconds", json_object_new_int(10));
	ck_assert_int_eq(ig_cpu_usage_from_json(o, &out), 0);
	ck_assert(out.seconds == 10.0 && out.us_per_kib < 0);
	json_object_put(o);
	o = json_object_new_array();
	ck_assert_int_eq(ig_cpu_usage_from_json(o, &out), -EINVAL);
	json_object_put(o);
	ck_assert_int_eq(ig_cpu_usage_from_json(NULL, &out), -EINVAL);
}
END_TEST

START_TEST(test_sysinfo_json)
{
	struct ig_report_env env;
	struct ig_sysinfo si;
	char longv[100];
	json_object *o, *p;

	fill_env(&env);
	o = ig_sysinfo_to_json(&env.server);
	p = reparse(o);
	ck_assert_int_eq(ig_sysinfo_from_json(p, &si), 0);
	ck_assert_str_eq(si.hostname, "beta");
	ck_assert_str_eq(si.kernel, "6.1.0-17-amd64");
	ck_assert_str_eq(si.version, "0.0.9");
	json_object_put(p);

	/* too long: truncated to the field, NUL-terminated */
	memset(longv, 'v', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	json_object_object_add(o, "version", json_object_new_string(longv));
	ck_assert_int_eq(ig_sysinfo_from_json(o, &si), 0);
	ck_assert_uint_eq(strlen(si.version), sizeof(si.version) - 1);
	ck_assert_int_eq(strncmp(si.version, longv, sizeof(si.version) - 1), 0);

	json_object_object_add(o, "kernel", json_object_new_int(6));
	ck_assert_int_eq(ig_sysinfo_from_json(o, &si), -EINVAL);
	json_object_object_del(o, "kernel");
	ck_assert_int_eq(ig_sysinfo_from_json(o, &si), -EINVAL);
	json_object_put(o);
}
END_TEST

/*
 * A small RFC 4180 reader: splits text into records of fields.  Returns the
 * number of records; fields[r][f] are malloc'd, unquoted.
 */
#define MAX_REC 8
#define MAX_FLD 32

struct csv {
	int nrec;
	int nfld[MAX_REC];
	char *fld[MAX_REC][MAX_FLD];
};

static const char *csv_field(const char *p, char **out)
{
	size_t n = 0;
	char *b = calloc(1, strlen(p) + 1);

	ck_assert_ptr_nonnull(b);
	if (*p == '"') {
		for (p++;; p++) {
			ck_assert_msg(*p, "unterminated quoted field");
			if (*p == '"' && p[1] == '"')
				b[n++] = *p++;
			else if (*p == '"')
				break;
			else
				b[n++] = *p;
		}
		p++;
		ck_assert_msg(*p == ',' || *p == '\n', "junk after a quote");
	} else {
		for (; *p && *p != ',' && *p != '\n'; p++) {
			ck_assert_msg(*p != '"', "bare quote in a field");
			b[n++] = *p;
		}
	}
	*out = b;
	return p;
}

static void csv_read(const char *p, struct csv *c)
{
	memset(c, 0, sizeof(*c));
	while (*p) {
		int *nf = &c->nfld[c->nrec];

		ck_assert_int_lt(c->nrec, MAX_REC);
		for (;;) {
			ck_assert_int_lt(*nf, MAX_FLD);
			p = csv_field(p, &c->fld[c->nrec][(*nf)++]);
			ck_assert_msg(*p, "record without a final newline");
			if (*p++ == '\n')
				break;
		}
		c->nrec++;
	}
}

static void csv_free(struct csv *c)
{
	for (int r = 0; r < c->nrec; r++)
		for (int f = 0; f < c->nfld[r]; f++)
			free(c->fld[r][f]);
}

static int csv_col(const struct csv *c, const char *name)
{
	for (int f = 0; f < c->nfld[0]; f++)
		if (!strcmp(c->fld[0][f], name))
			return f;
	ck_abort_msg("no CSV column %s", name);
	return -1;
}

static const char *const csv_cols[] = {
	"test",
	"transport",
	"size",
	"streams",
	"direction",
	"window_requested",
	"window_snd",
	"window_rcv",
	"iterations",
	"seconds",
	"bytes",
	"bw_gbps",
	"msg_rate",
	"reverse_bytes",
	"reverse_seconds",
	"reverse_gbps",
	"lat_min_us",
	"lat_p50_us",
	"lat_p90_us",
	"lat_p99_us",
	"lat_p999_us",
	"lat_p9999_us",
	"lat_max_us",
	"lat_mean_us",
	"lat_stdev_us",
	"cpu_client_total_pct",
	"cpu_client_us_per_kib",
	"cpu_client_us_per_tr",
	"cpu_server_total_pct",
	"cpu_server_us_per_kib",
	"cpu_server_us_per_tr",
	"warning",
};
#define N_CSV_COLS (int)(sizeof(csv_cols) / sizeof(csv_cols[0]))

START_TEST(test_csv)
{
	struct ig_report_env env;
	struct ig_result r[3];
	double ns;
	struct csv c;
	char *s;

	fill_env(&env);
	make_bw(&r[0]);
	make_lat(&r[1], NS_LAT);
	strcpy(r[0].warning, "a, b");
	make_bw(&r[2]);
	strcpy(r[2].warning, "window capped, \"net.core.wmem_max\" is 212992");
	r[1].cpu_client.us_per_kib = 512.0;
	r[2].params.reverse = 1;
	s = render(IG_FMT_CSV, &env, r, 3);
	csv_read(s, &c);
	free(s);

	ck_assert_int_eq(c.nrec, 4);
	ck_assert_int_eq(c.nfld[0], N_CSV_COLS);
	for (int f = 0; f < N_CSV_COLS; f++)
		ck_assert_str_eq(c.fld[0][f], csv_cols[f]);
	for (int i = 1; i < c.nrec; i++)
		ck_assert_int_eq(c.nfld[i], N_CSV_COLS);

	ck_assert_str_eq(c.fld[1][csv_col(&c, "test")], "tcp_bw");
	ck_assert_str_eq(c.fld[1][csv_col(&c, "bytes")], "65536000000");
	ck_assert_double_eq_tol(atof(c.fld[1][csv_col(&c, "bw_gbps")]),
				r[0].bw_gbps, 1e-9);
	ck_assert_str_eq(c.fld[1][csv_col(&c, "lat_p50_us")], "");
	ck_assert_str_eq(c.fld[1][csv_col(&c, "lat_min_us")], "");
	ck_assert_str_eq(c.fld[1][csv_col(&c, "warning")], "a, b");
	ck_assert_double_eq_tol(
		atof(c.fld[1][csv_col(&c, "cpu_server_total_pct")]),
		r[0].cpu_server.total_pct, 1e-9);

	ck_assert(ig_hist_percentile(&r[1].lat, 0.9, &ns));
	ck_assert_double_eq_tol(atof(c.fld[2][csv_col(&c, "lat_p90_us")]),
				ns / 1000.0, 1e-9);
	ck_assert_str_eq(c.fld[2][csv_col(&c, "lat_p99_us")], "");
	ck_assert_str_eq(c.fld[2][csv_col(&c, "cpu_server_total_pct")], "");
	ck_assert_str_eq(c.fld[2][csv_col(&c, "cpu_client_us_per_kib")], "");
	/* 512 us/KiB x 16 B per round trip = 8 us per round trip */
	ck_assert_double_eq_tol(
		atof(c.fld[2][csv_col(&c, "cpu_client_us_per_tr")]), 8.0, 1e-9);
	ck_assert_str_eq(c.fld[1][csv_col(&c, "cpu_client_us_per_tr")], "");
	ck_assert_double_eq_tol(
		atof(c.fld[1][csv_col(&c, "cpu_client_us_per_kib")]),
		r[0].cpu_client.us_per_kib, 1e-9);
	ck_assert_str_eq(c.fld[1][csv_col(&c, "direction")], "forward");
	ck_assert_str_eq(c.fld[2][csv_col(&c, "direction")], "");
	ck_assert_str_eq(c.fld[3][csv_col(&c, "direction")], "reverse");
	ck_assert_str_eq(c.fld[2][csv_col(&c, "warning")], r[1].warning);
	ck_assert_str_eq(c.fld[3][csv_col(&c, "warning")], r[2].warning);
	/* the window: requested and read back; none for verbs without one */
	ck_assert_str_eq(c.fld[1][csv_col(&c, "window_requested")], "4194304");
	ck_assert_str_eq(c.fld[1][csv_col(&c, "window_snd")], "8388608");
	ck_assert_str_eq(c.fld[1][csv_col(&c, "window_rcv")], "6291456");
	ck_assert_str_eq(c.fld[2][csv_col(&c, "window_requested")], "");
	ck_assert_str_eq(c.fld[2][csv_col(&c, "window_snd")], "");
	csv_free(&c);
}
END_TEST

/* Splits line into whitespace-separated tokens (in place). */
static int tokens(char *line, char **tok, int max)
{
	int n = 0;

	for (char *t = strtok(line, " "); t && n < max; t = strtok(NULL, " "))
		tok[n++] = t;
	return n;
}

START_TEST(test_text)
{
	struct ig_report_env env;
	struct ig_result r[2];
	char *s, *line, *save, *tok[32], expect[32];
	size_t head_len = 0;
	int rows = 0, warns = 0, ntok;
	double ns;

	fill_env(&env);
	make_bw(&r[0]);
	make_lat(&r[1], NS_LAT);
	s = render(IG_FMT_TEXT, &env, r, 2);
	ck_assert_ptr_nonnull(strstr(s, "Gb/s = 10^9 bit/s; latency = half "
					"round trip, microseconds"));
	ck_assert_ptr_nonnull(strstr(s, "us/KiB = CPU microseconds per KiB"));
	ck_assert_ptr_nonnull(strstr(s, "alpha"));
	ck_assert_ptr_nonnull(strstr(s, "6.1.0-17-amd64"));
	ck_assert_ptr_nonnull(strstr(s, "0.0.9"));

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "test ", 5))
			head_len = strlen(line);
		if (!strncmp(line, "warning: ", 9)) {
			ck_assert_str_eq(line + 9,
					 "send_lat: inline size capped at 64, "
					 "\"max_inline_data\" of the QP");
			warns++;
		}
		if (strncmp(line, "tcp_bw ", 7) &&
		    strncmp(line, "send_lat ", 9))
			continue;
		rows++;
		ck_assert_uint_eq(strlen(line), head_len); /* aligned */
		ntok = tokens(line, tok, 32);
		ck_assert_int_eq(ntok, 15);
		if (!strcmp(tok[0], "tcp_bw")) {
			ck_assert_str_eq(tok[2], "64K");
			ck_assert_str_eq(tok[3], "4");
			ck_assert_double_eq_tol(atof(tok[5]), r[0].bw_gbps,
						0.006);
			for (int i = 7; i <= 10; i++)
				ck_assert_str_eq(tok[i], "-");
			ck_assert_str_ne(tok[12], "-");
		} else {
			ck_assert_str_eq(tok[2], "8");
			ck_assert(ig_hist_percentile(&r[1].lat, 0.5, &ns));
			snprintf(expect, sizeof(expect), "%.2f", ns / 1000.0);
			ck_assert_str_eq(tok[7], expect);
			ck_assert_str_eq(tok[8], "-");	/* p99 */
			ck_assert_str_eq(tok[9], "-");	/* p99.9 */
			ck_assert_str_ne(tok[10], "-"); /* max */
			ck_assert_str_eq(tok[12], "-"); /* no server CPU */
			ck_assert_str_eq(tok[13], "-"); /* no payload */
			ck_assert_str_eq(tok[14], "-");
		}
	}
	ck_assert_uint_gt(head_len, 0);
	ck_assert_int_eq(rows, 2);
	ck_assert_int_eq(warns, 1);
	free(s);
}
END_TEST

/* make_bw with TCP_INFO of both sides (client streams 1 and 3
 * retransmitted 2 and 1) after a zero-copy run whose sends were copied. */
static void set_ctr(struct ig_ctrs *c, unsigned int k, const char *group,
		    const char *name, uint64_t v)
{
	int i = ig_ctrs_find(c, group, name);

	ck_assert_int_ge(i, 0);
	c->st[k].v[i] = v;
	c->st[k].have |= 1u << i;
}

static void make_bw_tcpinfo(struct ig_result *r)
{
	static const char *const ti[] = { "retrans",  "retrans_total",
					  "rtt_us",   "rttvar_us",
					  "snd_cwnd", "snd_mss",
					  "pmtu",     "reordering" };
	static const char *const zc[] = { "sends", "copied", "enobufs",
					  "fallback" };

	make_bw(r);
	ig_ctrs_init(&r->ctrs, ig_tcp_ops.ctrs, ig_tcp_ops.nctrs, 4);
	for (unsigned int i = 0; i < 4; i++) {
		for (unsigned int k = 0; k < 8; k++)
			set_ctr(&r->ctrs, i, "tcp_info", ti[k], 0);
		set_ctr(&r->ctrs, i, "tcp_info", "retrans_total", 9);
		set_ctr(&r->ctrs, i, "tcp_info", "rtt_us", 100 + i);
		set_ctr(&r->ctrs, i, "tcp_info", "snd_mss", 65483);
		for (unsigned int k = 0; k < 4; k++)
			set_ctr(&r->ctrs, i, "zerocopy", zc[k], 0);
	}
	r->ctrs_server = r->ctrs;
	set_ctr(&r->ctrs, 1, "tcp_info", "retrans", 2);
	set_ctr(&r->ctrs, 3, "tcp_info", "retrans", 1);
	r->local.sock.zerocopy = IG_ZC_ON;
	/* 9 sends, 5 copied, over two streams */
	set_ctr(&r->ctrs, 0, "zerocopy", "sends", 4);
	set_ctr(&r->ctrs, 2, "zerocopy", "sends", 5);
	set_ctr(&r->ctrs, 2, "zerocopy", "copied", 5);
}

START_TEST(test_tcpinfo_json)
{
	struct ig_result r;
	json_object *doc, *res, *ti, *a;

	make_bw_tcpinfo(&r);
	doc = render_json(&r, 1);
	res = json_object_array_get_idx(key(doc, "results"), 0);
	ti = key(res, "tcp_info");
	ck_assert_int_eq(ikey(ti, "retrans"), 3);
	a = key(ti, "client");
	ck_assert_uint_eq(json_object_array_length(a), 4);
	ck_assert_int_eq(ikey(json_object_array_get_idx(a, 1), "retrans"), 2);
	ck_assert_int_eq(ikey(json_object_array_get_idx(a, 3), "rtt_us"), 103);
	ck_assert_uint_eq(json_object_array_length(key(ti, "server")), 4);
	ck_assert(json_object_get_boolean(key(res, "zerocopy")));
	ck_assert_int_eq(ikey(key(res, "zerocopy_stats"), "copied"), 5);
	json_object_put(doc);
}
END_TEST

/* A verbs read_bw whose transport named its device (both sides): the
 * report prints the facts by name, outs beside the parameters. */
static void make_read_device(struct ig_result *r)
{
	make_bw(r);
	r->params.test = IG_TEST_READ_BW;
	r->test = "read_bw";
	r->transport = "verbs";
	ig_facts_set_str(&r->facts, IG_FACT_DEVICE, "mlx5_1");
	ig_facts_set_int(&r->facts, IG_FACT_PORT, 2);
	ig_facts_set_str(&r->facts, "link_layer", "InfiniBand");
	ig_facts_set_int(&r->facts, "mtu", 4096);
	ig_facts_set_str(&r->facts, "gid", "fe80::2");
	ig_facts_set_int(&r->facts, "gid_index", 3);
	ig_facts_set_real(&r->facts, "rate_gbps", 100.0);
	ig_facts_set_int(&r->facts, "numa_node", 1);
	ig_facts_set_int(&r->facts, "cpu", 7);
	ig_facts_set_int(&r->facts, "outs", 16);
	r->facts_server = r->facts;
	ig_facts_set_int(&r->facts_server, "cpu", -1);
	ig_facts_set_int(&r->facts_server, "inline", 0);
}

START_TEST(test_device_facts)
{
	struct ig_report_env env;
	struct ig_result r;
	json_object *doc, *res, *dev;
	char *s;

	make_read_device(&r);
	doc = render_json(&r, 1);
	res = json_object_array_get_idx(key(doc, "results"), 0);
	ck_assert_int_eq(ikey(res, "outs"), 16);
	dev = key(key(res, "device"), "client");
	ck_assert_str_eq(skey(dev, "device"), "mlx5_1");
	ck_assert_int_eq(ikey(dev, "mtu"), 4096);
	ck_assert(dkey(dev, "rate_gbps") == 100.0);
	ck_assert(!has_key(dev, "outs"));
	ck_assert_int_eq(ikey(key(key(res, "device"), "server"), "cpu"), -1);
	ck_assert_int_eq(ikey(key(key(res, "device"), "server"), "inline"), 0);
	ck_assert(!has_key(dev, "inline")); /* an older client's facts */
	json_object_put(doc);
	fill_env(&env);
	s = render(IG_FMT_TEXT, &env, &r, 1);
	ck_assert_msg(strstr(s,
			     "\nclient  mlx5_1 port 2  InfiniBand  MTU 4096"
			     "  GID[3] fe80::2  100.0 Gb/s  NUMA 1  cpu 7\n"),
		      "%s", s);
	ck_assert_msg(strstr(s, "\nserver  mlx5_1 port 2  InfiniBand  MTU 4096"
				"  GID[3] fe80::2  100.0 Gb/s  NUMA 1  not "
				"pinned  inline 0\n"),
		      "%s", s);
	free(s);
}
END_TEST

/* A run that failed says nothing of zero-copy, whatever it was asked. */
START_TEST(test_zc_failed)
{
	struct ig_report_env env;
	struct ig_result r;
	char *s;

	fill_env(&env);
	make_bw_tcpinfo(&r);
	r.failed = true;
	snprintf(r.error, sizeof(r.error), "tcp_bw: refused");
	s = render(IG_FMT_TEXT, &env, &r, 1);
	ck_assert_msg(!strstr(s, "zerocopy"), "%s", s);
	free(s);
}
END_TEST

START_TEST(test_tcpinfo_text)
{
	struct ig_report_env env;
	struct ig_result r;
	char *s;

	fill_env(&env);
	make_bw_tcpinfo(&r);
	s = render(IG_FMT_TEXT, &env, &r, 1);
	ck_assert_msg(strstr(s, "  retrans 3 zerocopy\n"), "%s", s);
	ck_assert_msg(strstr(s, "\nwarning: tcp_bw 64K streams 4: TCP "
				"retransmitted 3 "
				"segments during the measured interval "
				"(client stream 1: 2, client stream 3: 1)"),
		      "%s", s);
	ck_assert_msg(strstr(s, "\nwarning: tcp_bw: --zerocopy: the kernel "
				"copied 5 of 9 zero-copy sends"),
		      "%s", s);
	ck_assert_msg(strstr(s, "\nzerocopy: tcp_bw 64K: MSG_ZEROCOPY, 9 "
				"sends, sender (client) CPU "),
		      "%s", s);
	free(s);
	/* one retransmission: "1 segment" (old: "1 segments") */
	set_ctr(&r.ctrs, 1, "tcp_info", "retrans", 0);
	s = render(IG_FMT_TEXT, &env, &r, 1);
	ck_assert_msg(strstr(s, ": TCP retransmitted 1 segment during the "
				"measured interval (client stream 3: 1)"),
		      "%s", s);
	free(s);
	/* the row named, its window too: one of a -P/--window matrix */
	r.params.sock.window = 256 << 10;
	s = render(IG_FMT_TEXT, &env, &r, 1);
	ck_assert_msg(strstr(s, "\nwarning: tcp_bw 64K streams 4 window 256K: "
				"TCP retransmitted 1 segment"),
		      "%s", s);
	free(s);
}
END_TEST

/* ud_send_bw: the row ends with what was lost of what was sent. */
START_TEST(test_lossy_text)
{
	struct ig_report_env env;
	struct ig_result r;
	char *s;

	fill_env(&env);
	make_bw(&r);
	r.params.test = IG_TEST_UD_SEND_BW;
	r.test = "ud_send_bw";
	r.transport = "verbs";
	r.lossy = true;
	r.sent = 1000;
	r.lost = 100;
	r.loss_rate = 0.1;
	s = render(IG_FMT_TEXT, &env, &r, 1);
	ck_assert_msg(strstr(s, "  lost 100 of 1000 (10%)\n"), "%s", s);
	free(s);
}
END_TEST

START_TEST(test_text_sizes)
{
	static const struct {
		uint64_t size;
		const char *text;
	} cases[] = {
		{ 1, "1" },
		{ 1000, "1000" },
		{ 1024, "1K" },
		{ 1536, "1536" },
		{ 3072, "3K" },
		{ 1 << 20, "1M" },
		{ 3 << 20, "3M" },
		{ 1ull << 30, "1G" },
		{ (1 << 20) + 1024, "1025K" },
	};
	struct ig_report_env env;
	struct ig_result r;
	char *s, *line, *tok[32];

	fill_env(&env);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_bw(&r);
		r.params.size = cases[i].size;
		s = render(IG_FMT_TEXT, &env, &r, 1);
		line = strstr(s, "\ntcp_bw ");
		ck_assert_ptr_nonnull(line);
		*strchr(line + 1, '\n') = '\0';
		ck_assert_int_eq(tokens(line + 1, tok, 32), 15);
		ck_assert_str_eq(tok[2], cases[i].text);
		free(s);
	}
}
END_TEST

/* The line of s that starts with start, copied into buf ("" if none). */
static void line_of(const char *s, const char *start, char *buf, size_t len)
{
	const char *p = s, *e;

	buf[0] = '\0';
	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, start, strlen(start)))
			continue;
		e = strchr(p, '\n');
		snprintf(buf, len, "%.*s", (int)(e ? e - p : (long)strlen(p)),
			 p);
		return;
	}
}

/* -P 1,2 --window 64K,256K of tcp_bw: a window column in the table and
 * the table of streams down, windows across. */
START_TEST(test_text_matrix)
{
	static const struct {
		uint32_t streams;
		uint64_t window;
		double gbps;
	} cells[] = {
		{ 1, 65536, 11.25 },
		{ 1, 262144, 12.5 },
		{ 2, 65536, 21.75 },
		{ 2, 262144, 24.0 },
	};
	struct ig_report_env env;
	struct ig_result r[4];
	char *s, buf[256], *tok[32];
	int rows = 0;

	fill_env(&env);
	for (int i = 0; i < 4; i++) {
		make_bw(&r[i]);
		r[i].params.streams = cells[i].streams;
		r[i].params.sock.window = cells[i].window;
		r[i].bw_gbps = cells[i].gbps;
	}
	s = render(IG_FMT_TEXT, &env, r, 4);
	line_of(s, "test ", buf, sizeof(buf));
	ck_assert_int_eq(tokens(buf, tok, 32), 16);
	ck_assert_str_eq(tok[4], "window");
	for (const char *p = s; (p = strstr(p, "\ntcp_bw    tcp "));
	     p++, rows++) {
		snprintf(buf, sizeof(buf), "%.*s",
			 (int)(strchr(p + 1, '\n') - p - 1), p + 1);
		ck_assert_int_eq(tokens(buf, tok, 32), 16);
		ck_assert_uint_eq(strtoul(tok[3], NULL, 10),
				  cells[rows].streams);
		ck_assert_str_eq(tok[4], rows % 2 ? "256K" : "64K");
		ck_assert_double_eq_tol(atof(tok[6]), cells[rows].gbps, 1e-9);
	}
	ck_assert_int_eq(rows, 4);
	line_of(s, "tcp_bw 64K, Gb/s", buf, sizeof(buf));
	ck_assert_str_eq(buf, "tcp_bw 64K, Gb/s: streams down, window across");
	line_of(s, "streams ", buf, sizeof(buf));
	ck_assert_str_eq(buf, "streams       64K      256K");
	line_of(s, "      1 ", buf, sizeof(buf));
	ck_assert_str_eq(buf, "      1     11.25     12.50");
	line_of(s, "      2 ", buf, sizeof(buf));
	ck_assert_str_eq(buf, "      2     21.75     24.00");
	free(s);
	/* one combination, a single --window 64K: the column shows it
	 * (old code: no column), no matrix */
	s = render(IG_FMT_TEXT, &env, r, 1);
	line_of(s, "test ", buf, sizeof(buf));
	ck_assert_int_eq(tokens(buf, tok, 32), 16);
	ck_assert_str_eq(tok[4], "window");
	line_of(s, "tcp_bw ", buf, sizeof(buf));
	ck_assert_int_eq(tokens(buf, tok, 32), 16);
	ck_assert_str_eq(tok[4], "64K");
	ck_assert_ptr_null(strstr(s, "streams down"));
	free(s);
	/* no --window: no column */
	r[0].params.sock.window = 0;
	s = render(IG_FMT_TEXT, &env, r, 1);
	ck_assert_ptr_null(strstr(s, "window"));
	free(s);
}
END_TEST

/* The HELP of each OpenMetrics family says what its value is (design.md
 * "Metric definitions"): CPU in percent of all CPUs, not of one. */
START_TEST(test_om_help)
{
	struct ig_report_env env;
	struct ig_result r[2];
	char *s, buf[512];

	fill_env(&env);
	make_bw(&r[0]);
	make_lat(&r[1], NS_LAT);
	s = render(IG_FMT_OPENMETRICS, &env, r, 2);
	line_of(s, "# HELP ibgap_cpu_percent ", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "percent of all CPUs"), "%s", buf);
	ck_assert_msg(!strstr(buf, "one CPU"), "%s", buf);
	line_of(s, "# HELP ibgap_latency_us ", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "half a round trip") &&
			      strstr(buf, "read_lat: the whole read"),
		      "%s", buf);
	line_of(s, "# HELP ibgap_bandwidth_gbps ", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "Gb/s (10^9 bit/s)"), "%s", buf);
	/* the value the HELP describes: total_pct, all CPUs of the host */
	snprintf(buf, sizeof(buf), "side=\"client\"} %.9g\n",
		 r[0].cpu_client.total_pct);
	ck_assert_msg(strstr(s, buf), "no '%s' in:\n%s", buf, s);
	free(s);
}
END_TEST

/* A sweep of a latency test: one clock: line, not one per size (old
 * code: 3 identical lines); another clock or test, a line of its own. */
START_TEST(test_text_clock_once)
{
	struct ig_report_env env;
	struct ig_result r[5];
	char *s;

	fill_env(&env);
	for (int i = 0; i < 5; i++) {
		make_lat(&r[i], NS_LAT);
		r[i].params.size = 2u << i;
		r[i].clock = "tsc";
		r[i].clock_ghz = 2.9;
	}
	r[1].clock_ghz = 2.9002;
	r[3].clock = "monotonic";
	r[3].clock_ghz = 0;
	r[4].test = "tcp_lat";
	r[4].clock_read_ns = 14.25;
	r[4].clock_basis = "ordered";
	r[4].clock_cpus = 4;
	s = render(IG_FMT_TEXT, &env, r, 5);
	ck_assert_msg(strstr(s, "\nclock: send_lat: tsc at 2.9000 to 2.9002 "
				"GHz, checked against CLOCK_MONOTONIC\n"
				"clock: send_lat: monotonic\n"
				"clock: tcp_lat: tsc (ordered across the "
				"thread's 4 CPUs) at 2.9000 GHz, checked "
				"against CLOCK_MONOTONIC; a read costs 14.2 "
				"ns\n"),
		      "%s", s);
	ck_assert(!strstr(s, "stalls:"));
	free(s);
	/* the JSON: clock_read_ns where it was measured, none where not */
	s = render(IG_FMT_JSON, &env, r, 5);
	ck_assert_msg(strstr(s, "\"clock_basis\":\"ordered\"") &&
			      !strstr(strstr(s, "\"clock_basis\"") + 1,
				      "\"clock_basis\""),
		      "%s", s);
	ck_assert_msg(strstr(s, "\"clock_read_ns\":14.25") &&
			      !strstr(strstr(s, "\"clock_read_ns\"") + 1,
				      "\"clock_read_ns\""),
		      "%s", s);
	free(s);
}
END_TEST

/* Samples 20 times the p50 and 1 ms or more are counted as stalls, in
 * the text (one line for the row that has them) and in lat_us. */
START_TEST(test_stalls)
{
	struct ig_report_env env;
	struct ig_result r[2];
	json_object *doc, *lat;
	char *s;

	fill_env(&env);
	make_lat(&r[0], NS_LAT);
	make_lat(&r[1], NS_LAT);
	r[1].params.size = 64;
	/* p50 about 3 us: 1 ms is the bound; 999 us is not a stall */
	ig_hist_add(&r[1].lat, 999000);
	for (int i = 0; i < 3; i++)
		ig_hist_add(&r[1].lat, 4000000);
	s = render(IG_FMT_TEXT, &env, r, 2);
	ck_assert_msg(strstr(s, "\nstalls: send_lat 64 streams 1: 3 of 54 "
				"samples at 1000 us or more (20x the p50, "
				"1 ms at least)"),
		      "%s", s);
	ck_assert_msg(!strstr(s, "stalls: send_lat 8 "), "%s", s);
	free(s);
	doc = render_json(r, 2);
	lat = key(json_object_array_get_idx(key(doc, "results"), 1), "lat_us");
	ck_assert_int_eq(json_object_get_int64(key(lat, "stalls")), 3);
	ck_assert(dkey(lat, "stall_from_us") == 1000.0);
	lat = key(json_object_array_get_idx(key(doc, "results"), 0), "lat_us");
	ck_assert_int_eq(json_object_get_int64(key(lat, "stalls")), 0);
	json_object_put(doc);
}
END_TEST

/* --bidir: the row shows both directions, the bidir: line names the
 * row, the CSV has the reverse figures (old code: forward only). */
START_TEST(test_bidir_text_csv)
{
	struct ig_report_env env;
	struct ig_result r[2];
	char *s, buf[512];
	struct csv c;

	fill_env(&env);
	make_bw(&r[0]);
	r[0].params.bidir = 1;
	r[0].has_bidir = true;
	r[0].rev_bytes = 2500000000ull; /* 20 Gb over 2 s: 10 Gb/s */
	r[0].rev_seconds = 2.0;
	make_bw(&r[1]);
	s = render(IG_FMT_TEXT, &env, r, 2);
	line_of(s, "tcp_bw ", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "  reverse 10.00 Gb/s") &&
			      buf[strlen(buf) - 1] == 's',
		      "%s", buf);
	ck_assert_msg(strstr(s, "\nbidir: tcp_bw 64K streams 4: "
				"client->server 95.33 Gb/s, server->client "
				"10.00 Gb/s, total 105.33 Gb/s\n"),
		      "%s", s);
	/* the row without --bidir has no reverse figure */
	ck_assert_ptr_null(strstr(strstr(s, "  reverse ") + 1, "  reverse "));
	free(s);
	s = render(IG_FMT_CSV, &env, r, 2);
	csv_read(s, &c);
	free(s);
	ck_assert_int_eq(c.nrec, 3);
	ck_assert_str_eq(c.fld[1][csv_col(&c, "direction")], "bidir");
	ck_assert_str_eq(c.fld[1][csv_col(&c, "reverse_bytes")], "2500000000");
	ck_assert_double_eq_tol(atof(c.fld[1][csv_col(&c, "reverse_seconds")]),
				2.0, 1e-12);
	ck_assert_double_eq_tol(atof(c.fld[1][csv_col(&c, "reverse_gbps")]),
				10.0, 1e-9);
	ck_assert_str_eq(c.fld[2][csv_col(&c, "reverse_gbps")], "");
	ck_assert_str_eq(c.fld[2][csv_col(&c, "reverse_bytes")], "");
	csv_free(&c);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_format_parse);
	tcase_add_test(tc, test_write_bad_format);
	tcase_add_test(tc, test_json_env_and_bw);
	tcase_add_test(tc, test_json_lat);
	tcase_add_test(tc, test_json_lat_small_counts);
	tcase_add_test(tc, test_json_not_finite);
	tcase_add_test(tc, test_cpu_roundtrip);
	tcase_add_test(tc, test_cpu_from_json_errors);
	tcase_add_test(tc, test_sysinfo_json);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_tcpinfo_json);
	tcase_add_test(tc, test_tcpinfo_text);
	tcase_add_test(tc, test_zc_failed);
	tcase_add_test(tc, test_device_facts);
	tcase_add_test(tc, test_text_sizes);
	tcase_add_test(tc, test_lossy_text);
	tcase_add_test(tc, test_text_matrix);
	tcase_add_test(tc, test_om_help);
	tcase_add_test(tc, test_text_clock_once);
	tcase_add_test(tc, test_stalls);
	tcase_add_test(tc, test_bidir_text_csv);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(report_suite());
}
