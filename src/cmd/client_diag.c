// SPDX-License-Identifier: MIT
/* The doctor's part of a client run: port error counters and TCP
 * retransmits around the run, and the top findings when TCP reaches less
 * than half of the verbs bandwidth (docs/design.md, "Doctor"). */
#include <string.h>
#include <sys/socket.h>

#include "client.h"
#include "report/compare.h"
#include "wire/ctrl.h"
#include "transports/transports.h"

void ig_client_diag_begin(struct ig_client_diag *d, int fd)
{
	socklen_t sl = sizeof(d->peer);

	memset(d, 0, sizeof(*d));
	if (getpeername(fd, (struct sockaddr *)&d->peer, &sl))
		return;
	ig_sockaddr_unmap(&d->peer, &sl);
	d->peer_known = true;
	d->have_peer =
		!ig_dr_counters_read(NULL, (struct sockaddr *)&d->peer, &d->c0);
}

void ig_client_diag_end(struct ig_client_diag *d)
{
	struct ig_dr_counters c1;

	if (!d->have_peer || ig_dr_counters_again(NULL, &d->c0, &c1))
		return;
	d->nf = ig_dr_counters_diff(&d->c0, &c1, d->f, IG_CLIENT_DIAG_MAX);
}

/* True when some bandwidth pair has TCP below half of its RDMA side. */
static bool tcp_far_behind(const struct ig_compare *c)
{
	for (size_t i = 0; i < c->npairs; i++) {
		const struct ig_pair *p = &c->pairs[i];

		if (!p->lat && p->bw_ratio < 0.5 &&
		    ig_test_xport(IG_TESTS, p->r[IG_T]->params.test) ==
			    IG_XPORT_TCP)
			return true;
	}
	return false;
}

/* The IPoIB mode shows only beside pairs (or n_half) of the comparison;
 * finding it is a doctor's run, skipped when there are none. */
void ig_client_diag_ipoib(const struct ig_client_diag *d, struct ig_compare *c)
{
	char mode[16] = "";

	if (d->peer_known && (c->npairs || c->nnhalf))
		ig_dr_ipoib_mode(NULL, (const struct sockaddr *)&d->peer, mode,
				 sizeof(mode));
	ig_compare_set_ipoib(c, mode);
}

void ig_client_diag_top(struct ig_client_diag *d, const struct ig_compare *c,
			uint64_t window)
{
	int n;

	if (!d->have_peer || !tcp_far_behind(c) || d->nf >= IG_CLIENT_DIAG_MAX)
		return;
	n = ig_dr_top(NULL, (struct sockaddr *)&d->peer, window, d->f + d->nf,
		      IG_CLIENT_DIAG_MAX - d->nf);
	if (n > 0)
		d->nf += (size_t)n;
}
