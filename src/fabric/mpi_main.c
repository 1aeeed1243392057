// SPDX-License-Identifier: MIT
/*
 * ibgap-fabric: many host pairs at once (docs/fabric.md).  MPI only
 * bootstraps (ranks, addresses, a barrier a round, the gather of results
 * to rank 0); the traffic goes through ibgap's engine between the two
 * ranks of a pair: each rank serves in-process and is the client of its
 * pairs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "common/clock.h"
#include "fab.h"
#include "mpi_quiet.h"
#include "mpi_run.h"
#include "slurm.h"
#include "sample.h"

/* The in-process server: the first free port from o->port. */
static int srv_start(struct ig_fab *f, int *port, char *err, size_t errlen)
{
	const struct ig_fab_opts *o = &f->o;
	unsigned int max = f->n < IG_FAB_MAX_SESSIONS ? f->n
						      : IG_FAB_MAX_SESSIONS;
	int ret = -EADDRINUSE;

	for (int i = 0; i < IG_FAB_PORT_TRIES && o->port + i <= 65535; i++) {
		char ps[16];
		struct ig_server_opts so = { .port = ps,
					     .timeout_ms = (int)o->p.timeout_ms,
					     .max_sessions = max };

		snprintf(ps, sizeof(ps), "%d", o->port + i);
		ret = ig_run_server_start(&f->srv, &so, err, errlen);
		if (!ret)
			break;
		if (ret != -EADDRINUSE)
			return ret;
	}
	if (ret)
		return ret;
	*port = ig_run_server_port(&f->srv);
	return 0;
}

/* Rank 0, before any time is spent on tests: the files it will write
 * and, for --drain, Slurm (else 2), --topology read (else 3), and --baseline
 * read and checked (else 3), kept for the end.  0, or the exit status after one
 * line. */
static int rank0_files(struct ig_fab *f)
{
	char err[512];

	if (f->me)
		return 0;
	if (ig_fab_opts_paths(&f->o, err, sizeof(err)) ||
	    (f->o.drain && ig_slurm_check(true, err, sizeof(err)))) {
		fprintf(stderr, "ibgap-fabric: %s\n", err);
		return 2;
	}
	if (f->o.topology &&
	    ig_topo_read(f->o.topology, &f->topo, err, sizeof(err))) {
		fprintf(stderr, "ibgap-fabric: %s\n", err);
		return 3;
	}
	f->have_topo = f->o.topology != NULL;
	if (!f->o.baseline || !ig_fab_baseline_load(f->o.baseline, &f->baseline,
						    err, sizeof(err)))
		return 0;
	fprintf(stderr, "ibgap-fabric: %s\n", err);
	return 3;
}

