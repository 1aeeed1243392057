// SPDX-License-Identifier: MIT
/* The /proc and /sys files of the knobs, read and written (tune_int.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fail.h"
#include "common/file.h"
#include "tune_int.h"

void ig_tune_path(char *p, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!root || !strcmp(root, "/"))
		root = "";
	n = (size_t)snprintf(p, len, "%s", root);
	if (n >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(p + n, len - n, fmt, ap);
	va_end(ap);
}

int ig_tune_read_text(const char *path, char *val, size_t len)
{
	char *buf;
	size_t n, o = 0;
	int ret = ig_file_read(path, 64 * 1024, &buf, &n);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		bool sp = buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
			  !buf[i];

		if (sp && (!o || val[o - 1] == ' '))
			continue;
		if (o + 1 >= len) {
			free(buf);
			return -EOVERFLOW;
		}
		val[o++] = sp ? ' ' : buf[i];
	}
	if (o && val[o - 1] == ' ')
		o--;
	val[o] = 0;
	free(buf);
	return 0;
}

int ig_tune_write_text(const char *path, const char *val, char *err, size_t len)
{
	size_t n = strlen(val);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return ig_fail(-errno, err, len,
			       "tune: opening %s to write \"%.64s\": %s", path,
			       val, strerror(errno));
	errno = 0;
	if (write(fd, val, n) != (ssize_t)n)
		ret = errno ? -errno : -EIO;
	if (ret)
		ig_fail(ret, err, len, "tune: writing \"%.64s\" to %s: %s", val,
			path, strerror(-ret));
	close(fd);
	return ret;
}
