// SPDX-License-Identifier: MIT
/* Command-line parsing of "ibgap client" and "ibgap server". */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "host/rails.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/opttab.h"
#include "common/repeat.h"
#include "common/testopt.h"
#include "plot/plot.h"
#include "transports/transports.h"

int ig_cli_hostport(const char *what, const char *arg, struct ig_hostport *hp,
		    const char **host, const char **port, char *err,
		    size_t errlen)
{
	if (ig_hostport_split(arg, hp))
		return ig_fail(
			-EINVAL, err, errlen,
			"%s '%s' is not a server address: allowed " IG_HOSTPORT_FORMS,
			what, arg);
	if (hp->port[0] && *port &&
	    ig_port_parse(*port) != ig_port_parse(hp->port))
		return ig_fail(-EINVAL, err, errlen,
			       "%s '%s' says port %s, -p says %s: give the "
			       "port once",
			       what, arg, hp->port, *port);
	*host = hp->host;
	if (hp->port[0])
		*port = hp->port;
	return 0;
}

static const char *const zc_modes[] = {
	[IG_ZC_OFF] = "off",
	[IG_ZC_ON] = "on",
	[IG_ZC_BOTH] = "both",
	NULL,
};

static int zc_mode(const char *arg)
{
	for (int i = 0; zc_modes[i]; i++)
		if (!strcmp(arg, zc_modes[i]))
			return i;
	return -EINVAL;
}

static int zc_fail(const char *arg, char *err, size_t errlen)
{
	return ig_fail(-EINVAL, err, errlen,
		       "--zerocopy: '%s' is not a mode: allowed on (the "
		       "same as no value), off, both",
		       arg);
}

/*
 * --zerocopy[=MODE] or --zerocopy MODE: the next word is taken when it
 * is a mode; another word is left as HOST, and remembered in *word so
 * that a second HOST that is that word is blamed on --zerocopy.
 */
static int zerocopy_opt(struct ig_optparse *ps, const struct ig_opt *r,
			const char *arg, char *err, size_t errlen)
{
	struct ig_client_opts *o = ps->obj[IG_TO_CMD];
	int m;

	if (!arg && optind < ps->argc && zc_mode(ps->argv[optind]) >= 0)
		arg = ps->argv[optind++];
	else if (!arg && optind < ps->argc && ps->argv[optind][0] != '-')
		ps->held = ps->argv[optind];
	m = arg ? zc_mode(arg) : IG_ZC_ON;
	if (m < 0)
		return zc_fail(arg, err, errlen);
	o->local.sock.zerocopy = (enum ig_zc_mode)m;
	return 0;
}

static const char *const rails_modes[] = { "each", "together", NULL };

/* --rails, --rails=LIST or --rails LIST (the next word that is no
 * option; when it is the only one, HOST: client_host gives it back). */
static int rails_opt(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen)
{
	struct ig_client_opts *o = ps->obj[IG_TO_CMD];

	(void)r;
	o->rails = true;
	o->rails_word = false;
	if (!arg && optind < ps->argc && ps->argv[optind][0] != '-') {
		arg = ps->argv[optind++];
		o->rails_word = true;
	}
	return ig_rails_list_arg(arg, &o->rails_list, err, errlen);
}

/* --rails-cpu CPUS: one CPU per rail, each one this process may run on. */
static int rails_cpu_opt(struct ig_optparse *ps, const struct ig_opt *r,
			 const char *arg, char *err, size_t errlen)
{
	struct ig_client_opts *o = ps->obj[IG_TO_CMD];
	const char *p = arg;
	char *end;

	(void)r;
	o->nrails_cpu = 0;
	do {
		long c = strtol(p, &end, 10);
		char one[24];

		if (end == p || (*end && *end != ',') || c < 0 ||
		    o->nrails_cpu >= IG_RAILS_CPU_MAX)
			return ig_fail(-EINVAL, err, errlen,
				       "--rails-cpu: '%s' is not a list of "
				       "CPUs, one per rail (at most %d): "
				       "allowed e.g. 0,8",
				       arg, IG_RAILS_CPU_MAX);
		snprintf(one, sizeof(one), "%ld", c);
		if (ig_testopt_cpu_check("--rails-cpu", one, (int)c, err,
					 errlen))
			return -EINVAL;
		o->rails_cpu[o->nrails_cpu++] = (int)c;
		p = end + 1;
	} while (*end);
	return 0;
}

