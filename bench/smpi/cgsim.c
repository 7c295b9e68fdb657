/* bench/smpi/cgsim.c - the CG-shaped proxy for SimGrid's SMPI: ITERS
 * iterations of WORK_US microseconds of computation followed by an 8-byte
 * MPI_Allreduce (a dot product), on every rank.
 *
 * The computation is smpi_execute_benched(): simulated time on the rank's host,
 * no host CPU, so thousands of simulated ranks cost the simulation only
 * their MPI calls.  Rank 0 prints the simulated time of MPI_Init and of
 * the loop; bench/smpi/run.sh compares them with and without rpprof.
 * Usage: cgsim ITERS WORK_US...: one loop per WORK_US, in one launch (a
 * launch of thousands of simulated ranks costs the host more than the loops).
 * CGSIM_OP=bcast: an 8-byte MPI_Bcast from rank 0 instead of the
 * MPI_Allreduce (the rooted exchange's cost).
 * Built with smpicc only (SMPI's smpi_execute_benched). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    double t_start = MPI_Wtime();   /* simulated: before MPI_Init */
    MPI_Init(&argc, &argv);
    double t_init = MPI_Wtime();
    long iters = argc > 1 ? atol(argv[1]) : 1000;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double x = rank + 1.0, sum = 0;
    const char *op = getenv("CGSIM_OP");
    int bcast = op && strcmp(op, "bcast") == 0;
    if (rank == 0)
        printf("cgsim n=%d iters=%ld init_s=%.6f\n", size, iters, t_init - t_start);
    for (int a = 2; a < (argc > 2 ? argc : 3); a++) {
        double work = (argc > 2 ? atof(argv[a]) : 100.0) * 1e-6;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < iters; i++) {
            smpi_execute_benched(work);  /* the local mat-vec; _benched: the host CPU
                                          * timer stops meanwhile, else it would count
                                          * the other simulated ranks run meanwhile */
            if (bcast) {
                sum = rank == 0 ? x + 1 : 0;
                MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                x = sum;
            } else {
                MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                x = sum / size;
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t1 = MPI_Wtime();
        if (rank == 0)
            printf("cgsim work_us=%g loop_s=%.6f x=%g\n", work * 1e6, t1 - t0, x);
    }
    double t_fin = MPI_Wtime();
    MPI_Finalize();
    double t_end = MPI_Wtime();
    if (rank == 0)
        printf("cgsim finalize_s=%.6f\n", t_end - t_fin);
    return 0;
}
