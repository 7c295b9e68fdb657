/* launcher.h - what the launcher tells a process before MPI can be asked.
 * Shared by the shim (librpprof.so, linked with no MPI) and the MPI layer
 * of the profiler: both say things once per job, on rank 0. */
#ifndef RP_MPI_LAUNCHER_H
#define RP_MPI_LAUNCHER_H

#include <stdlib.h>
#include <string.h>

/* Is this process rank 0 of its job, as far as the launcher tells (Open
 * MPI, PMI, PMIx)?  1 when no launcher variable says. */
static inline int rp_launcher_rank0(void)
{
    static const char *const rankvars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    const char *r = NULL;
    for (unsigned i = 0; i < 3 && !r; i++)
        r = getenv(rankvars[i]);
    return !r || !strcmp(r, "0");
}

#endif
