// SPDX-License-Identifier: MIT
/* The report as a table for people (--format text, the default). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "doctor/doctor.h"
#include "rails.h"
#include "report_int.h"

enum {
	C_TEST,
	C_TRANSPORT,
	C_SIZE,
	C_STREAMS,
	C_WINDOW, /* only when a --window was given (one, or a list) */
	C_SECONDS,
	C_GBPS,
	C_MMSG,
	C_P50,
	C_P99,
	C_P999,
	C_MAX,
	C_CPU_CL,
	C_CPU_SV,
	C_DEM_CL,
	C_DEM_SV,
	NCOL
};

/* Negative width: left-aligned. */
static const struct {
	const char *head;
	int width;
} cols[NCOL] = {
	[C_TEST] = { "test", -9 },    [C_TRANSPORT] = { "transport", -9 },
	[C_SIZE] = { "size", 6 },     [C_STREAMS] = { "streams", 7 },
	[C_WINDOW] = { "window", 7 }, [C_SECONDS] = { "seconds", 7 },
	[C_GBPS] = { "Gb/s", 8 },     [C_MMSG] = { "Mmsg/s", 8 },
	[C_P50] = { "p50", 8 },	      [C_P99] = { "p99", 8 },
	[C_P999] = { "p99.9", 8 },    [C_MAX] = { "max", 8 },
	[C_CPU_CL] = { "client", 6 }, [C_CPU_SV] = { "server", 6 },
	[C_DEM_CL] = { "client", 7 }, [C_DEM_SV] = { "server", 7 },
};

#define CELL_LEN 32

static const char *const units_line =
	"Gb/s = 10^9 bit/s; latency = half round trip, microseconds; "
	"CPU = % of all CPUs of that host; us/KiB = CPU microseconds per KiB "
	"of payload (netperf service demand), bandwidth tests; us/Tr = CPU "
	"microseconds per round trip, latency tests";

/* What the results make the table look like. */
struct layout {
	bool win; /* the window column is shown: a window was set */
	int tw;	  /* the transport column's width: wider for tcp@ADDR */
};

static bool col_on(int c, const struct layout *l)
{
	return c != C_WINDOW || l->win;
}

/* Negative: left-aligned. */
static int col_width(int c, const struct layout *l)
{
	return c == C_TRANSPORT ? -l->tw : cols[c].width;
}

static int col_offset(int c, const struct layout *l)
{
	int off = 0;

	for (int i = 0; i < c; i++)
		if (col_on(i, l))
			off += abs(col_width(i, l)) + 1;
	return off;
}

/* The cells up to column last (the window column when shown), then
 * suffix (a result's TCP figures, or ""). */
static void print_cells(FILE *f, char cell[NCOL][CELL_LEN],
			const struct layout *l, int last, const char *suffix)
{
	for (int i = 0; i <= last; i++)
		if (col_on(i, l))
			fprintf(f, "%s%*s", i ? " " : "", col_width(i, l),
				cell[i]);
	fprintf(f, "%s\n", suffix);
}

/* After a --bidir row: "  reverse G Gb/s" (the Gb/s column is the
 * client's sending); after a TCP row: "  retrans N" (the measured
 * interval's, every stream, both sides) and " zerocopy" when its sender
 * used MSG_ZEROCOPY; after a lossy one (ud_send_bw): "  lost N of M (P%)". */
static const char *row_suffix(const struct ig_result *r, char *buf, size_t len)
{
	buf[0] = 0;
	if (r->has_bidir)
		snprintf(buf, len, "  reverse %.2f Gb/s",
			 ig_rep_reverse_gbps(r));
	if (ig_rep_has_tcpinfo(r))
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "  retrans %" PRIu64, ig_rep_retrans(r));
	if (ig_rep_zerocopy(r))
		snprintf(buf + strlen(buf), len - strlen(buf), " zerocopy");
	if (r->lossy)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "  lost %" PRIu64 " of %" PRIu64 " (%.3g%%)", r->lost,
			 r->sent, r->loss_rate * 100);
	return buf;
}

