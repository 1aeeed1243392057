// SPDX-License-Identifier: MIT
/* The client's plans for the run layer: its own, and --also's. */
#include "client.h"
#include "transports/transports.h"

void ig_client_run_opts(const struct ig_client_opts *o, struct ig_run_opts *r)
{
	*r = (struct ig_run_opts){ .p = o->p,
				   .local = o->local,
				   .tests = o->tests,
				   .ntests = o->ntests,
				   .sizes = o->sizes,
				   .nsizes = o->nsizes,
				   .streams = o->lists.streams,
				   .nstreams = o->lists.nstreams,
				   .windows = o->lists.windows,
				   .nwindows = o->lists.nwindows,
				   .size_given = o->size_given,
				   .rep = o->rep,
				   .column = o->column };
}

void ig_client_also_opts(const struct ig_client_opts *o,
			 struct ig_client_opts *a)
{
	*a = *o;
	a->host = o->also;
	if (o->also_port)
		a->port = o->also_port;
	a->also = NULL;
	a->column = o->also_label;
	a->ntests = 0;
	for (unsigned int t = 0; t < o->ntests; t++)
		if (ig_test_xport(IG_TESTS, o->tests[t]) == IG_XPORT_TCP)
			a->tests[a->ntests++] = o->tests[t];
}
