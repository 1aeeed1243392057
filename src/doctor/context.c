// SPDX-License-Identifier: MIT
/* One doctor run's context: the root, and the queries that answer for it
 * (the live ones, or the fixture's when ROOT/.ibgap-fixture exists), and
 * the RDMA inventory read under the root. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "doctor_int.h"

int ig_dr_open(struct ig_dr *d, const struct ig_dr_opts *o,
	       struct ig_dr_report *r)
{
	const char *root = o->root && *o->root ? o->root : "/";
	char fx[PATH_MAX + 32];
	struct stat st;
	size_t n;
	int ret;

	memset(d, 0, sizeof(*d));
	memset(r, 0, sizeof(*r));
	if (stat(root, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	snprintf(d->root, sizeof(d->root), "%s", root);
	n = strlen(d->root);
	while (n > 0 && d->root[n - 1] == '/')
		d->root[--n] = 0; /* "/" -> "" */
	d->o = o;
	d->r = r;
	d->q = &ig_dr_q_live_ops;
	snprintf(fx, sizeof(fx), "%s/.ibgap-fixture", d->root);
	if (d->root[0] && !stat(fx, &st) && S_ISDIR(st.st_mode)) {
		d->q = &ig_dr_q_fixture_ops;
		d->qctx = d->root;
		r->fixture = true;
	}
	r->rtt_us = o->rtt_us > 0 ? o->rtt_us : IG_DR_DEFAULT_RTT_US;
	if (o->no_inventory)
		return 0;
	/* an inventory that cannot be read is recorded; the checks go on */
	ret = ig_inv_load(root, IG_INV_GIDS, &d->inv, fx, sizeof(fx));
	if (ret)
		ig_dr_read_err(d, IG_INV_SYSFS, -ret);
	return 0;
}

void ig_dr_close(struct ig_dr *d)
{
	if (d->q->free)
		d->q->free(d->qctx);
	ig_inv_free(d->inv);
	d->inv = NULL;
}
