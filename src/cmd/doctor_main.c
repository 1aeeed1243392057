// SPDX-License-Identifier: MIT
/* "ibgap doctor [HOST] [options]": this host's findings and, when HOST
 * runs "ibgap server", that host's too. */
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "doctor_try.h"
#include "tune/journal.h"
#include "common/opttab.h"
#include "common/params.h"
#include "common/testopt.h"
#include "doctor/doctor.h"
#include "doctor/remote.h"
#include "report/report.h"
#include "wire/ctrl.h"
#include "host/sysinfo.h"

static int root_opt(struct ig_optparse *ps, const struct ig_opt *r,
		    const char *arg, char *err, size_t errlen)
{
	struct dcli *o = ps->obj[0];
	struct stat st;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode))
		return ig_fail(-EINVAL, err, errlen,
			       "--root: '%s' is not a directory", arg);
	o->root = arg;
	return 0;
}

/* --try [IDS|all]: the next word is IDS unless it is an option; with no
 * other word it is HOST after all (options() sorts that out). */
static int try_opt(struct ig_optparse *ps, const struct ig_opt *r,
		   const char *arg, char *err, size_t errlen)
{
	struct dcli *o = ps->obj[0];

	o->try_given = true;
	o->try_ids = "all";
	if (!arg && optind < ps->argc && ps->argv[optind][0] != '-') {
		arg = ps->argv[optind++];
		o->ids_next = true;
	}
	if (arg && ig_opt_list_check(r, arg, err, errlen))
		return -EINVAL;
	if (arg)
		o->try_ids = arg;
	return 0;
}

#define D(member) .obj = 0, IG_OPT_AT(struct dcli, member)

static const char *const formats[] = { "text", "json", NULL };

/* clang-format off */
static const struct ig_opt rows[] = {
	IG_CLI_PORT_ROW(struct dcli, "server's control port (default 18515)"),
	{ "format", 0, IG_OPT_ENUM, D(json), .names = formats,
	  .what = "a format", .arg = "FMT",
	  .help = "text or json (default text)" },
	{ "root", 0, IG_OPT_STRING, .call = root_opt, .arg = "DIR",
	  .help = "read /sys and /proc under DIR (tests)" },
	{ "window", 0, IG_OPT_SIZE, D(window), .lo = 1, .hi = IG_MAX_WINDOW,
	  .arg = "BYTES", .help = "the --window you intend to use" },
	{ "timeout", 0, IG_OPT_SECS, D(timeout_ms), .lo = IG_MIN_TIMEOUT_S,
	  .hi = IG_MAX_TIMEOUT_S, .unit = 1000000, .arg = "SECS",
	  .help = "deadline of every control read (10)" },
	{ "auth-file", 0, IG_OPT_STRING, D(auth_file), .arg = "FILE",
	  .help = "shared secret of HOST's 'ibgap server --auth-file' (mode "
		  "600, 16 to 4096 bytes)" },
	{ "try", 0, IG_OPT_LIST, .optional = true, .call = try_opt,
	  .arg = "[IDS|all]",
	  .help = "apply each finding's fix (comma-separated ids, default "
		  "all) on its side, measure tcp_bw and tcp_lat, put it "
		  "back; needs root on the side changed" },
	{ "dry-run", 0, IG_OPT_FLAG, D(dry_run),
	  .help = "print the plan of --try (every change and its reverse) "
		  "and measure nothing" },
	{ "keep", 0, IG_OPT_FLAG, D(keep),
	  .help = "with --try: leave the fixes that helped made" },
	{ "journal", 0, IG_OPT_STRING, D(journal), .arg = "FILE",
	  .help = "this host's journal of changes (default "
		  IG_JOURNAL_DEFAULT ")" },
	{ "undo", 0, IG_OPT_FLAG, D(undo),
	  .help = "put back the changes a pending journal holds (after a "
		  "crash) and remove it" },
	{ "ctrl", 0, IG_OPT_STRING, D(ctrl), .arg = "ADDR",
	  .help = "with --try: the control connection goes to ADDR (another "
		  "address of the server, on another interface) and the "
		  "measurements to HOST, so that MTU and IPoIB-mode fixes "
		  "of HOST's interface can be tried" },
	{ "output", 'o', IG_OPT_STRING, D(outfile), .arg = "FILE",
	  .help = "write --try's report to FILE" },
	{ .ref = IG_TESTOPT(DURATION),
	  .help = "measured interval of each --try run (default 2)" },
	{ .ref = IG_TESTOPT(WARMUP),
	  .help = "excluded warm-up before each --try run (0.5)" },
	IG_TESTOPT_ROW(REPEAT),
	IG_TESTOPT_ROW(CONFIDENCE),
};
/* clang-format on */

static void usage(FILE *f)
{
	fputs("usage: ibgap doctor [HOST] [options]\n"
	      "Explains what holds TCP (IPoIB, RoCE netdev) below verbs on "
	      "this host and,\nwhen HOST runs 'ibgap server', on HOST too.  HOST: a name or "
	      "address,\nHOST:PORT, [IPV6] or [IPV6]:PORT.\n",
	      f);
	ig_opt_usage(f, rows, sizeof(rows) / sizeof(*rows));
}

