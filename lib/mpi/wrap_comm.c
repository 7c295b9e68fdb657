/* wrap_comm.c - communicator creation and destruction seen by the MPI layer
 * (the generated wrappers of the comm_new / comm_free kinds call these):
 * shadow the new communicator (lib/exchange/comm.c) or free its shadows. */
#include <mpi.h>
#include "mpi/hooks.h"
#include "exchange/comm.h"

void rp_hook_comm_new(MPI_Comm comm)
{
    /* MPI_THREAD_MULTIPLE (rp_rt.local_paths): the shadows' Comm_dup is
     * collective over the new communicator, whose other members may have
     * created it from a thread we pass through: no shadows then. */
    if (rp_rt.local_paths)
        return;
    int rc = comm_register(comm);
    static int warned_foreign;
    if (rc < 0)
        rp_warn(1, "could not shadow a new communicator; paths through it are not followed");
    else if (rc > 0 && !warned_foreign++)
        rp_warn(0, "a communicator reaches beyond MPI_COMM_WORLD (spawn/connect); "
                   "paths through it are not followed");
}

void rp_hook_comm_free(MPI_Comm comm) { comm_unregister(comm); }
