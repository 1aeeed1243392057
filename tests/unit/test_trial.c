// SPDX-License-Identifier: MIT
/*
 * Unit tests for doctor --try's plan (src/trial/plan.c), its report
 * (report/try_json.c) and the options that go with it (ibgap doctor's
 * command line refuses them with exit 2 before anything runs).  The
 * findings are written out here, as the doctor would hand them over.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "common/params.h"
#include "run/run.h"
#include "report/try.h"
#include "testmain.h"
#include "trial/trial.h"

static struct ig_dr_finding *add(struct ig_dr_report *r, const char *id)
{
	struct ig_dr_finding *f;

	r->f = realloc(r->f, (r->n + 1) * sizeof(*r->f));
	ck_assert_ptr_nonnull(r->f);
	f = &r->f[r->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->id, sizeof(f->id), "%s", id);
	snprintf(f->fix, sizeof(f->fix), "a fix");
	return f;
}

static void change(struct ig_dr_finding *f, enum ig_tune_kind k,
		   const char *dev, const char *name, const char *to)
{
	struct ig_tune_change *c = &f->trial.c[f->trial.n++];

	c->kind = k;
	snprintf(c->dev, sizeof(c->dev), "%s", dev);
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->to, sizeof(c->to), "%s", to);
}

/* here: a shaper, GRO off, an MTU (down/up), a finding without fix, one
 * whose fix no program tries; there: rmem_max */
static void reports(struct ig_dr_report *here, struct ig_dr_report *there)
{
	struct ig_dr_finding *f;

	memset(here, 0, sizeof(*here));
	memset(there, 0, sizeof(*there));
	change(add(here, "qdisc.shaper"), IG_TUNE_QDISC, "veth0", "root", "");
	change(add(here, "offload.gro.off"), IG_TUNE_FEATURE, "veth0", "gro",
	       "on");
	change(add(here, "ipoib.mtu.low"), IG_TUNE_MTU, "ib0", "", "4092");
	f = add(here, "link.rate");
	f->fix[0] = 0;
	f = add(here, "pcie.downtrained");
	snprintf(f->trial.not_tried, sizeof(f->trial.not_tried),
		 "reseat the card: no program changes PCIe");
	change(add(there, "sock.rmem_max.small"), IG_TUNE_SYSCTL, "",
	       "net.core.rmem_max", "67108864");
}

/* The two reports, a document, and the error line of a plan. */
struct fx {
	struct ig_dr_report here, there;
	struct ig_try_doc *d;
	char err[1024];
};

static void fx_init(struct fx *x)
{
	reports(&x->here, &x->there);
	x->d = calloc(1, sizeof(*x->d));
	ck_assert_ptr_nonnull(x->d);
}

static void fx_free(struct fx *x)
{
	free(x->d);
	free(x->here.f);
	free(x->there.f);
}

/* The plan of ids without --ctrl, no NUMA node, both sides. */
static int plan(struct fx *x, const char *ids)
{
	return ig_trial_plan(x->d, ids, &x->here, &x->there, NULL, false,
			     x->err, sizeof(x->err));
}

static const struct ig_try_item *find(const struct ig_try_doc *d,
				      const char *id, enum ig_try_side s)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->t[i].id, id) && d->t[i].side == s)
			return &d->t[i];
	return NULL;
}

