/* examples/imbalance.c - a load-imbalanced BSP stencil, the classic case for
 * representative paths.
 *
 * Each rank owns a slab of a 1-D grid.  Every iteration it exchanges halo
 * cells with its neighbours (MPI_Isend/MPI_Irecv/MPI_Waitall), relaxes its
 * slab (light(), the same work everywhere), rank 0 alone does extra work
 * (heavy()), and all ranks agree on the residual with MPI_Allreduce.
 *
 * A plain profile shows the other ranks waiting in MPI_Allreduce; the
 * representative paths show that the 100 % path runs through heavy() on
 * rank 0 while the 0 % path has none of it, and by how much they differ:
 *
 *   mpirun -np 4 rp-run --period 1000 ./imbalance && rp-report rpprof-imbalance-*
 *
 * usage: imbalance [iterations [cells-per-rank [heavy-factor [sleep]]]]
 *        (defaults 30, 2000000, 3: rank 0 works (1 + 3) times as long;
 *        "sleep": each sweep waits 1 ns a cell instead of computing, and
 *        the grid is not set up, so the timing holds on a loaded machine -
 *        tests/mpi/test_diff.sh)
 *
 * The defaults are the quick start's demo (quickstart.sh demo): a task of a
 * light rank is ~6 ms, so at 1 kHz every path's profile locates >= 90 % of
 * its cost (tests/mpi/test_demo.sh checks that no path is flagged LOW).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double *u, *v;
static int n, sleepy;
static long sleep_ns;   /* sleep mode: a sweep's wait */

/* one Jacobi sweep over the slab; returns the squared change */
static __attribute__((noinline)) double sweep(void)
{
    double r = 0.0;
    int i;
    if (sleepy) {   /* wall-clock work: 1 ns a cell */
        struct timespec ts = { sleep_ns / 1000000000, sleep_ns % 1000000000 };
        while (nanosleep(&ts, &ts) != 0)
            ;
        return 1.0;
    }
    for (i = 1; i <= n; i++) {
        v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
        r += (v[i] - u[i]) * (v[i] - u[i]);
    }
    for (i = 1; i <= n; i++)
        u[i] = v[i];
    return r;
}

/* work every rank does */
static __attribute__((noinline)) double light(void)
{
    return sweep();
}

/* extra work only rank 0 does: the imbalance */
static __attribute__((noinline)) double heavy(int factor)
{
    double r = 0.0;
    int k;
    for (k = 0; k < factor; k++)
        r += sweep();
    return r;
}

static void halo(int me, int np)
{
    MPI_Request rq[4];
    int nr = 0, left = me - 1, right = me + 1;
    if (left >= 0) {
        MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[nr++]);
        MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[nr++]);
    }
    if (right < np) {
        MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[nr++]);
        MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[nr++]);
    }
    MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    int me, np, it, i, iters, factor;
    double res = 0.0, t0, t1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    iters = argc > 1 ? atoi(argv[1]) : 30;
    n = argc > 2 ? atoi(argv[2]) : 2000000;
    factor = argc > 3 ? atoi(argv[3]) : 3;
    sleepy = argc > 4 && !strcmp(argv[4], "sleep");
    if (iters < 1 || n < 1 || factor < 0 || (argc > 4 && !sleepy)) {
        if (me == 0)
            fprintf(stderr, "usage: %s [iterations [cells-per-rank [heavy-factor [sleep]]]]\n",
                    argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (sleepy) {   /* no grid to set up: nothing but the waits takes time */
        sleep_ns = n;
        n = 16;
    }
    u = calloc((size_t)n + 2, sizeof *u);
    v = calloc((size_t)n + 2, sizeof *v);
    if (!u || !v)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 1; i <= n; i++)
        u[i] = (double)((me * n + i) % 17);

    t0 = MPI_Wtime();
    for (it = 0; it < iters; it++) {
        double local;
        halo(me, np);
        local = light();
        if (me == 0)
            local += heavy(factor);
        MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    t1 = MPI_Wtime();
    if (me == 0)
        printf("imbalance: %d ranks, %d iterations, residual %.6e, %.3f s\n", np, iters, res,
               t1 - t0);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
