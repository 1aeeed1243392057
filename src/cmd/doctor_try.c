// SPDX-License-Identifier: MIT
/* "ibgap doctor HOST --try [IDS|all]", --dry-run and --undo: the findings
 * of both sides, the plan, the trials (src/trial/), the report
 * (report/try.h). */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "commands.h"
#include "common/fail.h"
#include "common/file.h"
#include "doctor_try.h"
#include "host/rdma_inv.h"
#include "trial/trial.h"

/* The options that need --try (or --dry-run). */
static const char *const try_only[] = { "keep",	    "repeat", "confidence",
					"duration", "warmup", "output",
					"ctrl" };

int ig_doctor_try_check(const struct ig_optparse *ps, const struct dcli *o,
			char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(try_only) / sizeof(*try_only); i++)
		if (!o->try_given && ig_opt_given(ps, try_only[i]))
			return ig_fail(-EINVAL, err, errlen,
				       "--%s needs --try (it is about the "
				       "trials' runs)",
				       try_only[i]);
	if (o->undo && (o->try_given || o->dry_run))
		return ig_fail(-EINVAL, err, errlen,
			       "--undo and --%s together: --undo only puts "
			       "back a pending journal",
			       o->try_given ? "try" : "dry-run");
	if (o->journal && !o->try_given && !o->undo)
		return ig_fail(-EINVAL, err, errlen,
			       "--journal needs --try or --undo");
	if (o->try_given && !o->dry_run && !ps->npositional)
		return ig_fail(-EINVAL, err, errlen,
			       "--try needs HOST, where 'ibgap server "
			       "--allow-try' runs (the trials measure "
			       "against it)");
	return o->outfile ? ig_file_check_out("-o", o->outfile, err, errlen)
			  : 0;
}

