// SPDX-License-Identifier: MIT
/* The comparison as JSON, text and CSV. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "transports/transports.h"

/* A side's JSON name: its transport ("verbs", "tcp", "rsockets"). */
static const char *side(const struct ig_pair *p, int t)
{
	return ig_test_transport(IG_TESTS, p->r[t]->params.test);
}

/* {a's transport: v, b's transport: t, third: x} */
static json_object *trio(const struct ig_pair *p, double v, double t,
			 const char *third, double x)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, side(p, IG_V), json_object_new_double(v));
	json_object_object_add(o, side(p, IG_T), json_object_new_double(t));
	json_object_object_add(o, third, json_object_new_double(x));
	return o;
}

static json_object *cpu_json(const struct ig_pair *p)
{
	json_object *o = json_object_new_object();
	static const char *const sides[2] = { "client", "server" };

	for (int s = 0; s < 2; s++) {
		const double *g = p->cpu_gb[s];

		if (g[IG_V] < 0 || g[IG_T] < 0)
			continue;
		json_object_object_add(o, sides[s],
				       trio(p, g[IG_V], g[IG_T], "ratio",
					    g[IG_V] > 0 ? g[IG_T] / g[IG_V]
							: 0));
	}
	return o;
}

static json_object *pair_json(const struct ig_pair *p, bool dgram)
{
	json_object *o = json_object_new_object();
	char key[2][32];

	for (int t = 0; t < 2; t++) {
		snprintf(key[t], sizeof(key[t]), "%s_test", side(p, t));
		json_object_object_add(o, key[t],
				       json_object_new_string(p->r[t]->test));
	}
	if (p->g->label)
		json_object_object_add(o, "label",
				       json_object_new_string(p->g->label));
	if (dgram && !p->g->label)
		json_object_object_add(
			o, "like_for_like",
			json_object_new_boolean(p->like_for_like));
	json_object_object_add(o, "size", json_object_new_uint64(p->size));
	json_object_object_add(
		o, "streams",
		json_object_new_uint64(p->r[IG_V]->params.streams));
	json_object_object_add(o, "msg_rate",
			       trio(p, p->rate[IG_V], p->rate[IG_T], "ratio",
				    p->rate_ratio));
	if (p->lat) {
		json_object *l = json_object_new_object();

		if (p->has_p50)
			json_object_object_add(
				l, "p50",
				trio(p, p->p50[IG_V], p->p50[IG_T], "added",
				     p->p50[IG_T] - p->p50[IG_V]));
		if (p->has_p99)
			json_object_object_add(
				l, "p99",
				trio(p, p->p99[IG_V], p->p99[IG_T], "added",
				     p->p99[IG_T] - p->p99[IG_V]));
		json_object_object_add(o, "lat_us", l);
		return o;
	}
	json_object_object_add(o, "bw_gbps",
			       trio(p, p->bw[IG_V], p->bw[IG_T], "ratio",
				    p->bw_ratio));
	json_object_object_add(o, "cpu_s_per_gb", cpu_json(p));
	if (p->port_gbps > 0) {
		json_object_object_add(o, "port_gbps",
				       json_object_new_double(p->port_gbps));
		json_object_object_add(
			o, "port_share",
			trio(p, p->bw[IG_V] / p->port_gbps,
			     p->bw[IG_T] / p->port_gbps, "limit",
			     p->bw[IG_V] / p->port_gbps >= 0.8 ? 1 : 0));
	}
	return o;
}

