/* mpi_omp.c - an OpenMP region inside each task (MPI_THREAD_FUNNELED).
 *
 * Every iteration each rank runs one OpenMP parallel loop of deterministic
 * integer work (rp_omp_region, outlined by the compiler as
 * rp_omp_region._omp_fn.0), then an MPI_Allreduce on the main thread.  The
 * last rank does HEAVY times more work, so its tasks make the 100 % path.
 * Inside the region, thread 0 (the MPI thread) runs rp_omp_master_kernel and
 * every other thread rp_omp_worker_kernel: the same computation under two
 * names, so that a report showing rp_omp_worker_kernel on a path proves that
 * samples taken on worker threads were charged to the main thread's task.
 * The output depends only on the arithmetic, not on the thread count.
 *
 * With "serialized" as the fourth argument the program asks for
 * MPI_THREAD_SERIALIZED and, after the region, one OpenMP thread per rank
 * makes a second MPI_Allreduce: thread (rank mod threads), so that with two
 * threads the main thread calls it on even ranks and a worker thread on odd
 * ranks.  A profiler that treated the two differently would leave the
 * collectives mismatched (a hang).
 *
 * usage: mpi_omp [iterations [light-units [heavy-factor [serialized]]]] */
#include <mpi.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNKS 64

/* The same loop twice (not a shared helper: an inlined helper would be
 * what the report names). */
__attribute__((noinline)) uint64_t rp_omp_master_kernel(uint64_t x, long n)
{
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;   /* MASTER_BODY */
        x ^= x >> 29;
    }
    return x;
}

__attribute__((noinline)) uint64_t rp_omp_worker_kernel(uint64_t x, long n)
{
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;   /* WORKER_BODY */
        x ^= x >> 29;
    }
    return x;
}

__attribute__((noinline)) static uint64_t rp_omp_region(int it, int rank, long units)
{
    uint64_t acc = 0;
#pragma omp parallel for schedule(static) reduction(+ : acc)
    for (int c = 0; c < CHUNKS; c++) {
        uint64_t seed = (uint64_t)it * 1000003u + (uint64_t)rank * 7919u + (uint64_t)c;
        acc += omp_get_thread_num() == 0 ? rp_omp_master_kernel(seed, units)
                                         : rp_omp_worker_kernel(seed, units);
    }
    return acc;
}

/* The second allreduce, made by one OpenMP thread (MPI_THREAD_SERIALIZED). */
__attribute__((noinline)) static uint64_t rp_omp_serial_call(uint64_t mine, int rank)
{
    uint64_t all = 0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == rank % omp_get_num_threads())
            MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    }
    return all;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 12;
    long units = argc > 2 ? atol(argv[2]) : 50000;    /* per chunk, light ranks */
    long heavy = argc > 3 ? atol(argv[3]) : 4;
    int serialized = argc > 4 && strcmp(argv[4], "serialized") == 0;
    int want = serialized ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED;
    int provided, me, np;
    MPI_Init_thread(&argc, &argv, want, &provided);
    if (provided < want) {
        fprintf(stderr, "thread level %d not provided (%d)\n", want, provided);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    uint64_t total = 0;
    for (int it = 0; it < iters; it++) {
        long n = me == np - 1 ? units * heavy : units;
        uint64_t mine = rp_omp_region(it, me, n), all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_BXOR, MPI_COMM_WORLD);
        total += all;
        if (serialized)
            total ^= rp_omp_serial_call(mine, me);
        if (me == 0 && (it == 0 || it == iters - 1))
            printf("iteration %d: %016llx\n", it, (unsigned long long)all);
    }
    if (me == 0)
        printf("omp np=%d iterations=%d total=%016llx\n", np, iters, (unsigned long long)total);
    MPI_Finalize();
    return 0;
}
