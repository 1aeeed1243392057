// SPDX-License-Identifier: MIT
/* What TCP said about itself, looked up by the names it reports them
 * under: TCP_INFO per stream, and --zerocopy. */
#include <inttypes.h>
#include <string.h>

#include "common/json.h"
#include "report_int.h"
#include "wire/codec.h"

/* The TCP transport's values, by the names it reports them under. */
#define TCPINFO "tcp_info"
#define ZEROCOPY "zerocopy"

bool ig_rep_has_tcpinfo(const struct ig_result *r)
{
	return ig_ctrs_has_group(&r->ctrs, TCPINFO) ||
	       ig_ctrs_has_group(&r->ctrs_server, TCPINFO);
}

/* a failed run's options say nothing of what it did */
bool ig_rep_zc_asked(const struct ig_result *r)
{
	return !r->failed && r->local.sock.zerocopy != IG_ZC_OFF;
}

bool ig_rep_zerocopy(const struct ig_result *r)
{
	return !r->failed && r->local.sock.zerocopy == IG_ZC_ON;
}

/* Value group.name of every stream of c pooled by its rule; 0 if none. */
static uint64_t pooled(const struct ig_ctrs *c, const char *group,
		       const char *name)
{
	uint64_t v = 0;

	if (!ig_ctrs_streams(c, ig_ctrs_find(c, group, name), &v))
		return 0;
	return v;
}

uint64_t ig_rep_retrans(const struct ig_result *r)
{
	return pooled(&r->ctrs, TCPINFO, "retrans") +
	       pooled(&r->ctrs_server, TCPINFO, "retrans");
}

json_object *ig_rep_tcpinfo_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (o &&
	    (ig_json_add_u64(o, "retrans", ig_rep_retrans(r)) ||
	     (ig_ctrs_has_group(&r->ctrs, TCPINFO) &&
	      ig_json_add(o, "client",
			  ig_ctrs_group_to_json(&r->ctrs, TCPINFO))) ||
	     (ig_ctrs_has_group(&r->ctrs_server, TCPINFO) &&
	      ig_json_add(o, "server",
			  ig_ctrs_group_to_json(&r->ctrs_server, TCPINFO))))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static const char *const zc_names[] = { "sends", "copied", "enobufs",
					"fallback" };

json_object *ig_rep_zc_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < sizeof(zc_names) / sizeof(zc_names[0]);
	     i++) {
		if (ig_json_add_u64(o, zc_names[i],
				    pooled(&r->ctrs, ZEROCOPY, zc_names[i]))) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* The streams that retransmitted, "client 0: 3, server 1: 1". */
static void retrans_list(char *buf, size_t len, const char *side,
			 const struct ig_ctrs *c)
{
	int k = ig_ctrs_find(c, TCPINFO, "retrans");
	size_t at = strlen(buf);

	for (unsigned int i = 0; k >= 0 && i < c->nstreams && at < len; i++) {
		if (!(c->st[i].have & (1u << k)) || !c->st[i].v[k])
			continue;
		snprintf(buf + at, len - at, "%s%s stream %u: %" PRIu64,
			 at ? ", " : "", side, i, c->st[i].v[k]);
		at = strlen(buf);
	}
}

static void retrans_warning(FILE *f, const struct ig_result *r)
{
	char who[160] = "", row[128];

	if (!ig_rep_retrans(r))
		return;
	retrans_list(who, sizeof(who), "client", &r->ctrs);
	retrans_list(who, sizeof(who), "server", &r->ctrs_server);
	fprintf(f,
		"warning: %s: TCP retransmitted %" PRIu64 " segment%s during "
		"the measured interval (%s): loss or reordering on the path, "
		"see tcp_info\n",
		ig_rep_row(r, row, sizeof(row)), ig_rep_retrans(r),
		ig_rep_retrans(r) == 1 ? "" : "s", who);
}

static void zc_warning(FILE *f, const struct ig_result *r)
{
	uint64_t sends = pooled(&r->ctrs, ZEROCOPY, "sends");
	uint64_t copied = pooled(&r->ctrs, ZEROCOPY, "copied");
	uint64_t enobufs = pooled(&r->ctrs, ZEROCOPY, "enobufs");

	if (!ig_rep_zerocopy(r))
		return;
	if (copied)
		fprintf(f,
			"warning: %s%s: --zerocopy: the kernel copied %" PRIu64
			" of %" PRIu64 " zero-copy sends "
			"(SO_EE_CODE_ZEROCOPY_COPIED: loopback and devices "
			"without scatter-gather always copy)\n",
			ig_rep_test(r), ig_rep_at(r), copied, sends);
	if (enobufs)
		fprintf(f,
			"warning: %s%s: --zerocopy: the kernel refused %" PRIu64
			" sends with ENOBUFS (net.core.optmem_max), %" PRIu64
			" of them went out copying\n",
			ig_rep_test(r), ig_rep_at(r), enobufs,
			pooled(&r->ctrs, ZEROCOPY, "fallback"));
}

/* --zerocopy both: the copying run of the same test, size and streams,
 * just before the zero-copy one. */
static const struct ig_result *copy_run(const struct ig_result *res, size_t i)
{
	const struct ig_result *c = i ? &res[i - 1] : NULL;

	if (!c || !ig_rep_zc_asked(c) || ig_rep_zerocopy(c) ||
	    c->params.test != res[i].params.test ||
	    c->params.size != res[i].params.size ||
	    c->params.streams != res[i].params.streams)
		return NULL;
	return c;
}

static void zc_line(FILE *f, const struct ig_result *res, size_t i)
{
	const struct ig_result *r = &res[i], *c = copy_run(res, i);
	double zc = ig_rep_cpu_per_gb(&r->cpu_client, true), cp;
	char sz[24];

	ig_size_str(r->params.size, sz, sizeof(sz));
	fprintf(f, "zerocopy: %s%s %s: MSG_ZEROCOPY, %" PRIu64 " sends",
		ig_rep_test(r), ig_rep_at(r), sz,
		pooled(&r->ctrs, ZEROCOPY, "sends"));
	if (zc >= 0)
		fprintf(f, ", sender (client) CPU %.3f s/GB", zc);
	cp = c ? ig_rep_cpu_per_gb(&c->cpu_client, true) : -1;
	if (cp > 0 && zc >= 0)
		fprintf(f, "; copying %.3f s/GB: zero-copy/copying %.2f", cp,
			zc / cp);
	fputc('\n', f);
}

void ig_rep_tcp_text(FILE *f, const struct ig_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		retrans_warning(f, &res[i]);
		zc_warning(f, &res[i]);
	}
	for (size_t i = 0; i < n; i++)
		if (ig_rep_zerocopy(&res[i]))
			zc_line(f, res, i);
}