START_TEST(plan_all)
{
	struct ig_dr_report here, there;
	struct ig_try_doc *d = calloc(1, sizeof(*d));
	const struct ig_try_item *t;
	char err[1024], dev[IG_TUNE_DEV_LEN];

	reports(&here, &there);
	ck_assert_int_eq(ig_trial_plan(d, "all", &here, &there, NULL, false,
				       err, sizeof(err)),
			 0);
	/* 4 of here (link.rate has no fix), 1 of there, 3 runs */
	ck_assert_uint_eq(d->n, 8);
	ck_assert_ptr_null(find(d, "link.rate", IG_TRY_HERE));
	t = find(d, "qdisc.shaper", IG_TRY_HERE);
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->n, 1);
	ck_assert_str_eq(t->not_tried, "");
	ck_assert_int_eq(t->cside[0], IG_TRY_HERE);
	t = find(d, "ipoib.mtu.low", IG_TRY_HERE);
	ck_assert_ptr_nonnull(strstr(t->not_tried, "give --ctrl ADDR"));
	t = find(d, "pcie.downtrained", IG_TRY_HERE);
	ck_assert_str_eq(t->not_tried,
			 "reseat the card: no program changes PCIe");
	t = find(d, "sock.rmem_max.small", IG_TRY_THERE);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->cside[0], IG_TRY_THERE);
	ck_assert_int_eq(find(d, "run.streams", IG_TRY_HERE)->kind,
			 IG_TRY_STREAMS);
	ck_assert_str_eq(find(d, "run.window", IG_TRY_HERE)->not_tried, "");
	ck_assert_ptr_nonnull(
		strstr(find(d, "run.numa", IG_TRY_HERE)->not_tried, "NUMA"));
	ck_assert(ig_trial_has_changes(d, IG_TRY_HERE));
	ck_assert(ig_trial_has_changes(d, IG_TRY_THERE));
	/* with --ctrl the MTU is tried */
	ig_trial_plan(d, "all", &here, &there, "", true, err, sizeof(err));
	ck_assert_str_eq(find(d, "ipoib.mtu.low", IG_TRY_HERE)->not_tried, "");
	ck_assert_str_eq(find(d, "run.numa", IG_TRY_HERE)->not_tried, "");
	/* but not when this host's control connection runs over it too */
	snprintf(dev, sizeof(dev), "%s",
		 find(d, "ipoib.mtu.low", IG_TRY_HERE)->c[0].dev);
	ig_trial_plan(d, "all", &here, &there, dev, true, err, sizeof(err));
	ck_assert_ptr_nonnull(strstr(
		find(d, "ipoib.mtu.low", IG_TRY_HERE)->not_tried, "--ctrl"));
	free(d);
	free(here.f);
	free(there.f);
}
END_TEST

START_TEST(plan_ids)
{
	struct fx x;

	fx_init(&x);
	ck_assert_int_eq(plan(&x, "sock.rmem_max.small,run.streams"), 0);
	/* the server's trials last */
	ck_assert_uint_eq(x.d->n, 2);
	ck_assert_str_eq(x.d->t[0].id, "run.streams");
	ck_assert_str_eq(x.d->t[1].id, "sock.rmem_max.small");
	ck_assert(!ig_trial_has_changes(x.d, IG_TRY_HERE));
	/* a finding without a fix, asked for by name: listed, not tried */
	ck_assert_int_eq(plan(&x, "link.rate"), 0);
	ck_assert_uint_eq(x.d->n, 1);
	ck_assert_str_eq(x.d->t[0].not_tried, "the finding has no fix");
	fx_free(&x);
}
END_TEST

/* an unknown id names itself and the ids found; "a,,b" is no id */
START_TEST(plan_unknown_id)
{
	struct fx x;

	fx_init(&x);
	ck_assert_int_eq(plan(&x, "qdisc.shaper,gro"), -EINVAL);
	ck_assert_ptr_nonnull(strstr(x.err, "'gro'"));
	ck_assert_ptr_nonnull(strstr(x.err, "offload.gro.off"));
	ck_assert_ptr_nonnull(strstr(x.err, "sock.rmem_max.small"));
	ck_assert_ptr_nonnull(strstr(x.err, "run.window"));
	ck_assert_ptr_null(strchr(x.err, '\n'));
	ck_assert_int_eq(plan(&x, "qdisc.shaper,,run.window"), -EINVAL);
	/* an id of the server's host alone is unknown without it */
	ck_assert_int_eq(ig_trial_plan(x.d, "sock.rmem_max.small", &x.here,
				       NULL, NULL, false, x.err, sizeof(x.err)),
			 -EINVAL);
	fx_free(&x);
}
END_TEST

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, k, &v), "no '%s'", k);
	return v;
}

/* the document: trials and not_tried apart, restored per change, the
 * verdict and the change with its interval */
