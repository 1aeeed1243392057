// SPDX-License-Identifier: MIT
/* ibgap doctor --try's output: the plan, the table of trials, the
 * combined fixes against the verbs ceiling, the snippets to keep, and
 * the JSON document "ibgap-try/1" (docs/design.md, "Trials"). */
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "try.h"

static const char *const metric_names[IG_TRY_NMETRIC] = {
	[IG_TRY_BW] = "tcp_bw",
	[IG_TRY_LAT] = "tcp_lat",
};
static const char *const metric_units[IG_TRY_NMETRIC] = {
	[IG_TRY_BW] = "Gb/s",
	[IG_TRY_LAT] = "us",
};

static const char *kind_what(const struct ig_try_item *t)
{
	switch (t->kind) {
	case IG_TRY_STREAMS:
		return "the measurement with -P 4 (no setting changed)";
	case IG_TRY_WINDOW:
		return "the measurement with --window 4M (no setting changed)";
	case IG_TRY_NUMA:
		return "the process on the HCA's NUMA node (no setting "
		       "changed)";
	default:
		return "";
	}
}

/* The change's command; revert: the command that puts it back, or words
 * when the old value is not known yet. */
static void change_cmd(const struct ig_tune_change *c, bool revert, char *buf,
		       size_t len)
{
	if (revert && !c->from[0] && c->kind != IG_TUNE_QDISC)
		snprintf(buf, len, "(the value read just before the change)");
	else
		ig_tune_cmd(c, revert, buf, len);
}

static void plan_item(FILE *f, const struct ig_try_item *t)
{
	char cmd[IG_TUNE_CMD_LEN];

	fprintf(f, "  %s (%s):", t->id, ig_try_side_name(t->side));
	if (t->not_tried[0]) {
		fprintf(f, " not tried: %s\n", t->not_tried);
		return;
	}
	if (t->kind != IG_TRY_TUNE) {
		fprintf(f, " %s\n", kind_what(t));
		return;
	}
	fputc('\n', f);
	for (unsigned int i = 0; i < t->n; i++) {
		change_cmd(&t->c[i], false, cmd, sizeof(cmd));
		fprintf(f, "      change:   %s\n", cmd);
		change_cmd(&t->c[i], true, cmd, sizeof(cmd));
		fprintf(f, "      put back: %s\n", cmd);
	}
}

void ig_try_print_plan(FILE *f, const struct ig_try_doc *d)
{
	fprintf(f,
		"plan of ibgap doctor --try against %s: the baseline "
		"(tcp_bw, tcp_lat, %u run%s each), then each trial below "
		"measured the same way and put back%s\n",
		d->host, d->repeat, d->repeat == 1 ? "" : "s",
		d->keep ? " (--keep: the fixes that help stay made)" : "");
	for (size_t i = 0; i < d->n; i++)
		plan_item(f, &d->t[i]);
	if (d->dry_run)
		fputs("dry run: nothing was changed or measured (--try runs "
		      "the plan)\n",
		      f);
}

static void fig(const struct ig_try_meas *m, enum ig_try_metric k, char *buf,
		size_t len)
{
	if (!m->ok[k])
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3g", m->m[k].mean);
}

static void pct(const struct ig_change *c, char *buf, size_t len)
{
	snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]", c->pct, c->pct_lo,
		 c->pct_hi);
}

/* The row's first column: the change, or what the trial is. */
static void row_change(const struct ig_try_item *t, char *buf, size_t len)
{
	if (t->kind != IG_TRY_TUNE)
		snprintf(buf, len, "%s",
			 t->kind == IG_TRY_STREAMS ? "-P 4"
			 : t->kind == IG_TRY_WINDOW
				 ? "--window 4M"
				 : "--cpu on the HCA's node");
	else if (t->n)
		ig_tune_cmd(&t->c[0], false, buf, len);
	else
		snprintf(buf, len, "-");
}

/* A trial that changed something and did not put it back says so. */
static void unrestored_lines(FILE *f, const struct ig_try_item *t)
{
	char cmd[IG_TUNE_CMD_LEN];

	for (unsigned int i = 0; t->ran && !t->kept && i < t->n; i++)
		if (!t->restored[i]) {
			ig_tune_cmd(&t->c[i], true, cmd, sizeof(cmd));
			fprintf(f, "%-22s NOT put back: %s\n", "", cmd);
		}
}

