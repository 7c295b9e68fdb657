/* Non-blocking collectives (timing): 3 iterations; rank r works 10*(r+1) ms,
 * starts Iallreduce, Ibcast and Igather, works 5 ms, completes them with
 * Waitall, then an Ibarrier completed by a Test loop.  The path exchange
 * joins at completion with every member's set as of its call:
 *
 *   100 % = 3 * (10*P + 5) ms   (the slowest rank's own path)
 *   0 %   = 3 * 10 ms           (rank 0's work, joined into a member's wait)
 *
 * usage: mpi_nbc [iterations] */
#include "rptest.h"

int main(int argc, char **argv)
{
    int me, np, iters = argc > 1 ? atoi(argv[1]) : 3;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int *g = calloc((size_t)np, sizeof *g);
    for (int it = 0; it < iters; it++) {
        double x = me + it, y = 0;
        int b = me == 0 ? 7 + it : 0, s = 0, done = 0;
        MPI_Request r[3], rb;
        rpt_sleep_ms(10.0 * (me + 1));
        MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[0]);
        MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Igather(&me, 1, MPI_INT, g, 1, MPI_INT, np - 1, MPI_COMM_WORLD, &r[2]);
        rpt_sleep_ms(5.0);
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        if (me == np - 1)
            for (int i = 0; i < np; i++)
                s += g[i];
        MPI_Ibarrier(MPI_COMM_WORLD, &rb);
        while (!done)
            MPI_Test(&rb, &done, MPI_STATUS_IGNORE);
        rpt_out("rank %d it %d sum %g bcast %d gathered %d\n", me, it, y, b, s);
    }
    rpt_flush();
    free(g);
    MPI_Finalize();
    return 0;
}
