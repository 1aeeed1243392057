// SPDX-License-Identifier: MIT
/* The client: connects, says HELLO, runs each test, writes the report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "ctrl.h"
#include "engine.h"
#include "net.h"
#include "report.h"
#include "sysinfo.h"

static int say_hello(struct ig_ctrl *c, struct ig_report_env *env)
{
	json_object *o = json_object_new_object(), *w, *si;
	int ret;

	ig_sysinfo_get(&env->client);
	json_object_object_add(o, "sysinfo", ig_sysinfo_to_json(&env->client));
	ret = ig_ctrl_send(c, IG_MSG_HELLO, o);
	json_object_put(o);
	if (ret)
		return ret;
	ret = ig_ctrl_expect(c, IG_MSG_WELCOME, &w);
	if (ret)
		return ret;
	if (!json_object_object_get_ex(w, "sysinfo", &si) ||
	    ig_sysinfo_from_json(si, &env->server))
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

static int run_tests(const struct ig_client_opts *o, struct ig_ctrl *c,
		     struct ig_result *res)
{
	char err[512];

	for (unsigned int i = 0; i < o->ntests; i++) {
		struct ig_params p = o->p;

		p.test = o->tests[i];
		if (!o->size_given && ig_test_pattern(p.test) == IG_PATTERN_LAT)
			p.size = IG_DEFAULT_LAT_SIZE;
		if (ig_engine_client(c, &p, &o->local, &res[i], err,
				     sizeof(err))) {
			fprintf(stderr, "ibgap: %s\n", err);
			return -1;
		}
	}
	return 0;
}

/* Connects, runs every test, says BYE; fills env and res. */
static int session(const struct ig_client_opts *o, struct ig_report_env *env,
		   struct ig_result *res)
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
	ret = say_hello(&c, env);
	if (ret)
		fprintf(stderr, "ibgap: %s\n", c.err);
	else
		ret = run_tests(o, &c, res);
	if (!ret)
		ig_ctrl_send(&c, IG_MSG_BYE, NULL);
	ig_ctrl_close(&c);
	return ret;
}

int ig_client_run(const struct ig_client_opts *o)
{
	struct ig_report_env env = { 0 };
	struct ig_result *res;
	FILE *f = stdout;
	int ret;

	/* fail on an unwritable -o before spending time on the tests */
	if (o->outfile && !(f = fopen(o->outfile, "w"))) {
		fprintf(stderr, "ibgap: cannot write -o '%s': %s\n", o->outfile,
			strerror(errno));
		return 1;
	}
	res = calloc(o->ntests, sizeof(*res));
	if (!res) {
		fprintf(stderr, "ibgap: out of memory for %u results\n",
			o->ntests);
		ret = -ENOMEM;
	} else {
		ret = session(o, &env, res);
	}
	if (!ret)
		ret = write_report(f, o, &env, res, o->ntests);
	free(res);
	if (f != stdout)
		fclose(f);
	return ret ? 1 : 0;
}
