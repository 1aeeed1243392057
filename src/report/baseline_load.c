// SPDX-License-Identifier: MIT
/*
 * Reading a saved report from a file: refused by its size before it is
 * read when it is a regular file, and read up to the cap plus one byte
 * otherwise (a pipe, "ibgap diff <(...) <(...)"); then ig_baseline_parse().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "common/fail.h"
#include "common/file.h"

/* Reads the rest of fd (pipes and /proc files have no size in advance). */
static int read_all(int fd, char **buf, size_t *len, char *err, size_t errlen)
{
	int ret = ig_file_read_fd(fd, IG_BASELINE_MAX_BYTES, buf, len);

	if (ret == -EFBIG)
		return ig_fail(ret, err, errlen,
			       "over the %u MiB limit of a saved report",
			       IG_BASELINE_MAX_BYTES >> 20);
	if (ret == -ENOMEM)
		return ig_fail(ret, err, errlen,
			       "out of memory after %zu bytes", *len);
	if (ret)
		return ig_fail(ret, err, errlen, "cannot read: %s",
			       strerror(-ret));
	return 0;
}

static int slurp(const char *path, char **buf, size_t *len, char *err,
		 size_t errlen)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		return ig_fail(ret, err, errlen, "cannot open: %s",
			       strerror(-ret));
	}
	if (fstat(fd, &st))
		st.st_mode = 0; /* unknown: read_all still caps the size */
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return ig_fail(-EISDIR, err, errlen,
			       "is a directory, want a saved JSON report");
	}
	if (S_ISREG(st.st_mode) && st.st_size > IG_BASELINE_MAX_BYTES) {
		close(fd);
		return ig_fail(-EFBIG, err, errlen,
			       "%lld bytes, over the %u MiB limit of a "
			       "saved report",
			       (long long)st.st_size,
			       IG_BASELINE_MAX_BYTES >> 20);
	}
	ret = read_all(fd, buf, len, err, errlen);
	close(fd);
	return ret;
}

int ig_baseline_load(const char *path, json_object **doc, char *err,
		     size_t errlen)
{
	char why[256], *buf = NULL;
	size_t len = 0;
	int ret;

	*doc = NULL;
	if (!path || !path[0])
		return ig_fail(-EINVAL, err, errlen,
			       "no file name given for a saved report");
	ret = slurp(path, &buf, &len, why, sizeof(why));
	if (!ret) {
		ret = ig_baseline_parse(buf, len, doc, why, sizeof(why));
		free(buf);
	}
	if (ret)
		return ig_fail(ret, err, errlen, "%s: %s", path, why);
	return 0;
}

unsigned int ig_baseline_partial(json_object *doc)
{
	json_object *res, *r, *v;
	unsigned int n = 0;

	if (!json_object_object_get_ex(doc, "results", &res) ||
	    !json_object_is_type(res, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(res); i++) {
		r = json_object_array_get_idx(res, i);
		if (json_object_object_get_ex(r, "partial", &v) &&
		    json_object_get_boolean(v))
			n++;
	}
	return n;
}
