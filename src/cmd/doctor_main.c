// SPDX-License-Identifier: MIT
/* "ibgap doctor [HOST] [options]": this host's findings and, when HOST
 * runs "ibgap server", that host's too. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "common/testopt.h"
#include "common/params.h"
#include "doctor/doctor.h"
#include "doctor/remote.h"
#include "report/report.h"
#include "wire/ctrl.h"
#include "host/sysinfo.h"

static const char usage[] =
	"usage: ibgap doctor [HOST] [options]\n"
	"Explains what holds TCP (IPoIB, RoCE netdev) below verbs on this "
	"host and,\nwhen HOST runs 'ibgap server', on HOST too.  HOST: a name or "
	"address,\nHOST:PORT, [IPV6] or [IPV6]:PORT.\n"
	"  -p, --port PORT        server's control port (default 18515)\n"
	"      --format FMT       text or json (default text)\n"
	"      --root DIR         read /sys and /proc under DIR (tests)\n"
	"      --window BYTES     the --window you intend to use\n"
	"      --timeout SECS     deadline of every control read (10)\n"
	"      --auth-file FILE   shared secret of HOST's 'ibgap server\n"
	"                         --auth-file' (mode 600, 16 to 4096 bytes)\n";

struct dcli {
	const char *host, *port, *root, *auth_file;
	struct ig_hostport hp; /* HOST split; host (and port) point here */
	bool json;
	uint64_t window;
	int timeout_ms;
};

enum { OPT_FORMAT = 256, OPT_ROOT, OPT_WINDOW, OPT_TIMEOUT, OPT_AUTH_FILE };

static const struct option longopts[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "auth-file", required_argument, NULL, OPT_AUTH_FILE },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static int one_opt(int c, const char *arg, struct dcli *o, char *err,
		   size_t errlen)
{
	struct stat st;
	uint32_t ms;
	uint64_t v;

	switch (c) {
	case 'p':
		o->port = arg;
		return ig_cli_port(arg, err, errlen);
	case OPT_FORMAT:
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			return ig_cli_fail(err, errlen,
					   "--format: '%s' is not a format: "
					   "allowed text, json",
					   arg);
		o->json = !strcmp(arg, "json");
		return 0;
	case OPT_ROOT:
		if (stat(arg, &st) || !S_ISDIR(st.st_mode))
			return ig_cli_fail(err, errlen,
					   "--root: '%s' is not a directory",
					   arg);
		o->root = arg;
		return 0;
	case OPT_WINDOW:
		if (ig_parse_size(arg, &o->window) || o->window < 1 ||
		    o->window > IG_MAX_WINDOW)
			return ig_cli_fail(err, errlen,
					   "--window: '%s' is not a byte count "
					   "from 1 to 1G (K, M, G suffixes)",
					   arg);
		return 0;
	case OPT_AUTH_FILE:
		o->auth_file = arg; /* loaded (and checked) with HOST */
		return 0;
	default:
		/* a value that is no number of seconds is out of range too */
		if (ig_parse_seconds(arg, &v))
			v = 0;
		if (ig_testopt_timeout(arg, v, &ms, err, errlen))
			return -EINVAL;
		o->timeout_ms = (int)ms;
		return 0;
	}
}

/* 0, 1 after --help, -EINVAL with one line in err. */
static int parse(int argc, char **argv, struct dcli *o, char *err,
		 size_t errlen)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = IG_DEFAULT_TIMEOUT_MS;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?' || c == ':')
			return ig_cli_bad_option(argv, optopt, err, errlen);
		if (one_opt(c, optarg, o, err, errlen))
			return -EINVAL;
	}
	if (optind < argc - 1)
		return ig_cli_fail(err, errlen,
				   "doctor takes one HOST, got '%s' and also "
				   "'%s'",
				   argv[optind], argv[optind + 1]);
	if (optind < argc)
		return ig_cli_hostport("HOST", argv[optind], &o->hp, &o->host,
				       &o->port, err, errlen);
	return 0;
}

/* -1 to go on with cl, else the exit status: 0 after --help, 2 after a
 * bad option (one line on stderr). */
static int options(int argc, char **argv, struct dcli *cl)
{
	char err[PATH_MAX + 256]; /* --root names a directory */
	int ret = parse(argc, argv, cl, err, sizeof(err));

	if (ret == 1)
		return fputs(usage, stdout), 0;
	if (ret) {
		fprintf(stderr, "ibgap doctor: %s\n", err);
		return 2;
	}
	return -1;
}

/* HOST's numeric address, for the local route lookup when the server
 * could not be reached. */
static int resolve(const char *host, char *buf, size_t len)
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
	else if (resolve(cl->host, addr, len))
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
	return ret ? 1 : 0;
}
