// SPDX-License-Identifier: MIT
/* --rails: each of this host's ACTIVE RDMA ports against the server's
 * port on its subnet, verbs and TCP per rail (docs/design.md, "Rails"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "transports/transports.h"
#include "wire/railmsg.h"

/* This host's rails of --rails' list into sel; 0, or 2 / 1 after one
 * line on stderr. */
static int local_rails(const struct ig_client_opts *o, struct ig_rails *sel)
{
	const char *devs[64];
	struct ig_rails *all = calloc(1, sizeof(*all));
	struct ig_inv *inv = NULL;
	char err[1024];
	size_t nd = 0;
	int ret;

	if (!all || ig_inv_load("/", IG_INV_GIDS, &inv, err, sizeof(err))) {
		fprintf(stderr, "ibgap: --rails: %s\n",
			all ? err : "out of memory");
		free(all);
		return 1;
	}
	ig_rails_local(inv, all);
	for (size_t i = 0; i < inv->ndevs && nd < 64; i++)
		devs[nd++] = inv->devs[i].name;
	ret = ig_rails_select(all, o->rails_list, devs, nd, sel, err,
			      sizeof(err));
	if (ret)
		fprintf(stderr, "ibgap: %s\n", err);
	ig_inv_free(inv);
	free(all);
	/* a bad list is a bad value; no rail at all is a failed run */
	return ret ? (o->rails_list ? 2 : 1) : 0;
}

static struct ig_run_peer rail_peer(const struct ig_client_opts *o,
				    const char *host,
				    const struct ig_auth_key *key)
{
	return (struct ig_run_peer){ .host = host,
				     .port = o->port,
				     .key = key,
				     .timeout_ms = (int)o->p.timeout_ms,
				     .src = o->local.src_addr[0]
						    ? o->local.src_addr
						    : NULL };
}

/* The server's rails, on a session of their own. */
static int server_rails(const struct ig_client_opts *o,
			const struct ig_auth_key *key, struct ig_rails *srv,
			struct ig_report_env *env)
{
	struct ig_run_peer peer = rail_peer(o, o->host, key);
	struct ig_ctrl c;
	char err[512];
	int ret = ig_run_connect(&peer, &c, &env->client, &env->server, err,
				 sizeof(err));

	if (ret) {
		fprintf(stderr, "ibgap: --rails: %s\n", err);
		return 1;
	}
	ret = ig_rails_remote(&c, srv, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "ibgap: --rails: %s\n", err);
		ig_run_bye(&c, false, false);
		return 1;
	}
	/* the rails' sessions start once the server has ended this one */
	ig_run_bye(&c, true, true);
	return 0;
}

/* A rail without an address, here or on its peer: no TCP test (nor
 * rsockets, which is rdma_cm's), and its
 * verbs connect without rdma_cm (params' verbs.oob), the endpoints over
 * a control connection to HOST (a path with an address). */
static void no_addr_opts(const struct ig_client_opts *o,
			 const struct ig_rail_run *r, struct ig_client_opts *ro)
{
	unsigned int k = 0;

	ro->host = o->host;
	ro->local.src_addr[0] = 0;
	ro->p.verbs.oob = 1;
	snprintf(ro->local.verbs.peer_device,
		 sizeof(ro->local.verbs.peer_device), "%s", r->remote.device);
	ro->local.verbs.peer_port = r->remote.port;
	for (unsigned int t = 0; t < o->ntests; t++)
		if (ig_test_xport(IG_TESTS, o->tests[t]) == IG_XPORT_VERBS)
			ro->tests[k++] = o->tests[t];
	ro->ntests = k;
}

/* Rail i's plan: its peer's address, its device and port, its CPUs; no
 * tcp test when it has no address. */
