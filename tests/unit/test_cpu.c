// SPDX-License-Identifier: MIT
/* Unit tests for cpu.c (/proc/stat, rusage, usage) and sysinfo.c. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host/cpu.h"
#include "host/sysinfo.h"
#include "testdata.h"
#include "testmain.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aull
#define STAT_CAP (1024 * 1024) /* the 1 MiB cap promised by ig_cpu_snap */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open fixture %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void poison(struct ig_cpu_snap *s)
{
	memset(s, 0x5a, sizeof(*s));
}

static void assert_untouched_extras(const struct ig_cpu_snap *s)
{
	ck_assert_uint_eq(s->ru_utime_us, SENTINEL);
	ck_assert_uint_eq(s->ru_stime_us, SENTINEL);
	ck_assert_uint_eq(s->wall_ns, SENTINEL);
}

START_TEST(parse_2cpu_fixture)
{
	struct ig_cpu_snap s;
	char path[PATH_MAX];
	char *text;

	data_path(path, sizeof(path), "cpu/stat_2cpu");
	text = slurp(path);
	poison(&s);
	ck_assert_int_eq(ig_cpu_parse_stat(text, &s), 0);
	ck_assert_uint_eq(s.user, 123456);
	ck_assert_uint_eq(s.nice, 789);
	ck_assert_uint_eq(s.system, 45678);
	ck_assert_uint_eq(s.idle, 9876543);
	ck_assert_uint_eq(s.iowait, 2345);
	ck_assert_uint_eq(s.irq, 17);
	ck_assert_uint_eq(s.softirq, 6789);
	ck_assert_uint_eq(s.steal, 1011);
	ck_assert_int_eq(s.ncpus, 2);
	assert_untouched_extras(&s);
	free(text);
}
END_TEST

START_TEST(parse_old_kernel_4_fields)
{
	struct ig_cpu_snap s;
	const char *text = "cpu  10 20 30 40\ncpu0 10 20 30 40\n"
			   "page 5741 1808\nswap 1 0\nintr 1462898\n";

	poison(&s);
	ck_assert_int_eq(ig_cpu_parse_stat(text, &s), 0);
	ck_assert_uint_eq(s.user, 10);
	ck_assert_uint_eq(s.nice, 20);
	ck_assert_uint_eq(s.system, 30);
	ck_assert_uint_eq(s.idle, 40);
	ck_assert_uint_eq(s.iowait, 0);
	ck_assert_uint_eq(s.irq, 0);
	ck_assert_uint_eq(s.softirq, 0);
	ck_assert_uint_eq(s.steal, 0);
	ck_assert_int_eq(s.ncpus, 1);
	assert_untouched_extras(&s);
}
END_TEST

START_TEST(parse_7_fields_and_no_newline)
{
	struct ig_cpu_snap s;

	poison(&s);
	ck_assert_int_eq(ig_cpu_parse_stat("cpu 1 2 3 4 5 6 7", &s), 0);
	ck_assert_uint_eq(s.softirq, 7);
	ck_assert_uint_eq(s.steal, 0);
	ck_assert_int_eq(s.ncpus, 0);
}
END_TEST

START_TEST(parse_max_value)
{
	struct ig_cpu_snap s;

	ck_assert_int_eq(
		ig_cpu_parse_stat("cpu 18446744073709551615 0 0 1\n", &s), 0);
	ck_assert_uint_eq(s.user, UINT64_MAX);
}
END_TEST