/* A sweep that doubles from A to last never meets its B, hi: refused,
 * with the two ends it could have. */
static int sweep_end(const char *arg, uint64_t last, uint64_t hi, char *err,
		     size_t errlen)
{
	char a[32], b[40] = "", h[32];

	if (last == hi)
		return 0;
	ig_size_str(last, a, sizeof(a));
	if (last * 2 <= IG_MAX_SIZE) {
		strcpy(b, " or ");
		ig_size_str(last * 2, b + 4, sizeof(b) - 4);
	}
	ig_size_str(hi, h, sizeof(h));
	return ig_fail(-EINVAL, err, errlen,
		       "-s: '%s' never reaches %s: a sweep doubles from "
		       "SMALL, so end it at %s%s",
		       arg, h, a, b);
}

/* A sweep "A:B": powers of two from A to B. */
static int size_range(const struct ig_opt *r, const char *arg, char *colon,
		      struct ig_client_opts *o, char *err, size_t errlen)
{
	double lo, hi;

	*colon = 0;
	if (ig_testopt_list_value(r, arg, o->sizes_buf, &lo, err, errlen) ||
	    ig_testopt_list_value(r, arg, colon + 1, &hi, err, errlen))
		return -EINVAL;
	if (lo > hi)
		return ig_fail(-EINVAL, err, errlen,
			       "-s: '%s' runs backwards: give SMALL:LARGE",
			       arg);
	o->nsizes = 0;
	for (uint64_t v = (uint64_t)lo; v <= (uint64_t)hi; v *= 2) {
		if (o->nsizes == IG_MAX_SIZES)
			return ig_fail(-EINVAL, err, errlen,
				       "-s: '%s' gives more than %d sizes", arg,
				       IG_MAX_SIZES);
		o->sizes[o->nsizes++] = v;
	}
	return sweep_end(arg, o->sizes[o->nsizes - 1], (uint64_t)hi, err,
			 errlen);
}

/* -s SIZE, -s A,B,C or -s A:B; p.size is the first */
static int sizes_opt(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen)
{
	struct ig_client_opts *o = ps->obj[IG_TO_CMD];
	char *tok, *save = NULL, *colon;
	double v;

	if (strlen(arg) >= sizeof(o->sizes_buf))
		return ig_fail(-EINVAL, err, errlen,
			       "-s: the list is too long (%zu characters)",
			       strlen(arg));
	if (ig_opt_list_check(r, arg, err, errlen))
		return -EINVAL;
	strcpy(o->sizes_buf, arg);
	o->size_given = true;
	colon = strchr(o->sizes_buf, ':');
	if (colon && size_range(r, arg, colon, o, err, errlen))
		return -EINVAL;
	if (colon)
		return o->p.size = o->sizes[0], 0;
	o->nsizes = 0;
	for (tok = strtok_r(o->sizes_buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->nsizes == IG_MAX_SIZES)
			return ig_fail(-EINVAL, err, errlen,
				       "-s: more than %d sizes in '%s'",
				       IG_MAX_SIZES, arg);
		if (ig_testopt_list_value(r, arg, tok, &v, err, errlen))
			return -EINVAL;
		o->sizes[o->nsizes++] = (uint64_t)v;
	}
	if (!o->nsizes)
		return ig_fail(-EINVAL, err, errlen, "-s: no size in '%s'",
			       arg);
	o->p.size = o->sizes[0];
	return 0;
}

/* --also ADDR: a numeric IPv4 or IPv6 address ([IPV6] too), :PORT or
 * not (else HOST's port), the column "tcp@ADDR" (no port). */
static int also_opt(struct ig_optparse *ps, const struct ig_opt *r,
		    const char *arg, char *err, size_t errlen)
{
	struct ig_client_opts *o = ps->obj[IG_TO_CMD];
	unsigned char buf[sizeof(struct in6_addr)];

	o->also_port = NULL;
	if (ig_cli_hostport("--also", arg, &o->also_addr, &o->also,
			    &o->also_port, err, errlen))
		return -EINVAL;
	if (inet_pton(AF_INET, o->also, buf) != 1 &&
	    inet_pton(AF_INET6, o->also, buf) != 1)
		return ig_fail(-EINVAL, err, errlen,
			       "--also: '%s' is not an address: allowed a "
			       "numeric IPv4 or IPv6 address of the "
			       "server, :PORT or not (e.g. 192.0.2.7, "
			       "[2001:db8::7]:18515)",
			       arg);
	snprintf(o->also_label, sizeof(o->also_label), "tcp@%s", o->also);
	return 0;
}

