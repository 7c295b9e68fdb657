/* bench/space_stencil.c - the iterative program of bench/space.sh: a 1-D
 * halo-exchange stencil whose "work" is nanosleep, so that 16 ranks
 * oversubscribed on two cores still run in seconds.
 *
 * Every iteration: work of 100..400 us (rank-dependent, with some noise),
 * halo exchange with both neighbours (MPI_Irecv, MPI_Isend, MPI_Waitall);
 * every 4th iteration an MPI_Allreduce over MPI_COMM_WORLD (a phase end).
 *
 * usage: space_stencil [iterations]     (default 50) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void work_us(long us)
{
    struct timespec t = {0, us * 1000};
    while (nanosleep(&t, &t) != 0)
        ;
}

int main(int argc, char **argv)
{
    int me, np, iters = argc > 1 ? atoi(argv[1]) : 50;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    unsigned s = 12345u + (unsigned)me * 7919u;
    double halo[2] = {me, me}, in[2] = {0, 0}, sum = 0;
    int left = (me + np - 1) % np, right = (me + 1) % np;
    for (int it = 0; it < iters; it++) {
        s = s * 1103515245u + 12345u;
        work_us(100 + 100 * (me % 3) + (long)(s >> 16) % 100);
        if (np > 1) {
            MPI_Request rq[4];
            MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(&in[1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[1]);
            MPI_Isend(&halo[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[2]);
            MPI_Isend(&halo[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[3]);
            MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        }
        halo[0] = halo[1] = 0.5 * (in[0] + in[1]) + 1.0;
        if (it % 4 == 3) {
            double r = halo[0], t = 0;
            MPI_Allreduce(&r, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            sum += t;
        }
    }
    if (me == 0)
        printf("space_stencil ranks=%d iterations=%d sum=%g\n", np, iters, sum);
    MPI_Finalize();
    return 0;
}
