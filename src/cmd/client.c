// SPDX-License-Identifier: MIT
/* The client: connects, says HELLO, runs each test, writes the report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "wire/auth.h"
#include "client.h"
#include "report/compare.h"
#include "report/plot.h"
#include "wire/ctrl.h"
#include "engine/engine.h"
#include "engine/fault.h"
#include "wire/net.h"
#include "report/report.h"
#include "host/sysinfo.h"

/* The client's half of the --auth-file handshake. */
struct hello_auth {
	const struct ig_auth_key *key; /* NULL: no --auth-file */
	bool sent; /* AUTH_REPLY sent: WELCOME must carry the server's proof */
	char sn[IG_AUTH_HEX_LEN + 1], cn[IG_AUTH_HEX_LEN + 1];
};

/* AUTH {nonce}: AUTH_REPLY {nonce, mac}, or ERROR when we have no key. */
static int answer_auth(struct ig_ctrl *c, json_object *a, struct hello_auth *h)
{
	char mac[IG_AUTH_HEX_LEN + 1];
	const char *sn = NULL;
	json_object *o;
	int ret;

	if (!h->key) {
		ig_ctrl_send_msg(c, IG_MSG_ERROR, "client has no --auth-file");
		return ig_ctrl_fail(c, EACCES,
				    "the server at %s requires authentication; "
				    "give --auth-file FILE with its shared "
				    "secret",
				    c->peer);
	}
	if (ig_json_get_str(a, "nonce", &sn) || !ig_auth_hex_ok(sn))
		return ig_ctrl_fail(c, EPROTO,
				    "AUTH from %s carries no nonce of %d "
				    "lowercase hex digits",
				    c->peer, IG_AUTH_HEX_LEN);
	memcpy(h->sn, sn, sizeof(h->sn));
	ret = ig_auth_nonce(h->cn);
	if (!ret)
		ret = ig_auth_mac(h->key, IG_AUTH_CLIENT, h->sn, h->cn, mac);
	if (ret)
		return ig_ctrl_fail(c, -ret,
				    "computing the --auth-file proof: %s",
				    strerror(-ret));
	o = json_object_new_object();
	json_object_object_add(o, "nonce", json_object_new_string(h->cn));
	json_object_object_add(o, "mac", json_object_new_string(mac));
	ret = ig_ctrl_send(c, IG_MSG_AUTH_REPLY, o);
	json_object_put(o);
	h->sent = !ret;
	return ret;
}

/* With a key, WELCOME must carry the server's proof for our nonces. */
static int check_proof(struct ig_ctrl *c, json_object *w,
		       const struct hello_auth *h)
{
	const char *proof = NULL;

	if (!h->key)
		return 0;
	if (!h->sent) {
		ig_ctrl_send(c, IG_MSG_BYE, NULL);
		return ig_ctrl_fail(c, EACCES,
				    "the server at %s does not authenticate "
				    "itself (no --auth-file there); refusing "
				    "to run with --auth-file",
				    c->peer);
	}
	ig_json_get_str(w, "auth", &proof);
	if (ig_auth_verify(h->key, IG_AUTH_SERVER, h->sn, h->cn, proof))
		return ig_ctrl_fail(c, EACCES,
				    "the server at %s failed to prove it holds "
				    "the shared secret",
				    c->peer);
	return 0;
}

int ig_client_hello(struct ig_ctrl *c, struct ig_report_env *env,
		    const struct ig_auth_key *key)
{
	struct hello_auth h = { .key = key };
	json_object *o = json_object_new_object(), *w = NULL, *si;
	enum ig_msg_type type;
	int ret;

	ig_sysinfo_get(&env->client);
	json_object_object_add(o, "sysinfo", ig_sysinfo_to_json(&env->client));
	ret = ig_ctrl_send(c, IG_MSG_HELLO, o);
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_expect2(c, IG_MSG_WELCOME, IG_MSG_AUTH, &type,
				      &w);
	if (!ret && type == IG_MSG_AUTH) {
		ret = answer_auth(c, w, &h);
		json_object_put(w);
		w = NULL;
		if (!ret)
			ret = ig_ctrl_expect(c, IG_MSG_WELCOME, &w);
	}
	if (!ret)
		ret = check_proof(c, w, &h);
	if (!ret && (!json_object_object_get_ex(w, "sysinfo", &si) ||
		     ig_sysinfo_from_json(si, &env->server)))
		ret = ig_ctrl_fail(c, EPROTO,
				   "WELCOME from %s carries no "
				   "usable sysinfo",
				   c->peer);
	json_object_put(w);
	return ret;
}

static int write_report(FILE *f, const struct ig_client_opts *o,
			const struct ig_report_env *env,
			const struct ig_result *res, size_t n)
{
	int ret = ig_report_write(f, o->format, env, res, n);

	if (!ret && fflush(f))
		ret = -errno;
	if (ret)
		fprintf(stderr, "ibgap: writing the report%s%s failed: %s\n",
			o->outfile ? " to " : "", o->outfile ? o->outfile : "",
			strerror(-ret));
	return ret;
}