/* Options on every rank; one line from rank 0 on a bad one. */
static int options(struct ig_fab *f, int argc, char **argv)
{
	char err[512];
	int ret = ig_fab_opts_parse(argc, argv, &f->o, err, sizeof(err));

	if (ret == 1) {
		if (!f->me)
			ig_fab_usage(stdout);
		return 0;
	}
	if (!ret && f->n < 2) {
		snprintf(err, sizeof(err),
			 "%u rank(s): a fabric needs at least 2 (mpirun -np N, "
			 "N >= 2)",
			 f->n);
		ret = -EINVAL;
	}
	if (!ret && f->o.root >= f->n) {
		snprintf(err, sizeof(err),
			 "--root: '%u' is not a rank: allowed 0 to %u",
			 f->o.root, f->n - 1);
		ret = -EINVAL;
	}
	if (!ret && f->o.per_node > ig_fab_per_node_max(f->n)) {
		snprintf(err, sizeof(err),
			 "--per-node: '%u' is more than half of the %u ranks: "
			 "allowed 1 to %u",
			 f->o.per_node, f->n, ig_fab_per_node_max(f->n));
		ret = -EINVAL;
	}
	if (ret && !f->me)
		fprintf(stderr, "ibgap-fabric: %s\n", err);
	if (ret)
		return 2;
	ret = rank0_files(f);
	ig_mpi_bcast(&ret, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return ret ? ret : -1;
}

/* --rails: this rank's rails, announced in me; 0, 2 for a bad list, 1
 * for another failure, with one line in err. */
static int rails(struct ig_fab *f, struct ig_fab_info *me, char *err,
		 size_t errlen)
{
	int ret;

	if (!f->o.rails)
		return 0;
	f->rails = calloc(1, sizeof(*f->rails));
	if (!f->rails) {
		snprintf(err, errlen, "--rails: out of memory");
		return 1;
	}
	ret = ig_rails_load(f->o.rails_list, f->rails, err, errlen);
	if (ret)
		return ret == -EINVAL ? 2 : 1;
	ig_fab_rails_announce(f->rails, me);
	return 0;
}

/* A failed start: one line, from the first rank that failed (the rest
 * would mostly repeat it); every rank returns the worst status. */
static int bootstrap_fail(const struct ig_fab *f, int bad, const char *host,
			  const char *err)
{
	int first, any, mine = bad ? (int)f->me : (int)f->n;

	ig_mpi_allreduce_int(&bad, &any, MPI_MAX, MPI_COMM_WORLD);
	if (!any)
		return 0;
	ig_mpi_allreduce_int(&mine, &first, MPI_MIN, MPI_COMM_WORLD);
	if (first == (int)f->me)
		fprintf(stderr, "ibgap-fabric: rank %u (%s): %s\n", f->me, host,
			err);
	return any;
}

/* Each rank's address, rails and server; every rank learns all of them.
 * Returns 0, or the exit status (2 for a bad --rails list, else 1) after
 * one line from the first rank that failed. */
static int bootstrap(struct ig_fab *f)
{
	struct ig_fab_info me = { 0 };
	char err[512] = "";
	int bad = 0;

	gethostname(me.host, sizeof(me.host) - 1);
	ig_fab_slurm_node(me.host, me.node, sizeof(me.node));
	bad = rails(f, &me, err, sizeof(err));
	if (!bad && (ig_fab_addr(f->o.addr, &me, err, sizeof(err)) ||
		     srv_start(f, &me.port, err, sizeof(err))))
		bad = 1;
	else if (!bad)
		f->srv_up = true;
	bad = bootstrap_fail(f, bad, me.host, err);
	if (bad)
		return bad;
	f->info = calloc(f->n, sizeof(*f->info));
	if (!f->info)
		MPI_Abort(MPI_COMM_WORLD, 1);
	ig_mpi_allgather(&me, sizeof(me), f->info, sizeof(me), MPI_COMM_WORLD);
	for (unsigned int i = 0; !f->me && i < f->n; i++)
		if (!f->info[i].rdma)
			fprintf(stderr,
				"ibgap-fabric: rank %u (%s, %s, %s): its "
				"pairs run TCP only\n",
				i, f->info[i].host, f->info[i].addr,
				f->info[i].addr_why);
	return 0;
}

/* --resume runs once, not as a rank: 0, or 2 after one line. */
static int not_launched(void)
{
	static const char *const launched[] = { "OMPI_COMM_WORLD_SIZE",
						"PMIX_RANK", "PMI_RANK" };

	for (size_t i = 0; i < sizeof(launched) / sizeof(*launched); i++) {
		if (!getenv(launched[i]))
			continue;
		fprintf(stderr,
			"ibgap-fabric: --resume runs once, as a plain process "
			"(not under mpirun or srun): %s is set\n",
			launched[i]);
		return 2;
	}
	return 0;
}

/* --resume: one plain process, no MPI (docs/fabric.md "Slurm"); the exit
 * status: 0 done, 1 a Slurm command failed, 2 bad usage or no Slurm. */
static int resume(int argc, char **argv)
{
	struct ig_slurm_out out;
	struct ig_fab_opts o;
	char err[512];
	int ret = ig_fab_opts_parse(argc, argv, &o, err, sizeof(err));

	if (ret == 1) {
		ig_fab_usage(stdout);
		return 0;
	}
	if (!ret && ig_slurm_check(false, err, sizeof(err)))
		ret = -ENOTSUP;
	if (ret) {
		fprintf(stderr, "ibgap-fabric: %s\n", err);
		return 2;
	}
	if (not_launched())
		return 2;
	ret = ig_slurm_resume(&out, stderr);
	if (ret == -ENOMEM)
		fprintf(stderr, "ibgap-fabric: --resume: out of memory\n");
	if (!ret)
		ig_slurm_resume_text(stdout, &out);
	ret = ret || out.failed ? 1 : 0;
	ig_slurm_out_free(&out);
	return ret;
}

/* Whether argv asks for --resume (before MPI: that runs without it). */
static bool resume_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--resume"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct ig_fab f = { 0 };
	int rank, size, ret;

	if (resume_asked(argc, argv))
		return resume(argc, argv);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	signal(SIGPIPE, SIG_IGN);
	f.me = (unsigned int)rank;
	f.n = (unsigned int)size;
	ret = options(&f, argc, argv);
	if (ret < 0 && !(ret = bootstrap(&f)))
		ret = ig_fab_mpi_run(&f);
	/* nobody is measured any more once every rank is here (every
	 * rank: a start that failed on some left the others' servers up) */
	ig_mpi_barrier(MPI_COMM_WORLD);
	if (f.srv_up)
		ig_run_server_stop(&f.srv);
	free(f.info);
	free(f.rails);
	json_object_put(f.baseline);
	ig_topo_free(&f.topo);
	MPI_Finalize();
	return ret;
}
