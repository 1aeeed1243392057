// SPDX-License-Identifier: MIT
/*
 * Every file the doctor reads goes through here, under the root prefix
 * (--root), so a test can point it at a fixture tree.  Paths are written
 * as seen from the root ("/sys/class/net/ib0/mtu") and reported that way.
 * A failed read records the path and strerror in the report, unless the
 * caller says the file may well be absent (quiet).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor_int.h"

/* path as seen from the root -> the path to open */
static void full_path(const struct ig_dr *d, const char *path, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s%s", d->root, path);
}

static int read_file(struct ig_dr *d, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];
	ssize_t n;
	int fd;

	buf[0] = 0;
	full_path(d, path, full, sizeof(full));
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs hands out a whole attribute in one read */
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

int ig_dr_read(struct ig_dr *d, const char *path, char *buf, size_t len)
{
	int ret = read_file(d, path, buf, len);

	if (ret)
		ig_dr_read_err(d, path, -ret);
	return ret;
}

int ig_dr_read_quiet(struct ig_dr *d, const char *path, char *buf, size_t len)
{
	return read_file(d, path, buf, len);
}

int ig_dr_read_u64(struct ig_dr *d, const char *path, uint64_t *v, bool quiet)
{
	char buf[64], *end;
	int ret = read_file(d, path, buf, sizeof(buf));

	if (!ret) {
		errno = 0;
		*v = strtoull(buf, &end, 0);
		if (errno || end == buf || buf[0] == '-')
			ret = -EINVAL;
	}
	if (ret && !quiet)
		ig_dr_read_err(d, path, -ret);
	return ret;
}

/* buf, read from path, as an int; a bad number recorded as EINVAL. */
static int parse_int(struct ig_dr *d, const char *path, const char *buf, int *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(buf, &end, 0);
	if (errno || end == buf || x < INT32_MIN || x > INT32_MAX) {
		ig_dr_read_err(d, path, EINVAL);
		return -EINVAL;
	}
	*v = (int)x;
	return 0;
}

int ig_dr_read_int(struct ig_dr *d, const char *path, int *v)
{
	char buf[64];
	int ret = ig_dr_read(d, path, buf, sizeof(buf));

	return ret ? ret : parse_int(d, path, buf, v);
}

int ig_dr_inv_str(struct ig_dr *d, const char *value, const char *path,
		  char *buf, size_t len)
{
	if (!value || !value[0])
		return ig_dr_read(d, path, buf, len);
	snprintf(buf, len, "%s", value);
	return 0;
}

int ig_dr_inv_num(struct ig_dr *d, const char *value, const char *path, int *v)
{
	if (!value || !value[0])
		return ig_dr_read_int(d, path, v);
	return parse_int(d, path, value, v);
}

int ig_dr_inv_int(struct ig_dr *d, int value, const char *path, int *v)
{
	if (value < 0)
		return ig_dr_read_int(d, path, v);
	*v = value;
	return 0;
}

bool ig_dr_exists(struct ig_dr *d, const char *path)
{
	char full[PATH_MAX];

	full_path(d, path, full, sizeof(full));
	return access(full, F_OK) == 0;
}

FILE *ig_dr_fopen(struct ig_dr *d, const char *path)
{
	char full[PATH_MAX];
	FILE *f;

	full_path(d, path, full, sizeof(full));
	f = fopen(full, "re");
	if (!f)
		ig_dr_read_err(d, path, errno);
	return f;
}

int ig_dr_link_base(struct ig_dr *d, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	full_path(d, path, full, sizeof(full));
	n = readlink(full, target, sizeof(target) - 1);
	if (n < 0) {
		int e = errno;

		ig_dr_read_err(d, path, e);
		return -e;
	}
	target[n] = 0;
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
	return 0;
}

static int skip_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

int ig_dr_list(struct ig_dr *d, const char *dir, bool quiet,
	       int (*fn)(struct ig_dr *d, const char *name, void *arg),
	       void *arg)
{
	char full[PATH_MAX];
	struct dirent **v;
	int n, ret = 0;

	full_path(d, dir, full, sizeof(full));
	n = scandir(full, &v, skip_dots, versionsort);
	if (n < 0) {
		int e = errno;

		if (!quiet)
			ig_dr_read_err(d, dir, e);
		return -e;
	}
	for (int i = 0; i < n; i++) {
		if (!ret)
			ret = fn(d, v[i]->d_name, arg);
		free(v[i]);
	}
	free(v);
	return ret;
}