/* Connects, runs every test, says BYE; fills env and res. */
static int session(const struct ig_client_opts *o, struct ig_report_env *env,
		   struct ig_result *res, size_t *done,
		   struct ig_client_diag *diag, const struct ig_auth_key *key)
{
	struct ig_ctrl c;
	char err[512], port[16];
	int fd, ret;

	if (o->port)
		snprintf(port, sizeof(port), "%s", o->port);
	else
		snprintf(port, sizeof(port), "%d", IG_DEFAULT_PORT);
	fd = ig_net_connect(o->host, port, (int)o->p.timeout_ms, err,
			    sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "ibgap: %s\n", err);
		return fd;
	}
	ig_ctrl_init(&c, fd, (int)o->p.timeout_ms);
	ig_fault_point(false, IG_FAULT_CONNECT);
	ret = ig_client_hello(&c, env, key);
	if (ret)
		fprintf(stderr, "ibgap: %s\n", c.err);
	if (!ret) {
		ig_client_diag_begin(diag, c.fd);
		ret = ig_run_plan(o, &c, res, done);
		ig_client_diag_end(diag);
	}
	if (!ret)
		ig_ctrl_send(&c, IG_MSG_BYE, NULL);
	ig_ctrl_close(&c);
	return ret;
}

/* Without -t: the comparison where this host has an RDMA device, TCP
 * alone (said in one line) where it has none. */
static void default_tests(struct ig_client_opts *o, const char **note)
{
	static const enum ig_test cmp[] = {
		IG_TEST_WRITE_BW, IG_TEST_SEND_BW,   IG_TEST_TCP_BW,
		IG_TEST_SEND_LAT, IG_TEST_WRITE_LAT, IG_TEST_TCP_LAT,
	};
	int n = 0;
	struct ibv_device **l;

	if (o->tests_given)
		return;
	l = ibv_get_device_list(&n);
	if (l)
		ibv_free_device_list(l);
	if (n > 0) {
		memcpy(o->tests, cmp, sizeof(cmp));
		o->ntests = sizeof(cmp) / sizeof(*cmp);
		return;
	}
	*note = "no RDMA device on this host: TCP alone (create a Soft-RoCE "
		"device to compare: rdma link add rxe0 type rxe netdev IFACE)";
	fprintf(stderr, "ibgap: %s\n", *note);
}

static int finish(const struct ig_client_opts *o, FILE *f,
		  struct ig_report_env *env, struct ig_result *res, size_t n,
		  struct ig_client_diag *diag)
{
	struct ig_compare cmp;
	int ret = ig_compare_build(res, n, &cmp);

	if (ret) {
		fprintf(stderr, "ibgap: out of memory comparing results\n");
		return ret;
	}
	ig_client_diag_top(diag, &cmp, o->p.window);
	env->findings = diag->f;
	env->nfindings = diag->nf;
	env->cmp = &cmp;
	ret = write_report(f, o, env, res, n);
	if (!ret && o->plot) {
		char err[512];

		ret = ig_plot_write(o->plot, res, n, err, sizeof(err));
		if (ret)
			fprintf(stderr, "ibgap: %s\n", err);
	}
	env->cmp = NULL;
	ig_compare_free(&cmp);
	return ret;
}

static int run(const struct ig_client_opts *opts, const struct ig_auth_key *key)
{
	struct ig_client_opts o = *opts;
	struct ig_report_env env = { 0 };
	struct ig_client_diag diag = { 0 };
	struct ig_result *res;
	json_object *old;
	FILE *f = stdout;
	size_t n;
	int ret;

	/* fail on a bad --baseline or -o before spending time on tests */
	ret = ig_client_load_baseline(&o, &old);
	if (ret)
		return ret;
	if (o.outfile && !(f = fopen(o.outfile, "w"))) {
		fprintf(stderr, "ibgap: cannot write -o '%s': %s\n", o.outfile,
			strerror(errno));
		json_object_put(old);
		return 1;
	}
	default_tests(&o, &env.note);
	n = ig_plan_count(&o);
	res = calloc(n, sizeof(*res));
	ret = res ? session(&o, &env, res, &n, &diag, key) : -ENOMEM;
	if (!res)
		fprintf(stderr, "ibgap: out of memory for %zu results\n", n);
	if (!ret) {
		if (o.local.interrupt && *o.local.interrupt)
			env.note = "interrupted (SIGINT): the last result is "
				   "partial and the rest did not run";
		ig_client_fingerprints(&env, res, n);
		ret = finish(&o, f, &env, res, n, &diag) ? 1 : 0;
	} else {
		ret = 1;
	}
	if (!ret)
		ret = ig_client_baseline(&o, &env, res, n, old);
	if (!ret && o.local.interrupt && *o.local.interrupt)
		ret = 130; /* as a shell reports SIGINT */
	json_object_put(old);
	free(res);
	if (f != stdout)
		fclose(f);
	return ret;
}

int ig_client_run(const struct ig_client_opts *o)
{
	struct ig_auth_key key;
	char err[512];
	int ret;

	if (!o->auth_file)
		return run(o, NULL);
	/* a bad --auth-file is a bad option value, found before connecting */
	if (ig_auth_load(o->auth_file, &key, err, sizeof(err))) {
		fprintf(stderr, "ibgap: %s\n", err);
		return 2;
	}
	ret = run(o, &key);
	ig_auth_wipe(&key);
	return ret;
}
