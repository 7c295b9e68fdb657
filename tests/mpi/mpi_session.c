/* mpi_session.c - an MPI-4 program that starts MPI by MPI_Session_init alone
 * (tests/mpi/test_pcoll.sh): a communicator from the "mpi://WORLD" process
 * set, one MPI_Allreduce on it.  rpprof does not profile sessions; it must
 * leave the program's results alone and say so (doc/design.md, "MPI-4").
 * Under an MPI-3 library one line says there are no sessions. */
#include <mpi.h>
#include <stdio.h>
#include "rptest.h"

#if MPI_VERSION >= 4

int main(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    int me, np, x, y = 0;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "org.rpprof.test", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c);
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &np);
    x = me + 1;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
    if (me == 0)
        printf("mpi_session: %d ranks, sum %d\n", np, y);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Session_finalize(&s);
    return y == np * (np + 1) / 2 ? 0 : 1;
}

#else /* an MPI-3 library */

int main(int argc, char **argv)
{
    return rpt_mpi3_main(argc, argv, "mpi_session", "sessions");
}

#endif
