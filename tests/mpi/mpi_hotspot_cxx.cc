/* mpi_hotspot_cxx.cc - the same hotspot in C++ (namespaced, overloaded: names must demangle) on one rank: heavy() runs only on rank 0,
 * light() on every rank, an allreduce per iteration.  The 100 % path must be
 * dominated by heavy() (file and line below), the 0 % path must not contain
 * it, and the whole-program MPI profile must show the allreduce waits the
 * other ranks pay.  Work is wall-clock bounded spinning so that it is CPU
 * work (samples land in these loops) whatever the machine's speed. */
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <ctime>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

volatile double sink;


namespace kernels {
__attribute__((noinline)) void heavy(double seconds)
{
    double end = now() + seconds, x = 0;
    while (now() < end)                      /* HEAVY_LOOP */
        for (int i = 0; i < 1000; i++)
            x += i * 0.5;                    /* HEAVY_BODY */
    sink = x;
}
}  // namespace kernels

__attribute__((noinline)) static void light(double seconds)
{
    double end = now() + seconds, x = 0;
    while (now() < end)                      /* LIGHT_LOOP */
        for (int i = 0; i < 1000; i++)
            x += i * 0.25;                   /* LIGHT_BODY */
    sink = x;
}

int main(int argc, char **argv)
{
    int me, np, iters = argc > 1 ? atoi(argv[1]) : 20;
    double hv = argc > 2 ? atof(argv[2]) : 0.02, lt = argc > 3 ? atof(argv[3]) : 0.005;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double sum = 0;
    for (int it = 0; it < iters; it++) {
        if (me == 0)
            kernels::heavy(hv);
        light(lt);
        double v = me + it, r = 0;
        MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sum += r;
    }
    if (me == 0)
        printf("hotspot np=%d iterations=%d sum=%g\n", np, iters, sum);
    MPI_Finalize();
    return 0;
}
