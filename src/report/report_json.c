// SPDX-License-Identifier: MIT
/* The report as one JSON document (--format json). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "compare.h"
#include "doctor/doctor.h"
#include "rails.h"
#include "report_int.h"
#include "transports/transports.h"

#define IG_SCHEMA "ibgap/1"

/* "stalls" and "stall_from_us" in "lat_us", where a p50 exists. */
static json_object *stalls_to_json(const struct ig_result *r, json_object *o)
{
	double from;
	uint64_t n = ig_rep_stalls(r, &from);

	if (from > 0 && (ig_json_add_u64(o, "stalls", n) ||
			 ig_json_add_double(o, "stall_from_us", from))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *lat_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();
	struct ig_rep_lat lv;

	if (!o)
		return NULL;
	ig_rep_lat_view(r, &lv);
	for (int i = 0; i < LAT_N; i++) {
		if (lv.has[i] &&
		    ig_json_add_double(o, ig_rep_lat_keys[i], lv.us[i])) {
			json_object_put(o);
			return NULL;
		}
	}
	return stalls_to_json(r, o);
}

/* One side's CPU object; a latency test's has us_per_tr in place of
 * us_per_kib. */
static json_object *cpu_to_json(const struct ig_result *r,
				const struct ig_cpu_usage *u, bool have)
{
	json_object *o = ig_cpu_usage_to_json(u);
	const char *key;
	double d = ig_rep_demand(r, u, have, &key);

	if (!o || !r->has_lat)
		return o;
	json_object_object_del(o, "us_per_kib");
	if (d >= 0 && ig_json_add_double(o, key, d)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *cpu_pair_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add(o, "client", cpu_to_json(r, &r->cpu_client, true)) ||
	    (r->has_cpu_server &&
	     ig_json_add(o, "server", cpu_to_json(r, &r->cpu_server, true)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *window_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add_u64(o, "requested", r->window_requested) ||
	    ig_json_add_u64(o, "snd", r->window_snd) ||
	    ig_json_add_u64(o, "rcv", r->window_rcv)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* One side's facts; "outs" stands beside the parameters instead. */
static json_object *device_side(const struct ig_facts *x)
{
	struct ig_facts t = *x;

	ig_facts_del(&t, "outs");
	return ig_facts_to_json(&t);
}

static json_object *device_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_rep_has_device(&r->facts))
		ig_json_add(o, "client", device_side(&r->facts));
	if (ig_rep_has_device(&r->facts_server))
		ig_json_add(o, "server", device_side(&r->facts_server));
	return o;
}

static json_object *streams_json(const struct ig_result *r)
{
	json_object *a = json_object_new_array();

	for (unsigned int i = 0;
	     a && i < r->params.streams && i < IG_MAX_STREAMS; i++) {
		json_object *e = json_object_new_object();
		double secs = r->seconds > 0 ? r->seconds : 1;

		ig_json_add_u64(e, "stream", i);
		ig_json_add_u64(e, "iterations", r->stream_msgs[i]);
		ig_json_add_double(e, "bw_gbps",
				   (double)r->stream_msgs[i] *
					   (double)r->params.size * 8 / secs /
					   1e9);
		json_object_array_add(a, e);
	}
	return a;
}

/* --bidir: bw_gbps is the client->server direction; this adds the other
 * and the sum. */
static json_object *bidir_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	ig_json_add_double(o, "forward_gbps", r->bw_gbps);
	ig_json_add_double(o, "reverse_gbps", ig_rep_reverse_gbps(r));
	ig_json_add_double(o, "total_gbps",
			   r->bw_gbps + ig_rep_reverse_gbps(r));
	ig_json_add_u64(o, "reverse_bytes", r->rev_bytes);
	ig_json_add_double(o, "reverse_seconds", r->rev_seconds);
	return o;
}

/* ud_send_bw: what the sender sent, what of it never arrived (sent =
 * iterations + lost), and the share lost (0 to 1). */
static int lossy_json(json_object *o, const struct ig_result *r)
{
	return ig_json_add_u64(o, "sent", r->sent) ||
	       ig_json_add_u64(o, "lost", r->lost) ||
	       ig_json_add_double(o, "loss_rate", r->loss_rate);
}

json_object *ig_report_repeat_json(const struct ig_repeat *p)
{
	json_object *o = json_object_new_object();

	ig_json_add_u64(o, "runs", p->n);
	ig_json_add_str(o, "metric", p->metric ? p->metric : "");
	ig_json_add_double(o, "mean", p->mean);
	ig_json_add_double(o, "stdev", p->stdev);
	ig_json_add_u64(o, "level", p->level);
	ig_json_add_double(o, "ci_low", p->ci_lo);
	ig_json_add_double(o, "ci_high", p->ci_hi);
	if (p->width_pct > 0) {
		ig_json_add_double(o, "width_pct", p->width_pct);
		ig_json_add(o, "met", json_object_new_boolean(p->met));
	}
	return o;
}

/* A measurement of --also's column that did not run or finish: what it
 * was, and why; no figures. */
static json_object *failed_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add_str(o, "test", ig_rep_test(r)) ||
	    ig_json_add_str(o, "transport", ig_rep_transport(r)) ||
	    (r->rail && ig_json_add_str(o, "rail", r->rail)) ||
	    ig_json_add_u64(o, "size", r->params.size) ||
	    ig_json_add_u64(o, "streams", r->params.streams) ||
	    ig_json_add_str(o, "error", r->error)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *ig_result_to_json(const struct ig_result *r)
{
	json_object *o;

	if (r->failed)
		return failed_to_json(r);
	o = json_object_new_object();
	if (!o)
		return NULL;
	if (ig_json_add_str(o, "test", ig_rep_test(r)) ||
	    ig_json_add_str(o, "transport", ig_rep_transport(r)) ||
	    (r->rail && ig_json_add_str(o, "rail", r->rail)) ||
	    (ig_params_completion(IG_TESTS, &r->params) &&
	     ig_json_add_str(o, "completion",
			     ig_params_completion(IG_TESTS, &r->params))) ||
	    ig_json_add_u64(o, "size", r->params.size) ||
	    ig_json_add_u64(o, "streams", r->params.streams) ||
	    (ig_facts_int(&r->facts, "outs", 0) > 0 &&
	     ig_json_add_u64(o, "outs",
			     (uint64_t)ig_facts_int(&r->facts, "outs", 0))) ||
	    (ig_params_direction(IG_TESTS, &r->params) &&
	     ig_json_add_str(o, "direction",
			     ig_params_direction(IG_TESTS, &r->params))) ||
	    ig_json_add_u64(o, "iterations", r->iterations) ||
	    ig_json_add_double(o, "seconds", r->seconds) ||
	    ig_json_add_u64(o, "bytes", r->bytes) ||
	    (r->has_rx_bytes && ig_json_add_u64(o, "rx_bytes", r->rx_bytes)) ||
	    (r->lossy && lossy_json(o, r)) ||
	    ig_json_add_double(o, "bw_gbps", r->bw_gbps) ||
	    ig_json_add_double(o, "msg_rate", r->msg_rate) ||
	    (r->has_lat && ig_json_add(o, "lat_us", lat_to_json(r))) ||
	    (r->clock && ig_json_add_str(o, "clock", r->clock)) ||
	    (r->clock_basis &&
	     ig_json_add_str(o, "clock_basis", r->clock_basis)) ||
	    (r->clock_ghz > 0 &&
	     ig_json_add_double(o, "clock_ghz", r->clock_ghz)) ||
	    (r->clock_read_ns > 0 &&
	     ig_json_add_double(o, "clock_read_ns", r->clock_read_ns)) ||
	    ig_json_add(o, "cpu", cpu_pair_to_json(r)) ||
	    (ig_rep_has_window(r) &&
	     ig_json_add(o, "window", window_to_json(r))) ||
	    ((ig_rep_has_device(&r->facts) ||
	      ig_rep_has_device(&r->facts_server)) &&
	     ig_json_add(o, "device", device_to_json(r))) ||
	    (r->params.streams > 1 &&
	     ig_json_add(o, "per_stream", streams_json(r))) ||
	    (r->rep.n > 1 &&
	     ig_json_add(o, "repeat", ig_report_repeat_json(&r->rep))) ||
	    (r->partial &&
	     ig_json_add(o, "partial", json_object_new_boolean(1))) ||
	    (r->has_bidir && ig_json_add(o, "bidir", bidir_json(r))) ||
	    (ig_rep_has_tcpinfo(r) &&
	     ig_json_add(o, "tcp_info", ig_rep_tcpinfo_json(r))) ||
	    (ig_rep_zc_asked(r) &&
	     ig_json_add(o, "zerocopy",
			 json_object_new_boolean(ig_rep_zerocopy(r)))) ||
	    (ig_rep_zerocopy(r) &&
	     ig_json_add(o, "zerocopy_stats", ig_rep_zc_json(r))) ||
	    (r->warning[0] && ig_json_add_str(o, "warning", r->warning))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *host_json(const struct ig_sysinfo *si,
			      const struct ig_fingerprint *fp)
{
	json_object *o = ig_sysinfo_to_json(si);

	if (o && fp &&
	    ig_json_add(o, "fingerprint", ig_fingerprint_to_json(fp))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *findings_json(const struct ig_report_env *env)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < env->nfindings; i++)
		json_object_array_add(a,
				      ig_dr_finding_to_json(&env->findings[i]));
	return a;
}

json_object *ig_report_json(const struct ig_report_env *env,
			    const struct ig_result *res, size_t n)
{
	json_object *root = json_object_new_object();
	json_object *jenv, *arr;

	if (!root)
		return NULL;
	/* ig_json_add() owns what it is given, even on failure: no leak below. */
	if (ig_json_add_str(root, "schema", IG_SCHEMA))
		goto err_root;
	jenv = json_object_new_object();
	if (ig_json_add(root, "env", jenv) ||
	    ig_json_add(jenv, "client",
			host_json(&env->client,
				  env->has_fp ? &env->fp_client : NULL)) ||
	    ig_json_add(jenv, "server",
			host_json(&env->server,
				  env->has_fp ? &env->fp_server : NULL)))
		goto err_root;
	if (env->note && ig_json_add_str(root, "note", env->note))
		goto err_root;
	arr = json_object_new_array();
	if (ig_json_add(root, "results", arr))
		goto err_root;
	if (env->nfindings && ig_json_add(root, "findings", findings_json(env)))
		goto err_root;
	if (env->rails && ig_json_add(root, "rails", ig_rails_json(env->rails)))
		goto err_root;
	if (env->rails && env->rails->together &&
	    ig_json_add(root, "rails_together",
			ig_rails_together_json(env->rails)))
		goto err_root;
	if (env->cmp && (env->cmp->npairs || env->cmp->nnhalf) &&
	    ig_json_add(root, "comparison", ig_compare_to_json(env->cmp)))
		goto err_root;
	for (size_t i = 0; i < n; i++) {
		json_object *jr = ig_result_to_json(&res[i]);

		if (!jr)
			goto err_root;
		if (json_object_array_add(arr, jr) < 0) {
			json_object_put(jr);
			goto err_root;
		}
	}
	return root;

err_root:
	json_object_put(root);
	return NULL;
}

int ig_rep_json(FILE *f, const struct ig_report_env *env,
		const struct ig_result *res, size_t n)
{
	const int flags = JSON_C_TO_STRING_PRETTY |
			  JSON_C_TO_STRING_NOSLASHESCAPE;
	json_object *root = ig_report_json(env, res, n);
	const char *s;

	if (!root) {
		fprintf(stderr,
			"ibgap: report: out of memory building the JSON document of %zu results\n",
			n);
		return -ENOMEM;
	}
	s = json_object_to_json_string_ext(root, flags);
	if (!s) {
		json_object_put(root);
		fprintf(stderr,
			"ibgap: report: out of memory printing the JSON document\n");
		return -ENOMEM;
	}
	fputs(s, f);
	fputc('\n', f);
	json_object_put(root);
	return 0;
}
