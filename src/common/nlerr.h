/* SPDX-License-Identifier: MIT */
#ifndef IG_NLERR_H
#define IG_NLERR_H

/* libnl's error code (negative NLE_*, not an errno) as a negative errno:
 * -ENOMEM, -EPERM, -EAFNOSUPPORT, -ENOENT, -EEXIST, -EINVAL, -EOPNOTSUPP,
 * -EBUSY, else -EIO. */
int ig_nl_errno(int nle);

#endif
