/* SPDX-License-Identifier: MIT */
#ifndef IG_FILE_H
#define IG_FILE_H

#include <stddef.h>

/*
 * Reads the rest of fd, up to cap bytes, into a malloc'ed buffer with a NUL
 * after the last byte (the text may hold NULs of its own: trust *len).
 * It reads until end of file, so pipes and /proc files, which have no size
 * in advance, work; it reads one byte more than cap to see a longer file.
 * A buffer outgrown on the way is wiped before it is freed, and so is the
 * buffer on failure: a secret leaves no copy behind but the one returned.
 *
 * Returns 0 with *buf and *len set; -EFBIG when there is more than cap
 * bytes; -ENOMEM; -EINVAL for a cap of SIZE_MAX - 1 or more; or read()'s
 * negative errno (-EISDIR for a directory).  On failure *buf is NULL and
 * *len is the number of bytes read before it.  fd stays open.
 */
int ig_file_read_fd(int fd, size_t cap, char **buf, size_t *len);
/* Opens path read-only and ig_file_read_fd()s it; also returns open()'s
 * negative errno (-ENOENT for a missing file). */
int ig_file_read(const char *path, size_t cap, char **buf, size_t *len);

/*
 * An output file the run will write at its end (-o, --plot,
 * --save-baseline), checked before the run: path is no directory, and the
 * directory it would be in exists and may be written.  0, or -EINVAL with
 * one line in err naming opt ("-o") and path.
 */
int ig_file_check_out(const char *opt, const char *path, char *err,
		      size_t errlen);
/* ig_file_check_out() of each out[0..n) whose path is set. */
struct ig_file_out {
	const char *opt, *path;
};
int ig_file_check_outs(const struct ig_file_out *out, size_t n, char *err,
		       size_t errlen);

#endif