int ig_doctor_resolve(const char *host, char *buf, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	int ret = getaddrinfo(host, NULL, &hints, &res);

	if (ret) {
		fprintf(stderr, "ibgap doctor: cannot resolve host '%s': %s\n",
			host, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	ret = ig_sockaddr_host(res->ai_addr, buf, len);
	freeaddrinfo(res);
	return ret;
}

static const char *journal_path(const struct dcli *o)
{
	return o->journal ? o->journal : IG_JOURNAL_DEFAULT;
}

static int undo(const struct dcli *o)
{
	char err[4352];
	int ret = ig_journal_undo(journal_path(o), NULL, stdout, err,
				  sizeof(err));

	if (ret == -ENOENT) {
		printf("no pending journal at %s: nothing to put back\n",
		       journal_path(o));
		return 0;
	}
	if (ret)
		fprintf(stderr, "ibgap doctor: %s\n", err);
	return !ret ? 0 : ret == -EINVAL ? 2 : 1;
}

/* What a trial run holds. */
struct tryrun {
	struct dcli *o;
	struct ig_try_doc *d;
	struct ig_dr_report here, there;
	struct ig_ctrl c;
	bool connected;
	struct ig_inv *inv;
	const struct ig_inv_dev *dev;	/* the path's HCA, or NULL */
	char ctrl_dev[IG_TUNE_DEV_LEN]; /* --ctrl: this host's netdev of it */
};

/* Connects with --auth-file's key: 0, -EKEYREJECTED (a refused file)
 * or another -errno, one line in err. */
static int dial(struct tryrun *tr, char *err, size_t len)
{
	struct ig_auth_key key;
	struct ig_run_peer peer = { .host = tr->o->ctrl ? tr->o->ctrl
							: tr->o->host,
				    .port = tr->o->port,
				    .timeout_ms = tr->o->timeout_ms };
	struct ig_sysinfo self, srv;
	int ret;

	if (tr->o->auth_file && ig_auth_load(tr->o->auth_file, &key, err, len))
		return -EKEYREJECTED;
	peer.key = tr->o->auth_file ? &key : NULL;
	ret = ig_run_connect(&peer, &tr->c, &self, &srv, err, len);
	if (tr->o->auth_file)
		ig_auth_wipe(&key);
	tr->connected = !ret;
	return ret;
}

/* The run's reconnect: the server ended the session at TRY. */
static int redial(void *ctx, char *err, size_t len)
{
	struct tryrun *tr = ctx;

	if (tr->connected)
		ig_ctrl_close(&tr->c);
	tr->connected = false;
	return dial(tr, err, len);
}

/* Connects and asks the server's findings: 0, 1 or 2 (the exit status,
 * one line on stderr). */
static int connect_ask(struct tryrun *tr)
{
	char err[512];
	int ret = dial(tr, err, sizeof(err));

	if (!ret && tr->o->ctrl &&
	    ig_doctor_resolve(tr->o->host, tr->d->addr, sizeof(tr->d->addr)))
		return 1;
	if (!ret && tr->o->ctrl)
		ig_ctrl_netdev(&tr->c, tr->ctrl_dev, sizeof(tr->ctrl_dev));
	if (!ret)
		ret = ig_trial_findings(&tr->c, tr->o->window,
					tr->o->ctrl ? tr->d->addr : NULL,
					&tr->there, err, sizeof(err));
	if (ret)
		fprintf(stderr, "ibgap doctor: %s\n", err);
	return ret == -EKEYREJECTED ? 2 : ret ? 1 : 0;
}

/* This host's findings for the path to the server (as connected). */
static int local_findings(struct tryrun *tr)
{
	struct ig_dr_opts o = { .root = tr->o->root, .window = tr->o->window };
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int ret;

	if (tr->o->ctrl)
		o.addr = tr->d->addr; /* the data's, not the control's */
	else if (tr->connected &&
		 !getpeername(tr->c.fd, (struct sockaddr *)&ss, &sl) &&
		 !ig_sockaddr_host((struct sockaddr *)&ss, tr->d->addr,
				   sizeof(tr->d->addr)))
		o.addr = tr->d->addr;
	ret = ig_dr_run(&o, &tr->here);
	if (ret)
		fprintf(stderr, "ibgap doctor: cannot run: %s\n",
			strerror(-ret));
	return ret ? 1 : 0;
}

/* The path's HCA from the RDMA inventory (NULL: none). */
static void path_dev(struct tryrun *tr)
{
	char err[256];

	if (!tr->here.npaths || !tr->here.paths[0].rdma_dev[0] ||
	    ig_inv_load("/", 0, &tr->inv, err, sizeof(err)))
		return;
	tr->dev = ig_inv_dev(tr->inv, tr->here.paths[0].rdma_dev);
}

static bool has_numa(const struct tryrun *tr)
{
	return tr->dev && tr->dev->numa_node >= 0 && tr->dev->local_cpulist[0];
}

/* --dry-run: this host's changes show the value they would put back. */
static void read_from(struct ig_try_doc *d)
{
	for (size_t i = 0; i < d->n; i++)
		for (unsigned int j = 0; j < d->t[i].n; j++)
			if (d->t[i].side == IG_TRY_HERE &&
			    ig_tune_read(NULL, &d->t[i].c[j], d->t[i].c[j].from,
					 sizeof(d->t[i].c[j].from)))
				d->t[i].c[j].from[0] = 0;
}

/* Writes the report (text or JSON) to -o's file or stdout: 0 or 1. */
static int write_out(const struct dcli *o, const struct ig_try_doc *d)
{
	FILE *f = o->outfile ? fopen(o->outfile, "w") : stdout;
	json_object *j;
	int bad;

	if (!f) {
		fprintf(stderr, "ibgap doctor: cannot write -o '%s': %s\n",
			o->outfile, strerror(errno));
		return 1;
	}
	if (o->json) {
		j = ig_try_doc_to_json(d);
		fprintf(f, "%s\n",
			json_object_to_json_string_ext(
				j, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED));
		json_object_put(j);
	} else if (d->dry_run) {
		ig_try_print_plan(f, d);
	} else {
		ig_try_print(f, d);
	}
	bad = ferror(f) | (f != stdout ? fclose(f) : fflush(f));
	if (bad)
		fprintf(stderr, "ibgap doctor: writing the report failed\n");
	return bad ? 1 : 0;
}

/* The findings of both sides and the plan: 0, or the exit status. */
static int prepare(struct tryrun *tr)
{
	char err[2048];
	int ret = tr->o->host ? connect_ask(tr) : 0;

	if (!ret)
		ret = local_findings(tr);
	if (ret)
		return ret;
	path_dev(tr);
	snprintf(tr->d->host, sizeof(tr->d->host), "%s",
		 tr->o->host ? tr->o->host : "(this host only)");
	tr->d->dry_run = tr->o->dry_run || !tr->o->try_given;
	tr->d->keep = tr->o->keep;
	tr->d->repeat = tr->o->rep.runs ? tr->o->rep.runs : 1;
	if (ig_trial_plan(tr->d, tr->o->try_ids ? tr->o->try_ids : "all",
			  &tr->here, tr->o->host ? &tr->there : NULL,
			  tr->o->ctrl ? tr->ctrl_dev : NULL, has_numa(tr), err,
			  sizeof(err))) {
		fprintf(stderr, "ibgap doctor: %s\n", err);
		return 2;
	}
	return 0;
}

/* The environment of the run: the plan's options, the sides. */
static void env_of(struct tryrun *tr, struct ig_trial_env *e,
		   volatile sig_atomic_t *flag)
{
	const struct ig_dr_path *path = &tr->here.paths[0];

	*e = (struct ig_trial_env){ .c = &tr->c,
				    .keep = tr->o->keep,
				    .reconnect = redial,
				    .reconnect_ctx = tr };
	e->ro.p = tr->o->p;
	if (tr->o->ctrl) /* the data to HOST, the control to --ctrl's */
		snprintf(e->ro.p.data_addr, sizeof(e->ro.p.data_addr), "%s",
			 tr->d->addr);
	e->ro.p.timeout_ms = (uint32_t)tr->o->timeout_ms;
	if (tr->o->window)
		e->ro.p.sock.window = tr->o->window;
	e->ro.local = tr->o->local;
	e->ro.local.interrupt = flag;
	e->ro.rep = tr->o->rep;
	e->ro.quiet = true;
	e->ceiling = tr->here.npaths && path->rdma_dev[0];
	if (!tr->here.npaths)
		snprintf(e->no_ceiling, sizeof(e->no_ceiling),
			 "no path to the server was mapped");
	else if (!e->ceiling)
		snprintf(e->no_ceiling, sizeof(e->no_ceiling),
			 "the path's netdev %s has no RDMA device on this host",
			 path->netdev);
	if (has_numa(tr))
		e->numa_cpus = tr->dev->local_cpulist;
}

/* The exit status of a run that ended with ret. */
static int status_of(const struct ig_try_doc *d, int ret,
		     volatile sig_atomic_t *flag)
{
	for (size_t i = 0; i < d->n; i++)
		for (unsigned int j = 0; j < d->t[i].n; j++)
			if (d->t[i].ran && !d->t[i].restored[j] &&
			    !d->t[i].kept) {
				fprintf(stderr,
					"ibgap doctor: %s's change was not put "
					"back (see the report)\n",
					d->t[i].id);
				return 1;
			}
	if (*flag)
		return 128 + *flag;
	if (ret && d->note[0])
		fprintf(stderr, "ibgap doctor: %s\n", d->note);
	return ret ? 1 : 0;
}

/* The trials, with this host's journal open around them. */
static int run_trials(struct tryrun *tr)
{
	struct ig_trial_side here = { 0 }, there = { 0 };
	struct ig_trial_local lo;
	struct ig_trial_remote rm;
	struct ig_trial_env e;
	struct ig_journal j = { .fd = -1 };
	volatile sig_atomic_t *flag = ig_cmd_catch_stop();
	bool local = ig_trial_has_changes(tr->d, IG_TRY_HERE);
	char err[4352];
	int ret;

	ret = local ? ig_journal_open(&j, journal_path(tr->o), NULL, err,
				      sizeof(err))
		    : 0;
	if (ret) {
		/* a file that is no journal of ours is a bad --journal */
		fprintf(stderr, "ibgap doctor: %s\n", err);
		return ret == -EINVAL ? 2 : 1;
	}
	ig_trial_local_side(&lo, &j, &here);
	ig_trial_remote_side(&rm, &tr->c, &there);
	env_of(tr, &e, flag);
	e.side[IG_TRY_HERE] = &here;
	e.side[IG_TRY_THERE] = &there;
	ret = ig_trial_run(&e, tr->d);
	if (local) {
		/* whatever a failure left made goes back now */
		if (ig_journal_revert_all(&j, err, sizeof(err)))
			fprintf(stderr, "ibgap doctor: %s\n", err);
		ig_journal_close(&j);
	}
	return status_of(tr->d, ret, flag);
}

static int try_run(struct tryrun *tr)
{
	FILE *plan = tr->o->json || tr->o->outfile ? stderr : stdout;
	char err[512];
	int ret;

	read_from(tr->d);
	if (tr->d->dry_run)
		return write_out(tr->o, tr->d);
	if (ig_trial_has_changes(tr->d, IG_TRY_HERE) &&
	    ig_trial_allowed(tr->d, err, sizeof(err))) {
		fprintf(stderr, "ibgap doctor: %s\n", err);
		return 2;
	}
	ig_try_print_plan(plan, tr->d);
	fputc('\n', plan);
	fflush(plan);
	ret = run_trials(tr);
	if (write_out(tr->o, tr->d))
		return 1;
	return ret;
}

int ig_doctor_try(struct dcli *o)
{
	struct tryrun tr = { .o = o };
	int ret;

	if (o->undo)
		return undo(o);
	tr.d = calloc(1, sizeof(*tr.d));
	if (!tr.d) {
		fprintf(stderr, "ibgap doctor: out of memory\n");
		return 1;
	}
	ret = prepare(&tr);
	if (!ret)
		ret = try_run(&tr);
	if (tr.connected)
		ig_run_bye(&tr.c, true, false);
	ig_inv_free(tr.inv);
	ig_dr_report_free(&tr.here);
	ig_dr_report_free(&tr.there);
	free(tr.d);
	return ret;
}
