// SPDX-License-Identifier: MIT
/*
 * CPU accounting: /proc/stat (system-wide, all CPUs) and getrusage (this
 * process) before and after the measured interval.
 *
 * Resolution: /proc/stat counts in USER_HZ ticks (10 ms at the usual
 * USER_HZ of 100), summed over all CPUs, so an interval of T seconds on N
 * CPUs has about N * T * USER_HZ ticks and each figure is uncertain by a
 * few ticks.  Short tests therefore give coarse percentages; that is
 * inherent to the interface, not a bug, and it is why the engine takes
 * the snapshots around the whole measured interval only.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "cpu.h"

#define CPU_STAT_CAP (1024 * 1024) /* largest /proc/stat we accept */
#define CPU_MIN_FIELDS 4	   /* user nice system idle: Linux 2.4 */
#define CPU_MAX_FIELDS 10	   /* ... steal guest guest_nice */
#define CPU_USER_HZ_DEFAULT 100

/*
 * Parses up to CPU_MAX_FIELDS unsigned decimal numbers from p up to the end
 * of the line.  Returns the number parsed, or -EPROTO on anything that is
 * not a number (including a sign) or on a value that overflows 64 bits.
 */
static int parse_fields(const char *p, uint64_t *v)
{
	int n = 0;

	for (;;) {
		unsigned long long x;
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '\n')
			return n;
		if (!isdigit((unsigned char)*p))
			return -EPROTO;
		errno = 0;
		x = strtoull(p, &end, 10);
		if (errno == ERANGE)
			return -EPROTO;
		if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\0')
			return -EPROTO;
		/* guest and guest_nice are already in user and nice */
		if (n < CPU_MAX_FIELDS)
			v[n] = x;
		n++;
		p = end;
	}
}

/* "cpu" followed by one or more digits and a blank: a per-CPU line. */
static int is_percpu_line(const char *p)
{
	if (strncmp(p, "cpu", 3) != 0 || !isdigit((unsigned char)p[3]))
		return 0;
	p += 3;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == ' ' || *p == '\t';
}

int ig_cpu_parse_stat(const char *text, struct ig_cpu_snap *s)
{
	uint64_t v[CPU_MAX_FIELDS] = { 0 };
	const char *line;
	int have_agg = 0, ncpus = 0;

	if (!text || !s)
		return -EINVAL;
	for (line = text; *line;) {
		const char *nl = strchr(line, '\n');

		if (!have_agg && strncmp(line, "cpu", 3) == 0 &&
		    (line[3] == ' ' || line[3] == '\t')) {
			int n = parse_fields(line + 3, v);

			if (n < CPU_MIN_FIELDS)
				return -EPROTO;
			have_agg = 1;
		} else if (is_percpu_line(line)) {
			if (ncpus == INT_MAX)
				return -EPROTO;
			ncpus++;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!have_agg)
		return -EPROTO;

	/* Commit only on success; ru_* and wall_ns are the caller's. */
	s->user = v[0];
	s->nice = v[1];
	s->system = v[2];
	s->idle = v[3];
	s->iowait = v[4];
	s->irq = v[5];
	s->softirq = v[6];
	s->steal = v[7];
	s->ncpus = ncpus;
	return 0;
}

/* Builds root/proc/stat; root NULL, "" or "/" is the live system. */
static int stat_path(const char *root, char *buf, size_t len)
{
	size_t rl;
	int n;

	if (!root)
		root = "";
	rl = strlen(root);
	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	if (rl > INT_MAX)
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%.*s/proc/stat", (int)rl, root);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int read_stat(const char *path, struct ig_cpu_snap *s)
{
	char *text = NULL;
	size_t len;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		fprintf(stderr,
			"ibgap: cannot open %s for CPU accounting: %s\n", path,
			strerror(-ret));
		return ret;
	}
	ret = ig_file_read_fd(fd, CPU_STAT_CAP, &text, &len);
	close(fd);
	if (ret) {
		fprintf(stderr, "ibgap: cannot read %s (cap %d bytes): %s\n",
			path, CPU_STAT_CAP, strerror(-ret));
		return ret;
	}
	ret = ig_cpu_parse_stat(text, s);
	if (ret)
		fprintf(stderr,
			"ibgap: %s has no valid aggregate \"cpu\" line with at least %d fields\n",
			path, CPU_MIN_FIELDS);
	free(text);
	return ret;
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000u + (uint64_t)tv->tv_usec;
}

int ig_cpu_snap(const char *root, struct ig_cpu_snap *s)
{
	char path[PATH_MAX];
	struct rusage ru;
	int ret;

	ret = stat_path(root, path, sizeof(path));
	if (ret) {
		fprintf(stderr,
			"ibgap: CPU accounting root \"%.64s...\" (%zu bytes) is too long for PATH_MAX %d\n",
			root, strlen(root), PATH_MAX);
		return ret;
	}
	ret = read_stat(path, s);
	if (ret)
		return ret;
	if (getrusage(RUSAGE_SELF, &ru)) {
		ret = -errno;
		fprintf(stderr, "ibgap: getrusage(RUSAGE_SELF) failed: %s\n",
			strerror(-ret));
		return ret;
	}
	s->ru_utime_us = tv_us(&ru.ru_utime);
	s->ru_stime_us = tv_us(&ru.ru_stime);
	s->wall_ns = ig_now_ns();
	return 0;
}

/* b - a, or 0 when the counter went backwards (CPU hot-unplug, reset). */
static uint64_t delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void ig_cpu_usage(const struct ig_cpu_snap *a, const struct ig_cpu_snap *b,
		  uint64_t bytes, struct ig_cpu_usage *u)
{
	uint64_t user = delta(a->user, b->user);
	uint64_t nice = delta(a->nice, b->nice);
	uint64_t sys = delta(a->system, b->system);
	uint64_t idle = delta(a->idle, b->idle);
	uint64_t iowait = delta(a->iowait, b->iowait);
	uint64_t irq = delta(a->irq, b->irq);
	uint64_t softirq = delta(a->softirq, b->softirq);
	uint64_t steal = delta(a->steal, b->steal);
	/* summed in double: eight near-UINT64_MAX deltas must not wrap */
	double busy = (double)user + nice + sys + irq + softirq + steal;
	double total = busy + (double)idle + iowait;
	long hz = sysconf(_SC_CLK_TCK); /* USER_HZ; constant for the system */

	if (hz <= 0)
		hz = CPU_USER_HZ_DEFAULT;
	memset(u, 0, sizeof(*u));
	if (total > 0) {
		u->user_pct = ((double)user + nice) * 100.0 / total;
		u->sys_pct = (double)sys * 100.0 / total;
		u->irq_pct = (double)irq * 100.0 / total;
		u->softirq_pct = (double)softirq * 100.0 / total;
		u->total_pct = busy * 100.0 / total;
	}
	u->proc_user_s = (double)delta(a->ru_utime_us, b->ru_utime_us) / 1e6;
	u->proc_sys_s = (double)delta(a->ru_stime_us, b->ru_stime_us) / 1e6;
	u->seconds = (double)delta(a->wall_ns, b->wall_ns) / 1e9;
	u->ncpus = b->ncpus;
	u->us_per_kib =
		bytes ? busy * 1e6 / (double)hz / ((double)bytes / 1024.0)
		      : -1.0;
}

double ig_cpu_us_per_tr(const struct ig_cpu_usage *u, uint64_t bytes,
			uint64_t trs)
{
	if (u->us_per_kib < 0 || !trs)
		return -1.0;
	return u->us_per_kib * ((double)bytes / 1024.0) / (double)trs;
}
