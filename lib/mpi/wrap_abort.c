/* wrap_abort.c - MPI_Abort (C and Fortran bindings): the aborting rank
 * writes its file (the completed phases) before the real MPI_Abort; the
 * other ranks keep their last checkpoint (doc/robustness.md). */
#include <mpi.h>
#include "mpi/hooks.h"
#include "runtime/fault.h"
#include "mpi/fortran.h"
#include "mpi/gen_fortran.h"

RP_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    if (rp_active()) {
        rp_enter(RP_FN_MPI_Abort);
        rp_fault_save("MPI_Abort");
    }
    return PMPI_Abort(comm, errorcode);
}

/* The Fortran binding: mpi_abort_ & co. call this with the real binding
 * found by rpf_real. */
void rpf_MPI_Abort(int abi, MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierror)
{
    rpf_t_MPI_Abort *real = (rpf_t_MPI_Abort *)rpf_real(RP_FN_MPI_Abort, abi);
    if (rp_active()) {
        rp_enter(RP_FN_MPI_Abort);
        rp_fault_save("MPI_Abort");
    }
    real(comm, errorcode, ierror);
}
