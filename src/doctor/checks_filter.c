// SPDX-License-Identifier: MIT
/*
 * What a packet crosses between the socket and the netdev's driver: the
 * queueing discipline on the path's netdev (a shaper or policer holds TCP
 * to its rate; verbs bypass it), the packet filter (nftables rules hooked
 * at input/output/forward/prerouting/postrouting of the inet, ip and ip6
 * families; legacy iptables tables) and connection tracking (every packet
 * looked up in the conntrack table).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_int.h"

#define NOT_TRIED_FILTER \
	"the doctor does not remove a packet filter: name the rule to drop"

static bool is_shaper(const struct ig_dr_q_qdisc *q)
{
	static const char *const kinds[] = { "tbf", "htb", "hfsc", "cbq",
					     "netem" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (!strcmp(q->kind, kinds[i]))
			return true;
	/* cake with a bandwidth, fq with a maxrate, an ingress police */
	return q->rate || q->police;
}

static struct ig_dr_finding *shaper_finding(struct ig_dr *d, const char *nd,
					    const struct ig_dr_q_qdisc *q,
					    bool ingress, bool soft)
{
	/* an HCA's verbs leave through the HCA, rxe's and siw's through the
	 * netdev's queue, the qdisc included */
	struct ig_dr_finding *f = ig_dr_add(
		d, IG_DR_SEV_WARN, "qdisc.shaper",
		"%s's %s qdisc (handle %s) %s: TCP through it is held to its "
		"rate, %s",
		nd, q->kind, q->handle,
		ingress ? "polices what arrives"
			: "shapes or delays what leaves",
		soft ? "and so is this software RDMA device's traffic"
		     : "verbs bypass it");

	ig_dr_fix(f, "tc qdisc del dev %s %s", nd,
		  ingress ? "ingress" : "root");
	ig_dr_try(f, IG_TUNE_QDISC, nd, ingress ? "ingress" : "root", "%s", "");
	return f;
}

void ig_dr_check_qdisc(struct ig_dr *d, struct ig_dr_pctx *c)
{
	struct ig_dr_q_qdisc q[IG_DR_MAX_QDISCS];
	struct ig_dr_finding *f[2] = { NULL, NULL }; /* egress, ingress */
	const char *nd = c->p->netdev;
	char src[96], rate[48];
	size_t n = 0;
	int ret = d->q->qdiscs(d->qctx, nd, q, IG_DR_MAX_QDISCS, &n);

	if (ret) {
		ig_dr_query_err(d, "qdiscs", nd, -ret);
		ig_dr_not_examined(d, "qdisc", "qdiscs(%s): %s", nd,
				   strerror(-ret));
		return;
	}
	snprintf(src, sizeof(src), "qdiscs(%s)", nd);
	for (size_t i = 0; i < n; i++) {
		bool in = !strcmp(q[i].parent, "ingress");

		if (!is_shaper(&q[i]))
			continue;
		if (!f[in])
			f[in] = shaper_finding(d, nd, &q[i], in, c->soft);
		rate[0] = 0;
		if (q[i].rate)
			snprintf(rate, sizeof(rate), ", rate %.6g Mbit/s",
				 (double)q[i].rate * 8 / 1e6);
		ig_dr_ev(f[in], src, "%s handle %s parent %s%s%s", q[i].kind,
			 q[i].handle, q[i].parent, rate,
			 q[i].police ? ", a filter polices" : "");
	}
}

struct nft {
	unsigned int tables, chains, rules, ct;
	char hooked[32][96]; /* "family table chain" of the hooked chains */
	char first[128];     /* the first hooked chain that has rules */
};

static bool ip_family(const char *f)
{
	return !strcmp(f, "inet") || !strcmp(f, "ip") || !strcmp(f, "ip6");
}

static const char *member(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v)
						   : "";
}

/* a "ct" match anywhere in a rule's expressions */
static bool uses_ct(json_object *o)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (uses_ct(json_object_array_get_idx(o, i)))
				return true;
		return false;
	}
	if (!json_object_is_type(o, json_type_object))
		return false;
	json_object_object_foreach (o, k, v) {
		if (!strcmp(k, "ct") || uses_ct(v))
			return true;
	}
	return false;
}

static void nft_chain(struct nft *x, json_object *ch)
{
	static const char *const hooks[] = { "input", "output", "forward",
					     "prerouting", "postrouting" };
	const char *hook = member(ch, "hook");

	if (!ip_family(member(ch, "family")) || x->chains >= 32)
		return;
	for (size_t i = 0; i < sizeof(hooks) / sizeof(*hooks); i++)
		if (!strcmp(hook, hooks[i]))
			snprintf(x->hooked[x->chains++], sizeof(x->hooked[0]),
				 "%s %s %s", member(ch, "family"),
				 member(ch, "table"), member(ch, "name"));
}

static void nft_rule(struct nft *x, json_object *r)
{
	char key[96];
	json_object *e;

	x->ct += json_object_object_get_ex(r, "expr", &e) && uses_ct(e);
	snprintf(key, sizeof(key), "%s %s %s", member(r, "family"),
		 member(r, "table"), member(r, "chain"));
	for (unsigned int i = 0; i < x->chains; i++) {
		if (strcmp(key, x->hooked[i]))
			continue;
		if (!x->rules++)
			snprintf(x->first, sizeof(x->first), "%s", key);
		return;
	}
}

/* Counts what `nft -j list ruleset` holds (chains come before their
 * rules in its output). */
