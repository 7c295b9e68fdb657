/* mpi_sigblock.c - a program that keeps SIGPROF from the profiler:
 *   mpi_sigblock block     sigprocmask(SIG_BLOCK, SIGPROF) after MPI_Init
 *   mpi_sigblock pthread   pthread_sigmask(SIG_BLOCK, SIGPROF) after MPI_Init
 *   mpi_sigblock ignore    signal(SIGPROF, SIG_IGN) after MPI_Init
 *   mpi_sigblock none      nothing (reference)
 * then computes for about 0.3 s between barriers (tests/mpi/test_silence.sh). */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *how = argc > 1 ? argv[1] : "none";
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPROF);
    if (!strcmp(how, "block"))
        sigprocmask(SIG_BLOCK, &set, NULL);
    else if (!strcmp(how, "pthread"))
        pthread_sigmask(SIG_BLOCK, &set, NULL);
    else if (!strcmp(how, "ignore"))
        signal(SIGPROF, SIG_IGN);
    volatile double x = 0;
    for (int it = 0; it < 10; it++) {
        double t0 = now();
        while (now() - t0 < 0.03)
            for (int i = 0; i < 1000; i++)
                x += i * 0.5;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("done %s\n", how);
    MPI_Finalize();
    return 0;
}
