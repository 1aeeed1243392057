// SPDX-License-Identifier: MIT
/* Unit tests for baseline.c, baseline_cmp.c and diff_cmd.c. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "report/baseline.h"
#include "host/fingerprint.h"
#include "testdata.h"
#include "testmain.h"

static json_object *load_ok(const char *rel)
{
	char path[PATH_MAX], err[512] = "";
	json_object *doc = NULL;

	data_path(path, sizeof(path), rel);
	ck_assert_msg(ig_baseline_load(path, &doc, err, sizeof(err)) == 0,
		      "loading %s: %s", path, err);
	ck_assert_ptr_nonnull(doc);
	return doc;
}

static json_object *base_copy(void)
{
	json_object *base = load_ok("baseline/base.json"), *copy = NULL;

	ck_assert_int_eq(json_object_deep_copy(base, &copy, NULL), 0);
	json_object_put(base);
	return copy;
}

/* Runs the comparison; the output in *text (free it). */
static int compare(json_object *a, json_object *b, double tol, char **text)
{
	size_t len;
	FILE *f = open_memstream(text, &len);
	int ret;

	ck_assert_ptr_nonnull(f);
	ret = ig_baseline_compare(a, b, tol, f);
	fclose(f);
	return ret;
}

static unsigned int count(const char *text, const char *s)
{
	unsigned int n = 0;

	for (const char *p = strstr(text, s); p; p = strstr(p + 1, s))
		n++;
	return n;
}

