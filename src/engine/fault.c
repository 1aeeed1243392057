// SPDX-License-Identifier: MIT
/* The fault points of fault.h. */
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

/* Parses "SIDE:PHASE:ACTION[:DELAY_MS]"; 0 or -1 when malformed. */
static int parse(const char *spec, char *side, char *phase, char *action,
		 unsigned int *delay_ms)
{
	int n;

	*delay_ms = 0;
	n = sscanf(spec, "%7[a-z]:%7[a-z]:%5[a-z]:%u", side, phase, action,
		   delay_ms);
	if (n < 3 || (strcmp(side, "client") && strcmp(side, "server")) ||
	    (strcmp(action, "kill") && strcmp(action, "stall") &&
	     strcmp(action, "hang")) ||
	    *delay_ms > 60000)
		return -1;
	for (int i = 0; i < IG_FAULT_NPHASES; i++)
		if (!strcmp(phase, phase_names[i]))
			return 0;
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

void ig_fault_point(bool server, enum ig_fault_phase phase)
{
	const char *spec = getenv("IBGAP_FAULT");
	char side[8], ph[8], action[6];
	unsigned int delay_ms;

	if (!spec || !*spec || ig_fault_clock_drift())
		return;
	if (parse(spec, side, ph, action, &delay_ms)) {
		fprintf(stderr,
			"ibgap: ignoring IBGAP_FAULT='%s': want "
			"client|server:connect|params|setup|warmup|measure|"
			"result:kill|stall|hang[:DELAY_MS <= 60000]\n",
			spec);
		return;
	}
	if (strcmp(side, server ? "server" : "client") ||
	    strcmp(ph, phase_names[phase]) || !first_time())
		return;
	if (delay_ms)
		usleep(delay_ms * 1000);
	fprintf(stderr, "ibgap: IBGAP_FAULT: %s %s at %s\n",
		action[0] == 'k'   ? "killing"
		: action[0] == 's' ? "stopping"
				   : "hanging the session thread of",
		side, ph);
	if (action[0] == 'h') {
		for (;;)
			pause();
	}
	raise(action[0] == 'k' ? SIGKILL : SIGSTOP);
}

bool ig_fault_clock_drift(void)
{
	const char *spec = getenv("IBGAP_FAULT");

	return spec && !strcmp(spec, IG_FAULT_DRIFT);
}