START_TEST(doc_json)
{
	struct ig_dr_report here, there;
	struct ig_try_doc *d = calloc(1, sizeof(*d));
	struct ig_try_item *t;
	json_object *o, *tr, *c;
	char err[1024];

	reports(&here, &there);
	ig_trial_plan(d, "qdisc.shaper,pcie.downtrained", &here, &there, NULL,
		      false, err, sizeof(err));
	d->measured = true;
	d->base.ok[IG_TRY_BW] = true;
	d->base.m[IG_TRY_BW] = (struct ig_repeat){
		.n = 2, .mean = 0.2, .ci_lo = 0.19, .ci_hi = 0.21
	};
	t = &d->t[0];
	t->ran = true;
	t->restored[0] = true;
	t->after.ok[IG_TRY_BW] = true;
	t->after.m[IG_TRY_BW] = (struct ig_repeat){
		.n = 2, .mean = 9, .ci_lo = 8.5, .ci_hi = 9.5
	};
	ig_repeat_change(&d->base.m[IG_TRY_BW], &t->after.m[IG_TRY_BW], true,
			 &t->d[IG_TRY_BW]);
	ck_assert(ig_try_helped(t));
	o = ig_try_doc_to_json(d);
	ck_assert_str_eq(json_object_get_string(get(o, "schema")),
			 "ibgap-try/1");
	ck_assert_int_eq(json_object_array_length(get(o, "not_tried")), 1);
	tr = json_object_array_get_idx(get(o, "trials"), 0);
	ck_assert_str_eq(json_object_get_string(get(tr, "verdict")), "helps");
	c = json_object_array_get_idx(get(tr, "changes"), 0);
	ck_assert(json_object_get_boolean(get(c, "restored")));
	c = get(get(tr, "change_pct"), "tcp_bw");
	ck_assert_double_eq_tol(json_object_get_double(get(c, "pct")), 4400,
				1e-6);
	ck_assert_double_lt(json_object_get_double(get(c, "ci_low")), 4400);
	ck_assert(json_object_is_type(get(o, "ceiling"), json_type_null));
	json_object_put(o);
	free(d);
	free(here.f);
	free(there.f);
}
END_TEST

/* the snippets: only the fixes that helped, each in its place */
START_TEST(snippets)
{
	struct ig_try_doc *d = calloc(1, sizeof(*d));
	struct ig_change helps = { .verdict = IG_VERDICT_HELPS },
			 none = { .verdict = IG_VERDICT_NONE };
	const char *const ids[] = { "sock.tcp_rmem.small", "offload.gro.off",
				    "sock.cc" };
	const struct ig_tune_change ch[] = {
		{ .kind = IG_TUNE_SYSCTL,
		  .name = "net.ipv4.tcp_rmem",
		  .to = "4096 131072 8388608" },
		{ .kind = IG_TUNE_FEATURE,
		  .dev = "ib0",
		  .name = "gro",
		  .to = "on" },
		{ .kind = IG_TUNE_SYSCTL,
		  .name = "net.ipv4.tcp_congestion_control",
		  .to = "bbr" },
	};

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(d);
	for (int i = 0; i < 3; i++) {
		struct ig_try_item *t = &d->t[d->n++];

		snprintf(t->id, sizeof(t->id), "%s", ids[i]);
		t->n = 1;
		t->c[0] = ch[i];
		t->ran = true;
		t->after.ok[IG_TRY_BW] = true;
		t->d[IG_TRY_BW] = i < 2 ? helps : none;
	}
	d->t[1].side = IG_TRY_THERE;
	ig_try_print_snippets(f, d);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(
		buf, "90-ibgap.conf:\n  # this host\n  net.ipv4.tcp_rmem "
		     "= 4096 131072 8388608\n"));
	ck_assert_ptr_nonnull(strstr(
		buf, "  # server\n  [net_ib0]\n  type=net\n  devices=ib0\n"
		     "  features=gro on\n"));
	ck_assert_ptr_nonnull(strstr(buf, "ethtool -K ib0 gro on    # server"));
	/* no effect: not kept */
	ck_assert_ptr_null(strstr(buf, "bbr"));
	free(buf);
	free(d);
}
END_TEST

/* ---- the run (ig_trial_run) against an in-process server, over
 * loopback, with sides that change nothing and count ---- */

struct fake {
	struct ig_trial_side *side;
	unsigned int applies, reverts, made; /* made: changes not put back */
	unsigned int fail_at; /* the apply that fails (1-based), 0 none */
	bool refuse;
};

