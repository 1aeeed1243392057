// SPDX-License-Identifier: MIT
/*
 * --topology FILE: Slurm's topology.conf or ibnetdiscover's text output
 * into a graph of hosts, switches and links (topo.h).  Line by line; the
 * first line that is neither blank nor a comment decides the format.
 * Vertices are found by key through a small hash table while reading.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/fail.h"
#include "topo.h"

#define MAX_EXPAND (1u << 20) /* names one hostlist may expand to */

/* A vertex while reading: key is its name (Slurm) or "S-GUID"/"H-GUID"
 * (ibnetdiscover); desc the node description of ibnetdiscover. */
struct bvert {
	char key[64];
	char desc[64];
	enum ig_topo_kind kind;
	bool defined;	   /* its own line or block seen */
	unsigned int line; /* where it was first named */
};

struct build {
	const char *name; /* the file's */
	unsigned int line;
	struct bvert *v;
	unsigned int nv, capv;
	unsigned int *hash; /* capacity caph, index + 1, 0 empty */
	unsigned int caph;
	struct ig_topo_link *l;
	unsigned int nl, capl;
	int cur; /* ibnetdiscover: the block's vertex, -1 none */
};

static uint32_t fnv(const char *s, enum ig_topo_kind kind)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int grow(void **p, unsigned int *cap, unsigned int need, size_t size)
{
	unsigned int c = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > UINT32_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	np = realloc(*p, (size_t)c * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = c;
	return 0;
}

/* The slot of key in the hash (its entry, or the empty one for it). */
static unsigned int *slot(const struct build *b, const char *key,
			  enum ig_topo_kind kind)
{
	unsigned int i = fnv(key, kind) & (b->caph - 1);

	for (;; i = (i + 1) & (b->caph - 1)) {
		unsigned int *s = &b->hash[i];
		const struct bvert *v = *s ? &b->v[*s - 1] : NULL;

		if (!v || (v->kind == kind && !strcmp(v->key, key)))
			return s;
	}
}

static int rehash(struct build *b)
{
	unsigned int cap = b->caph ? 2 * b->caph : 256;

	if (b->caph && 2 * b->nv < b->caph)
		return 0;
	if (cap > UINT32_MAX / 4)
		return -ENOMEM;
	free(b->hash);
	b->hash = calloc(cap, sizeof(*b->hash));
	if (!b->hash)
		return -ENOMEM;
	b->caph = cap;
	for (unsigned int i = 0; i < b->nv; i++)
		*slot(b, b->v[i].key, b->v[i].kind) = i + 1;
	return 0;
}

/* The vertex of key, made when new; its index, or -ENOMEM. */
static int vertex(struct build *b, const char *key, enum ig_topo_kind kind)
{
	unsigned int *s;

	if (rehash(b) ||
	    grow((void **)&b->v, &b->capv, b->nv + 1, sizeof(*b->v)))
		return -ENOMEM;
	s = slot(b, key, kind);
	if (*s)
		return (int)*s - 1;
	b->v[b->nv] = (struct bvert){ .kind = kind, .line = b->line };
	snprintf(b->v[b->nv].key, sizeof(b->v[b->nv].key), "%s", key);
	*s = ++b->nv;
	return (int)b->nv - 1;
}

static int link_add(struct build *b, unsigned int x, unsigned int y)
{
	if (x == y)
		return 0;
	if (grow((void **)&b->l, &b->capl, b->nl + 1, sizeof(*b->l)))
		return -ENOMEM;
	b->l[b->nl++] =
		(struct ig_topo_link){ .a = x < y ? x : y, .b = x < y ? y : x };
	return 0;
}

static int bad(const struct build *b, char *err, size_t errlen,
	       const char *what, const char *text)
{
	return ig_fail(-EINVAL, err, errlen, "topology %s:%u: %s: '%.60s'",
		       b->name, b->line, what, text);
}

/* ---- hostlists: node[01-16],n[1-3,7],sw1 ---- */

typedef int (*name_fn)(struct build *b, const char *name, void *ctx);

struct expand {
	struct build *b;
	name_fn fn;
	void *ctx;
	unsigned int count;
	char *err;
	size_t errlen;
};

static int expand_term(struct expand *e, const char *pre, const char *rest);

/* A hostlist number: digits only. */
static bool number(const char *s, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return !*end && !errno;
}

/* One range "lo" or "lo-hi" of a bracket, then the rest of the term. */
static int expand_range(struct expand *e, const char *pre, const char *r,
			size_t rlen, const char *rest)
{
	char lo[24], hi[24], buf[96];
	const char *dash = memchr(r, '-', rlen);
	size_t nlo = dash ? (size_t)(dash - r) : rlen, np = strlen(pre);
	unsigned long a, z;

	if (!nlo || nlo >= sizeof(lo) || (dash && rlen - nlo - 1 >= sizeof(hi)))
		return bad(e->b, e->err, e->errlen, "a bad range in a hostlist",
			   r);
	snprintf(lo, sizeof(lo), "%.*s", (int)nlo, r);
	snprintf(hi, sizeof(hi), "%.*s", dash ? (int)(rlen - nlo - 1) : 0,
		 dash ? dash + 1 : "");
	if (!number(lo, &a) || (dash && !number(hi, &z)))
		return bad(e->b, e->err, e->errlen,
			   "a hostlist range needs numbers, LO or LO-HI", r);
	if (!dash)
		z = a;
	if (z < a || z - a >= MAX_EXPAND)
		return bad(
			e->b, e->err, e->errlen,
			"a hostlist range needs LO <= HI, 2^20 names at most",
			r);
	if (np >= 64)
		return bad(e->b, e->err, e->errlen,
			   "a name longer than 63 characters", pre);
	memcpy(buf, pre, np);
	for (unsigned long i = a; i <= z; i++) {
		int ret;

		snprintf(buf + np, sizeof(buf) - np, "%0*lu", (int)nlo % 24, i);
		ret = expand_term(e, buf, rest);
		if (ret)
			return ret;
	}
	return 0;
}

/* pre + the expansions of rest (which may hold more brackets). */
static int expand_term(struct expand *e, const char *pre, const char *rest)
{
	const char *open = strchr(rest, '['), *close, *r;
	char buf[128];

	if (!open) {
		snprintf(buf, sizeof(buf), "%s%s", pre, rest);
		if (strlen(pre) + strlen(rest) >= sizeof(e->b->v->key))
			return bad(e->b, e->err, e->errlen,
				   "a name longer than 63 characters", buf);
		if (++e->count > MAX_EXPAND)
			return bad(e->b, e->err, e->errlen,
				   "a hostlist of more than 2^20 names", rest);
		return e->fn(e->b, buf, e->ctx);
	}
	close = strchr(open, ']');
	if (!close)
		return bad(e->b, e->err, e->errlen,
			   "an unterminated '[' in a hostlist", rest);
	snprintf(buf, sizeof(buf), "%s%.*s", pre, (int)(open - rest), rest);
	for (r = open + 1; r < close;) {
		const char *c = memchr(r, ',', (size_t)(close - r));
		size_t n = c ? (size_t)(c - r) : (size_t)(close - r);
		int ret = expand_range(e, buf, r, n, close + 1);

		if (ret)
			return ret;
		r += n + 1;
	}
	return 0;
}

/* A hostlist: terms separated by commas outside brackets. */
static int expand(struct expand *e, char *list)
{
	char *p = list;

	while (*p) {
		char *q = p;
		int depth = 0, ret;

		for (; *q && (*q != ',' || depth); q++)
			depth += (*q == '[') - (*q == ']');
		if (*q)
			*q++ = '\0';
		if (*p) {
			ret = expand_term(e, "", p);
			if (ret)
				return ret;
		}
		p = q;
	}
	return 0;
}

/* ---- Slurm's topology.conf ---- */

struct slurm_ref {
	unsigned int sw; /* the line's switch */
	enum ig_topo_kind kind;
};

static int slurm_name(struct build *b, const char *name, void *ctx)
{
	const struct slurm_ref *r = ctx;
	int v = vertex(b, name, r->kind);

	if (v < 0)
		return v;
	return link_add(b, r->sw, (unsigned int)v);
}

/* "SwitchName=NAME": the line's switch, defined here. */
static int slurm_switch(struct build *b, const char *val, char *err,
			size_t errlen)
{
	int sw;

	if (!*val || strpbrk(val, "[],"))
		return bad(b, err, errlen,
			   "SwitchName= takes one name (no hostlist)", val);
	if (strlen(val) >= sizeof(b->v->key))
		return bad(b, err, errlen, "a name longer than 63 characters",
			   val);
	sw = vertex(b, val, IG_TOPO_SWITCH);
	if (sw < 0)
		return sw;
	if (b->v[sw].defined)
		return bad(b, err, errlen, "a second SwitchName= of", val);
	b->v[sw].defined = true;
	b->v[sw].line = b->line;
	return sw;
}

static int slurm_line(struct build *b, char *s, char *err, size_t errlen)
{
	char *save = NULL, *tok;
	int sw = -1, ret;

	for (tok = strtok_r(s, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(tok, '=');
		struct slurm_ref r = { .kind = IG_TOPO_HOST };
		struct expand e = { .b = b,
				    .fn = slurm_name,
				    .ctx = &r,
				    .err = err,
				    .errlen = errlen };

		if (!eq)
			return bad(b, err, errlen, "expected KEY=VALUE", tok);
		*eq++ = '\0';
		if (sw < 0 && strcasecmp(tok, "SwitchName"))
			return bad(b, err, errlen,
				   "a line must start with SwitchName=", tok);
		if (!strcasecmp(tok, "SwitchName")) {
			if (sw >= 0)
				return bad(b, err, errlen,
					   "a second SwitchName= on one line",
					   eq);
			sw = slurm_switch(b, eq, err, errlen);
			if (sw < 0)
				return sw;
			continue;
		}
		if (!strcasecmp(tok, "LinkSpeed"))
			continue;
		if (!strcasecmp(tok, "Switches"))
			r.kind = IG_TOPO_SWITCH;
		else if (strcasecmp(tok, "Nodes"))
			return bad(b, err, errlen,
				   "unknown key (SwitchName, Switches, Nodes, "
				   "LinkSpeed are)",
				   tok);
		r.sw = (unsigned int)sw;
		ret = expand(&e, eq);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- ibnetdiscover's output ---- */

/* The quoted string at s (after blanks) into out; the text after it, or
 * NULL when there is none. */
static const char *quoted(const char *s, char *out, size_t len)
{
	const char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '"')
		return NULL;
	e = strchr(s + 1, '"');
	if (!e)
		return NULL;
	snprintf(out, len, "%.*s", (int)(e - s - 1), s + 1);
	return e + 1;
}

/* "S-..." and "R-..." are switches (a router forwards too), "H-..." CAs. */
static int guid_kind(const char *g)
{
	if ((g[0] == 'S' || g[0] == 'R') && g[1] == '-' && g[2])
		return IG_TOPO_SWITCH;
	if (g[0] == 'H' && g[1] == '-' && g[2])
		return IG_TOPO_HOST;
	return -1;
}

/* The description in the comment after '#': its first quoted string. */
static void set_desc(struct bvert *v, const char *rest)
{
	const char *hash = rest ? strchr(rest, '#') : NULL;
	char d[64];

	if (!hash || v->desc[0])
		return;
	for (hash++; *hash && *hash != '"'; hash++)
		;
	if (quoted(hash, d, sizeof(d)))
		snprintf(v->desc, sizeof(v->desc), "%s", d);
}

/* The vertex of the quoted "S-GUID" or "H-GUID" at p (*rest: the text
 * after it), -EINVAL when there is none, or -ENOMEM. */
static int guid_vertex(struct build *b, const char *p, const char **rest)
{
	char g[64];
	int kind;

	*rest = p ? quoted(p, g, sizeof(g)) : NULL;
	kind = *rest ? guid_kind(g) : -1;
	if (kind < 0)
		return -EINVAL;
	return vertex(b, g, kind);
}

/* "Switch 36 "S-GUID" # "desc" ..." and "Ca 2 "H-GUID" # "desc"". */
static int ibnet_block(struct build *b, char *s, char *err, size_t errlen)
{
	const char *rest;
	char *p = s;
	int v;

	while (isalpha((unsigned char)*p))
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	v = guid_vertex(b, p, &rest);
	if (v == -EINVAL)
		return bad(b, err, errlen,
			   "a node line needs TYPE NPORTS \"S-GUID\" or "
			   "\"H-GUID\"",
			   s);
	if (v < 0)
		return v;
	b->v[v].defined = true;
	b->v[v].desc[0] = '\0';
	set_desc(&b->v[v], rest);
	b->cur = v;
	return 0;
}

/* "[PORT](PORTGUID) "S-GUID"[PEERPORT](PEERGUID) # "desc" lid ..." */
static int ibnet_port(struct build *b, char *s, char *err, size_t errlen)
{
	const char *p = strchr(s, ']'), *rest;
	int v;

	if (b->cur < 0)
		return bad(b, err, errlen,
			   "a port line outside a Switch or Ca block", s);
	if (p && p[1] == '(')
		p = strchr(p, ')');
	v = guid_vertex(b, p ? p + 1 : NULL, &rest);
	if (v == -EINVAL || (v >= 0 && *rest != '['))
		return bad(b, err, errlen,
			   "a port line needs [PORT] \"S-GUID\"[PEERPORT] or "
			   "\"H-GUID\"[PEERPORT]",
			   s);
	if (v < 0)
		return v;
	set_desc(&b->v[v], rest);
	return link_add(b, (unsigned int)b->cur, (unsigned int)v);
}

static bool starts(const char *s, const char *word)
{
	return !strncasecmp(s, word, strlen(word));
}

/* s starts with the word w, then a blank */
static bool word(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(s, w, n) && (s[n] == ' ' || s[n] == '\t');
}

/* The lines of ibnetdiscover's output that say nothing of the graph. */
static bool ibnet_skip(const char *s)
{
	static const char *const skip[] = {
		"vendid=", "devid=",	  "sysimgguid=", "switchguid=",
		"caguid=", "routerguid=", "Non-Chassis", "Chassis",
	};

	for (size_t i = 0; i < sizeof(skip) / sizeof(*skip); i++)
		if (starts(s, skip[i]))
			return true;
	return false;
}

static bool ibnet_node(const char *s)
{
	return word(s, "Switch") || word(s, "Ca") || word(s, "Rt");
}

static int ibnet_line(struct build *b, char *s, char *err, size_t errlen)
{
	if (s[0] == '[')
		return ibnet_port(b, s, err, errlen);
	if (ibnet_node(s))
		return ibnet_block(b, s, err, errlen);
	if (ibnet_skip(s))
		return 0;
	return bad(b, err, errlen, "not a line of ibnetdiscover's output", s);
}

/* ---- the graph ---- */

static int cmp_link(const void *pa, const void *pb)
{
	const struct ig_topo_link *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

/* A vertex's final name: a Slurm name as it is; of ibnetdiscover, a
 * host's first word of its description, a switch's description when
 * unique (count: the build of the descriptions, line their counts). */
static const char *final_name(const struct build *b, const struct bvert *v,
			      const struct build *count, char *buf, size_t len)
{
	unsigned int *s;

	if (!v->desc[0])
		return v->key;
	if (v->kind == IG_TOPO_HOST) {
		snprintf(buf, len, "%.*s", (int)strcspn(v->desc, " \t"),
			 v->desc);
		return buf[0] ? buf : v->key;
	}
	s = slot(count, v->desc, IG_TOPO_SWITCH);
	return *s && count->v[*s - 1].line == 1 ? v->desc : v->key;
}

/* Counts the switches' descriptions into count (bvert.line). */
static int count_descs(const struct build *b, struct build *count)
{
	for (unsigned int i = 0; i < b->nv; i++) {
		int c;

		if (b->v[i].kind != IG_TOPO_SWITCH || !b->v[i].desc[0])
			continue;
		c = vertex(count, b->v[i].desc, IG_TOPO_SWITCH);
		if (c < 0)
			return c;
		count->v[c].line++; /* made at count->line 0 */
	}
	return 0;
}

static void build_free(struct build *b)
{
	free(b->v);
	free(b->hash);
	free(b->l);
}

/* The links of t by their vertices: off[], adj[] (topo.h). */
static int adjacency(struct ig_topo *t)
{
	unsigned int *fill;

	t->off = calloc((size_t)t->nv + 1, sizeof(*t->off));
	t->adj = malloc(((size_t)t->nl * 2 + 1) * sizeof(*t->adj));
	fill = calloc((size_t)t->nv + 1, sizeof(*fill));
	if (!t->off || !t->adj || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < t->nl; i++) {
		t->off[t->l[i].a + 1]++;
		t->off[t->l[i].b + 1]++;
	}
	for (unsigned int i = 0; i < t->nv; i++)
		t->off[i + 1] += t->off[i];
	/* links sorted by (a, b): a vertex v's links (x, v), x < v, come
	 * before its (v, y), each by the other end: its list is in the
	 * order of the other end */
	for (unsigned int i = 0; i < t->nl; i++) {
		unsigned int a = t->l[i].a, b = t->l[i].b;

		t->adj[t->off[b] + fill[b]++] = i;
		t->adj[t->off[a] + fill[a]++] = i;
	}
	free(fill);
	return 0;
}

/* Sorts l[0..n) and drops repeats and loops; the number left. */
static unsigned int dedupe(struct ig_topo_link *l, unsigned int n)
{
	unsigned int o = 0;

	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(l, n, sizeof(*l), cmp_link);
	for (unsigned int i = 0; i < n; i++)
		if (l[i].a != l[i].b && (!o || cmp_link(&l[o - 1], &l[i])))
			l[o++] = l[i];
	return o;
}

/* The final vertices (named, merged by name) and links (remapped, one per
 * pair of vertices) of b into t. */
static int finish(struct build *b, struct ig_topo *t)
{
	struct build fin = { 0 }, count = { 0 };
	unsigned int *map = malloc(((size_t)b->nv + 1) * sizeof(*map));
	int ret = map ? count_descs(b, &count) : -ENOMEM;

	for (unsigned int i = 0; !ret && i < b->nv; i++) {
		char buf[64];
		const char *nm =
			final_name(b, &b->v[i], &count, buf, sizeof(buf));
		int v = vertex(&fin, nm, b->v[i].kind);

		ret = v < 0 ? v : 0;
		map[i] = (unsigned int)v;
	}
	for (unsigned int i = 0; !ret && i < b->nl; i++) {
		unsigned int x = map[b->l[i].a], y = map[b->l[i].b];

		b->l[i] = (struct ig_topo_link){ .a = x < y ? x : y,
						 .b = x < y ? y : x };
	}
	t->nl = ret ? 0 : dedupe(b->l, b->nl);
	t->v = ret ? NULL : calloc((size_t)fin.nv + 1, sizeof(*t->v));
	for (unsigned int i = 0; t->v && i < fin.nv; i++) {
		memcpy(t->v[i].name, fin.v[i].key, sizeof(t->v[i].name));
		t->v[i].kind = fin.v[i].kind;
	}
	t->nv = fin.nv;
	t->l = b->l;
	b->l = NULL;
	free(map);
	build_free(&fin);
	build_free(&count);
	if (ret || !t->v)
		return -ENOMEM;
	return adjacency(t);
}

/* Slurm: every switch named by Switches= has its SwitchName= line. */
static int slurm_check(const struct build *b, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < b->nv; i++)
		if (b->v[i].kind == IG_TOPO_SWITCH && !b->v[i].defined)
			return ig_fail(-EINVAL, err, errlen,
				       "topology %s:%u: Switches= names '%s', "
				       "which no SwitchName= defines",
				       b->name, b->v[i].line, b->v[i].key);
	return 0;
}

/* The format, from the first line that is not blank nor a comment. */
static int detect(struct build *b, const char *s, char *err, size_t errlen)
{
	if (!strncasecmp(s, "SwitchName=", 11))
		return IG_TOPO_SLURM;
	if (s[0] == '[' || ibnet_node(s) || ibnet_skip(s))
		return IG_TOPO_IBNET;
	return bad(b, err, errlen,
		   "neither Slurm's topology.conf (SwitchName=...) nor "
		   "ibnetdiscover's output (vendid=, Switch, Ca)",
		   s);
}

/* s without its trailing blanks */
static void rtrim(char *s)
{
	char *e = s + strlen(s);

	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
}

/* One line: comments and blanks dropped, the rest to its format. */
static int one_line(struct build *b, char *line, int *fmt, char *err,
		    size_t errlen)
{
	char *s = line + strspn(line, " \t");

	rtrim(s);
	if (!*s || *s == '#')
		return 0;
	if (*fmt < 0)
		*fmt = detect(b, s, err, errlen);
	if (*fmt < 0)
		return *fmt;
	if (*fmt == IG_TOPO_IBNET)
		return ibnet_line(b, s, err, errlen);
	s[strcspn(s, "#")] = '\0';
	return slurm_line(b, s, err, errlen);
}

int ig_topo_parse(FILE *f, const char *name, struct ig_topo *t, char *err,
		  size_t errlen)
{
	struct build b = { .name = name, .cur = -1 };
	char *line = NULL;
	size_t cap = 0;
	int fmt = -1, ret = 0;

	memset(t, 0, sizeof(*t));
	while (!ret && getline(&line, &cap, f) >= 0) {
		b.line++;
		ret = one_line(&b, line, &fmt, err, errlen);
	}
	free(line);
	if (!ret && fmt < 0)
		ret = ig_fail(-EINVAL, err, errlen,
			      "topology %s: no switch in it (empty)", name);
	if (!ret && fmt == IG_TOPO_SLURM)
		ret = slurm_check(&b, err, errlen);
	if (!ret) {
		t->format = fmt;
		ret = finish(&b, t);
	}
	build_free(&b);
	if (ret == -ENOMEM)
		ig_fail(ret, err, errlen, "topology %s: out of memory", name);
	if (ret)
		ig_topo_free(t);
	return ret;
}

int ig_topo_read(const char *path, struct ig_topo *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return ig_fail(-errno, err, errlen, "topology %s: %s", path,
			       strerror(errno));
	ret = ig_topo_parse(f, path, t, err, errlen);
	fclose(f);
	return ret;
}

void ig_topo_free(struct ig_topo *t)
{
	free(t->v);
	free(t->l);
	free(t->off);
	free(t->adj);
	memset(t, 0, sizeof(*t));
}

int ig_topo_vertex(const struct ig_topo *t, enum ig_topo_kind kind,
		   const char *name)
{
	for (unsigned int i = 0; i < t->nv; i++)
		if (t->v[i].kind == kind && !strcmp(t->v[i].name, name))
			return (int)i;
	return -1;
}

static bool is_addr(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];

	return inet_pton(AF_INET, s, buf) == 1 ||
	       inet_pton(AF_INET6, s, buf) == 1;
}

/* name and host equal up to their first '.' (neither an address) */
static bool same_short(const char *name, const char *host)
{
	size_t n = strcspn(name, "."), h = strcspn(host, ".");

	return n == h && !strncmp(name, host, n) && !is_addr(name);
}

int ig_topo_place(const struct ig_topo *t, const char *host, const char *addr)
{
	for (unsigned int i = 0; addr && *addr && i < t->nv; i++)
		if (t->v[i].kind == IG_TOPO_HOST && !strcmp(t->v[i].name, addr))
			return (int)i;
	if (!host || !*host || is_addr(host))
		return -1;
	for (unsigned int i = 0; i < t->nv; i++)
		if (t->v[i].kind == IG_TOPO_HOST &&
		    same_short(t->v[i].name, host))
			return (int)i;
	return -1;
}