json_object *ig_compare_to_json(const struct ig_compare *c)
{
	json_object *o = json_object_new_object();
	json_object *pairs = json_object_new_array();
	json_object *nh = json_object_new_array();
	json_object *cr = json_object_new_array();

	bool dgram = !strcmp(c->ipoib_mode, "datagram");

	for (size_t i = 0; i < c->npairs; i++)
		json_object_array_add(pairs, pair_json(&c->pairs[i], dgram));
	for (size_t i = 0; i < c->nnhalf; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(
			e, "test", json_object_new_string(c->nhalf[i].test));
		json_object_object_add(
			e, "size", json_object_new_uint64(c->nhalf[i].size));
		json_object_object_add(
			e, "peak_gbps",
			json_object_new_double(c->nhalf[i].peak_gbps));
		json_object_object_add(
			e, "peak_size",
			json_object_new_uint64(c->nhalf[i].peak_size));
		json_object_array_add(nh, e);
	}
	for (size_t i = 0; i < c->ncross; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(
			e, "verbs_test",
			json_object_new_string(c->cross[i].verbs_test));
		json_object_object_add(
			e, "threshold",
			json_object_new_double(c->cross[i].threshold));
		json_object_object_add(
			e, "size",
			c->cross[i].size
				? json_object_new_uint64(c->cross[i].size)
				: NULL);
		json_object_array_add(cr, e);
	}
	json_object_object_add(o, "pairs", pairs);
	json_object_object_add(o, "n_half", nh);
	json_object_object_add(o, "crossings", cr);
	if (dgram)
		json_object_object_add(o, "ipoib_mode",
				       json_object_new_string(c->ipoib_mode));
	return o;
}

static void num(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v);
}

static const char *lfl(const struct ig_pair *p)
{
	return p->like_for_like ? "  like-for-like" : "";
}

/* A matrix run's point of pair p, "streams/window" ("2/256K",
 * "1/default"); "" when the group ran at one point only. */
static const char *point(const struct ig_pair *p, bool matrix, char *buf,
			 size_t len)
{
	const struct ig_params *q = &p->r[IG_V]->params;
	char win[24] = "default";

	if (!matrix)
		return "";
	if (q->sock.window)
		ig_size_str(q->sock.window, win, sizeof(win));
	snprintf(buf, len, " %9u/%-7s", q->streams, win);
	return buf;
}

static void text_bw(FILE *f, const struct ig_pair *p, int w, bool matrix)
{
	char sz[24], pv[16] = "-", pt[16] = "-", cc[32], cs[32], pb[40];
	char a[12], b[12], x[12], y[12];

	ig_size_str(p->size, sz, sizeof(sz));
	if (p->port_gbps > 0) {
		snprintf(pv, sizeof(pv), "%.0f%%",
			 100 * p->bw[0] / p->port_gbps);
		snprintf(pt, sizeof(pt), "%.0f%%",
			 100 * p->bw[1] / p->port_gbps);
	}
	num(a, sizeof(a), p->cpu_gb[IG_CLI][IG_V]);
	num(b, sizeof(b), p->cpu_gb[IG_CLI][IG_T]);
	num(x, sizeof(x), p->cpu_gb[IG_SRV][IG_V]);
	num(y, sizeof(y), p->cpu_gb[IG_SRV][IG_T]);
	snprintf(cc, sizeof(cc), "%s/%s", a, b);
	snprintf(cs, sizeof(cs), "%s/%s", x, y);
	fprintf(f,
		"%-*s %6s%s %10.2f %9.2f %6.2fx %6s %6s %9.3f %9.3f "
		"%15s %15s%s\n",
		w, p->r[IG_V]->test, sz, point(p, matrix, pb, sizeof(pb)),
		p->bw[0], p->bw[1], p->bw_ratio, pv, pt, p->rate[0] / 1e6,
		p->rate[1] / 1e6, cc, cs, lfl(p));
}

static void text_lat(FILE *f, const struct ig_pair *p, int w, bool matrix)
{
	char sz[24], pb[40];
	const char *pt = point(p, matrix, pb, sizeof(pb));

	ig_size_str(p->size, sz, sizeof(sz));
	if (!p->has_p50) {
		fprintf(f, "%-*s %6s%s  (too few samples for percentiles)%s\n",
			w, p->r[IG_V]->test, sz, pt, lfl(p));
		return;
	}
	fprintf(f, "%-*s %6s%s %9.2f %9.2f %+9.2f", w, p->r[IG_V]->test, sz, pt,
		p->p50[0], p->p50[1], p->p50[1] - p->p50[0]);
	if (p->has_p99)
		fprintf(f, " %9.2f %9.2f %+9.2f%s\n", p->p99[0], p->p99[1],
			p->p99[1] - p->p99[0], lfl(p));
	else
		fprintf(f, " %9s %9s %9s%s\n", "-", "-", "-", lfl(p));
}