static void rail_opts(const struct ig_client_opts *o, size_t i,
		      struct ig_rail_run *r, struct ig_client_opts *ro)
{
	*ro = *o;
	ro->host = r->remote.addr;
	snprintf(ro->local.verbs.device, sizeof(ro->local.verbs.device), "%s",
		 r->local.device);
	ro->local.verbs.ib_port = r->local.port;
	/* both transports' connections leave from the rail's address */
	snprintf(ro->local.src_addr, sizeof(ro->local.src_addr), "%s",
		 r->local.addr);
	ro->local.fault = NULL;
	ro->save_baseline = NULL;
	ro->baseline = NULL;
	if (o->nrails_cpu)
		ro->local.cpu = o->rails_cpu[i];
	r->cpu = ro->local.cpu;
	r->cpu_node = ro->local.cpu < 0 && r->local.local_cpulist[0]
			      ? r->local.numa_node
			      : -1;
	if (ro->local.cpu < 0)
		snprintf(ro->local.tcp_cpus, sizeof(ro->local.tcp_cpus), "%s",
			 r->local.local_cpulist);
	if (r->by != IG_RAIL_NONE && ig_rail_no_addr(r))
		no_addr_opts(o, r, ro);
}

int ig_client_rails_plan(const struct ig_client_opts *o,
			 const struct ig_auth_key *key,
			 struct ig_client_rails *cr, struct ig_report_env *env,
			 size_t *total)
{
	struct ig_rails sel, srv;
	int peer[IG_RAILS_MAX];
	enum ig_rail_by by[IG_RAILS_MAX];
	struct ig_run_opts ro;
	int ret = local_rails(o, &sel);

	if (!ret && o->nrails_cpu && o->nrails_cpu != sel.n) {
		fprintf(stderr,
			"ibgap: --rails-cpu names %u CPUs for %zu rails: "
			"give one per rail, in the rails' order\n",
			o->nrails_cpu, sel.n);
		ret = 2;
	}
	if (!ret)
		ret = server_rails(o, key, &srv, env);
	if (ret)
		return ret;
	ig_rails_pair(&sel, &srv, peer, by);
	*total = 0;
	cr->rep = (struct ig_rails_report){ .r = cr->run, .n = sel.n };
	for (size_t i = 0; i < sel.n; i++) {
		struct ig_rail_run *r = &cr->run[i];

		*r = (struct ig_rail_run){ .local = sel.r[i], .by = by[i] };
		if (peer[i] >= 0)
			r->remote = srv.r[peer[i]];
		rail_opts(o, i, r, &cr->ro[i]);
		ig_client_run_opts(&cr->ro[i], &ro);
		cr->count[i] = ig_run_count(&ro);
		*total += cr->count[i];
	}
	return 0;
}

/* Why rail r cannot run, or NULL. */
static const char *unpaired(const struct ig_rail_run *r)
{
	if (r->by == IG_RAIL_NONE)
		return "the server has no rail left for it (it has fewer "
		       "ACTIVE ports)";
	return NULL;
}

/* One rail's plan on a session of its own; the doctor's counters around
 * it.  0 or a negative errno (r->error says why). */
static int rail_session(const struct ig_client_opts *ro,
			const struct ig_auth_key *key, struct ig_rail_run *r,
			struct ig_result *res, size_t *done,
			struct ig_client_diag *diag)
{
	struct ig_run_peer peer = rail_peer(ro, ro->host, key);
	struct ig_sysinfo self, srv;
	struct ig_run_opts plan;
	struct ig_ctrl c;
	int ret;

	ig_client_run_opts(ro, &plan);
	plan.column = r->local.device;
	if (unpaired(r)) {
		snprintf(r->error, sizeof(r->error), "%s", unpaired(r));
		ret = -ENODEV;
	} else {
		ret = ig_run_connect(&peer, &c, &self, &srv, r->error,
				     sizeof(r->error));
	}
	if (ret) {
		ig_run_fail(&plan, res, 0, r->error);
		*done = ig_run_count(&plan);
		fprintf(stderr, "ibgap: rail %s: %s\n", r->local.device,
			r->error);
		return ret;
	}
	ig_client_diag_begin(diag, c.fd);
	ret = ig_run_plan(&plan, &c, res, done);
	ig_client_diag_end(diag);
	ig_run_bye(&c, !ret, true);
	if (ret && *done)
		snprintf(r->error, sizeof(r->error), "%s",
			 res[*done - 1].error);
	return ret;
}