static int nft_count(const char *js, struct nft *x)
{
	json_object *root = json_tokener_parse(js), *a;
	size_t n;

	if (!root || !json_object_object_get_ex(root, "nftables", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		json_object_put(root);
		return -EINVAL;
	}
	n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i), *v;

		if (json_object_object_get_ex(e, "table", &v))
			x->tables++;
		else if (json_object_object_get_ex(e, "chain", &v))
			nft_chain(x, v);
		else if (json_object_object_get_ex(e, "rule", &v))
			nft_rule(x, v);
	}
	json_object_put(root);
	return 0;
}

/* The nftables ruleset counted into x: 0, or the layer recorded as not
 * examined. */
static int read_nft(struct ig_dr *d, struct nft *x)
{
	char *js = NULL;
	int ret = d->q->nft_ruleset(d->qctx, &js);

	if (!ret && nft_count(js, x))
		ret = -EINVAL;
	free(js);
	if (ret == -EPERM)
		ig_dr_not_examined(d, "filter",
				   "listing the nftables ruleset needs "
				   "CAP_NET_ADMIN");
	else if (ret)
		ig_dr_not_examined(d, "filter", "nft list ruleset: %s",
				   strerror(-ret));
	if (ret && ret != -EPERM)
		ig_dr_query_err(d, "nft_ruleset", "", -ret);
	return ret;
}

/* Legacy iptables: the tables that exist (their rules need privilege). */
static void legacy_tables(struct ig_dr *d, char *buf, size_t len)
{
	static const char *const files[] = { "/proc/net/ip_tables_names",
					     "/proc/net/ip6_tables_names" };
	char t[120]; /* "filter\nnat\nmangle\nraw\nsecurity": both fit */

	buf[0] = 0;
	for (size_t i = 0; i < 2; i++) {
		if (ig_dr_read_quiet(d, files[i], t, sizeof(t)) || !t[0])
			continue;
		for (char *p = t; (p = strchr(p, '\n'));)
			*p = ' ';
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%s",
			 buf[0] ? "; " : "", i ? "ip6: " : "ip: ", t);
	}
}

static void filter_rules(struct ig_dr *d, const struct nft *x, bool nft_ok)
{
	struct ig_dr_finding *f;
	char legacy[256], what[320];

	legacy_tables(d, legacy, sizeof(legacy));
	if (!x->rules && !x->tables && !legacy[0])
		return;
	if (x->rules)
		snprintf(what, sizeof(what),
			 "%u nftables rules in chains on the IP hooks: every "
			 "TCP packet is matched against them, verbs packets "
			 "are not",
			 x->rules);
	else if (x->tables)
		snprintf(what, sizeof(what),
			 "%u nftables tables, but no rule on the IP hooks",
			 x->tables);
	else
		snprintf(what, sizeof(what),
			 "legacy iptables tables exist (%s); their rules are "
			 "not counted",
			 legacy);
	f = ig_dr_add(d, x->rules ? IG_DR_SEV_WARN : IG_DR_SEV_INFO,
		      "filter.rules", "%s", what);
	if (nft_ok)
		ig_dr_ev(f, "nft_ruleset",
			 "%u tables, %u hooked chains, %u rules%s%s", x->tables,
			 x->chains, x->rules, x->first[0] ? ", first in " : "",
			 x->first);
	if (legacy[0])
		ig_dr_ev(f, "/proc/net/ip_tables_names",
			 "legacy iptables tables %s", legacy);
	ig_dr_fix(f, "review 'nft -a list ruleset': accept the data path "
		     "first or drop the rules it need not cross");
	ig_dr_not_tried(f, NOT_TRIED_FILTER);
}

static void conntrack(struct ig_dr *d, const struct nft *x)
{
	const char *cnt = "/proc/sys/net/netfilter/nf_conntrack_count";
	uint64_t n = 0, max = 0;
	struct ig_dr_finding *f;
	int ret = ig_dr_read_u64(d, cnt, &n, true);
	bool has = !ret;

	/* no file: no nf_conntrack module, nothing tracked */
	if (ret && ret != -ENOENT)
		ig_dr_not_examined(d, "conntrack", "%s: %s", cnt,
				   strerror(-ret));
	if (!n && !x->ct)
		return;
	f = ig_dr_add(d, IG_DR_SEV_WARN, "filter.conntrack",
		      "connection tracking is active (%" PRIu64 " entries, "
		      "%u rules match on ct state): every TCP packet is looked "
		      "up in the conntrack table",
		      n, x->ct);
	if (has)
		ig_dr_ev(f, cnt, "%" PRIu64, n);
	if (!ig_dr_read_u64(d, "/proc/sys/net/netfilter/nf_conntrack_max", &max,
			    true))
		ig_dr_ev(f, "/proc/sys/net/netfilter/nf_conntrack_max",
			 "%" PRIu64, max);
	if (x->ct)
		ig_dr_ev(f, "nft_ruleset", "%u rules use ct", x->ct);
	ig_dr_fix(f, "exempt the data path from tracking (a 'notrack' rule "
		     "in raw prerouting and output chains) or drop the rules "
		     "that use ct");
	ig_dr_not_tried(f, NOT_TRIED_FILTER);
}

void ig_dr_check_filter(struct ig_dr *d)
{
	struct nft x = { 0 };
	bool ok = !read_nft(d, &x);

	if (!ok)
		memset(&x, 0, sizeof(x));
	filter_rules(d, &x, ok);
	conntrack(d, &x);
}
