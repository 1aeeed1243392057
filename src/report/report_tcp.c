// SPDX-License-Identifier: MIT
/* What TCP said about itself: TCP_INFO per stream, and --zerocopy. */
#include <inttypes.h>
#include <string.h>

#include "common/json.h"
#include "report_int.h"
#include "wire/codec.h"

uint64_t ig_rep_retrans(const struct ig_result *r)
{
	uint64_t n = 0;
	unsigned int ns = r->params.streams;

	if (ns > IG_MAX_STREAMS)
		ns = IG_MAX_STREAMS;
	if (r->has_tcpinfo)
		n += ig_tcpinfo_retrans(r->tcpinfo, ns);
	if (r->has_tcpinfo_server)
		n += ig_tcpinfo_retrans(r->tcpinfo_server, ns);
	return n;
}

json_object *ig_rep_tcpinfo_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();
	unsigned int ns = r->params.streams;

	if (ns > IG_MAX_STREAMS)
		ns = IG_MAX_STREAMS;
	if (o &&
	    (ig_json_add_u64(o, "retrans", ig_rep_retrans(r)) ||
	     (r->has_tcpinfo &&
	      ig_json_add(o, "client",
			  ig_tcpinfo_array_to_json(r->tcpinfo, ns))) ||
	     (r->has_tcpinfo_server &&
	      ig_json_add(o, "server",
			  ig_tcpinfo_array_to_json(r->tcpinfo_server, ns))))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *ig_rep_zc_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (o && (ig_json_add_u64(o, "sends", r->zc.sends) ||
		  ig_json_add_u64(o, "copied", r->zc.copied) ||
		  ig_json_add_u64(o, "enobufs", r->zc.enobufs) ||
		  ig_json_add_u64(o, "fallback", r->zc.fallback))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The streams that retransmitted, "client 0: 3, server 1: 1". */
static void retrans_list(char *buf, size_t len, const char *side,
			 const struct ig_tcpinfo *ti, unsigned int n)
{
	size_t at = strlen(buf);

	for (unsigned int i = 0; i < n && at < len; i++) {
		if (!ti[i].retrans)
			continue;
		snprintf(buf + at, len - at, "%s%s stream %u: %" PRIu64,
			 at ? ", " : "", side, i, ti[i].retrans);
		at = strlen(buf);
	}
}

static void retrans_warning(FILE *f, const struct ig_result *r)
{
	unsigned int ns = r->params.streams;
	char who[160] = "";

	if (!ig_rep_retrans(r))
		return;
	if (ns > IG_MAX_STREAMS)
		ns = IG_MAX_STREAMS;
	if (r->has_tcpinfo)
		retrans_list(who, sizeof(who), "client", r->tcpinfo, ns);
	if (r->has_tcpinfo_server)
		retrans_list(who, sizeof(who), "server", r->tcpinfo_server, ns);
	fprintf(f,
		"warning: %s%s: TCP retransmitted %" PRIu64 " segments during "
		"the measured interval (%s): loss or reordering on the path, "
		"see tcp_info\n",
		ig_rep_test(r), ig_rep_at(r), ig_rep_retrans(r), who);
}

static void zc_warning(FILE *f, const struct ig_result *r)
{
	const struct ig_zc_stats *z = &r->zc;

	if (!r->zerocopy)
		return;
	if (z->copied)
		fprintf(f,
			"warning: %s%s: --zerocopy: the kernel copied %" PRIu64
			" of %" PRIu64 " zero-copy sends "
			"(SO_EE_CODE_ZEROCOPY_COPIED: loopback and devices "
			"without scatter-gather always copy)\n",
			ig_rep_test(r), ig_rep_at(r), z->copied, z->sends);
	if (z->enobufs)
		fprintf(f,
			"warning: %s%s: --zerocopy: the kernel refused %" PRIu64
			" sends with ENOBUFS (net.core.optmem_max), %" PRIu64
			" of them went out copying\n",
			ig_rep_test(r), ig_rep_at(r), z->enobufs, z->fallback);
}

/* --zerocopy both: the copying run of the same test, size and streams,
 * just before the zero-copy one. */
static const struct ig_result *copy_run(const struct ig_result *res, size_t i)
{
	const struct ig_result *c = i ? &res[i - 1] : NULL;

	if (!c || !c->zc_asked || c->zerocopy ||
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
		ig_rep_test(r), ig_rep_at(r), sz, r->zc.sends);
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
		if (res[i].zerocopy)
			zc_line(f, res, i);
}
