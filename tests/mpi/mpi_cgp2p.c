/* mpi_cgp2p.c - a conjugate-gradient skeleton in the style of NAS CG
 * (issue 13): every iteration does a mat-vec (work), a halo exchange with
 * both neighbours of a ring, and two dot products reduced by recursive
 * doubling with MPI_Sendrecv (P a power of two; otherwise the ranks above
 * the largest power fold in first) - no collective over MPI_COMM_WORLD
 * during the solve, so the solve is ONE phase with ~6 messages per rank per
 * iteration.
 *
 *     mpi_cgp2p ITERS MATVEC_US
 *
 * matvec() takes MATVEC_US (rank 0 25 % longer: a slower rank makes the
 * critical path), axpy() a fifth of it.  Work is wall-clock (rptest.h). */
#include "rptest.h"

/* noinline: each shows as its own frame (bench/coverage.sh checks the split). */
static __attribute__((noinline)) void matvec(double us) { rpt_sleep_ms(us / 1000.0); }
static __attribute__((noinline)) void axpy(double us) { rpt_sleep_ms(us / 5000.0); }

/* Sum x over all ranks with point-to-point messages only. */
static double p2p_allreduce(double x, int rank, int np, int tag)
{
    int pof2 = 1;
    while (pof2 * 2 <= np)
        pof2 *= 2;
    double y;
    if (rank >= pof2) {                 /* fold in, wait for the result */
        MPI_Send(&x, 1, MPI_DOUBLE, rank - pof2, tag, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_DOUBLE, rank - pof2, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return x;
    }
    if (rank + pof2 < np) {
        MPI_Recv(&y, 1, MPI_DOUBLE, rank + pof2, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        x += y;
    }
    for (int m = 1; m < pof2; m *= 2) {
        MPI_Sendrecv(&x, 1, MPI_DOUBLE, rank ^ m, tag, &y, 1, MPI_DOUBLE, rank ^ m, tag,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        x += y;
    }
    if (rank + pof2 < np)
        MPI_Send(&x, 1, MPI_DOUBLE, rank + pof2, tag, MPI_COMM_WORLD);
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    double us = argc > 2 ? atof(argv[2]) : 500.0;
    double mv = rank == 0 ? 1.25 * us : us;
    double r = 1.0 + rank, halo[2];
    int left = (rank + np - 1) % np, right = (rank + 1) % np;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int it = 0; it < iters; it++) {
        if (np > 1) {
            MPI_Sendrecv(&r, 1, MPI_DOUBLE, right, 1, &halo[0], 1, MPI_DOUBLE, left, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Sendrecv(&r, 1, MPI_DOUBLE, left, 2, &halo[1], 1, MPI_DOUBLE, right, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        matvec(mv);
        double rho = p2p_allreduce(r * r, rank, np, 3);
        axpy(us);
        double pq = p2p_allreduce(r * 0.5, rank, np, 4);
        axpy(us);
        r = 1.0 + rank + (rho - pq) * 1e-9;
    }
    double tot = 0;
    MPI_Allreduce(&r, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("cgp2p np=%d iters=%d checksum=%.9e\n", np, iters, tot);
    MPI_Finalize();
    return 0;
}