static void figures(FILE *f, const struct ig_try_doc *d,
		    const struct ig_try_item *t)
{
	char b[32], a[32], p[64], lp[64];

	fig(&d->base, IG_TRY_BW, b, sizeof(b));
	fig(&t->after, IG_TRY_BW, a, sizeof(a));
	pct(&t->d[IG_TRY_BW], p, sizeof(p));
	snprintf(lp, sizeof(lp), "%+.1f%% %s", t->d[IG_TRY_LAT].pct,
		 ig_verdict_name(t->d[IG_TRY_LAT].verdict));
	fprintf(f, "%8s %8s  %-26s %-10s %s\n", b, a, p,
		ig_verdict_name(t->d[IG_TRY_BW].verdict),
		t->after.ok[IG_TRY_LAT] ? lp : "-");
}

static void result_row(FILE *f, const struct ig_try_doc *d,
		       const struct ig_try_item *t)
{
	char chg[IG_TUNE_CMD_LEN];

	row_change(t, chg, sizeof(chg));
	fprintf(f, "%-22s %-9s %-40s ", t->id, ig_try_side_name(t->side), chg);
	if (t->not_tried[0])
		fprintf(f, "not tried: %s\n", t->not_tried);
	else if (t->error[0])
		fprintf(f, "failed: %s\n", t->error);
	else if (!t->after.ok[IG_TRY_BW])
		fprintf(f, "not measured\n");
	else
		figures(f, d, t);
	for (unsigned int i = 1; i < t->n; i++) {
		ig_tune_cmd(&t->c[i], false, chg, sizeof(chg));
		fprintf(f, "%-22s %-9s %s\n", "", "", chg);
	}
	unrestored_lines(f, t);
}

static void baseline_line(FILE *f, const struct ig_try_doc *d)
{
	for (int k = 0; k < IG_TRY_NMETRIC; k++)
		if (d->base.ok[k])
			fprintf(f, "%s %s %.4g %s [%.4g, %.4g]", k ? ";" : "",
				metric_names[k], d->base.m[k].mean,
				metric_units[k], d->base.m[k].ci_lo,
				d->base.m[k].ci_hi);
	fputc('\n', f);
	if (d->has_ceiling)
		fprintf(f,
			"ceiling: write_bw %.4g Gb/s [%.4g, %.4g] (verbs on "
			"the same port)\n",
			d->ceiling.mean, d->ceiling.ci_lo, d->ceiling.ci_hi);
	else
		fprintf(f, "ceiling: none (%s)\n", d->ceiling_why);
}

static void combined_line(FILE *f, const struct ig_try_doc *d)
{
	const struct ig_try_item *c = &d->combined;
	char p[64];
	double gap;

	if (!c->n) {
		fputs("together: no fix helped\n", f);
		return;
	}
	if (!c->ran) {
		fprintf(f, "together: failed: %s\n", c->error);
		return;
	}
	pct(&c->d[IG_TRY_BW], p, sizeof(p));
	fprintf(f,
		"together (%u change%s that helped): tcp_bw %.4g Gb/s, %s, "
		"%s",
		c->n, c->n == 1 ? "" : "s", c->after.m[IG_TRY_BW].mean, p,
		ig_verdict_name(c->d[IG_TRY_BW].verdict));
	gap = d->ceiling.mean - d->base.m[IG_TRY_BW].mean;
	if (d->has_ceiling && gap > 0)
		fprintf(f,
			"; they close %.0f%% of the gap to verbs (%.4g of "
			"%.4g Gb/s)\n",
			(c->after.m[IG_TRY_BW].mean -
			 d->base.m[IG_TRY_BW].mean) /
				gap * 100,
			c->after.m[IG_TRY_BW].mean, d->ceiling.mean);
	else if (d->has_ceiling)
		fprintf(f,
			"; the verbs ceiling (%.4g Gb/s) is not above the "
			"baseline: no gap to close\n",
			d->ceiling.mean);
	else
		fprintf(f, "; no verbs ceiling to compare with\n");
}

void ig_try_print(FILE *f, const struct ig_try_doc *d)
{
	fprintf(f,
		"ibgap doctor --try against %s (%s), %u run%s per "
		"measurement, 95%% intervals\nbaseline:",
		d->host, d->addr, d->repeat, d->repeat == 1 ? "" : "s");
	baseline_line(f, d);
	fprintf(f, "\n%-22s %-9s %-40s %8s %8s  %-26s %-10s %s\n", "id", "side",
		"change", "before", "after", "tcp_bw change", "verdict",
		"tcp_lat");
	for (size_t i = 0; i < d->n; i++)
		result_row(f, d, &d->t[i]);
	fputc('\n', f);
	combined_line(f, d);
	if (d->note[0])
		fprintf(f, "note: %s\n", d->note);
	ig_try_print_snippets(f, d);
}