/* "---- label ----" over columns a..b; *pos is the current column. */
static void print_group(FILE *f, int *pos, int a, int b, const char *label,
			const struct layout *l)
{
	static const char dash[] = "----------------------------------------";
	int start = col_offset(a, l);
	int w = col_offset(b, l) + abs(col_width(b, l)) - start;
	int fill = w - (int)strlen(label) - 2;
	int left = fill > 0 ? fill / 2 : 0;
	int right = fill > 0 ? fill - left : 0;

	fprintf(f, "%*s%.*s %s %.*s", start - *pos, "", left, dash, label,
		right, dash);
	*pos = start + w;
}

static void text_head(FILE *f, const struct layout *l)
{
	char cell[NCOL][CELL_LEN];
	int pos = 0;

	print_group(f, &pos, C_P50, C_MAX, "latency, us", l);
	print_group(f, &pos, C_CPU_CL, C_CPU_SV, "CPU %", l);
	print_group(f, &pos, C_DEM_CL, C_DEM_SV, "us/KiB, us/Tr", l);
	fputc('\n', f);
	for (int i = 0; i < NCOL; i++)
		snprintf(cell[i], CELL_LEN, "%s", cols[i].head);
	print_cells(f, cell, l, NCOL - 1, "");
}

/* 64K, 1M, 2G when an exact multiple, else plain bytes. */
/* v with prec decimals, or "-" when absent. */
static void cell_num(char *cell, bool has, int prec, double v)
{
	if (has)
		snprintf(cell, CELL_LEN, "%.*f", prec, v);
	else
		snprintf(cell, CELL_LEN, "-");
}

static void demand_cell(char *cell, const struct ig_result *r,
			const struct ig_cpu_usage *u, bool have)
{
	const char *key;
	double d = ig_rep_demand(r, u, have, &key);

	cell_num(cell, d >= 0, 3, d);
}

/* What the result is: test, transport, size, streams, window. */
static void id_cells(char cell[NCOL][CELL_LEN], const struct ig_result *r)
{
	snprintf(cell[C_TEST], CELL_LEN, "%s", ig_rep_test(r));
	snprintf(cell[C_TRANSPORT], CELL_LEN, "%s", ig_rep_transport(r));
	ig_size_str(r->params.size, cell[C_SIZE], CELL_LEN);
	snprintf(cell[C_STREAMS], CELL_LEN, "%" PRIu32, r->params.streams);
	if (r->params.sock.window)
		ig_size_str(r->params.sock.window, cell[C_WINDOW], CELL_LEN);
	else
		snprintf(cell[C_WINDOW], CELL_LEN, "default");
}

/* --also's column, a measurement that did not run or finish: why. */
static void failed_row(FILE *f, const struct ig_result *r,
		       const struct layout *l)
{
	char cell[NCOL][CELL_LEN], why[sizeof(r->error) + 16];

	id_cells(cell, r);
	snprintf(why, sizeof(why), "  failed: %s", r->error);
	print_cells(f, cell, l, C_WINDOW, why);
}

static void text_row(FILE *f, const struct ig_result *r, const struct layout *l)
{
	const struct ig_cpu_usage *cc = &r->cpu_client, *cs = &r->cpu_server;
	bool sv = r->has_cpu_server;
	char cell[NCOL][CELL_LEN], sfx[128];
	struct ig_rep_lat lv;

	if (r->failed) {
		failed_row(f, r, l);
		return;
	}
	ig_rep_lat_view(r, &lv);
	id_cells(cell, r);
	cell_num(cell[C_SECONDS], true, 3, r->seconds);
	cell_num(cell[C_GBPS], true, 2, r->bw_gbps);
	cell_num(cell[C_MMSG], true, 3, r->msg_rate / 1e6);
	cell_num(cell[C_P50], lv.has[LAT_P50], 2, lv.us[LAT_P50]);
	cell_num(cell[C_P99], lv.has[LAT_P99], 2, lv.us[LAT_P99]);
	cell_num(cell[C_P999], lv.has[LAT_P999], 2, lv.us[LAT_P999]);
	cell_num(cell[C_MAX], lv.has[LAT_MAX], 2, lv.us[LAT_MAX]);
	cell_num(cell[C_CPU_CL], true, 1, cc->total_pct);
	cell_num(cell[C_CPU_SV], sv, 1, cs->total_pct);
	demand_cell(cell[C_DEM_CL], r, cc, true);
	demand_cell(cell[C_DEM_SV], r, cs, sv);
	print_cells(f, cell, l, NCOL - 1, row_suffix(r, sfx, sizeof(sfx)));
}

static const char *or_dash(const char *s)
{
	return s[0] ? s : "-";
}