static int fake_apply(void *ctx, struct ig_tune_change *c, unsigned int n,
		      char *err, size_t len)
{
	struct fake *f = ctx;

	f->applies++;
	if (f->refuse) {
		snprintf(f->side->refused, sizeof(f->side->refused), "no");
		return -EPERM;
	}
	if (f->applies == f->fail_at) {
		snprintf(err, len, "cannot set %s", c[0].name);
		return -EIO;
	}
	for (unsigned int i = 0; i < n; i++)
		snprintf(c[i].from, sizeof(c[i].from), "old");
	f->made += n;
	return 0;
}

static int fake_revert(void *ctx, bool keep, bool *restored, char *err,
		       size_t len)
{
	struct fake *f = ctx;

	f->reverts++;
	for (unsigned int i = 0; i < f->made; i++)
		restored[i] = !keep;
	if (!keep)
		f->made = 0;
	return 0;
}

static void fake_side(struct fake *f, struct ig_trial_side *s)
{
	*s = (struct ig_trial_side){ .apply = fake_apply,
				     .revert = fake_revert,
				     .ctx = f };
	f->side = s;
}

static struct ig_try_item *item(struct ig_try_doc *d, const char *id,
				enum ig_try_side side, enum ig_try_kind kind)
{
	struct ig_try_item *t = &d->t[d->n];

	memset(t, 0, sizeof(*t));
	t->seq = (unsigned int)d->n++;
	snprintf(t->id, sizeof(t->id), "%s", id);
	t->side = side;
	t->kind = kind;
	if (kind == IG_TRY_TUNE) {
		t->n = 1;
		t->cside[0] = side;
		t->c[0].kind = IG_TUNE_SYSCTL;
		snprintf(t->c[0].name, sizeof(t->c[0].name), "net.x.%s", id);
	}
	return t;
}

static struct ig_try_item *by_id(struct ig_try_doc *d, const char *id)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->t[i].id, id))
			return &d->t[i];
	ck_abort_msg("no trial %s", id);
	return NULL;
}

/* The server, the connection and the env of a run. */
struct rig {
	struct ig_run_server s;
	struct ig_ctrl c;
	struct ig_trial_env e;
	struct ig_trial_side here, there;
	struct fake fh, ft;
	struct ig_try_doc *d;
	volatile sig_atomic_t flag;
};

static void rig_up(struct rig *r)
{
	struct ig_server_opts so = { .bind = "127.0.0.1",
				     .port = "0",
				     .timeout_ms = 10000 };
	char port[16], err[512];
	struct ig_run_peer peer = { .host = "127.0.0.1",
				    .port = port,
				    .timeout_ms = 10000 };
	struct ig_sysinfo a, b;

	memset(r, 0, sizeof(*r));
	ck_assert_msg(!ig_run_server_start(&r->s, &so, err, sizeof(err)), "%s",
		      err);
	snprintf(port, sizeof(port), "%d", ig_run_server_port(&r->s));
	ck_assert_msg(!ig_run_connect(&peer, &r->c, &a, &b, err, sizeof(err)),
		      "%s", err);
	fake_side(&r->fh, &r->here);
	fake_side(&r->ft, &r->there);
	ig_params_default(&r->e.ro.p);
	r->e.ro.p.duration_ns = 0;
	r->e.ro.p.iterations = 200;
	r->e.ro.p.warmup_ns = 0;
	r->e.ro.p.timeout_ms = 10000;
	ig_local_opts_default(&r->e.ro.local);
	r->e.ro.local.interrupt = &r->flag;
	r->e.ro.rep.runs = 2;
	r->e.ro.quiet = true;
	r->e.c = &r->c;
	r->e.side[IG_TRY_HERE] = &r->here;
	r->e.side[IG_TRY_THERE] = &r->there;
	snprintf(r->e.no_ceiling, sizeof(r->e.no_ceiling), "loopback");
	r->d = calloc(1, sizeof(*r->d));
	ck_assert_ptr_nonnull(r->d);
}

static void rig_down(struct rig *r)
{
	ig_run_bye(&r->c, true, true);
	ig_run_server_stop(&r->s);
	free(r->d);
}

/* every trial measured and put back; a failed apply leaves nothing made
 * and the run goes on; a refusal lists the server's side as not allowed */
