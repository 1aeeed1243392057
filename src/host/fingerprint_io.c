// SPDX-License-Identifier: MIT
/*
 * Reading sysfs and procfs under a root directory, for the fingerprint
 * and the RDMA inventory (fingerprint.c, rdma_inv*.c): one line of a file,
 * a path under the root, a folder's entries in version order, and the
 * checks a value passes before it is used as a file name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fingerprint_int.h"

/* src into dst[len], cut to fit (a cut value is still worth having). */
void ig_fp_set_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Trailing white space goes, other control characters become '?'. */
void ig_fp_clean(char *s)
{
	size_t n = strlen(s);

	while (n && strchr(" \t\r\v\f", s[n - 1]))
		s[--n] = '\0';
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = '?';
}

/* out = root + the formatted absolute path; root "/" is the path itself. */
int ig_fp_path(char *out, size_t len, const char *root, const char *fmt, ...)
{
	char rel[PATH_MAX];
	size_t rl = strlen(root);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	while (rl && root[rl - 1] == '/')
		rl--;
	n = snprintf(out, len, "%.*s%s", (int)rl, root, rel);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The first line of a file, path relative to folder dirfd (AT_FDCWD: the
 * working directory's), into buf ("" when missing or unreadable: an
 * unused GID's ndev reads as EINVAL).  O_NONBLOCK: a FIFO in a fixture
 * tree must not hang us.  Returns 0 when the file could be read.
 */
static int read_line(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0) {
		buf[0] = '\0';
		return -EIO;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	ig_fp_clean(buf);
	return 0;
}

int ig_fp_attr(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX];
	va_list ap;
	int n;

	buf[0] = '\0';
	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel) ||
	    ig_fp_path(path, sizeof(path), root, "%s", rel))
		return -ENAMETOOLONG;
	return read_line(AT_FDCWD, path, buf, len);
}

int ig_fp_attr_at(int dirfd, const char *name, char *buf, size_t len)
{
	if (dirfd < 0 || !ig_fp_name_ok(name, NAME_MAX + 1)) {
		buf[0] = '\0';
		return -EBADF;
	}
	return read_line(dirfd, name, buf, len);
}

bool ig_fp_name_ok(const char *s, size_t max)
{
	return s && s[0] && strlen(s) < max && !strchr(s, '/') &&
	       strcmp(s, ".") && strcmp(s, "..");
}

static int skip_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

int ig_fp_list(const char *path, struct dirent ***v)
{
	int n = scandir(path, v, skip_dots, versionsort);

	return n < 0 ? -errno : n;
}

void ig_fp_list_free(struct dirent **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
