/* mpi_wavefront.c - a pipelined wavefront in the style of NAS LU (issue 13):
 * the ranks form a chain; each sweep pushes NB blocks down the chain
 * (blocking Recv from the left, work, blocking Send to the right) and then
 * NB blocks back up (lower then upper triangular solve).  No collective over
 * MPI_COMM_WORLD between MPI_Init's barrier and the final reduction, so the
 * whole solve is ONE phase, and the critical path crosses ranks about
 * 2 * NB * SWEEPS * (P - 1) times.
 *
 *     mpi_wavefront SWEEPS NB BLOCK_US
 *
 * Work is wall-clock (nanosleep, rptest.h) so the proxy holds its timing
 * when ranks oversubscribe cores: lower_block() takes BLOCK_US, upper_block()
 * 1.5 * BLOCK_US, and rank 0 adds rhs() of BLOCK_US per sweep.  Prints a
 * checksum that does not depend on timing. */
#include "rptest.h"

/* noinline: each shows as its own frame, so bench/coverage.sh can check how
 * a path's located time splits between them (expected ~40/60 %). */
static __attribute__((noinline)) void lower_block(double us) { rpt_sleep_ms(us / 1000.0); }
static __attribute__((noinline)) void upper_block(double us) { rpt_sleep_ms(1.5 * us / 1000.0); }
static __attribute__((noinline)) void rhs(double us) { rpt_sleep_ms(us / 1000.0); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int sweeps = argc > 1 ? atoi(argv[1]) : 20;
    int nb = argc > 2 ? atoi(argv[2]) : 50;
    double us = argc > 3 ? atof(argv[3]) : 200.0;
    double v[4] = { rank + 1.0, 0, 0, 0 };
    double sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int s = 0; s < sweeps; s++) {
        if (rank == 0)
            rhs(us);
        for (int b = 0; b < nb; b++) {          /* lower sweep: 0 -> P-1 */
            if (rank > 0)
                MPI_Recv(v, 4, MPI_DOUBLE, rank - 1, b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            lower_block(us);
            v[0] = v[0] * 0.5 + rank + b;
            if (rank < np - 1)
                MPI_Send(v, 4, MPI_DOUBLE, rank + 1, b, MPI_COMM_WORLD);
        }
        for (int b = 0; b < nb; b++) {          /* upper sweep: P-1 -> 0 */
            if (rank < np - 1)
                MPI_Recv(v, 4, MPI_DOUBLE, rank + 1, b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            upper_block(us);
            v[0] = v[0] * 0.5 - rank + b;
            if (rank > 0)
                MPI_Send(v, 4, MPI_DOUBLE, rank - 1, b, MPI_COMM_WORLD);
        }
        sum += v[0];
    }
    double tot = 0;
    MPI_Allreduce(&sum, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("wavefront np=%d sweeps=%d nb=%d checksum=%.6e\n", np, sweeps, nb, tot);
    MPI_Finalize();
    return 0;
}
