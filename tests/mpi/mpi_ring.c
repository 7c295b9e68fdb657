/* Ring pipeline (test a): rank 0 works T then sends a token to rank 1; every
 * rank r > 0 receives from r-1, works T and sends to r+1; the last rank
 * receives and works T.  Then MPI_Finalize (one phase).
 *
 *   critical (100 %) path = P*T : the chain through every rank's T task.
 *   least    (  0 %) path = T   : every path from MPI_Init to MPI_Finalize
 *                                 contains exactly one rank's T task at least
 *                                 (rank 0's own path is T; rank r>0's own
 *                                 path is ~0 before its receive, then T).
 *
 * usage: mpi_ring [T_ms]   (default 30 ms).  Prints one deterministic line.
 */
#include "rptest.h"

int main(int argc, char **argv)
{
    int me, np, token = 0;
    double t_ms = argc > 1 ? atof(argv[1]) : 30.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    if (me == 0) {
        rpt_sleep_ms(t_ms);
        token = 1000;
        if (np > 1)
            MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        MPI_Recv(&token, 1, MPI_INT, me - 1, 7, MPI_COMM_WORLD, &st);
        RPT_CHECK(st.MPI_SOURCE == me - 1 && st.MPI_TAG == 7);
        token += me;
        rpt_sleep_ms(t_ms);
        if (me < np - 1)
            MPI_Send(&token, 1, MPI_INT, me + 1, 7, MPI_COMM_WORLD);
    }
    if (me == np - 1) {
        printf("ring np=%d token=%d\n", np, token);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