#define C(member) .obj = IG_TO_CMD, IG_OPT_AT(struct ig_client_opts, member)

/* The client's options, in the order of its --help. */
/* clang-format off */
static const struct ig_opt client_rows[] = {
	IG_CLI_PORT_ROW(struct ig_client_opts,
			"server's control port (default 18515)"),
	IG_TESTOPT_ROW(TESTS),
	{ "size", 's', IG_OPT_SIZE, .lo = 1, .hi = IG_MAX_SIZE,
	  .call = sizes_opt, .arg = "SIZES",
	  .help = "message size, K/M/G suffixes = powers of 2 (64K = 64 "
		  "KiB); a list 64,4K,64K or a sweep 2:8M (doubling from the "
		  "first to the last) (default 64K for bandwidth, 2 for "
		  "latency)" },
	IG_TESTOPT_ROW(DURATION),
	IG_TESTOPT_ROW(ITERATIONS),
	IG_TESTOPT_ROW(WARMUP),
	IG_TESTOPT_ROW(STREAMS),
	IG_TESTOPT_ROW(BIDIR),
	IG_TESTOPT_ROW(REVERSE),
	{ .ref = IG_XPORT_WINDOW_ROW },
	{ "zerocopy", 0, IG_OPT_ENUM, .optional = true, .names = zc_modes,
	  .call = zerocopy_opt, .arg = "[both]",
	  .help = "tcp_bw's sender, this host (so not with -R), uses "
		  "MSG_ZEROCOPY; both: a copying and a zero-copy run, side by "
		  "side" },
	{ "also", 0, IG_OPT_STRING, .call = also_opt, .arg = "ADDR",
	  .help = "run the tcp tests again against ADDR, another address of "
		  "the server (e.g. its Ethernet port): one more column, "
		  "tcp@ADDR; ADDR:PORT or [IPV6]:PORT (default: HOST's "
		  "port)" },
	{ "rails", 0, IG_OPT_STRING, .optional = true, .call = rails_opt,
	  .arg = "[all|LIST]",
	  .help = "each ACTIVE RDMA port of this host (all, or LIST: its "
		  "devices, rxe0,rxe1) against the server's port on its "
		  "subnet (else of its index): verbs and TCP per rail, the odd "
		  "rails flagged" },
	{ "rails-mode", 0, IG_OPT_ENUM, C(rails_mode), .names = rails_modes,
	  .what = "a mode", .arg = "MODE",
	  .help = "with --rails: each (default: each rail in turn) or "
		  "together (then every rail at once)" },
	{ "rails-cpu", 0, IG_OPT_STRING, .call = rails_cpu_opt, .arg = "CPUS",
	  .help = "with --rails: rail i's client threads (verbs and TCP) on "
		  "the i-th CPU of the list, one per rail (default: each "
		  "rail's HCA's local CPUs)" },
	IG_XPORT_OPT_ROWS,
	IG_TESTOPT_ROW(CPU),
	IG_TESTOPT_ROW(TIMEOUT),
	{ "format", 0, IG_OPT_ENUM, C(format), .names = ig_format_names,
	  .what = "a format", .arg = "FMT",
	  .help = "text, json, csv or openmetrics (default text)" },
	{ "output", 'o', IG_OPT_STRING, C(outfile), .arg = "FILE",
	  .help = "write the report to FILE" },
	IG_TESTOPT_ROW(REPEAT),
	IG_TESTOPT_ROW(CONFIDENCE),
	{ "plot", 0, IG_OPT_STRING, C(plot), .arg = "FILE",
	  .help = "bandwidth and latency against size, .svg/.png" },
	{ "save-baseline", 0, IG_OPT_STRING, C(save_baseline), .arg = "F",
	  .help = "save the JSON report with both hosts' fingerprints to F" },
	{ "baseline", 0, IG_OPT_STRING, C(baseline), .arg = "F",
	  .help = "compare with the saved F; exit 1 when a metric is worse "
		  "than --tolerance" },
	{ "tolerance", 0, IG_OPT_DOUBLE, C(tolerance), .lo = 0, .hi = 1000,
	  .what = "a percentage", .arg = "PCT",
	  .help = "with --baseline: a metric worse by more than PCT percent "
		  "is a regression (default 5)" },
	{ "auth-file", 0, IG_OPT_STRING, C(auth_file), .arg = "FILE",
	  .help = "prove to the server that this host holds the shared "
		  "secret in FILE (the server's --auth-file; mode 600, 16 to "
		  "4096 bytes) and make the server prove it too" },
};
/* clang-format on */