/* Each of these must fail with -EPROTO and leave the snapshot alone. */
static const char *const bad_stat[] = {
	"",
	"\n\n\n",
	"garbage\n\x01\x7f\xff\n",
	"cpu",
	"cpu \n",
	"cpu 1 2 3\ncpu0 1 2 3 4\n",		  /* fewer than 4 fields */
	"cpu0 1 2 3 4\ncpu1 1 2 3 4\n",		  /* per-CPU lines only */
	"intr 1\nctxt 2\nbtime 3\nprocesses 4\n", /* no cpu line */
	"cpu 18446744073709551616 0 0 0\n",	  /* overflows uint64 */
	"cpu 99999999999999999999999999 1 2 3\n",
	"cpu 1 2 -3 4\n", /* strtoull would wrap it */
	"cpu 1 2 +3 4\n",
	"cpu 1 2 3 4x 5\n",
	"cpu 1 2 3 0x4\n",
	"cpux 1 2 3 4\n",
	"cpufreq 1 2 3 4\n",
	"intr cpu 1 2 3 4\n",
};

START_TEST(parse_bad_is_eproto)
{
	struct ig_cpu_snap s, ref;

	poison(&s);
	poison(&ref);
	ck_assert_msg(ig_cpu_parse_stat(bad_stat[_i], &s) == -EPROTO,
		      "input #%d was accepted", _i);
	ck_assert_mem_eq(&s, &ref, sizeof(s));
}
END_TEST

START_TEST(parse_null_is_einval)
{
	struct ig_cpu_snap s;

	ck_assert_int_eq(ig_cpu_parse_stat(NULL, &s), -EINVAL);
	ck_assert_int_eq(ig_cpu_parse_stat("cpu 1 2 3 4\n", NULL), -EINVAL);
}
END_TEST

/* The lines of t that start "cpu", digits, a blank: the CPUs it lists. */
static int percpu_lines(const char *t)
{
	int n = 0;

	for (const char *l = t; l;) {
		size_t d = strncmp(l, "cpu", 3) ? 0
						: strspn(l + 3, "0123456789");
		const char *nl = strchr(l, '\n');

		n += d && (l[3 + d] == ' ' || l[3 + d] == '\t');
		l = nl ? nl + 1 : NULL;
	}
	return n;
}

/* Random bytes with "cpu" prefixes sprinkled in: must never crash, and
 * what it accepts has as many CPUs as per-CPU lines; every fourth text
 * starts with a valid aggregate line and two per-CPU lines, so that some
 * are accepted. */
START_TEST(parse_random_no_crash)
{
	static const char alphabet[] = "cpu0123456789 \t\n-+x";
	static const char agg[] = "cpu 1 2 3 4\ncpu0 1\ncpu17\t";
	unsigned int seed = 12345, accepted = 0;
	char buf[512];
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		size_t n = (size_t)rand_r(&seed) % (sizeof(buf) - 1), i = 0;
		struct ig_cpu_snap s;
		int ret;

		if (iter % 4 == 3 && n >= sizeof(agg))
			i = strlen(strcpy(buf, agg));
		for (; i < n; i++)
			buf[i] = iter & 1 ? alphabet[rand_r(&seed) %
						     (sizeof(alphabet) - 1)]
					  : (char)(rand_r(&seed) % 255 + 1);
		buf[n] = '\0';
		ret = ig_cpu_parse_stat(buf, &s);
		ck_assert(ret == 0 || ret == -EPROTO);
		if (ret)
			continue;
		accepted++;
		ck_assert_msg(s.ncpus == percpu_lines(buf),
			      "ncpus %d, want %d, for '%s'", s.ncpus,
			      percpu_lines(buf), buf);
	}
	ck_assert_uint_gt(accepted, 1000);
}
END_TEST

