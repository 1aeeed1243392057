/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_MPI_QUIET_H
#define IG_FAB_MPI_QUIET_H

#include <mpi.h>

/* The collectives and the receive ibgap-fabric waits in, made quiet: the
 * nonblocking call, then MPI_Test with a sleep between tests (from
 * IG_MPI_NAP_MIN_US doubling to IG_MPI_NAP_MAX_US) instead of MPI's
 * progress loop, which spins a CPU for as long as the wait lasts.  A rank
 * waits through every round it does not measure in and, as a pair's
 * server, through its own server thread's measuring: spinning, it takes
 * the CPU a measurement on its node needs.  Each returns MPI's status. */
#define IG_MPI_NAP_MIN_US 20
#define IG_MPI_NAP_MAX_US 1000

int ig_mpi_barrier(MPI_Comm comm);
int ig_mpi_bcast(void *buf, int count, MPI_Datatype type, int root,
		 MPI_Comm comm);
int ig_mpi_gather(const void *sbuf, int scount, void *rbuf, int rcount,
		  int root, MPI_Comm comm);
int ig_mpi_allgather(const void *sbuf, int scount, void *rbuf, int rcount,
		     MPI_Comm comm);
int ig_mpi_allreduce_int(const int *in, int *out, MPI_Op op, MPI_Comm comm);
int ig_mpi_recv(void *buf, int count, int src, int tag, MPI_Comm comm);

#endif