void ig_cli_client_usage(FILE *f)
{
	fputs("usage: ibgap client HOST [options]\n"
	      "HOST: a name or address, HOST:PORT, [IPV6] or [IPV6]:PORT\n",
	      f);
	ig_opt_usage(f, client_rows,
		     sizeof(client_rows) / sizeof(*client_rows));
}

void ig_cli_local_usage(FILE *f)
{
	fputs("usage: ibgap [options]\n"
	      "The client against a server of its own on this machine: verbs "
	      "and TCP\n"
	      "over its first active RDMA port's address, else TCP alone over "
	      "loopback.\n"
	      "The client's options but -p, --also and --auth-file:\n",
	      f);
	ig_opt_usage(f, client_rows,
		     sizeof(client_rows) / sizeof(*client_rows));
}

static bool has_test(const struct ig_client_opts *o, enum ig_test t)
{
	for (unsigned int i = 0; i < o->ntests; i++)
		if (o->tests[i] == t)
			return true;
	return false;
}

/* The files written at the end, checked before the first test. */
static int client_paths(const struct ig_client_opts *o, char *err,
			size_t errlen)
{
	const struct ig_file_out out[] = {
		{ "--plot", o->plot },
		{ "-o", o->outfile },
		{ "--save-baseline", o->save_baseline },
	};

	if (o->plot && ig_plot_format(o->plot, err, errlen) < 0)
		return -EINVAL;
	return ig_file_check_outs(out, sizeof(out) / sizeof(*out), err, errlen);
}

/* Options that would do nothing in this run: refused. */
static int client_unused(const struct ig_optparse *ps,
			 const struct ig_client_opts *o, char *err,
			 size_t errlen)
{
	if (ig_opt_needs(ps, "tolerance", "baseline", err, errlen))
		return -EINVAL;
	if (o->tests_given &&
	    ig_xport_opts_check(ps, o->tests, o->ntests, err, errlen))
		return -EINVAL;
	return 0;
}

/* --rails and what cannot go with it. */
static int rails_check(const struct ig_optparse *ps,
		       const struct ig_client_opts *o, char *err, size_t errlen)
{
	const char *other = ig_opt_given(ps, "device")	  ? "--device"
			    : ig_opt_given(ps, "ib-port") ? "--ib-port"
			    : o->also			  ? "--also"
			    : o->plot			  ? "--plot"
							  : NULL;

	if (ig_opt_needs(ps, "rails-mode", "rails", err, errlen) ||
	    ig_opt_needs(ps, "rails-cpu", "rails", err, errlen))
		return -EINVAL;
	if (o->nrails_cpu && ig_opt_given(ps, "cpu"))
		return ig_fail(-EINVAL, err, errlen,
			       "--rails-cpu with --cpu: --cpu puts every "
			       "rail's threads on one CPU, --rails-cpu each "
			       "rail's on its own: leave out one");
	if (!o->rails)
		return 0;
	if (other)
		return ig_fail(-EINVAL, err, errlen,
			       "--rails with %s: --rails runs each rail's "
			       "own device and address (to choose devices: "
			       "--rails DEV,DEV): leave out %s",
			       other, other);
	if (o->format == IG_FMT_CSV || o->format == IG_FMT_OPENMETRICS)
		return ig_fail(-EINVAL, err, errlen,
			       "--rails with --format %s: it has no place "
			       "for the rail: allowed text or json",
			       ig_format_names[o->format]);
	return 0;
}

