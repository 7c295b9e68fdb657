/* tests/smpi/smpi_mix.c - the SimGrid/SMPI port's test program (doc/smpi.md).
 *
 * ITERS iterations on every rank of: simulated computation whose length
 * depends on the rank and the iteration, an exchange with both ring
 * neighbours (MPI_Irecv/MPI_Isend/MPI_Waitall), then an 8-byte
 * MPI_Allreduce; an MPI_Bcast from rank 1 every fifth iteration.  So the
 * critical path crosses ranks at messages and phases end at collectives,
 * and each rank's computation is known exactly (tests/smpi/test_smpi.sh
 * recomputes it: work(r, i) below).
 *
 * The computation is smpi_execute_benched(): simulated time, no host CPU,
 * so task costs under the simulated clock are exactly these amounts.  Rank 0
 * prints the simulated time of the loop.  Built with smpicc only. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* microseconds of computation of rank r in iteration i: 20..100, plus
 * 5 a rank (an imbalance) */
static double work_us(int r, long i)
{
    return 20.0 * (1 + (r * 7 + i * 3) % 5) + 5.0 * r;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long iters = argc > 1 ? atol(argv[1]) : 20;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    double x = rank + 1.0, sum = 0, in[2], out = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        smpi_execute_benched(work_us(rank, i) * 1e-6);
        MPI_Request rq[4];
        out = x;
        MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(&in[1], 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &rq[1]);
        MPI_Isend(&out, 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &rq[2]);
        MPI_Isend(&out, 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &rq[3]);
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        x = (in[0] + in[1] + x) / 3;
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (i % 5 == 4)
            MPI_Bcast(&sum, 1, MPI_DOUBLE, size > 1 ? 1 : 0, MPI_COMM_WORLD);
        x = sum / size;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    if (rank == 0)
        printf("smpi_mix n=%d iters=%ld loop_s=%.9f x=%.6f\n", size, iters, t1 - t0, x);
    MPI_Finalize();
    return 0;
}