START_TEST(run_flow)
{
	struct rig r;
	struct ig_try_item *t;

	rig_up(&r);
	item(r.d, "a.ok", IG_TRY_HERE, IG_TRY_TUNE);
	item(r.d, "b.fails", IG_TRY_HERE, IG_TRY_TUNE);
	item(r.d, "run.streams", IG_TRY_HERE, IG_TRY_STREAMS);
	item(r.d, "c.there", IG_TRY_THERE, IG_TRY_TUNE);
	item(r.d, "d.there", IG_TRY_THERE, IG_TRY_TUNE);
	r.fh.fail_at = 2;
	r.ft.refuse = true;
	ck_assert_int_eq(ig_trial_run(&r.e, r.d), 0);
	ck_assert(r.d->measured);
	ck_assert(r.d->base.ok[IG_TRY_BW] && r.d->base.ok[IG_TRY_LAT]);
	ck_assert_uint_eq(r.d->base.m[IG_TRY_BW].n, 2);
	t = by_id(r.d, "a.ok");
	ck_assert(t->ran && t->after.ok[IG_TRY_BW] && t->restored[0]);
	ck_assert_str_eq(t->c[0].from, "old");
	t = by_id(r.d, "b.fails");
	ck_assert(!t->ran);
	ck_assert_str_eq(t->error, "cannot set net.x.b.fails");
	ck_assert(!t->after.ok[IG_TRY_BW]);
	t = by_id(r.d, "run.streams");
	ck_assert(t->after.ok[IG_TRY_BW] && !t->after.ok[IG_TRY_LAT]);
	ck_assert_str_eq(by_id(r.d, "c.there")->not_tried,
			 "not allowed by the server: no");
	ck_assert_str_eq(by_id(r.d, "d.there")->not_tried,
			 "not allowed by the server: no");
	/* one TRY asked, the refusal remembered */
	ck_assert_uint_eq(r.ft.applies, 1);
	ck_assert_uint_eq(r.fh.made, 0);
	/* a.ok, b.fails, and the combined when a.ok helped */
	ck_assert_uint_eq(r.fh.reverts + 1, r.fh.applies);
	ck_assert_str_eq(r.d->ceiling_why, "loopback");
	rig_down(&r);
}
END_TEST

/* SIGTERM before the run: nothing applied, the note says so */
START_TEST(run_interrupted)
{
	struct rig r;

	rig_up(&r);
	item(r.d, "a.ok", IG_TRY_HERE, IG_TRY_TUNE);
	r.flag = SIGTERM;
	ck_assert_int_eq(ig_trial_run(&r.e, r.d), -EINTR);
	ck_assert_ptr_nonnull(strstr(r.d->note, "interrupted (SIGTERM)"));
	ck_assert_uint_eq(r.fh.applies, 0);
	ck_assert_uint_eq(r.fh.made, 0);
	rig_down(&r);
}
END_TEST

/* ibgap doctor's --try options: refused with 2 before anything runs */
static const char *const bad_words[][6] = {
	{ "doctor", "--keep", NULL },
	{ "doctor", "127.0.0.1", "--repeat", "2", NULL },
	{ "doctor", "--try", NULL },
	{ "doctor", "--try", "all", "--undo", NULL },
	{ "doctor", "--journal", "/tmp/j", NULL },
	{ "doctor", "127.0.0.1", "--try", "-o", "/nonexistent/dir/x", NULL },
	{ "doctor", "127.0.0.1", "--try", "a,,b", NULL },
};

START_TEST(options_refused)
{
	char buf[6][64], *argv[7] = { 0 };
	int argc = 0;

	for (; bad_words[_i][argc]; argc++) {
		snprintf(buf[argc], sizeof(buf[argc]), "%s",
			 bad_words[_i][argc]);
		argv[argc] = buf[argc];
	}
	ck_assert_int_eq(ig_cmd_doctor(argc, argv), 2);
}
END_TEST

static Suite *trial_suite(void)
{
	Suite *s = suite_create("trial");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, plan_all);
	tcase_add_test(tc, plan_ids);
	tcase_add_test(tc, plan_unknown_id);
	tcase_add_test(tc, doc_json);
	tcase_add_test(tc, snippets);
	tcase_add_loop_test(tc, options_refused, 0,
			    sizeof(bad_words) / sizeof(*bad_words));
	suite_add_tcase(s, tc);
	tc = tcase_create("run");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, run_flow);
	tcase_add_test(tc, run_interrupted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(trial_suite());
}