static int client_finish(const struct ig_optparse *ps, struct ig_client_opts *o,
			 bool iters_given, char *err, size_t errlen)
{
	char why[256];

	const struct ig_testopt_lists *l = &o->lists;
	unsigned int combos = o->nsizes * l->nstreams * l->nwindows;
	struct ig_params p;

	if (o->local.sock.zerocopy != IG_ZC_OFF && !has_test(o, IG_TEST_TCP_BW))
		return ig_fail(-EINVAL, err, errlen,
			       "--zerocopy %s: it is tcp_bw's sender, and "
			       "-t has no tcp_bw: add it",
			       zc_modes[o->local.sock.zerocopy]);
	if (o->local.sock.zerocopy != IG_ZC_OFF && o->p.reverse)
		return ig_fail(-EINVAL, err, errlen,
			       "--zerocopy %s with -R: in a -R run the "
			       "server sends, and only the client sends "
			       "zero-copy: leave out one",
			       zc_modes[o->local.sock.zerocopy]);
	if (o->also && o->tests_given && !has_test(o, IG_TEST_TCP_BW) &&
	    !has_test(o, IG_TEST_TCP_LAT))
		return ig_fail(-EINVAL, err, errlen,
			       "--also %s: it runs the tcp tests again, "
			       "and -t has neither tcp_bw nor tcp_lat: add "
			       "one",
			       o->also);
	if (client_paths(o, err, errlen) || client_unused(ps, o, err, errlen) ||
	    rails_check(ps, o, err, errlen))
		return -EINVAL;
	if (iters_given)
		o->p.duration_ns = 0;
	if (combos > IG_MAX_COMBOS)
		return ig_fail(
			-EINVAL, err, errlen,
			"-s, -P, --window: %u sizes x %u streams x %u windows "
			"= %u combinations: allowed at most %d (shorten a list)",
			o->nsizes, l->nstreams, l->nwindows, combos,
			IG_MAX_COMBOS);
	for (unsigned int i = 0; i < l->nstreams; i++) {
		p = o->p;
		p.streams = l->streams[i];
		if (ig_params_check(IG_TESTS, &p, why, sizeof(why)))
			return ig_fail(-EINVAL, err, errlen,
				       "bad option value: %s", why);
	}
	return 0;
}

void ig_cli_client_defaults(struct ig_client_opts *o)
{
	memset(o, 0, sizeof(*o));
	ig_params_default(&o->p);
	ig_local_opts_default(&o->local);
	o->tests[0] = IG_TEST_TCP_BW;
	o->tests[1] = IG_TEST_TCP_LAT;
	o->ntests = 2;
	o->format = IG_FMT_TEXT;
	o->tolerance = 5;
	o->sizes[0] = o->p.size;
	o->nsizes = 1;
	ig_testopt_lists_init(&o->lists, &o->p);
}

/* HOST: one word that is no option. */
static int client_host(const struct ig_optparse *ps, struct ig_client_opts *o,
		       char *err, size_t errlen)
{
	const char *const *w = ps->positional;

	if (!ps->npositional && o->rails_word && o->rails_list) {
		/* "--rails HOST": the word is HOST, the rails all */
		const char *h = o->rails_list;

		o->rails_list = NULL;
		return ig_cli_hostport("HOST", h, &o->server, &o->host,
				       &o->port, err, errlen);
	}
	if (!ps->npositional)
		return ig_fail(
			-EINVAL, err, errlen,
			"client needs a HOST argument: ibgap client HOST "
			"[options]");
	if (ps->npositional > 1 && ps->held &&
	    (!strcmp(w[0], ps->held) || !strcmp(w[1], ps->held)))
		return zc_fail(ps->held, err, errlen);
	if (ps->npositional > 1)
		return ig_fail(-EINVAL, err, errlen,
			       "client takes one HOST, got '%s' and also '%s'",
			       w[0], w[1]);
	return ig_cli_hostport("HOST", w[0], &o->server, &o->host, &o->port,
			       err, errlen);
}

/* The local run ("ibgap [options]"): no HOST, and none of the options
 * that name a server elsewhere (its server is its own). */
static int local_words(const struct ig_optparse *ps,
		       const struct ig_client_opts *o, char *err, size_t errlen)
{
	if (ps->npositional)
		return ig_fail(-EINVAL, err, errlen,
			       "'%s': the local run ('ibgap [options]') "
			       "takes options only; a command comes first "
			       "(ibgap client HOST [options])",
			       ps->positional[0]);
	if (o->port || o->also || o->auth_file)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: the local run ('ibgap' alone) has a "
			       "server of its own: use 'ibgap client HOST' "
			       "for another one",
			       o->port	 ? "-p"
			       : o->also ? "--also"
					 : "--auth-file");
	return 0;
}

