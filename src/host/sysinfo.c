// SPDX-License-Identifier: MIT
/* Host facts recorded with every result: hostname, kernel, ibgap version. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysinfo.h"

void ig_sysinfo_get(struct ig_sysinfo *si)
{
	struct utsname un;

	memset(si, 0, sizeof(*si));
	/* gethostname() need not NUL-terminate a truncated name */
	if (gethostname(si->hostname, sizeof(si->hostname) - 1) ||
	    si->hostname[0] == '\0')
		snprintf(si->hostname, sizeof(si->hostname), "unknown");
	si->hostname[sizeof(si->hostname) - 1] = '\0';

	if (uname(&un) == 0 && un.release[0] != '\0')
		snprintf(si->kernel, sizeof(si->kernel), "%s", un.release);
	else
		snprintf(si->kernel, sizeof(si->kernel), "unknown");

	snprintf(si->version, sizeof(si->version), "%s", IG_VERSION);
}
