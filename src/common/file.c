// SPDX-License-Identifier: MIT
/* Whole files into memory, with a size cap (file.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fail.h"
#include "file.h"

#define FILE_CHUNK (64 * 1024) /* the first buffer; it doubles from there */

static void wipe_free(char *b, size_t len)
{
	explicit_bzero(b, len);
	free(b);
}

/* A buffer of size bytes holding the len bytes of b; b is wiped and freed
 * either way.  NULL when out of memory. */
static char *grow(char *b, size_t len, size_t size)
{
	char *nb = malloc(size);

	if (nb)
		memcpy(nb, b, len);
	wipe_free(b, len);
	return nb;
}

/* One read() of up to room bytes, again after a signal: the bytes read, 0
 * at the end of the file, or a negative errno. */
static ssize_t read_some(int fd, char *p, size_t room)
{
	ssize_t r;

	do
		r = read(fd, p, room);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

int ig_file_read_fd(int fd, size_t cap, char **buf, size_t *len)
{
	/* room for cap + 1 bytes, to see a longer file, and the NUL */
	size_t size = cap < FILE_CHUNK ? cap + 2 : FILE_CHUNK;
	ssize_t r;
	char *b;

	*buf = NULL;
	*len = 0;
	if (cap >= SIZE_MAX - 1)
		return -EINVAL;
	b = malloc(size);
	if (!b)
		return -ENOMEM;
	for (;;) {
		if (*len > cap) {
			r = -EFBIG;
			goto err;
		}
		if (*len == size - 1) {
			size = size > (cap + 2) / 2 ? cap + 2 : size * 2;
			b = grow(b, *len, size);
			if (!b)
				return -ENOMEM;
		}
		r = read_some(fd, b + *len, size - 1 - *len);
		if (r < 0)
			goto err;
		if (r == 0)
			break;
		*len += (size_t)r;
	}
	b[*len] = '\0';
	*buf = b;
	return 0;

err:
	wipe_free(b, *len);
	return (int)r;
}

int ig_file_read(const char *path, size_t cap, char **buf, size_t *len)
{
	int fd, ret;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = ig_file_read_fd(fd, cap, buf, len);
	close(fd);
	return ret;
}

int ig_file_check_out(const char *opt, const char *path, char *err,
		      size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (!*path)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '' is no file name: give one", opt);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is a directory: give a file name", opt,
			       path);
	if (!slash)
		strcpy(dir, ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s': there is no directory '%s': create "
			       "it or give another path",
			       opt, path, dir);
	if (access(dir, W_OK))
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s': cannot write in the directory '%s': "
			       "%s",
			       opt, path, dir, strerror(errno));
	return 0;
}

int ig_file_check_outs(const struct ig_file_out *out, size_t n, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].path &&
		    ig_file_check_out(out[i].opt, out[i].path, err, errlen))
			return -EINVAL;
	return 0;
}
