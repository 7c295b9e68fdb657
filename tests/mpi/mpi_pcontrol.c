/* mpi_pcontrol.c - MPI_Pcontrol as mpiP users expect (tests/mpi/test_pcontrol.sh):
 * every iteration runs paused_work() between MPI_Pcontrol(0) and
 * MPI_Pcontrol(1), then open_work(), then an allreduce.  paused_work() takes
 * twice as long as open_work(), so if pausing did nothing it would be the
 * top hotspot; with the pause it must have no sampled time at all, while
 * the path costs still include it.  "nopause" as the first argument leaves
 * the MPI_Pcontrol calls out (the control run: paused_work() must then
 * show up).  Work is wall-clock bounded spinning (samples land in the loops
 * whatever the machine's speed). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

volatile double sink;

__attribute__((noinline)) static void paused_work(double seconds)
{
    double end = now() + seconds, x = 0;
    while (now() < end)
        for (int i = 0; i < 1000; i++)
            x += i * 0.5;
    sink = x;
}

__attribute__((noinline)) static void open_work(double seconds)
{
    double end = now() + seconds, x = 0;
    while (now() < end)
        for (int i = 0; i < 1000; i++)
            x += i * 0.25;
    sink = x;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int pause = !(argc > 1 && !strcmp(argv[1], "nopause"));
    int iters = argc > 2 ? atoi(argv[2]) : 20;
    double t = argc > 3 ? atof(argv[3]) : 0.01;
    double sum = 0;
    for (int it = 0; it < iters; it++) {
        if (pause)
            MPI_Pcontrol(0);
        paused_work(2 * t);
        if (pause)
            MPI_Pcontrol(1);
        open_work(t);
        double v = me + it, r = 0;
        MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sum += r;
    }
    if (me == 0)
        printf("pcontrol np=%d pause=%d iterations=%d sum=%g\n", np, pause, iters, sum);
    MPI_Finalize();
    return 0;
}
