// SPDX-License-Identifier: MIT
/* libnl's error codes as errnos (nlerr.h). */
#include <errno.h>
#include <netlink/errno.h>

#include "nlerr.h"

int ig_nl_errno(int nle)
{
	switch (-nle) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_BUSY:
		return -EBUSY;
	default:
		return -EIO;
	}
}