/* Writes a stat with ncpus per-CPU lines; aggregate is the sum. */
static size_t gen_stat(char *buf, size_t len, int ncpus)
{
	size_t off;
	int i, n;

	n = snprintf(buf, len, "cpu  %d %d %d %d %d %d %d %d 0 0\n",
		     ncpus * 100, ncpus, ncpus * 50, ncpus * 1000, ncpus * 2,
		     ncpus * 3, ncpus * 4, ncpus * 5);
	ck_assert(n > 0 && (size_t)n < len);
	off = (size_t)n;
	for (i = 0; i < ncpus; i++) {
		n = snprintf(buf + off, len - off,
			     "cpu%d 100 1 50 1000 2 3 4 5 0 0\n", i);
		ck_assert(n > 0 && (size_t)n < len - off);
		off += (size_t)n;
	}
	n = snprintf(buf + off, len - off,
		     "intr 12345 0 0\nctxt 999\nbtime 1700000000\n"
		     "processes 77\nprocs_running 1\nprocs_blocked 0\n");
	ck_assert(n > 0 && (size_t)n < len - off);
	return off + (size_t)n;
}

START_TEST(parse_64cpu_generated)
{
	static char buf[16384];
	struct ig_cpu_snap s;

	gen_stat(buf, sizeof(buf), 64);
	ck_assert_int_eq(ig_cpu_parse_stat(buf, &s), 0);
	ck_assert_int_eq(s.ncpus, 64);
	ck_assert_uint_eq(s.user, 6400);
	ck_assert_uint_eq(s.idle, 64000);
	ck_assert_uint_eq(s.steal, 320);
}
END_TEST

static void set_snap(struct ig_cpu_snap *s, const uint64_t v[8])
{
	memset(s, 0, sizeof(*s));
	s->user = v[0];
	s->nice = v[1];
	s->system = v[2];
	s->idle = v[3];
	s->iowait = v[4];
	s->irq = v[5];
	s->softirq = v[6];
	s->steal = v[7];
}

START_TEST(usage_exact)
{
	static const uint64_t va[8] = { 1000, 200, 500, 90000, 70, 30, 60, 9 };
	static const uint64_t d[8] = { 300, 100, 200, 1000, 50, 10, 40, 5 };
	uint64_t vb[8], total = 0, busy;
	const uint64_t bytes = 10ull << 20;
	struct ig_cpu_snap a, b;
	struct ig_cpu_usage u;
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	for (i = 0; i < 8; i++) {
		vb[i] = va[i] + d[i];
		total += d[i];
	}
	busy = total - d[3] - d[4];
	set_snap(&a, va);
	set_snap(&b, vb);
	a.ru_utime_us = 1500000;
	b.ru_utime_us = 2750000;
	a.ru_stime_us = 100;
	b.ru_stime_us = 500100;
	a.wall_ns = 7000000000ull;
	b.wall_ns = 9500000000ull;
	a.ncpus = 3;
	b.ncpus = 4;
	ig_cpu_usage(&a, &b, bytes, &u);

	ck_assert_double_eq_tol(u.user_pct, (300.0 + 100) / total * 100, 1e-9);
	ck_assert_double_eq_tol(u.sys_pct, 200.0 / total * 100, 1e-9);
	ck_assert_double_eq_tol(u.irq_pct, 10.0 / total * 100, 1e-9);
	ck_assert_double_eq_tol(u.softirq_pct, 40.0 / total * 100, 1e-9);
	ck_assert_double_eq_tol(u.total_pct, (double)busy / total * 100, 1e-9);
	ck_assert_double_eq_tol(u.proc_user_s, 1.25, 1e-12);
	ck_assert_double_eq_tol(u.proc_sys_s, 0.5, 1e-12);
	ck_assert_double_eq_tol(u.seconds, 2.5, 1e-12);
	ck_assert_int_eq(u.ncpus, 4);
	ck_assert_int_gt(hz, 0);
	ck_assert_double_eq_tol(
		u.us_per_kib, (double)busy * 1e6 / hz / (bytes / 1024.0), 1e-9);
}
END_TEST

/* us_per_tr: the busy time behind us_per_kib over the round trips.  A
 * table: us_per_kib, bytes, round trips, the figure (netperf's us/Tr). */
