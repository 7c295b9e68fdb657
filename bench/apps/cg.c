/* bench/apps/cg.c - proxy application: conjugate gradient on the 1-D
 * Poisson matrix tridiag(-1, 2, -1), rows split in blocks over the ranks.
 * Per iteration and rank: a halo exchange of the search direction with the
 * left and right neighbours (Irecv/Isend/Waitall), the local sparse mat-vec,
 * and two MPI_Allreduce dot products (p.q and r.r); each event is preceded
 * by the --work-us work.  The iteration count is fixed; when the residual
 * vanishes the solve restarts with a new right-hand side (the same on every
 * rank, so the run stays deterministic).  Options: bench/apps/common.h. */
#include "common.h"

int main(int argc, char **argv)
{
    app_parse(argc, argv);
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int n = opt.n * opt.n; /* local rows */
    const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *x = calloc(n, sizeof *x), *r = calloc(n, sizeof *r), *q = calloc(n, sizeof *q);
    double *p = calloc(n + 2, sizeof *p); /* p[0], p[n+1]: halo */
    if (!x || !r || !q || !p)
        MPI_Abort(MPI_COMM_WORLD, 1);
    long restarts = 0;
    double rr = 0, xsum = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    for (long it = 0; it < opt.iters; it++) {
        if (it == 0 || rr < 1e-24) { /* (re)start: b = f(global row, restarts) */
            for (int i = 0; i < n; i++) {
                long g = (long)rank * n + i;
                xsum += x[i];
                x[i] = 0;
                r[i] = 1.0 + 0.5 * ((g * 7 + restarts * 3) % 11) / 11.0;
                p[i + 1] = r[i];
            }
            double l = 0;
            for (int i = 0; i < n; i++)
                l += r[i] * r[i];
            work();
            EV(MPI_Allreduce(&l, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
            restarts++;
        }
        /* halo exchange of p */
        MPI_Request rq[4];
        int nr = 0;
        if (left != MPI_PROC_NULL)
            CALL(MPI_Irecv(&p[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[nr++]));
        if (right != MPI_PROC_NULL)
            CALL(MPI_Irecv(&p[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[nr++]));
        if (left != MPI_PROC_NULL) {
            work();
            EV(MPI_Isend(&p[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[nr++]));
        }
        if (right != MPI_PROC_NULL) {
            work();
            EV(MPI_Isend(&p[n], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[nr++]));
        }
        work();
        EV(MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE));
        if (left == MPI_PROC_NULL)
            p[0] = 0;
        if (right == MPI_PROC_NULL)
            p[n + 1] = 0;
        /* q = A p, and p.q */
        double lpq = 0, pq, lrr = 0, rr_new;
        for (int i = 0; i < n; i++) {
            q[i] = 2 * p[i + 1] - p[i] - p[i + 2];
            lpq += p[i + 1] * q[i];
        }
        work();
        EV(MPI_Allreduce(&lpq, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        double alpha = rr / pq;
        for (int i = 0; i < n; i++) {
            x[i] += alpha * p[i + 1];
            r[i] -= alpha * q[i];
            lrr += r[i] * r[i];
        }
        work();
        EV(MPI_Allreduce(&lrr, &rr_new, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        double beta = rr_new / rr;
        rr = rr_new;
        for (int i = 0; i < n; i++)
            p[i + 1] = r[i] + beta * p[i + 1];
    }
    double t_loop = app_now() - t0;

    double l = xsum, s;
    for (int i = 0; i < n; i++)
        l += x[i];
    MPI_Allreduce(&l, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    app_report("cg", s + rr + restarts, t_loop, MPI_COMM_WORLD);
    free(x), free(r), free(q), free(p);
    MPI_Finalize();
    return 0;
}
