// SPDX-License-Identifier: MIT
/*
 * The streams x window matrix of the text report (-P and --window lists):
 * per test and size, one line per number of streams and one column per
 * window, as the IPoIB papers' tables; Gb/s for bandwidth tests, the p50
 * in microseconds for latency tests.  Printed only for a test and size
 * measured at more than one (streams, window).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/testopt.h"
#include "report_int.h"

/* The streams and windows of one test and size, in the order they ran. */
struct axes {
	uint64_t v[2][IG_MAX_LIST]; /* [0] streams, [1] windows */
	unsigned int n[2];
};

static bool same_group(const struct ig_result *a, const struct ig_result *b)
{
	return a->params.size == b->params.size &&
	       !strcmp(ig_rep_test(a), ig_rep_test(b)) &&
	       !strcmp(ig_rep_transport(a), ig_rep_transport(b));
}

static void axis_add(struct axes *ax, int k, uint64_t v)
{
	for (unsigned int i = 0; i < ax->n[k]; i++)
		if (ax->v[k][i] == v)
			return;
	if (ax->n[k] < IG_MAX_LIST)
		ax->v[k][ax->n[k]++] = v;
}

static void axes_of(const struct ig_result *res, size_t n,
		    const struct ig_result *g, struct axes *ax)
{
	memset(ax, 0, sizeof(*ax));
	for (size_t i = 0; i < n; i++) {
		if (!same_group(&res[i], g))
			continue;
		axis_add(ax, 0, res[i].params.streams);
		axis_add(ax, 1, res[i].params.sock.window);
	}
}

/* The figure of g's test and size at (streams, window), "-" if none. */
static void cell(const struct ig_result *res, size_t n,
		 const struct ig_result *g, uint64_t streams, uint64_t window,
		 char *buf, size_t len)
{
	struct ig_rep_lat lv;

	snprintf(buf, len, "-");
	for (size_t i = 0; i < n; i++) {
		const struct ig_result *r = &res[i];

		if (!same_group(r, g) || r->params.streams != streams ||
		    r->params.sock.window != window)
			continue;
		ig_rep_lat_view(r, &lv);
		if (r->failed)
			snprintf(buf, len, "failed");
		else if (!r->has_lat)
			snprintf(buf, len, "%.2f", r->bw_gbps);
		else if (lv.has[LAT_P50])
			snprintf(buf, len, "%.2f", lv.us[LAT_P50]);
		return;
	}
}

static void block(FILE *f, const struct ig_result *res, size_t n,
		  const struct ig_result *g, const struct axes *ax)
{
	char sz[24], buf[32];

	ig_size_str(g->params.size, sz, sizeof(sz));
	fprintf(f, "\n%s%s %s, %s: streams down, window across\n",
		ig_rep_test(g), ig_rep_at(g), sz,
		g->has_lat ? "p50 us" : "Gb/s");
	fprintf(f, "%7s", "streams");
	for (unsigned int w = 0; w < ax->n[1]; w++) {
		if (ax->v[1][w])
			ig_size_str(ax->v[1][w], buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "default");
		fprintf(f, " %9s", buf);
	}
	fputc('\n', f);
	for (unsigned int s = 0; s < ax->n[0]; s++) {
		fprintf(f, "%7" PRIu64, ax->v[0][s]);
		for (unsigned int w = 0; w < ax->n[1]; w++) {
			cell(res, n, g, ax->v[0][s], ax->v[1][w], buf,
			     sizeof(buf));
			fprintf(f, " %9s", buf);
		}
		fputc('\n', f);
	}
}

void ig_rep_matrix_text(FILE *f, const struct ig_result *res, size_t n)
{
	struct axes ax;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && !same_group(&res[j], &res[i]))
			j++;
		if (j < i)
			continue; /* its group is printed */
		axes_of(res, n, &res[i], &ax);
		if (ax.n[0] * ax.n[1] > 1)
			block(f, res, n, &res[i], &ax);
	}
}

bool ig_rep_windows_vary(const struct ig_result *res, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (res[i].params.sock.window != res[0].params.sock.window)
			return true;
	return false;
}