static void text_sweep(FILE *f, const struct ig_compare *c)
{
	char sz[24];

	for (size_t i = 0; i < c->nnhalf; i++) {
		ig_size_str(c->nhalf[i].size, sz, sizeof(sz));
		fprintf(f, "%sN1/2 %s %s", i ? ", " : "\n", c->nhalf[i].test,
			sz);
	}
	if (c->nnhalf)
		fprintf(f, "  (smallest size reaching half the peak "
			   "bandwidth)\n");
	for (size_t i = 0; i < c->ncross; i++) {
		ig_size_str(c->cross[i].size, sz, sizeof(sz));
		fprintf(f, "tcp_bw reaches %.0f%% of %s: %s\n",
			100 * c->cross[i].threshold, c->cross[i].verbs_test,
			c->cross[i].size ? sz : "not within the sweep");
	}
}

/* Did a bandwidth pair of group g have a verbs side that busy-polled? */
static bool polled(const struct ig_compare *c, const struct ig_pair_group *g)
{
	for (size_t i = 0; i < c->npairs; i++) {
		const char *how;

		if (c->pairs[i].lat || c->pairs[i].g != g)
			continue;
		how = ig_params_completion(IG_TESTS,
					   &c->pairs[i].r[IG_V]->params);
		if (how && !strcmp(how, "poll"))
			return true;
	}
	return false;
}

/* The column over point()'s, or "". */
static const char *point_head(bool matrix)
{
	return matrix ? "   streams/window " : "";
}

static void head_bw(FILE *f, const struct ig_pair_group *g, int w, bool matrix)
{
	char h[5][24];

	snprintf(h[0], sizeof(h[0]), "%s Gb/s", g->side[0]);
	snprintf(h[1], sizeof(h[1]), "%s Gb/s", g->side[1]);
	snprintf(h[2], sizeof(h[2]), "%s/%s", g->abbr[1], g->abbr[0]);
	snprintf(h[3], sizeof(h[3]), "%s%%port", g->abbr[0]);
	snprintf(h[4], sizeof(h[4]), "%s%%port", g->abbr[1]);
	fprintf(f, "%-*s %6s%s %10s %9s %7s %6s %6s ", w, "bandwidth", "size",
		point_head(matrix), h[0], h[1], h[2], h[3], h[4]);
	snprintf(h[0], sizeof(h[0]), "%s Mmsg/s", g->abbr[0]);
	snprintf(h[1], sizeof(h[1]), "%s Mmsg/s", g->abbr[1]);
	fprintf(f, "%9s %9s %15s %15s\n", h[0], h[1], "client CPU s/GB",
		"server CPU s/GB");
}

static void head_lat(FILE *f, const struct ig_pair_group *g, int w, bool matrix)
{
	char h[4][24];

	for (int t = 0; t < 2; t++) {
		snprintf(h[t], sizeof(h[t]), "%s p50", g->side[t]);
		snprintf(h[2 + t], sizeof(h[2 + t]), "%s p99", g->side[t]);
	}
	fprintf(f, "%-*s %6s%s %9s %9s %9s %9s %9s %9s  (us)\n", w, "latency",
		"size", point_head(matrix), h[0], h[1], "added", h[2], h[3],
		"added");
}

/* The title and both tables of the pairs of group g (none: nothing). */
static void text_group(FILE *f, const struct ig_compare *c,
		       const struct ig_pair_group *g)
{
	bool any = false, head = false, matrix = false;
	int w = 9; /* "bandwidth"; wider for ud_send_bw */
	const struct ig_params *first = NULL;

	for (size_t i = 0; i < c->npairs; i++) {
		const struct ig_params *q = &c->pairs[i].r[IG_V]->params;

		if (c->pairs[i].g != g)
			continue;
		any = true;
		if (!first)
			first = q;
		matrix |= q->streams != first->streams ||
			  q->sock.window != first->sock.window;
		if ((int)strlen(c->pairs[i].r[IG_V]->test) > w)
			w = (int)strlen(c->pairs[i].r[IG_V]->test);
	}
	if (!any)
		return;
	fprintf(f, "\n%s (%s = %s, %s = %s)\n", g->title, g->abbr[0],
		g->side[0], g->abbr[1], g->side[1]);
	for (size_t i = 0; i < c->npairs; i++) {
		if (c->pairs[i].g != g || c->pairs[i].lat)
			continue;
		if (!head)
			head_bw(f, g, w, matrix);
		head = true;
		text_bw(f, &c->pairs[i], w, matrix);
	}
	if (head && polled(c, g))
		fprintf(f,
			"(verbs busy-polled its completions: its CPU s/GB "
			"is a spinning core, not comparable with %s's; "
			"--events gives the fair figure)\n",
			g->label ? g->side[1] : "TCP");
	head = false;
	for (size_t i = 0; i < c->npairs; i++) {
		if (c->pairs[i].g != g || !c->pairs[i].lat)
			continue;
		if (!head)
			head_lat(f, g, w, matrix);
		head = true;
		text_lat(f, &c->pairs[i], w, matrix);
	}
}