/* The client's options; local: the local run's (no HOST). */
static int client_parse(int argc, char **argv, struct ig_client_opts *o,
			bool local, char *err, size_t errlen)
{
	struct ig_testopts t = { .tt = IG_TESTS,
				 .p = &o->p,
				 .local = &o->local,
				 .lists = &o->lists,
				 .rep = &o->rep,
				 .tests = o->tests,
				 .ntests = &o->ntests };
	struct ig_optparse ps = { .rows = client_rows,
				  .nrows = sizeof(client_rows) /
					   sizeof(*client_rows),
				  .obj = { o } };
	int ret;

	ig_cli_client_defaults(o);
	ig_testopt_bind(&ps, &t);
	ret = ig_opt_parse(&ps, argc, argv, err, errlen);
	if (ret)
		return ret;
	if (local ? local_words(&ps, o, err, errlen)
		  : client_host(&ps, o, err, errlen))
		return -EINVAL;
	o->tests_given = t.tests_given;
	if (ig_testopt_finish(&ps, &t, err, errlen))
		return -EINVAL;
	return client_finish(&ps, o, t.iters_given, err, errlen);
}

int ig_cli_client(int argc, char **argv, struct ig_client_opts *o, char *err,
		  size_t errlen)
{
	return client_parse(argc, argv, o, false, err, errlen);
}

int ig_cli_local(int argc, char **argv, struct ig_client_opts *o, char *err,
		 size_t errlen)
{
	return client_parse(argc, argv, o, true, err, errlen);
}

#define S(member) .obj = IG_TO_CMD, IG_OPT_AT(struct ig_server_opts, member)

/* clang-format off */
static const struct ig_opt server_rows[] = {
	IG_CLI_PORT_ROW(struct ig_server_opts, "control port (default 18515)"),
	{ "bind", 'B', IG_OPT_STRING, S(bind), .arg = "ADDR",
	  .help = "listen on ADDR only (default: all)" },
	{ "once", 0, IG_OPT_FLAG, S(once), .help = "exit after one session" },
	{ "timeout", 0, IG_OPT_SECS, S(timeout_ms), .lo = IG_MIN_TIMEOUT_S,
	  .hi = IG_MAX_TIMEOUT_S, .unit = 1000000, .arg = "SECS",
	  .help = "deadline of every control read (10)" },
	{ "auth-file", 0, IG_OPT_STRING, S(auth_file), .arg = "FILE",
	  .help = "serve only clients that prove they hold the shared secret "
		  "in FILE (mode 600, 16 to 4096 bytes; a trailing newline is "
		  "ignored)" },
	{ "allow-try", 0, IG_OPT_FLAG, S(allow_try),
	  .help = "let an authenticated client change this host's settings "
		  "for a trial (ibgap doctor --try; needs --auth-file and "
		  "root); each change is put back when its session ends" },
	{ "journal", 0, IG_OPT_STRING, S(journal), .arg = "FILE",
	  .help = "--allow-try's journal of the changes made (default "
		  "/var/lib/ibgap/server-PORT.journal)" },
};
/* clang-format on */

void ig_cli_server_usage(FILE *f)
{
	fputs("usage: ibgap server [options]\n", f);
	ig_opt_usage(f, server_rows,
		     sizeof(server_rows) / sizeof(*server_rows));
}

int ig_cli_server(int argc, char **argv, struct ig_server_opts *o, char *err,
		  size_t errlen)
{
	struct ig_optparse ps = { .rows = server_rows,
				  .nrows = sizeof(server_rows) /
					   sizeof(*server_rows),
				  .obj = { o } };
	int ret;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = IG_DEFAULT_TIMEOUT_MS;
	ret = ig_opt_parse(&ps, argc, argv, err, errlen);
	if (ret)
		return ret;
	if (ps.npositional)
		return ig_fail(-EINVAL, err, errlen,
			       "server takes no positional argument, got '%s'",
			       ps.positional[0]);
	if (o->allow_try && !o->auth_file)
		return ig_fail(-EINVAL, err, errlen,
			       "--allow-try needs --auth-file FILE: the server "
			       "changes its host only for a client that "
			       "proves it holds the secret");
	if (o->journal && !o->allow_try)
		return ig_fail(-EINVAL, err, errlen,
			       "--journal '%s' is the journal of --allow-try's "
			       "changes: give --allow-try too, or no --journal",
			       o->journal);
	return 0;
}
