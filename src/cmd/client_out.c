// SPDX-License-Identifier: MIT
/*
 * The client's report file (-o): written to a temporary file beside it
 * and renamed over it only when the whole report is written, so that a
 * reader (node_exporter's textfile collector, a CI step) sees the old
 * report or the new one, never half of one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"

int ig_client_out_open(struct ig_client_out *out, const char *path)
{
	int fd;

	memset(out, 0, sizeof(*out));
	out->f = stdout;
	if (!path)
		return 0;
	out->path = path;
	if (snprintf(out->tmp, sizeof(out->tmp), "%s.XXXXXX", path) >=
	    (int)sizeof(out->tmp)) {
		fprintf(stderr, "ibgap: -o '%s': the name is too long\n", path);
		return 1;
	}
	fd = mkstemp(out->tmp);
	if (fd >= 0) {
		mode_t mask = umask(0);

		umask(mask);
		/* the mode fopen would give it, not mkstemp's 600 */
		fchmod(fd, 0666 & ~mask);
	}
	if (fd < 0 || !(out->f = fdopen(fd, "w"))) {
		fprintf(stderr, "ibgap: cannot write -o '%s': %s\n", path,
			strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(out->tmp);
		}
		out->f = NULL;
		return 1;
	}
	return 0;
}

int ig_client_out_close(struct ig_client_out *out, bool keep)
{
	int ret = 0;

	if (!out->path || !out->f)
		return 0;
	if (fclose(out->f) && keep) {
		fprintf(stderr, "ibgap: writing -o '%s' failed: %s\n",
			out->path, strerror(errno));
		keep = false;
		ret = 1;
	}
	out->f = NULL;
	if (keep && rename(out->tmp, out->path)) {
		fprintf(stderr, "ibgap: cannot put the report in '%s': %s\n",
			out->path, strerror(errno));
		ret = 1;
	}
	if (!keep || ret)
		unlink(out->tmp);
	return ret;
}
