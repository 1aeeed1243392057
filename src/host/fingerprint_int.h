/* SPDX-License-Identifier: MIT */
/* Shared by fingerprint*.c and rdma_inv*.c; the readers are in
 * fingerprint_io.c. */
#ifndef IG_FINGERPRINT_INT_H
#define IG_FINGERPRINT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "fingerprint.h"

/* src into dst[len], cut to fit (a cut value is still worth having). */
void ig_fp_set_str(char *dst, size_t len, const char *src);

/* Trailing white space removed, other control characters as '?'. */
void ig_fp_clean(char *s);

/* A single path component shorter than max: no '/', not "." or "..". */
bool ig_fp_name_ok(const char *s, size_t max);

/* out = root + the formatted absolute path; root "/" is the path itself.
 * -ENAMETOOLONG when it does not fit. */
int __attribute__((format(printf, 4, 5)))
ig_fp_path(char *out, size_t len, const char *root, const char *fmt, ...);

/*
 * The first line of root + the formatted absolute path into buf, trailing
 * white space removed, control characters as '?'; "" and a negative errno
 * when the file is missing or unreadable (an unused GID's ndev reads as
 * EINVAL).
 */
int __attribute__((format(printf, 4, 5)))
ig_fp_attr(const char *root, char *buf, size_t len, const char *fmt, ...);

/* As ig_fp_attr, for file name in the folder open as dirfd: one path
 * step, not a walk from the root, for the 1024 entries of a GID table.
 * -EBADF when dirfd is negative or name is no plain file name. */
int ig_fp_attr_at(int dirfd, const char *name, char *buf, size_t len);

struct dirent;

/* The entries of folder path but "." and "..", in version order (ports 2
 * before 10) into *v; their number or a negative errno.  ig_fp_list_free
 * frees them. */
int ig_fp_list(const char *path, struct dirent ***v);
void ig_fp_list_free(struct dirent **v, int n);

/* /sys/class/net/<if>/type of an IPoIB interface (ARPHRD_INFINIBAND) */
#define IG_FP_IPOIB_TYPE "32"

#endif
