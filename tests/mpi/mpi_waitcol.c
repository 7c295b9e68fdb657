/* mpi_waitcol.c - a rank that waits long inside MPI (issue 16): rank 1
 * sleeps ITERS x MS milliseconds (nanosleep) before each send, rank 0 waits
 * in MPI_Recv for it, then works (sleeps) MS/2 ms itself, so its task
 * samples show whether the timer ran at its full rate again after each
 * wait.  Rank 0 prints its measured wait on stdout ("wait_s <seconds>"),
 * the truth for the MPI column of the profile. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, x = 0, iters = argc > 1 ? atoi(argv[1]) : 5;
    long ms = argc > 2 ? atol(argv[2]) : 300;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    double wait = 0;
    for (int i = 0; i < iters; i++) {
        if (rank == 1) {
            struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
            MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        } else if (rank == 0) {
            double t0 = MPI_Wtime();
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            wait += MPI_Wtime() - t0;
            struct timespec ts = {ms / 2000, (ms % 2000) * 500000L};
            nanosleep(&ts, NULL);
        }
    }
    if (rank == 0)
        printf("wait_s %.6f\n", wait);
    MPI_Finalize();
    return 0;
}
