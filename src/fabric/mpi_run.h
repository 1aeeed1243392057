/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_MPI_RUN_H
#define IG_FAB_MPI_RUN_H

#include "fab.h"
#include "run/run.h"

/* incast: every rank's server takes up to this many clients at once */
#define IG_FAB_MAX_SESSIONS 1024
/* flagged measurements measured again at the end, at most */
#define IG_FAB_MAX_RETEST 256

/* This rank: its options, place, the others' data addresses, its
 * in-process server (mpi_main.c). */
struct ig_fab {
	struct ig_fab_opts o;
	unsigned int me, n;
	struct ig_fab_info *info; /* n, the same on every rank */
	struct ig_run_server srv; /* its in-process server */
	bool srv_up;
	json_object *baseline; /* rank 0: --baseline's document, or NULL */
	struct ig_topo topo;   /* rank 0: --topology's graph */
	bool have_topo;
	/* --rails: this rank's rails (the announced ones, whole), NULL
	 * without */
	struct ig_rails *rails;
};

/* The rounds, the retests, the verdicts, the doctor on the nodes whose
 * TCP is low, the report (rank 0); every rank calls it.  Returns the exit
 * status: 0, 1 after a regression against --baseline, a failed write,
 * or nothing measured (ig_fab_nothing). */
int ig_fab_mpi_run(struct ig_fab *f);

#endif
