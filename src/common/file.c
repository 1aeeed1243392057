// SPDX-License-Identifier: MIT
/* Whole files into memory, with a size cap (file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