/* 0, 1 after --help, -EINVAL with one line in err. */
static int parse(int argc, char **argv, struct dcli *o, char *err,
		 size_t errlen)
{
	struct ig_optparse ps = { .rows = rows,
				  .nrows = sizeof(rows) / sizeof(*rows),
				  .obj = { o } };
	struct ig_testopts t;
	int ret;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = IG_DEFAULT_TIMEOUT_MS;
	ig_params_default(&o->p);
	ig_local_opts_default(&o->local);
	o->rep.runs = IG_TRY_DEFAULT_REPEAT;
	t = (struct ig_testopts){ .p = &o->p,
				  .local = &o->local,
				  .rep = &o->rep };
	ig_testopt_bind(&ps, &t);
	ret = ig_opt_parse(&ps, argc, argv, err, errlen);
	if (ret)
		return ret;
	/* "--try HOST": the word was HOST */
	if (o->ids_next && !ps.npositional) {
		ps.positional[ps.npositional++] = o->try_ids;
		o->try_ids = "all";
	}
	ret = ig_doctor_try_check(&ps, o, err, errlen);
	if (ret)
		return ret;
	if (ps.npositional > 1)
		return ig_fail(-EINVAL, err, errlen,
			       "doctor takes one HOST, got '%s' and also "
			       "'%s'",
			       ps.positional[0], ps.positional[1]);
	if (ps.npositional)
		return ig_cli_hostport("HOST", ps.positional[0], &o->hp,
				       &o->host, &o->port, err, errlen);
	return 0;
}

/* -1 to go on with cl, else the exit status: 0 after --help, 2 after a
 * bad option (one line on stderr). */
static int options(int argc, char **argv, struct dcli *cl)
{
	char err[PATH_MAX + 256]; /* --root names a directory */
	int ret = parse(argc, argv, cl, err, sizeof(err));

	if (ret == 1)
		return usage(stdout), 0;
	if (ret) {
		fprintf(stderr, "ibgap doctor: %s\n", err);
		return 2;
	}
	return -1;
}

/* HOST's findings in rm, and in addr the address to check the local path
 * to.  0, 1 when HOST cannot be resolved, 2 when --auth-file is refused
 * (one line on stderr). */
static int remote(const struct dcli *cl, const char *port,
		  struct ig_dr_remote *rm, char *addr, size_t len)
{
	struct ig_auth_key key;
	char err[512];

	if (cl->auth_file &&
	    ig_auth_load(cl->auth_file, &key, err, sizeof(err))) {
		fprintf(stderr, "ibgap doctor: %s\n", err);
		return 2;
	}
	ig_dr_remote_fetch(cl->host, port, cl->timeout_ms, cl->window,
			   cl->auth_file ? &key : NULL, rm);
	if (cl->auth_file)
		ig_auth_wipe(&key);
	if (rm->peer_addr[0])
		snprintf(addr, len, "%s", rm->peer_addr);
	else if (ig_doctor_resolve(cl->host, addr, len))
		return 1;
	return 0;
}

int ig_cmd_doctor(int argc, char **argv)
{
	struct ig_dr_opts o = { 0 };
	struct ig_dr_remote rm = { 0 }, *rmp = NULL;
	struct ig_dr_report r;
	char addr[64], port[16];
	struct dcli cl;
	int ret = options(argc, argv, &cl);

	if (ret >= 0)
		return ret;
	signal(SIGPIPE, SIG_IGN);
	if (cl.undo || cl.try_given || cl.dry_run)
		return ig_doctor_try(&cl);
	if (cl.port)
		snprintf(port, sizeof(port), "%s", cl.port);
	else
		snprintf(port, sizeof(port), "%d", IG_DEFAULT_PORT);
	if (cl.host) {
		rmp = &rm;
		ret = remote(&cl, port, &rm, addr, sizeof(addr));
		if (ret)
			return ret;
		o.addr = addr;
		o.rtt_us = rm.rtt_us;
	}
	o.root = cl.root;
	o.window = cl.window;
	ret = ig_dr_run(&o, &r);
	if (ret) {
		fprintf(stderr, "ibgap doctor: cannot run: %s\n",
			strerror(-ret));
		ig_dr_report_free(&rm.r);
		return 1;
	}
	ret = ig_report_doctor(stdout, cl.json, &r, rmp, cl.host, port);
	ig_dr_report_free(&r);
	ig_dr_report_free(&rm.r);
	/* this host's findings stand, HOST's are missing: not a clean run */
	if (!ret && rmp && !rm.ok)
		fprintf(stderr,
			"ibgap doctor: %s port %s was not examined, only this "
			"host: %s\n",
			cl.host, port, rm.err);
	return ret || (rmp && !rm.ok) ? 1 : 0;
}
