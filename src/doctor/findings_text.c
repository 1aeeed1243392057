// SPDX-License-Identifier: MIT
/* Doctor report as text for people. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "doctor_int.h"

static void print_path(FILE *f, const struct ig_dr_path *p)
{
	if (p->addr[0])
		fprintf(f, "path %s: ", p->addr);
	else
		fprintf(f, "netdev: ");
	if (p->route_type[0])
		fprintf(f, "route %s via %s%s%s -> ", p->route_type,
			p->route_dev[0] ? p->route_dev : "?",
			p->src[0] ? ", source " : "", p->src);
	fprintf(f, "%s", p->netdev[0] ? p->netdev : "(no netdev)");
	if (p->rdma_dev[0])
		fprintf(f, " -> %s port %d (%s, %s, %.1f Gb/s)", p->rdma_dev,
			p->port, p->link_layer[0] ? p->link_layer : "?",
			!strcmp(p->kind, "ipoib") ? "IPoIB" : "RoCE",
			p->rate_gbps);
	else
		fprintf(f, " (%s)",
			!strcmp(p->kind, "loopback") ? "loopback"
						     : "no RDMA device");
	fputc('\n', f);
}

static void upper(char *dst, const char *src, size_t len)
{
	size_t i = 0;

	for (; src[i] && i + 1 < len; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[i] = 0;
}

static void print_finding(FILE *f, const struct ig_dr_finding *x)
{
	char sev[8];

	upper(sev, ig_dr_sev_name(x->sev), sizeof(sev));
	fprintf(f, "%-4s  %s\n      %s\n", sev, x->id, x->what);
	for (unsigned int i = 0; i < x->nev; i++)
		fprintf(f, "      evidence: %s = %s\n", x->ev[i].source,
			x->ev[i].value);
	if (x->fix[0])
		fprintf(f, "      fix: %s\n", x->fix);
	for (unsigned int i = 0; i < x->trial.n; i++) {
		char cmd[IG_TUNE_CMD_LEN];

		ig_tune_cmd(&x->trial.c[i], false, cmd, sizeof(cmd));
		fprintf(f, "      trial: %s\n", cmd);
	}
	if (x->trial.not_tried[0])
		fprintf(f, "      not tried: %s\n", x->trial.not_tried);
}

void ig_dr_report_print(FILE *f, const char *title,
			const struct ig_dr_report *r)
{
	size_t count[3] = { 0 };

	fprintf(f, "== %s ==\n", title);
	for (size_t i = 0; i < r->npaths; i++)
		print_path(f, &r->paths[i]);
	for (size_t i = 0; i < r->n; i++) {
		print_finding(f, &r->f[i]);
		if (r->f[i].sev <= IG_DR_SEV_CRIT)
			count[r->f[i].sev]++;
	}
	if (r->nerr)
		fprintf(f, "could not read (the checks that need these were "
			   "skipped):\n");
	for (size_t i = 0; i < r->nerr; i++)
		fprintf(f, "      %s: %s\n", r->err[i].source, r->err[i].error);
	for (size_t i = 0; i < r->nne; i++)
		fprintf(f, "not examined: %s: %s\n", r->ne[i].layer,
			r->ne[i].reason);
	fprintf(f, "summary: %zu crit, %zu warn, %zu info",
		count[IG_DR_SEV_CRIT], count[IG_DR_SEV_WARN],
		count[IG_DR_SEV_INFO]);
	if (r->dropped)
		fprintf(f, " (%zu more left out to fit the message)",
			r->dropped);
	fputc('\n', f);
}
