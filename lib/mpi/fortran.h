/* fortran.h - the Fortran layer (lib/mpi/fortran.c, generated lib/mpi/gen_fortran.c;
 * doc/fortran.md) and the helpers the C wrappers export to it, so that the
 * Fortran wrappers share the C wrappers' request logic instead of copying it. */
#ifndef RP_FORTRAN_H
#define RP_FORTRAN_H

#include <mpi.h>
#include "exchange/reqtab.h"

/* Which binding an entry point belongs to (rpf_real's cache index). */
enum { RPF_F77 = 0,     /* mpi_send_ & co: mpif.h and `use mpi` */
       RPF_F08 = 1,     /* mpi_send_f08_: `use mpi_f08` (Open MPI's names) */
       RPF_NABI };

/* Integers in a Fortran status (MPI_STATUS_SIZE).  MPI 4 names it in C;
 * before that it is sizeof(MPI_Status) in MPI_Fint units in Open MPI and
 * MPICH alike. */
#ifdef MPI_F_STATUS_SIZE
#define RPF_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define RPF_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif
#define RPF_STATUS_MAX RPF_STATUS_SIZE

/* The real Fortran binding of function `fn` (pmpi_x_ / pmpi_x_f08_),
 * resolved once with rp_dlnext (dlsym RTLD_NEXT) and cached.  Never NULL: without any
 * binding the process stops with a message. */
void *rpf_real(int fn, int abi);

/* Is this the Fortran MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE sentinel? */
int rpf_status_ignore(const MPI_Fint *st);
int rpf_statuses_ignore(const MPI_Fint *sts);

/* ierror is optional in `use mpi_f08` (NULL when omitted). */
static inline void rpf_set_ierror(MPI_Fint *ierror, MPI_Fint err)
{
    if (ierror)
        *ierror = err;
}

#endif