/* The line of text that contains s (copied into line). */
static void line_with(const char *text, const char *s, char *line, size_t len)
{
	const char *p = strstr(text, s), *b, *e;

	ck_assert_msg(p != NULL, "no line with '%s' in:\n%s", s, text);
	for (b = p; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(line, len, "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
}

static json_object *result(json_object *doc, const char *test)
{
	json_object *res, *t;

	ck_assert(json_object_object_get_ex(doc, "results", &res));
	for (size_t i = 0; i < json_object_array_length(res); i++) {
		json_object *r = json_object_array_get_idx(res, i);

		if (json_object_object_get_ex(r, "test", &t) &&
		    !strcmp(json_object_get_string(t), test))
			return r;
	}
	ck_abort_msg("no result %s", test);
	return NULL;
}

/* Multiplies a metric ("bw_gbps", or "p99" inside lat_us) by f and
 * returns its old value. */
static double scale(json_object *doc, const char *test, const char *key,
		    double f)
{
	json_object *r = result(doc, test), *o = r, *v;
	double old;

	if (key[0] == 'p')
		ck_assert(json_object_object_get_ex(r, "lat_us", &o));
	ck_assert(json_object_object_get_ex(o, key, &v));
	old = json_object_get_double(v);
	json_object_object_add(o, key, json_object_new_double(old * f));
	return old;
}

START_TEST(same_document_no_regression)
{
	json_object *a = load_ok("baseline/base.json");
	char *text;

	ck_assert_int_eq(compare(a, a, 5, &text), 0);
	ck_assert_msg(!strstr(text, "REGRESSION"), "%s", text);
	/* 2 metrics for each bandwidth test, 4 for each latency test */
	ck_assert_uint_eq(count(text, "%) ok\n"), 12);
	ck_assert_msg(strstr(text, "summary: 12 metrics compared, 0 worse "
				   "than 5%, 0 environment changes"),
		      "%s", text);
	ck_assert_uint_eq(count(text, "(+0.0%) ok"), 12);
	ck_assert_ptr_null(strstr(text, " run\n"));
	free(text);
	json_object_put(a);
}
END_TEST

START_TEST(bandwidth_halved)
{
	json_object *a = load_ok("baseline/base.json"), *b = base_copy();
	char *text, line[256], want[256];
	double old = scale(b, "write_bw", "bw_gbps", 0.5);

	ck_assert_int_eq(compare(a, b, 5, &text), 1);
	line_with(text, "write_bw 64K streams 1 bw_gbps", line, sizeof(line));
	snprintf(want, sizeof(want),
		 "write_bw 64K streams 1 bw_gbps %.2f -> %.2f (-50.0%%) "
		 "REGRESSION",
		 old, old / 2);
	ck_assert_str_eq(line, want);
	ck_assert_uint_eq(count(text, "REGRESSION\n"), 2); /* + summary */
	ck_assert_msg(strstr(text, "1 worse than 5%"), "%s", text);
	free(text);

	/* the other way round it is an improvement */
	ck_assert_int_eq(compare(b, a, 5, &text), 0);
	line_with(text, "write_bw 64K streams 1 bw_gbps", line, sizeof(line));
	ck_assert_msg(strstr(line, "(+100.0%) ok"), "%s", line);
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

START_TEST(latency_p99_doubled)
{
	json_object *a = load_ok("baseline/base.json"), *b = base_copy();
	char *text, line[256];

	scale(b, "tcp_lat", "p99", 2.0);
	ck_assert_int_eq(compare(a, b, 5, &text), 1);
	line_with(text, "tcp_lat 2 streams 1 lat_us.p99", line, sizeof(line));
	ck_assert_str_eq(line, "tcp_lat 2 streams 1 lat_us.p99 8.00 -> 16.00 "
			       "(+100.0%) REGRESSION");
	line_with(text, "tcp_lat 2 streams 1 lat_us.p50", line, sizeof(line));
	ck_assert_msg(strstr(line, " ok"), "%s", line);
	free(text);

	/* lower latency is better */
	ck_assert_int_eq(compare(b, a, 5, &text), 0);
	ck_assert_ptr_null(strstr(text, "REGRESSION"));
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

START_TEST(tolerance_boundary)
{
	json_object *a = load_ok("baseline/base.json"), *b = base_copy();
	char *text, line[256];

	scale(b, "tcp_bw", "bw_gbps", 0.97);
	ck_assert_int_eq(compare(a, b, 5, &text), 0);
	line_with(text, "tcp_bw 64K streams 1 bw_gbps", line, sizeof(line));
	ck_assert_str_eq(
		line, "tcp_bw 64K streams 1 bw_gbps 45.00 -> 43.65 (-3.0%) ok");
	free(text);
	ck_assert_int_eq(compare(a, b, 2, &text), 1);
	line_with(text, "tcp_bw 64K streams 1 bw_gbps", line, sizeof(line));
	ck_assert_str_eq(line, "tcp_bw 64K streams 1 bw_gbps 45.00 -> 43.65 "
			       "(-3.0%) REGRESSION");
	free(text);
	/* tolerance 0: any loss at all */
	ck_assert_int_eq(compare(a, b, 0, &text), 1);
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

static void set_fp(json_object *doc, const char *host, const char *key,
		   const char *val)
{
	json_object *env, *h, *fp;

	ck_assert(json_object_object_get_ex(doc, "env", &env));
	ck_assert(json_object_object_get_ex(env, host, &h));
	ck_assert(json_object_object_get_ex(h, "fingerprint", &fp));
	json_object_object_add(fp, key, json_object_new_string(val));
}

START_TEST(fingerprint_changes_listed)
{
	json_object *a = load_ok("baseline/base.json"), *b = base_copy();
	char *text;

	set_fp(b, "server", "fw_ver", "20.35.2000");
	set_fp(b, "client", "ipoib_mode", "connected");
	set_fp(b, "client", "pcie_width", "");
	ck_assert_int_eq(compare(a, b, 5, &text), 0);
	ck_assert_msg(strstr(text, "server fw_ver 20.31.1014 -> 20.35.2000\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "client ipoib_mode datagram -> connected\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "client pcie_width 16 -> (none)\n"), "%s",
		      text);
	ck_assert_uint_eq(count(text, "fw_ver"), 1); /* client's unchanged */
	ck_assert_msg(strstr(text, "3 environment changes"), "%s", text);
	free(text);

	/* a run saved without fingerprints */
	json_object_object_del(
		json_object_object_get(json_object_object_get(b, "env"),
				       "server"),
		"fingerprint");
	ck_assert_int_eq(compare(a, b, 5, &text), 0);
	ck_assert_msg(strstr(text, "server fingerprint only in the old run"),
		      "%s", text);
	ck_assert_ptr_null(strstr(text, "server fw_ver"));
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

static json_object *add_result(json_object *doc, const char *test, int64_t size,
			       int64_t streams, double bw)
{
	json_object *res, *r = json_object_new_object();

	json_object_object_add(r, "test", json_object_new_string(test));
	json_object_object_add(r, "size", json_object_new_int64(size));
	json_object_object_add(r, "streams", json_object_new_int64(streams));
	json_object_object_add(r, "bw_gbps", json_object_new_double(bw));
	json_object_object_get_ex(doc, "results", &res);
	json_object_array_add(res, r);
	return r;
}

START_TEST(results_in_one_file_only)
{
	json_object *a = load_ok("baseline/base.json"), *b = base_copy();
	char *text;

	add_result(b, "write_bw", 1 << 20, 1, 190.0);
	add_result(a, "send_bw", 4096, 2, 100.0);
	/* same test and size, other stream count: not the same result */
	json_object_object_add(result(b, "tcp_bw"), "streams",
			       json_object_new_int(4));
	/* results of the old run missing: not ok */
	ck_assert_int_eq(compare(a, b, 5, &text), IG_DIFF_INCOMPLETE);
	ck_assert_msg(strstr(text, "only in the new: INCOMPLETE\nnot ok: the "
				   "new run lacks 2 results and 0 metrics of "
				   "the old one\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "write_bw 1M streams 1 only in the new "
				   "run\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "send_bw 4K streams 2 only in the old "
				   "run\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "tcp_bw 64K streams 1 only in the old "
				   "run\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "tcp_bw 64K streams 4 only in the new "
				   "run\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "2 results only in the old run, 2 only in "
				   "the new"),
		      "%s", text);
	ck_assert_ptr_null(strstr(text, "tcp_bw 64K streams 1 bw_gbps"));
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

/* A result of a -P/--window matrix: window.requested set. */
static void add_windowed(json_object *doc, int64_t streams, int64_t window,
			 double bw)
{
	json_object *r = add_result(doc, "tcp_bw", 65536, streams, bw);
	json_object *w = json_object_new_object();

	json_object_object_add(w, "requested", json_object_new_int64(window));
	json_object_object_add(w, "snd", json_object_new_int64(2 * window));
	json_object_object_add(r, "window", w);
}

/* Matrix runs pair by window too, whatever the order of the results;
 * no window object is the default window (0). */
START_TEST(windows_matched)
{
	json_object *a = load_ok("baseline/no_results.json");
	json_object *b = load_ok("baseline/no_results.json");
	char *text;

	add_windowed(a, 2, 65536, 10.0);
	add_windowed(a, 2, 262144, 20.0);
	add_windowed(a, 2, 1 << 20, 30.0);
	add_windowed(a, 1, 0, 5.0);
	add_result(b, "tcp_bw", 65536, 1, 5.0); /* an older report */
	add_windowed(b, 2, 262144, 20.0);
	add_windowed(b, 2, 65536, 10.0);
	ck_assert_int_eq(compare(a, b, 5, &text), IG_DIFF_INCOMPLETE);
	ck_assert_msg(strstr(text, "tcp_bw 64K streams 2 window 256K bw_gbps "
				   "20.00 -> 20.00 (+0.0%) ok\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "tcp_bw 64K streams 2 window 64K bw_gbps "
				   "10.00 -> 10.00 (+0.0%) ok\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "tcp_bw 64K streams 1 bw_gbps 5.00 -> "
				   "5.00 (+0.0%) ok\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "tcp_bw 64K streams 2 window 1M only in "
				   "the old run\n"),
		      "%s", text);
	ck_assert_ptr_null(strstr(text, "REGRESSION"));
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

static void add_at(json_object *doc, const char *transport, double bw)
{
	json_object *r = add_result(doc, "tcp_bw", 65536, 1, bw);

	json_object_object_add(r, "transport",
			       json_object_new_string(transport));
}

/* --also's column (transport tcp@ADDR) is a key of its own: it pairs with
 * the same column of the other run, whatever the order, never with tcp;
 * a failed result (no figures) compares nothing. */
START_TEST(also_column_matched)
{
	static const char *const want[] = {
		"tcp_bw 64K streams 1 bw_gbps 10.00 -> 10.00 (+0.0%) ok\n",
		"tcp_bw@192.0.2.7 64K streams 1 bw_gbps 1.00 -> 1.00 (+0.0%) "
		"ok\n",
		"tcp_bw@192.0.2.8 64K streams 1 only in the old run\n",
		"tcp_bw@192.0.2.9 64K streams 1 only in the new run\n",
	};
	json_object *a = load_ok("baseline/no_results.json");
	json_object *b = load_ok("baseline/no_results.json");
	json_object *r;
	char *text;

	add_at(a, "tcp", 10.0);
	add_at(a, "tcp@192.0.2.7", 1.0);
	add_at(a, "tcp@192.0.2.8", 3.0);
	add_at(b, "tcp@192.0.2.7", 1.0);
	add_at(b, "tcp", 10.0);
	r = add_result(b, "tcp_bw", 65536, 1, 0);
	json_object_object_add(r, "transport",
			       json_object_new_string("tcp@192.0.2.9"));
	json_object_object_del(r, "bw_gbps");
	json_object_object_add(r, "error", json_object_new_string("refused"));
	ck_assert_int_eq(compare(a, b, 5, &text), IG_DIFF_INCOMPLETE);
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++)
		ck_assert_msg(strstr(text, want[i]), "no '%s' in:\n%s", want[i],
			      text);
	ck_assert_ptr_null(strstr(text, "REGRESSION"));
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

static void add_rail(json_object *doc, const char *test, const char *rail,
		     double bw)
{
	json_object *r = add_result(doc, test, 65536, 1, bw);

	json_object_object_add(r, "rail", json_object_new_string(rail));
}

/* --rails: a result's rail is part of its key, so each rail is held
 * against the same device's rail of the other run, whatever the order;
 * a rail's regression is named with its device. */
START_TEST(rails_matched_by_device)
{
	static const char *const want[] = {
		"write_bw 64K streams 1 rail mlx5_0 bw_gbps 90.00 -> 90.00 "
		"(+0.0%) ok\n",
		"write_bw 64K streams 1 rail mlx5_1 bw_gbps 90.00 -> 45.00 "
		"(-50.0%) REGRESSION\n",
		"tcp_bw 64K streams 1 rail mlx5_1 bw_gbps 30.00 -> 30.00 "
		"(+0.0%) ok\n",
		"tcp_bw 64K streams 1 rail mlx5_2 only in the new run\n",
	};
	json_object *a = load_ok("baseline/no_results.json");
	json_object *b = load_ok("baseline/no_results.json");
	char *text;

	add_rail(a, "write_bw", "mlx5_0", 90);
	add_rail(a, "write_bw", "mlx5_1", 90);
	add_rail(a, "tcp_bw", "mlx5_1", 30);
	add_rail(b, "tcp_bw", "mlx5_1", 30);
	add_rail(b, "write_bw", "mlx5_1", 45); /* the rail that fell */
	add_rail(b, "write_bw", "mlx5_0", 90);
	add_rail(b, "tcp_bw", "mlx5_2", 30);
	ck_assert_int_eq(compare(a, b, 5, &text), IG_DIFF_REGRESSION);
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++)
		ck_assert_msg(strstr(text, want[i]), "no '%s' in:\n%s", want[i],
			      text);
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

/* The same key twice pairs up in file order; absent metrics are named. */
START_TEST(duplicates_and_absent_metrics)
{
	json_object *a = load_ok("baseline/no_results.json");
	json_object *b = load_ok("baseline/no_results.json");
	char *text;

	add_result(a, "tcp_bw", 65536, 1, 10.0);
	add_result(a, "tcp_bw", 65536, 1, 20.0);
	add_result(b, "tcp_bw", 65536, 1, 10.0);
	add_result(b, "tcp_bw", 65536, 1, 10.0);
	json_object_object_add(add_result(a, "tcp_bw", 8, 1, 1.0), "bw_gbps",
			       NULL);
	add_result(b, "tcp_bw", 8, 1, 1.0);
	ck_assert_int_eq(compare(a, b, 5, &text), 1);
	ck_assert_msg(strstr(text, "bw_gbps 10.00 -> 10.00 (+0.0%) ok\n"), "%s",
		      text);
	ck_assert_msg(strstr(text, "bw_gbps 20.00 -> 10.00 (-50.0%) "
				   "REGRESSION\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "tcp_bw 8 streams 1 bw_gbps not compared: "
				   "only in the new run\n"),
		      "%s", text);
	free(text);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

/* A gate that compares nothing is not ok: no result matches, or one
 * report has no results (old code: "0 metrics compared ... ok", 0). */
START_TEST(nothing_compared)
{
	json_object *a = load_ok("baseline/base.json");
	json_object *e = load_ok("baseline/no_results.json");
	json_object *b = load_ok("baseline/no_results.json");
	json_object *c = load_ok("baseline/no_results.json");
	char *text;

	ck_assert_int_eq(compare(a, e, 5, &text), IG_DIFF_INCOMPLETE);
	ck_assert_msg(strstr(text, "summary: 0 metrics compared") &&
			      strstr(text,
				     ": NOTHING COMPARED\nnot ok: no "
				     "metric of the old run was compared"),
		      "%s", text);
	ck_assert_ptr_null(strstr(text, ": ok\n"));
	free(text);
	ck_assert_int_eq(compare(e, e, 5, &text), IG_DIFF_INCOMPLETE);
	ck_assert_msg(strstr(text, ": NOTHING COMPARED\n"), "%s", text);
	free(text);
	/* --baseline of other sizes: every result only in one run */
	add_result(b, "tcp_bw", 65536, 1, 10.0);
	add_result(c, "tcp_bw", 4096, 1, 10.0);
	ck_assert_int_eq(compare(b, c, 5, &text), IG_DIFF_INCOMPLETE);
	ck_assert_msg(strstr(text, "tcp_bw 64K streams 1 only in the old "
				   "run\n") &&
			      strstr(text, ": NOTHING COMPARED\n"),
		      "%s", text);
	free(text);
	/* results only in the new run: the old is whole, ok */
	add_result(c, "tcp_bw", 65536, 1, 10.0);
	ck_assert_int_eq(compare(b, c, 5, &text), IG_DIFF_OK);
	ck_assert_msg(strstr(text, "only in the new: ok\n"), "%s", text);
	ck_assert_ptr_null(strstr(text, "not ok"));
	free(text);
	/* a metric of the old run that the new lacks: incomplete */
	json_object_object_add(result(b, "tcp_bw"), "msg_rate",
			       json_object_new_double(5.0));
	ck_assert_int_eq(compare(b, c, 5, &text), IG_DIFF_INCOMPLETE);
	ck_assert_msg(strstr(text, "lacks 0 results and 1 metric of the old "
				   "one\n"),
		      "%s", text);
	free(text);
	json_object_put(a);
	json_object_put(b);
	json_object_put(c);
	json_object_put(e);
}
END_TEST

static void expect_load_error(const char *path, int want, const char *what)
{
	json_object *doc = (json_object *)&doc; /* must become NULL */
	char err[512] = "";

	ck_assert_int_eq(ig_baseline_load(path, &doc, err, sizeof(err)), want);
	ck_assert_ptr_null(doc);
	ck_assert_msg(!strncmp(err, path, strlen(path)),
		      "'%s' does not name the file %s", err, path);
	ck_assert_msg(strstr(err, what), "'%s' does not say '%s'", err, what);
	ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(load_errors)
{
	char path[PATH_MAX];

	data_path(path, sizeof(path), "baseline/wrong_schema.json");
	expect_load_error(path, -EINVAL, "schema \"ibgap/2\" is not supported");
	data_path(path, sizeof(path), "baseline/not_json.csv");
	expect_load_error(path, -EINVAL, "not JSON");
	data_path(path, sizeof(path), "baseline/results_not_array.json");
	expect_load_error(path, -EINVAL,
			  "\"results\" is of type object, want an array");
	data_path(path, sizeof(path), "baseline/size_not_int.json");
	expect_load_error(path, -EINVAL, "results[1] (tcp_lat): \"size\"");
	data_path(path, sizeof(path), "baseline/empty.json");
	expect_load_error(path, -ENODATA, "empty");
	data_path(path, sizeof(path), "baseline/missing.json");
	expect_load_error(path, -ENOENT, "cannot open: No such file");
	data_path(path, sizeof(path), "baseline");
	expect_load_error(path, -EISDIR, "directory");
}
END_TEST

START_TEST(load_17mib_refused)
{
	char path[] = "/tmp/ibgap-test-baseline-XXXXXX", err[256];
	size_t big = 17u << 20;
	json_object *doc = NULL;
	char *buf = malloc(big);
	int fd = mkstemp(path);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	/* a valid document padded with white space: only the size is wrong */
	memset(buf, ' ', big);
	memcpy(buf, "{\"schema\":\"ibgap/1\",\"results\":[]}", 33);
	ck_assert_int_eq(write(fd, buf, big), (ssize_t)big);
	close(fd);
	expect_load_error(path, -EFBIG, "16 MiB");
	/* the same from a pipe (no size known in advance) */
	ck_assert_int_eq(ig_baseline_parse(buf, big, &doc, err, sizeof(err)),
			 -EFBIG);
	ck_assert_ptr_null(doc);
	/* and 16 MiB exactly is accepted */
	ck_assert_int_eq(
		ig_baseline_parse(buf, 16u << 20, &doc, err, sizeof(err)), 0);
	json_object_put(doc);
	unlink(path);
	free(buf);
}
END_TEST

START_TEST(parse_errors)
{
	static const struct {
		const char *text;
		const char *what;
	} cases[] = {
		{ "[]", "the document is of type array" },
		{ "{\"results\":[]}", "no \"schema\"" },
		{ "{\"schema\":1,\"results\":[]}",
		  "\"schema\" is of type int" },
		{ "{\"schema\":\"ibgap/1\"}", "no \"results\" array" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[1]}",
		  "results[0] is of type int" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[{\"size\":1}]}",
		  "results[0] has no \"test\"" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[{\"test\":\"x\","
		  "\"size\":0}]}",
		  "results[0] (x): \"size\"" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[{\"test\":\"x\","
		  "\"size\":1,\"streams\":1.5}]}",
		  "\"streams\" is not an integer" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[],\"env\":[]}",
		  "\"env\" is of type array" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[],\"env\":{\"server\":"
		  "{\"fingerprint\":{\"mtu\":2044}}}}",
		  "env.server.fingerprint is not an object of strings" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[]} {}", "not JSON" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[", "not JSON" },
		{ "{\"schema\":\"ibgap/1\",\"results\":[]}\n\n  ", NULL },
	};
	char err[256];
	json_object *doc;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = ig_baseline_parse(cases[i].text,
					    strlen(cases[i].text), &doc, err,
					    sizeof(err));

		if (!cases[i].what) {
			ck_assert_msg(ret == 0, "%s: %s", cases[i].text, err);
			json_object_put(doc);
			continue;
		}
		ck_assert_msg(ret == -EINVAL && !doc, "%s: ret %d",
			      cases[i].text, ret);
		ck_assert_msg(strstr(err, cases[i].what), "%s: '%s'",
			      cases[i].text, err);
	}
	ck_assert_int_eq(ig_baseline_parse("{\"schema\":\0}", 12, &doc, err,
					   sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "NUL byte at byte 10"), "%s", err);
	ck_assert_int_eq(ig_baseline_parse(NULL, 0, &doc, err, sizeof(err)),
			 -ENODATA);
}
END_TEST

/* A small deterministic fuzz: mutated copies of base.json either load or
 * fail with a message, and what loads compares without a crash. */
START_TEST(mutations_never_crash)
{
	char path[PATH_MAX], err[256];
	json_object *base = load_ok("baseline/base.json"), *doc;
	FILE *f, *null = fopen("/dev/null", "w");
	char *text;
	long len;
	unsigned int seed = 12345, loaded = 0;

	data_path(path, sizeof(path), "baseline/base.json");
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = malloc((size_t)len);
	ck_assert_uint_eq(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	for (int i = 0; i < 3000; i++) {
		char *m = malloc((size_t)len);
		long cut = len - (long)(rand_r(&seed) % 8 == 0
						? rand_r(&seed) % len
						: 0);

		memcpy(m, text, (size_t)len);
		for (int k = rand_r(&seed) % 4; k >= 0; k--)
			m[rand_r(&seed) % len] = (char)(rand_r(&seed) % 256);
		err[0] = '\0';
		if (ig_baseline_parse(m, (size_t)cut, &doc, err, sizeof(err))) {
			ck_assert_msg(err[0], "mutation %d: no message", i);
		} else {
			loaded++;
			ck_assert_int_ge(
				ig_baseline_compare(base, doc, 5, null), 0);
			ck_assert_int_ge(
				ig_baseline_compare(doc, base, 5, null), 0);
			json_object_put(doc);
		}
		free(m);
	}
	ck_assert_uint_gt(loaded, 0);
	fclose(null);
	free(text);
	json_object_put(base);
}
END_TEST

START_TEST(tolerance_values)
{
	double v = -1;

	ck_assert_int_eq(ig_baseline_tolerance_parse("5", &v), 0);
	ck_assert_double_eq(v, 5.0);
	ck_assert_int_eq(ig_baseline_tolerance_parse("2.5%", &v), 0);
	ck_assert_double_eq(v, 2.5);
	ck_assert_int_eq(ig_baseline_tolerance_parse("0", &v), 0);
	ck_assert_double_eq(v, 0.0);
	ck_assert_int_eq(ig_baseline_tolerance_parse("1000", &v), 0);
	ck_assert_int_eq(ig_baseline_tolerance_parse("1000.5", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse("-1", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse("abc", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse("5x", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse("5%%", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse("nan", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse("inf", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse("", &v), -EINVAL);
	ck_assert_int_eq(ig_baseline_tolerance_parse(NULL, &v), -EINVAL);
}
END_TEST

/* A result marked partial (an interrupted run's) is counted; false and
 * absent are not. */
START_TEST(partial_results_counted)
{
	json_object *doc = base_copy(), *res, *r;

	ck_assert_uint_eq(ig_baseline_partial(doc), 0);
	ck_assert(json_object_object_get_ex(doc, "results", &res));
	ck_assert_uint_ge(json_object_array_length(res), 2);
	r = json_object_array_get_idx(res, 0);
	json_object_object_add(r, "partial", json_object_new_boolean(0));
	ck_assert_uint_eq(ig_baseline_partial(doc), 0);
	json_object_object_add(r, "partial", json_object_new_boolean(1));
	ck_assert_uint_eq(ig_baseline_partial(doc), 1);
	r = json_object_array_get_idx(res, 1);
	json_object_object_add(r, "partial", json_object_new_boolean(1));
	ck_assert_uint_eq(ig_baseline_partial(doc), 2);
	json_object_put(doc);
}
END_TEST

/* ig_cmd_diff with stdout and stderr sent to files; returns its status. */
static int run_diff(const char *out, const char *errf, int argc, ...)
{
	char *argv[8];
	va_list ap;
	int so = dup(1), se = dup(2), fo, fe, ret;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert(fo >= 0 && fe >= 0 && so >= 0 && se >= 0);
	dup2(fo, 1);
	dup2(fe, 2);
	ret = ig_cmd_diff(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(fo);
	close(fe);
	close(so);
	close(se);
	return ret;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	fread(buf, 1, 65535, f);
	fclose(f);
	return buf;
}

START_TEST(diff_command)
{
	char base[PATH_MAX], missing[PATH_MAX], bad[PATH_MAX];
	char dir[] = "/tmp/ibgap-test-diff-XXXXXX", out[PATH_MAX + 8],
	     errf[PATH_MAX + 8], halved[PATH_MAX + 8];
	json_object *b = base_copy();
	char *s;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(errf, sizeof(errf), "%s/err", dir);
	snprintf(halved, sizeof(halved), "%s/halved.json", dir);
	data_path(base, sizeof(base), "baseline/base.json");
	data_path(missing, sizeof(missing), "baseline/missing.json");
	data_path(bad, sizeof(bad), "baseline/wrong_schema.json");
	scale(b, "send_lat", "bw_gbps", 0.5);
	ck_assert_int_eq(json_object_to_file(halved, b), 0);

	ck_assert_int_eq(run_diff(out, errf, 3, "diff", base, base), 0);
	s = slurp(out);
	ck_assert_msg(strstr(s, "summary: 12 metrics compared"), "%s", s);
	free(s);
	ck_assert_int_eq(run_diff(out, errf, 5, "diff", base, halved,
				  "--tolerance", "60"),
			 0);
	ck_assert_int_eq(run_diff(out, errf, 4, "diff", "--tolerance=5", base,
				  halved),
			 1);
	s = slurp(out);
	ck_assert_msg(strstr(s, "send_lat 2 streams 1 bw_gbps 0.00824 -> "
				"0.00412 (-50.0%) REGRESSION"),
		      "%s", s);
	free(s);

	ck_assert_int_eq(run_diff(out, errf, 3, "diff", base, missing), 3);
	s = slurp(errf);
	ck_assert_msg(strstr(s, "ibgap diff: ") && strstr(s, "missing.json: "
							     "cannot open"),
		      "%s", s);
	ck_assert_uint_eq(count(s, "\n"), 1);
	free(s);
	ck_assert_int_eq(run_diff(out, errf, 3, "diff", bad, base), 3);

	ck_assert_int_eq(run_diff(out, errf, 2, "diff", base), 2);
	ck_assert_int_eq(run_diff(out, errf, 4, "diff", base, base, base), 2);
	ck_assert_int_eq(run_diff(out, errf, 5, "diff", base, base,
				  "--tolerance", "abc"),
			 2);
	s = slurp(errf);
	ck_assert_str_eq(s, "ibgap diff: --tolerance 'abc': want a percentage "
			    "from 0 to 1000, e.g. 5 or 2.5\n");
	free(s);
	ck_assert_int_eq(
		run_diff(out, errf, 4, "diff", base, base, "--tolerance"), 2);
	ck_assert_int_eq(run_diff(out, errf, 4, "diff", "-x", base, base), 2);
	s = slurp(errf);
	ck_assert_msg(strstr(s, "option '-x' is unknown"), "%s", s);
	free(s);
	ck_assert_int_eq(run_diff(out, errf, 2, "diff", "--help"), 0);
	s = slurp(out);
	ck_assert_msg(strstr(s, "usage: ibgap diff") && strstr(s, "3 a file"),
		      "%s", s);
	free(s);

	unlink(out);
	unlink(errf);
	unlink(halved);
	rmdir(dir);
	json_object_put(b);
}
END_TEST

static Suite *baseline_suite(void)
{
	Suite *s = suite_create("baseline");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, same_document_no_regression);
	tcase_add_test(tc, bandwidth_halved);
	tcase_add_test(tc, latency_p99_doubled);
	tcase_add_test(tc, tolerance_boundary);
	tcase_add_test(tc, fingerprint_changes_listed);
	tcase_add_test(tc, results_in_one_file_only);
	tcase_add_test(tc, windows_matched);
	tcase_add_test(tc, also_column_matched);
	tcase_add_test(tc, rails_matched_by_device);
	tcase_add_test(tc, duplicates_and_absent_metrics);
	tcase_add_test(tc, nothing_compared);
	tcase_add_test(tc, load_errors);
	tcase_add_test(tc, load_17mib_refused);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, mutations_never_crash);
	tcase_add_test(tc, tolerance_values);
	tcase_add_test(tc, partial_results_counted);
	tcase_add_test(tc, diff_command);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(baseline_suite());
}