/* Datagram IPoIB: which pairs are like for like. */
static void text_ipoib(FILE *f, const struct ig_compare *c)
{
	bool ud = false;

	if (strcmp(c->ipoib_mode, "datagram"))
		return;
	for (size_t i = 0; i < c->npairs; i++)
		ud |= c->pairs[i].like_for_like;
	fprintf(f, "IPoIB runs in datagram mode (UD, packets of the path MTU): "
		   "its like-for-like verbs counterpart is UD send, ");
	if (ud)
		fprintf(f, "the pairs marked like-for-like; the RC pairs show "
			   "what a connection would give, which datagram "
			   "IPoIB never uses\n");
	else
		fprintf(f, "which did not run (-t all, or add ud_send_bw and "
			   "ud_send_lat to -t); the RC pairs above show what a "
			   "connection would give\n");
}

void ig_compare_text(FILE *f, const struct ig_compare *c)
{
	const struct ig_pair_group *seen[8]; /* more than the groups */
	size_t ng = 0;

	/* each group once, in the order of its first pair */
	for (size_t i = 0; i < c->npairs; i++) {
		size_t k = 0;

		while (k < ng && seen[k] != c->pairs[i].g)
			k++;
		if (k == ng && ng < sizeof(seen) / sizeof(*seen))
			seen[ng++] = c->pairs[i].g;
	}
	for (size_t k = 0; k < ng; k++)
		text_group(f, c, seen[k]);
	text_sweep(f, c);
	if (c->npairs)
		text_ipoib(f, c);
}

void ig_compare_csv(FILE *f, const struct ig_compare *c)
{
	if (!c->npairs)
		return;
	fprintf(f, "\npair,size,streams,verbs_bw_gbps,tcp_bw_gbps,bw_ratio,"
		   "verbs_msg_rate,tcp_msg_rate,msg_rate_ratio,verbs_p50_us,"
		   "tcp_p50_us,added_p50_us,verbs_p99_us,tcp_p99_us,"
		   "added_p99_us,port_gbps,window\n");
	for (size_t i = 0; i < c->npairs; i++) {
		const struct ig_pair *p = &c->pairs[i];

		fprintf(f, "%s/%s,%" PRIu64 ",%u,", p->r[IG_V]->test,
			p->r[IG_T]->test, p->size, p->r[IG_V]->params.streams);
		if (p->lat)
			fprintf(f, ",,,");
		else
			fprintf(f, "%.6g,%.6g,%.6g,", p->bw[0], p->bw[1],
				p->bw_ratio);
		fprintf(f, "%.6g,%.6g,%.6g,", p->rate[0], p->rate[1],
			p->rate_ratio);
		if (p->lat && p->has_p50)
			fprintf(f, "%.6g,%.6g,%.6g,", p->p50[0], p->p50[1],
				p->p50[1] - p->p50[0]);
		else
			fprintf(f, ",,,");
		if (p->lat && p->has_p99)
			fprintf(f, "%.6g,%.6g,%.6g,", p->p99[0], p->p99[1],
				p->p99[1] - p->p99[0]);
		else
			fprintf(f, ",,,");
		if (p->port_gbps > 0)
			fprintf(f, "%.6g", p->port_gbps);
		fprintf(f, ",%" PRIu64 "\n", p->r[IG_V]->params.sock.window);
	}
}
