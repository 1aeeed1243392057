// SPDX-License-Identifier: MIT
/*
 * The environment's fault hook (fault.h): IBGAP_FAULT for the scripts
 * that need real processes (tests/faults.sh.inc, tests/integ/clock.sh,
 * tests/fabric/t_fabric.sh).  Built only with IBGAP_TESTS=ON (CMake
 * leaves this file out otherwise and ig_fault_env() arms nothing).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault.h"

static const char *const phase_names[IG_FAULT_NPHASES] = {
	[IG_FAULT_CONNECT] = "connect", [IG_FAULT_PARAMS] = "params",
	[IG_FAULT_SETUP] = "setup",	[IG_FAULT_WARMUP] = "warmup",
	[IG_FAULT_MEASURE] = "measure", [IG_FAULT_RESULT] = "result",
};

/* Parses "SIDE:PHASE:ACTION[:DELAY_MS]" into e; 0 or -1 when malformed. */
static int parse(const char *spec, struct ig_fault_env *e)
{
	char side[8], phase[8], action[6];
	int n;

	e->delay_ms = 0;
	n = sscanf(spec, "%7[a-z]:%7[a-z]:%5[a-z]:%u", side, phase, action,
		   &e->delay_ms);
	if (n < 3 || (strcmp(side, "client") && strcmp(side, "server")) ||
	    (strcmp(action, "kill") && strcmp(action, "stall") &&
	     strcmp(action, "hang")) ||
	    e->delay_ms > 60000)
		return -1;
	e->server = side[0] == 's';
	e->action = action[0];
	for (int i = 0; i < IG_FAULT_NPHASES; i++) {
		if (strcmp(phase, phase_names[i]))
			continue;
		e->phase = (enum ig_fault_phase)i;
		return 0;
	}
	return -1;
}

/* With IBGAP_FAULT_ONCE=FILE, only the process that creates FILE fires,
 * and only once: a stopped server continued by the test then serves the
 * next client normally. */
static bool first_time(void)
{
	const char *mark = getenv("IBGAP_FAULT_ONCE");
	int fd;

	if (!mark || !*mark)
		return true;
	fd = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void env_point(const struct ig_fault *f, bool server,
		      enum ig_fault_phase phase)
{
	const struct ig_fault_env *e = (const struct ig_fault_env *)f;
	const char *side = server ? "server" : "client";

	if (!e->action || e->server != server || e->phase != phase ||
	    !first_time())
		return;
	if (e->delay_ms)
		usleep(e->delay_ms * 1000);
	fprintf(stderr, "ibgap: IBGAP_FAULT: %s %s at %s\n",
		e->action == 'k'   ? "killing"
		: e->action == 's' ? "stopping"
				   : "hanging the session thread of",
		side, phase_names[phase]);
	if (e->action == 'h') {
		for (;;)
			pause();
	}
	raise(e->action == 'k' ? SIGKILL : SIGSTOP);
}

const struct ig_fault *ig_fault_env(struct ig_fault_env *e)
{
	const char *spec = getenv("IBGAP_FAULT");

	*e = (struct ig_fault_env){ .hook = { .point = env_point } };
	if (!spec || !*spec)
		return NULL;
	if (!strcmp(spec, IG_FAULT_DRIFT)) {
		e->hook.clock_drift = true;
		return &e->hook;
	}
	if (parse(spec, e)) {
		fprintf(stderr,
			"ibgap: ignoring IBGAP_FAULT='%s': want "
			"client|server:connect|params|setup|warmup|measure|"
			"result:kill|stall|hang[:DELAY_MS <= 60000]\n",
			spec);
		e->action = 0;
		return NULL;
	}
	return &e->hook;
}