static const struct {
	double us_per_kib;
	uint64_t bytes, trs;
	double want;
} per_tr[] = {
	/* 1000 round trips of 2 B each way: 4000 B = 3.90625 KiB */
	{ 256.0, 4000, 1000, 256.0 * 4000 / 1024 / 1000 },
	/* 12236.801 us/KiB of the README's tcp_lat (2 B) is 23.9 us/Tr */
	{ 12236.801, 2, 1, 23.900002 },
	{ 0.0, 4096, 7, 0.0 },
	{ -1.0, 4096, 7, -1.0 }, /* no payload: unknown */
	{ 3.0, 4096, 0, -1.0 },	 /* no round trip: unknown */
};

START_TEST(usage_per_tr)
{
	struct ig_cpu_usage u = { .us_per_kib = per_tr[_i].us_per_kib };
	double got = ig_cpu_us_per_tr(&u, per_tr[_i].bytes, per_tr[_i].trs);

	if (per_tr[_i].want < 0)
		ck_assert_double_lt(got, 0);
	else
		ck_assert_double_eq_tol(got, per_tr[_i].want, 1e-6);
}
END_TEST

START_TEST(usage_zero_bytes)
{
	static const uint64_t va[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	static const uint64_t vb[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	struct ig_cpu_snap a, b;
	struct ig_cpu_usage u;

	set_snap(&a, va);
	set_snap(&b, vb);
	ig_cpu_usage(&a, &b, 0, &u);
	ck_assert(u.us_per_kib < 0);
	ck_assert_double_eq_tol(u.total_pct, 75.0, 1e-9);
}
END_TEST

static void assert_sane(const struct ig_cpu_usage *u)
{
	const double p[] = { u->user_pct, u->sys_pct, u->irq_pct,
			     u->softirq_pct, u->total_pct };
	size_t i;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		ck_assert_msg(isfinite(p[i]) && p[i] >= 0 && p[i] <= 100,
			      "percentage #%zu is %g", i, p[i]);
	}
	ck_assert(u->user_pct + u->sys_pct + u->irq_pct + u->softirq_pct <=
		  u->total_pct + 1e-9);
	ck_assert(isfinite(u->proc_user_s) && u->proc_user_s >= 0);
	ck_assert(isfinite(u->proc_sys_s) && u->proc_sys_s >= 0);
	ck_assert(isfinite(u->seconds) && u->seconds >= 0);
	ck_assert(isfinite(u->us_per_kib));
}

START_TEST(usage_backwards)
{
	static const uint64_t va[8] = { 500, 50, 400, 9000, 80, 20, 70, 10 };
	/* user, system and idle went backwards; the rest went forwards */
	static const uint64_t vb[8] = { 100, 60, 300, 8000, 90, 25, 75, 12 };
	struct ig_cpu_snap a, b;
	struct ig_cpu_usage u;
	double total = 10 + 10 + 5 + 5 + 2;

	set_snap(&a, va);
	set_snap(&b, vb);
	a.ru_utime_us = 2000000;
	b.ru_utime_us = 1000000;
	a.ru_stime_us = 7;
	b.ru_stime_us = 3;
	a.wall_ns = 5000000000ull;
	b.wall_ns = 1000000000ull;
	ig_cpu_usage(&a, &b, 1024, &u);
	assert_sane(&u);
	ck_assert(u.us_per_kib >= 0);
	ck_assert_double_eq_tol(u.user_pct, 10 / total * 100, 1e-9);
	ck_assert_double_eq_tol(u.sys_pct, 0.0, 1e-12);
	ck_assert_double_eq_tol(u.total_pct, (10 + 5 + 5 + 2) / total * 100,
				1e-9);
	ck_assert_double_eq_tol(u.proc_user_s, 0.0, 1e-12);
	ck_assert_double_eq_tol(u.proc_sys_s, 0.0, 1e-12);
	ck_assert_double_eq_tol(u.seconds, 0.0, 1e-12);

	/* everything backwards (e.g. b all zero): all zero, no NaN */
	memset(&b, 0, sizeof(b));
	ig_cpu_usage(&a, &b, 1024, &u);
	assert_sane(&u);
	ck_assert_double_eq_tol(u.total_pct, 0.0, 1e-12);
	ck_assert_double_eq_tol(u.user_pct, 0.0, 1e-12);
	ck_assert_double_eq_tol(u.us_per_kib, 0.0, 1e-12);
}
END_TEST

START_TEST(usage_huge_deltas)
{
	static const uint64_t zero[8];
	static const uint64_t max[8] = { UINT64_MAX, UINT64_MAX, UINT64_MAX,
					 UINT64_MAX, UINT64_MAX, UINT64_MAX,
					 UINT64_MAX, UINT64_MAX };
	struct ig_cpu_snap a, b;
	struct ig_cpu_usage u;

	set_snap(&a, zero);
	set_snap(&b, max);
	ig_cpu_usage(&a, &b, 1, &u);
	assert_sane(&u);
	ck_assert_double_eq_tol(u.total_pct, 75.0, 1e-6);
}
END_TEST

START_TEST(snap_fixture_root)
{
	static const char *const suffix[] = { "cpu/root", "cpu/root/",
					      "cpu/root//" };
	struct ig_cpu_snap s;
	char root[PATH_MAX];

	data_path(root, sizeof(root), suffix[_i]);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(ig_cpu_snap(root, &s), 0);
	ck_assert_uint_eq(s.user, 4000);
	ck_assert_uint_eq(s.nice, 40);
	ck_assert_uint_eq(s.system, 2000);
	ck_assert_uint_eq(s.idle, 80000);
	ck_assert_uint_eq(s.iowait, 400);
	ck_assert_uint_eq(s.irq, 4);
	ck_assert_uint_eq(s.softirq, 200);
	ck_assert_uint_eq(s.steal, 0);
	ck_assert_int_eq(s.ncpus, 4);
	ck_assert_uint_gt(s.wall_ns, 0);
}
END_TEST

START_TEST(snap_live)
{
	static const char *const roots[] = { NULL, "", "/" };
	struct ig_cpu_snap a, b;
	struct ig_cpu_usage u;
	volatile uint64_t spin = 0;
	uint64_t i;

	ck_assert_int_eq(ig_cpu_snap(roots[_i], &a), 0);
	ck_assert_int_ge(a.ncpus, 1);
	ck_assert_uint_gt(a.user + a.system + a.idle, 0);
	for (i = 0; i < 20000000; i++)
		spin += i;
	ck_assert_int_eq(ig_cpu_snap(roots[_i], &b), 0);
	ck_assert_uint_gt(b.wall_ns, a.wall_ns);
	ck_assert_uint_ge(b.ru_utime_us, a.ru_utime_us);
	ig_cpu_usage(&a, &b, 1 << 20, &u);
	assert_sane(&u);
	ck_assert(u.seconds > 0);
	ck_assert_int_eq(u.ncpus, b.ncpus);
}
END_TEST

START_TEST(snap_missing_root)
{
	struct ig_cpu_snap s;

	ck_assert_int_eq(ig_cpu_snap("/nonexistent/ibgap-test-root", &s),
			 -ENOENT);
}
END_TEST

START_TEST(snap_root_too_long)
{
	char *root = malloc(PATH_MAX + 16);
	struct ig_cpu_snap s;

	ck_assert_ptr_nonnull(root);
	memset(root, 'a', PATH_MAX + 15);
	root[0] = '/';
	root[PATH_MAX + 15] = '\0';
	ck_assert_int_eq(ig_cpu_snap(root, &s), -ENAMETOOLONG);
	free(root);
}
END_TEST

/* A private root under /tmp holding proc/stat of exactly len bytes. */
static void make_root(char *root, size_t rlen, const char *body, size_t len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(root, rlen, "/tmp/ibgap-test-cpu-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, body, len), (ssize_t)len);
	close(fd);
}

static void remove_root(const char *root)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/proc/stat", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
}

START_TEST(snap_large_file)
{
	size_t cap = STAT_CAP + 1, len;
	char *body = malloc(cap + 1);
	struct ig_cpu_snap s;
	char root[64];

	ck_assert_ptr_nonnull(body);
	/* 1024 CPUs, ~40 KiB: far more than one 4 KiB read */
	len = gen_stat(body, cap + 1, 1024);
	make_root(root, sizeof(root), body, len);
	ck_assert_int_eq(ig_cpu_snap(root, &s), 0);
	ck_assert_int_eq(s.ncpus, 1024);
	ck_assert_uint_eq(s.user, 102400);
	remove_root(root);

	/* padded to exactly the cap: accepted; one byte more: -EFBIG */
	memset(body + len, '\n', cap - len);
	make_root(root, sizeof(root), body, STAT_CAP);
	ck_assert_int_eq(ig_cpu_snap(root, &s), 0);
	ck_assert_int_eq(s.ncpus, 1024);
	remove_root(root);
	make_root(root, sizeof(root), body, STAT_CAP + 1);
	ck_assert_int_eq(ig_cpu_snap(root, &s), -EFBIG);
	remove_root(root);
	free(body);
}
END_TEST

START_TEST(sysinfo_matches_system)
{
	struct ig_sysinfo si;
	struct utsname un;
	char host[256] = { 0 };

	memset(&si, 0x7f, sizeof(si));
	ig_sysinfo_get(&si);
	ck_assert_ptr_nonnull(memchr(si.hostname, '\0', sizeof(si.hostname)));
	ck_assert_ptr_nonnull(memchr(si.kernel, '\0', sizeof(si.kernel)));
	ck_assert_uint_gt(strlen(si.hostname), 0);
	ck_assert_int_eq(gethostname(host, sizeof(host) - 1), 0);
	ck_assert_str_eq(si.hostname, host);
	ck_assert_int_eq(uname(&un), 0);
	ck_assert_str_eq(si.kernel, un.release);
	ck_assert_str_eq(si.version, IG_VERSION);
}
END_TEST

static Suite *cpu_suite(void)
{
	Suite *s = suite_create("cpu");
	TCase *p = tcase_create("parse");
	TCase *u = tcase_create("usage");
	TCase *n = tcase_create("snap");
	TCase *i = tcase_create("sysinfo");
	int nbad = (int)(sizeof(bad_stat) / sizeof(bad_stat[0]));

	tcase_add_test(p, parse_2cpu_fixture);
	tcase_add_test(p, parse_old_kernel_4_fields);
	tcase_add_test(p, parse_7_fields_and_no_newline);
	tcase_add_test(p, parse_max_value);
	tcase_add_loop_test(p, parse_bad_is_eproto, 0, nbad);
	tcase_add_test(p, parse_null_is_einval);
	tcase_add_test(p, parse_random_no_crash);
	tcase_add_test(p, parse_64cpu_generated);
	suite_add_tcase(s, p);

	tcase_add_test(u, usage_exact);
	tcase_add_test(u, usage_zero_bytes);
	tcase_add_loop_test(u, usage_per_tr, 0,
			    sizeof(per_tr) / sizeof(per_tr[0]));
	tcase_add_test(u, usage_backwards);
	tcase_add_test(u, usage_huge_deltas);
	suite_add_tcase(s, u);

	tcase_add_loop_test(n, snap_fixture_root, 0, 3);
	tcase_add_loop_test(n, snap_live, 0, 3);
	tcase_add_test(n, snap_missing_root);
	tcase_add_test(n, snap_root_too_long);
	tcase_add_test(n, snap_large_file);
	suite_add_tcase(s, n);

	tcase_add_test(i, sysinfo_matches_system);
	suite_add_tcase(s, i);
	return s;
}

int main(void)
{
	return run_suite(cpu_suite());
}
