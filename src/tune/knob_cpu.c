// SPDX-License-Identifier: MIT
/*
 * The CPU frequency governor: cpuN's scaling_governor, or "all" of them
 * (every CPU that has one).  The value of "all" is one governor when
 * every CPU has the same, else "cpu0=x cpu1=y ..." (what a revert writes
 * back CPU by CPU).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fail.h"
#include "tune_int.h"

#define MAX_CPUS 4096

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The numbers of root's cpuN folders, sorted: how many, or -errno. */
static int cpus(const char *root, int *cpu, int max)
{
	char p[512];
	struct dirent *e;
	DIR *d;
	int n = 0;
	uint32_t u;

	ig_tune_path(p, sizeof(p), root, "/sys/devices/system/cpu");
	d = opendir(p);
	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max)
		if (!strncmp(e->d_name, "cpu", 3) &&
		    !ig_tune_u32(e->d_name + 3, &u) && u < MAX_CPUS)
			cpu[n++] = (int)u;
	closedir(d);
	qsort(cpu, (size_t)n, sizeof(*cpu), cmp_int);
	return n;
}

static void gov_path(const char *root, int cpu, char *p, size_t len)
{
	ig_tune_path(p, len, root,
		     "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
		     cpu);
}

/* Every "cpus=g" of val names the same g (runs split only by cpus that
 * have no governor). */
static bool all_same(const char *val)
{
	const char *first = strchr(val, '='), *e;
	size_t n = strcspn(first, " ");

	for (e = strchr(val, ' '); e; e = strchr(e + 1, ' ')) {
		const char *g = strchr(e, '=');

		if (strcspn(g, " ") != n || strncmp(g, first, n))
			return false;
	}
	return true;
}

/* A run of consecutive cpus with one governor. */
struct run {
	int a, b;
	char g[64];
};

/* Appends the run at o of val: "cpuA=g" or "cpuA-B=g"; the new end. */
static size_t put_run(char *val, size_t len, size_t o, const struct run *r)
{
	char cpus[32];

	if (r->a == r->b)
		snprintf(cpus, sizeof(cpus), "cpu%d", r->a);
	else
		snprintf(cpus, sizeof(cpus), "cpu%d-%d", r->a, r->b);
	return o + (size_t)snprintf(val + o, o < len ? len - o : 0, "%s%s=%s",
				    o ? " " : "", cpus, r->g);
}

/* The governors of every cpu that has one, as runs "cpu0-3=x cpu4=y";
 * one governor alone when all agree.  0 or -errno. */
static int read_all(const char *root, char *val, size_t len)
{
	int cpu[MAX_CPUS], n = cpus(root, cpu, MAX_CPUS), runs = 0;
	struct run r = { .a = -1 };
	char p[512], g[64];
	size_t o = 0;

	for (int i = 0; i < n && o < len; i++) {
		gov_path(root, cpu[i], p, sizeof(p));
		if (ig_tune_read_text(p, g, sizeof(g)))
			continue;
		if (runs && cpu[i] == r.b + 1 && !strcmp(g, r.g)) {
			r.b = cpu[i];
			continue;
		}
		if (runs++)
			o = put_run(val, len, o, &r);
		r = (struct run){ .a = cpu[i], .b = cpu[i] };
		snprintf(r.g, sizeof(r.g), "%s", g);
	}
	if (n < 0)
		return n;
	if (!runs)
		return -ENOENT;
	o = put_run(val, len, o, &r);
	if (o >= len)
		return -EOVERFLOW;
	if (!strchr(val, ' ') || all_same(val))
		snprintf(val, len, "%s", r.g);
	return 0;
}

static int gov_read(const char *root, const struct ig_tune_change *c, char *val,
		    size_t len)
{
	char p[512];

	if (!strcmp(c->name, "all"))
		return read_all(root, val, len);
	gov_path(root, atoi(c->name + 3), p, sizeof(p));
	return ig_tune_read_text(p, val, len);
}

/* Writes governor g to every cpu that has one. */
static int write_every(const char *root, const char *g, char *err, size_t len)
{
	int cpu[MAX_CPUS], n = cpus(root, cpu, MAX_CPUS), ret;
	char p[512];

	if (n < 0)
		return ig_fail(n, err, len,
			       "tune: listing the cpus for governor %s: %s", g,
			       strerror(-n));
	for (int i = 0; i < n; i++) {
		gov_path(root, cpu[i], p, sizeof(p));
		if (access(p, F_OK))
			continue;
		ret = ig_tune_write_text(p, g, err, len);
		if (ret)
			return ret;
	}
	return 0;
}

static int gov_write(const char *root, const struct ig_tune_change *c,
		     const char *val, char *err, size_t len)
{
	char buf[IG_TUNE_VAL_LEN], p[512], *save = NULL, *t, *eq;
	uint32_t a, b;
	int ret;

	if (!strcmp(c->name, "all") && !strchr(val, '='))
		return write_every(root, val, err, len);
	if (strcmp(c->name, "all")) {
		gov_path(root, atoi(c->name + 3), p, sizeof(p));
		return ig_tune_write_text(p, val, err, len);
	}
	snprintf(buf, sizeof(buf), "%s", val);
	for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		eq = strchr(t, '=');
		if (eq)
			*eq = 0;
		if (!eq || ig_tune_cpu_range(t, &a, &b))
			return ig_fail(
				-EINVAL, err, len,
				"tune: governor value \"%.64s\": cpuN=GOVERNOR or cpuA-B=GOVERNOR expected",
				t);
		for (uint32_t i = a; i <= b; i++) {
			gov_path(root, (int)i, p, sizeof(p));
			ret = ig_tune_write_text(p, eq + 1, err, len);
			if (ret)
				return ret;
		}
	}
	return 0;
}

const struct ig_knob_ops ig_knob_governor = { gov_read, gov_write };