#define TOP_MAX 16

/* The doctor's top findings for the path of d (at most TOP_MAX) into f;
 * how many. */
static size_t path_top(const struct ig_client_opts *o,
		       const struct ig_client_diag *d, struct ig_dr_finding *f)
{
	int k = d->peer_known
			? ig_dr_top(NULL, (const struct sockaddr *)&d->peer,
				    o->p.sock.window, f, TOP_MAX)
			: 0;

	return k > 0 ? (size_t)k : 0;
}

/* The findings of the first rail whose TCP is not low, so that a rail
 * whose TCP alone is low shows what sets its path apart (the host's own
 * findings hold on every rail); how many (0: no such rail). */
static size_t common_ids(const struct ig_client_opts *o,
			 const struct ig_client_rails *cr,
			 const struct ig_client_diag *diag,
			 struct ig_dr_finding *f)
{
	for (size_t i = 0; i < cr->rep.n; i++)
		if (!(cr->run[i].flags & IG_RAILF_TCP_LOW) &&
		    diag[i].peer_known)
			return path_top(o, &diag[i], f);
	return 0;
}

static bool has_id(const struct ig_dr_finding *f, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].id, id))
			return true;
	return false;
}

/* The doctor's findings for a rail whose TCP alone is low: the port
 * counters' around its run and its path's top findings, less those a
 * rail that is not odd has too (counted in r->nshared). */
static void rail_doctor(const struct ig_client_opts *o, struct ig_rail_run *r,
			const struct ig_client_diag *d,
			const struct ig_dr_finding *common, size_t ncommon,
			struct ig_dr_finding *top)
{
	size_t ntop = path_top(o, d, top);

	for (size_t i = 0; i < d->nf + ntop; i++) {
		const struct ig_dr_finding *x = i < d->nf ? &d->f[i]
							  : &top[i - d->nf];

		if (has_id(common, ncommon, x->id))
			r->nshared++;
		else if (r->nf < IG_CLIENT_DIAG_MAX)
			r->f[r->nf++] = *x;
	}
}

/* The doctor for each rail whose TCP alone is low. */
static void rails_doctor(const struct ig_client_opts *o,
			 struct ig_client_rails *cr,
			 const struct ig_client_diag *diag)
{
	struct ig_dr_finding *f = calloc(2 * TOP_MAX, sizeof(*f));
	size_t nc = 0;

	if (!f)
		return;
	for (size_t i = 0; i < cr->rep.n; i++) {
		if (!ig_rail_tcp_low_alone(&cr->run[i]))
			continue;
		if (!nc)
			nc = common_ids(o, cr, diag, f);
		rail_doctor(o, &cr->run[i], &diag[i], f, nc, f + TOP_MAX);
	}
	free(f);
}

int ig_client_rails_run(const struct ig_client_opts *o,
			const struct ig_auth_key *key,
			struct ig_client_rails *cr, struct ig_result *res,
			size_t *n)
{
	struct ig_client_diag *diag =
		calloc(cr->rep.n ? cr->rep.n : 1, sizeof(*diag));
	size_t at = 0;
	int failed = 0;

	if (!diag) {
		fprintf(stderr, "ibgap: --rails: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < cr->rep.n; i++) {
		struct ig_rail_run *r = &cr->run[i];
		size_t done = 0;

		r->f = cr->f[i];
		if (o->local.interrupt && *o->local.interrupt)
			break;
		if (rail_session(&cr->ro[i], key, r, res + at, &done, &diag[i]))
			failed = -1;
		for (size_t k = 0; k < done; k++)
			res[at + k].rail = r->local.device;
		r->res = res + at;
		r->n = done;
		at += done;
		ig_rails_figures(r);
	}
	*n = at;
	if (o->rails_mode == IG_RAILS_TOGETHER &&
	    !(o->local.interrupt && *o->local.interrupt))
		failed |= ig_client_rails_together(o, key, cr);
	ig_rails_flag(cr->run, cr->rep.n);
	rails_doctor(o, cr, diag);
	free(diag);
	return failed;
}