static void text_env(FILE *f, const char *side, const struct ig_sysinfo *si)
{
	fprintf(f, "%s  %s  kernel %s  ibgap %s\n", side, or_dash(si->hostname),
		or_dash(si->kernel), or_dash(si->version));
}

/* One side's device, from the transport's facts of that name. */
static void text_device(FILE *f, const char *side, const struct ig_facts *x)
{
	long long c = ig_facts_int(x, "cpu", -1);
	char cpu[32] = "not pinned", inl[32] = "";

	if (c >= 0)
		snprintf(cpu, sizeof(cpu), "cpu %lld", c);
	if (ig_facts_get(x, "inline")) /* an older peer does not say */
		snprintf(inl, sizeof(inl), "  inline %lld",
			 ig_facts_int(x, "inline", 0));
	fprintf(f,
		"%s  %s port %lld  %s  MTU %lld  GID[%lld] %s  %.1f Gb/s  "
		"NUMA %lld  %s%s\n",
		side, ig_facts_str(x, IG_FACT_DEVICE),
		ig_facts_int(x, IG_FACT_PORT, 0), ig_facts_str(x, "link_layer"),
		ig_facts_int(x, "mtu", 0), ig_facts_int(x, "gid_index", 0),
		ig_facts_str(x, "gid"), ig_facts_real(x, "rate_gbps", 0),
		ig_facts_int(x, "numa_node", -1), cpu, inl);
}

/* The device each side used, once, from the first result that has one. */
static void text_devices(FILE *f, const struct ig_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool c = ig_rep_has_device(&res[i].facts);
		bool s = ig_rep_has_device(&res[i].facts_server);

		if (!c && !s)
			continue;
		fputc('\n', f);
		if (c)
			text_device(f, "client", &res[i].facts);
		if (s)
			text_device(f, "server", &res[i].facts_server);
		return;
	}
}

static void text_repeats(FILE *f, const struct ig_result *res, size_t n)
{
	char sz[24];

	for (size_t i = 0; i < n; i++) {
		const struct ig_repeat *p = &res[i].rep;

		if (p->n < 2)
			continue;
		ig_size_str(res[i].params.size, sz, sizeof(sz));
		fprintf(f,
			"repeat: %s%s %s: %u runs, %s mean %.4g, %u%% "
			"interval [%.4g, %.4g]",
			ig_rep_test(&res[i]), ig_rep_at(&res[i]), sz, p->n,
			p->metric, p->mean, p->level, p->ci_lo, p->ci_hi);
		if (p->width_pct > 0)
			fprintf(f, ", +/-%.3g%% %s", p->width_pct / 2,
				p->met ? "met" : "NOT met");
		fputc('\n', f);
	}
}

/* r and q are of one test (and --also column) and one clock. */
static bool same_clock(const struct ig_result *r, const struct ig_result *q)
{
	return q->clock && !strcmp(q->clock, r->clock) &&
	       !strcmp(ig_rep_test(q), ig_rep_test(r)) &&
	       !strcmp(ig_rep_at(q), ig_rep_at(r));
}

/* Why the counter could time the samples (docs/design.md, "Clock"). */
static void text_basis(FILE *f, const struct ig_result *r)
{
	if (!r->clock_basis)
		return;
	if (!strcmp(r->clock_basis, "ordered"))
		fprintf(f, " (ordered across the thread's %u CPUs)",
			r->clock_cpus);
	else if (!strcmp(r->clock_basis, "pinned"))
		fprintf(f, " (the thread pinned)");
	else
		fprintf(f, " (flagged invariant)");
}

/* The clock of a latency test's samples: one line per test and clock
 * (a sweep's results share it), with the range of its calibrated rates. */
static void text_clock(FILE *f, const struct ig_result *res, size_t n, size_t i)
{
	const struct ig_result *r = &res[i];
	double lo = r->clock_ghz, hi = r->clock_ghz;

	if (!r->clock)
		return;
	for (size_t j = 0; j < i; j++)
		if (same_clock(r, &res[j]))
			return;
	for (size_t j = i + 1; j < n; j++) {
		if (!same_clock(r, &res[j]))
			continue;
		lo = fmin(lo, res[j].clock_ghz);
		hi = fmax(hi, res[j].clock_ghz);
	}
	fprintf(f, "clock: %s%s: %s", ig_rep_test(r), ig_rep_at(r), r->clock);
	text_basis(f, r);
	if (lo > 0 && hi - lo >= 5e-5)
		fprintf(f, " at %.4f to %.4f GHz", lo, hi);
	else if (lo > 0)
		fprintf(f, " at %.4f GHz", lo);
	if (lo > 0)
		fprintf(f, ", checked against CLOCK_MONOTONIC");
	if (r->clock_read_ns > 0)
		fprintf(f, "; a read costs %.1f ns", r->clock_read_ns);
	fputc('\n', f);
}

