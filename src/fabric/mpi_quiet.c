// SPDX-License-Identifier: MIT
/* Quiet waits for ibgap-fabric's collectives (mpi_quiet.h). */
#include <time.h>

#include "mpi_quiet.h"

static void nap(long us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = us * 1000 };

	nanosleep(&ts, NULL);
}

/* Tests req until it is done, napping between tests. */
static int quiet_wait(MPI_Request *req)
{
	long us = IG_MPI_NAP_MIN_US;
	int done = 0, ret;

	for (;;) {
		ret = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (ret != MPI_SUCCESS || done)
			return ret;
		nap(us);
		us = us * 2 < IG_MPI_NAP_MAX_US ? us * 2 : IG_MPI_NAP_MAX_US;
	}
}

/* ret, the nonblocking call's status: its wait's, if it started */
static int waited(int ret, MPI_Request *req)
{
	return ret == MPI_SUCCESS ? quiet_wait(req) : ret;
}

int ig_mpi_barrier(MPI_Comm comm)
{
	MPI_Request req;

	return waited(MPI_Ibarrier(comm, &req), &req);
}

int ig_mpi_bcast(void *buf, int count, MPI_Datatype type, int root,
		 MPI_Comm comm)
{
	MPI_Request req;

	return waited(MPI_Ibcast(buf, count, type, root, comm, &req), &req);
}

int ig_mpi_gather(const void *sbuf, int scount, void *rbuf, int rcount,
		  int root, MPI_Comm comm)
{
	MPI_Request req;

	return waited(MPI_Igather(sbuf, scount, MPI_BYTE, rbuf, rcount,
				  MPI_BYTE, root, comm, &req),
		      &req);
}

int ig_mpi_allgather(const void *sbuf, int scount, void *rbuf, int rcount,
		     MPI_Comm comm)
{
	MPI_Request req;

	return waited(MPI_Iallgather(sbuf, scount, MPI_BYTE, rbuf, rcount,
				     MPI_BYTE, comm, &req),
		      &req);
}

int ig_mpi_allreduce_int(const int *in, int *out, MPI_Op op, MPI_Comm comm)
{
	MPI_Request req;

	return waited(MPI_Iallreduce(in, out, 1, MPI_INT, op, comm, &req),
		      &req);
}

int ig_mpi_recv(void *buf, int count, int src, int tag, MPI_Comm comm)
{
	MPI_Request req;

	return waited(MPI_Irecv(buf, count, MPI_BYTE, src, tag, comm, &req),
		      &req);
}
