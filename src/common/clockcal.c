// SPDX-License-Identifier: MIT
/* Calibration math of a CPU counter against CLOCK_MONOTONIC (clockcal.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clockcal.h"

static void pair_once(const struct ig_cal_src *src, struct ig_cal_pair *p)
{
	uint64_t c0 = src->cyc(src->ctx);
	uint64_t ns = src->ns(src->ctx);
	uint64_t c1 = src->cyc(src->ctx);

	p->width = c1 >= c0 ? c1 - c0 : UINT64_MAX;
	p->cyc = c0 + p->width / 2;
	p->ns = ns;
}

void ig_cal_pair_take(const struct ig_cal_src *src, unsigned int tries,
		      struct ig_cal_pair *out)
{
	struct ig_cal_pair p;

	pair_once(src, out);
	for (unsigned int i = 1; i < tries; i++) {
		pair_once(src, &p);
		if (p.width < out->width)
			*out = p;
	}
}

double ig_cal_rate(const struct ig_cal_pair *a, const struct ig_cal_pair *b)
{
	if (b->ns <= a->ns || b->cyc <= a->cyc)
		return 0;
	return (double)(b->cyc - a->cyc) / (double)(b->ns - a->ns);
}

double ig_cal_drift(double r0, double r1)
{
	if (r0 <= 0)
		return 1;
	return (r1 - r0) / r0;
}

bool ig_cal_agree(double r0, double r1)
{
	return fabs(ig_cal_drift(r0, r1)) <= IG_CAL_TOL;
}

/* word appears in the line [s, end) delimited by blanks */
static bool has_word(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);

	while (s < end) {
		size_t len;

		s += strspn(s, " \t:");
		len = strcspn(s, " \t\n");
		if (s + len > end)
			len = (size_t)(end - s);
		if (len == n && !strncmp(s, word, n))
			return true;
		s += len ? len : 1;
	}
	return false;
}

/* The first line that starts with "flags" followed by blanks and ':'. */
static const char *flags_line(const char *l, const char **end)
{
	while (l) {
		const char *p = l + 5;

		if (!strncmp(l, "flags", 5) && p[strspn(p, " \t")] == ':') {
			*end = l + strcspn(l, "\n");
			return p + strspn(p, " \t") + 1;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return NULL;
}

bool ig_cal_flags_invariant(const char *cpuinfo)
{
	const char *end = NULL, *l = flags_line(cpuinfo, &end);

	return l && has_word(l, end, "constant_tsc") &&
	       has_word(l, end, "nonstop_tsc");
}

bool ig_cal_may_use(const struct ig_cal_facts *f, char *why, size_t len)
{
	why[0] = '\0';
	if (!f->counter) {
		snprintf(why, len,
			 "this CPU architecture has no counter "
			 "ibgap can read (only x86-64 and aarch64)");
		return false;
	}
	if (f->invariant || f->pinned || f->ordered)
		return true;
	snprintf(why, len,
		 "the %s is not flagged invariant (constant_tsc and "
		 "nonstop_tsc not both in /proc/cpuinfo), the latency "
		 "thread is not pinned (--cpu N pins it)%s%s",
		 f->counter, f->order_why ? ", and " : "",
		 f->order_why ? f->order_why : "");
	return false;
}