/* A latency row with stalls says how many and what they are. */
static void text_stalls(FILE *f, const struct ig_result *r)
{
	char row[96];
	double from;
	uint64_t k = ig_rep_stalls(r, &from);

	if (!k)
		return;
	fprintf(f,
		"stalls: %s: %" PRIu64 " of %" PRIu64 " samples at %.0f us or "
		"more (%dx the p50, 1 ms at least): the thread or its CPU "
		"did not run (a busy host or VM), not the network's time\n",
		ig_rep_row(r, row, sizeof(row)), k, r->lat.count, from,
		IG_REP_STALL_X);
}

static void text_findings(FILE *f, const struct ig_report_env *env)
{
	if (env->nfindings)
		fprintf(f, "\nfindings (see 'ibgap doctor HOST' for all):\n");
	for (size_t i = 0; i < env->nfindings; i++) {
		const struct ig_dr_finding *x = &env->findings[i];

		fprintf(f, "%-4s %s: %s\n", ig_dr_sev_name(x->sev), x->id,
			x->what);
		if (x->fix[0])
			fprintf(f, "     fix: %s\n", x->fix);
	}
}

int ig_rep_text(FILE *f, const struct ig_report_env *env,
		const struct ig_result *res, size_t n)
{
	struct layout l = { .win = ig_rep_windows_vary(res, n),
			    .tw = abs(cols[C_TRANSPORT].width) };
	char row[128];

	for (size_t i = 0; i < n; i++) {
		int w = (int)strlen(ig_rep_transport(&res[i]));

		if (w > l.tw && w < CELL_LEN)
			l.tw = w;
		l.win |= res[i].params.sock.window != 0; /* one --window */
	}
	if (env->note)
		fprintf(f, "note: %s\n", env->note);
	fprintf(f, "%s\n", units_line);
	text_env(f, "client", &env->client);
	text_env(f, "server", &env->server);
	fputc('\n', f);
	if (env->rails) {
		ig_rails_text(f, env->rails);
		text_findings(f, env);
		return 0;
	}
	text_head(f, &l);
	for (size_t i = 0; i < n; i++)
		text_row(f, &res[i], &l);
	ig_rep_matrix_text(f, res, n);
	for (size_t i = 0; i < n; i++)
		text_clock(f, res, n, i);
	for (size_t i = 0; i < n; i++)
		text_stalls(f, &res[i]);
	for (size_t i = 0; i < n; i++)
		if (res[i].warning[0])
			fprintf(f, "warning: %s%s: %s\n", ig_rep_test(&res[i]),
				ig_rep_at(&res[i]), res[i].warning);
	ig_rep_tcp_text(f, res, n);
	for (size_t i = 0; i < n; i++)
		if (res[i].has_bidir)
			fprintf(f,
				"bidir: %s: client->server %.2f Gb/s, "
				"server->client %.2f Gb/s, total %.2f Gb/s\n",
				ig_rep_row(&res[i], row, sizeof(row)),
				res[i].bw_gbps, ig_rep_reverse_gbps(&res[i]),
				res[i].bw_gbps + ig_rep_reverse_gbps(&res[i]));
	for (size_t i = 0; i < n; i++)
		if (res[i].params.reverse)
			fprintf(f,
				"direction: %s%s: reverse (server -> client)\n",
				ig_rep_test(&res[i]), ig_rep_at(&res[i]));
	for (size_t i = 0; i < n; i++)
		if (res[i].partial)
			fprintf(f, "partial: %s%s: interrupted after %.3f s\n",
				ig_rep_test(&res[i]), ig_rep_at(&res[i]),
				res[i].seconds);
	text_devices(f, res, n);
	text_repeats(f, res, n);
	if (env->cmp)
		ig_compare_text(f, env->cmp);
	text_findings(f, env);
	return 0;
}
