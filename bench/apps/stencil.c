/* bench/apps/stencil.c - proxy application: 2-D Jacobi stencil on a
 * Cartesian grid of ranks (non-periodic), halo exchange with
 * Irecv/Isend/Waitall between neighbours, then an MPI_Allreduce of the
 * residual every iteration.  Per iteration and rank: one Isend per
 * neighbour, one Waitall, one Allreduce (the events), each preceded by the
 * --work-us work.  Options: bench/apps/common.h. */
#include "common.h"

int main(int argc, char **argv)
{
    app_parse(argc, argv);
    MPI_Init(&argc, &argv);
    int size, rank, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, coords);
    int nb[4]; /* up, down, left, right */
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);

    const int n = opt.n, w = n + 2;
    double *u = calloc((size_t)w * w, sizeof *u), *v = calloc((size_t)w * w, sizeof *v);
    double *sbuf = calloc(4 * (size_t)n, sizeof *sbuf), *rbuf = calloc(4 * (size_t)n, sizeof *rbuf);
    if (!u || !v || !sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 1);
#define U(a, i, j) a[(size_t)(i) * w + (j)]
    /* the global top edge is hot, everything else starts cold */
    if (nb[0] == MPI_PROC_NULL)
        for (int j = 0; j < w; j++)
            U(u, 0, j) = U(v, 0, j) = 1.0;

    MPI_Barrier(cart);
    double t0 = app_now(), res = 0;
    for (long it = 0; it < opt.iters; it++) {
        MPI_Request rq[8];
        int nr = 0;
        for (int d = 0; d < 4; d++)
            if (nb[d] != MPI_PROC_NULL)
                CALL(MPI_Irecv(rbuf + d * n, n, MPI_DOUBLE, nb[d], d ^ 1, cart, &rq[nr++]));
        for (int d = 0; d < 4; d++) {
            if (nb[d] == MPI_PROC_NULL)
                continue;
            double *s = sbuf + d * n;
            for (int k = 0; k < n; k++)
                s[k] = d == 0 ? U(u, 1, k + 1) : d == 1 ? U(u, n, k + 1)
                     : d == 2 ? U(u, k + 1, 1) : U(u, k + 1, n);
            work();
            EV(MPI_Isend(s, n, MPI_DOUBLE, nb[d], d, cart, &rq[nr++]));
        }
        work();
        EV(MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE));
        for (int d = 0; d < 4; d++) {
            if (nb[d] == MPI_PROC_NULL)
                continue;
            const double *r = rbuf + d * n;
            for (int k = 0; k < n; k++) {
                if (d == 0) U(u, 0, k + 1) = r[k];
                else if (d == 1) U(u, n + 1, k + 1) = r[k];
                else if (d == 2) U(u, k + 1, 0) = r[k];
                else U(u, k + 1, n + 1) = r[k];
            }
        }
        double lres = 0;
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) {
                double x = 0.25 * (U(u, i - 1, j) + U(u, i + 1, j) + U(u, i, j - 1) + U(u, i, j + 1));
                lres += (x - U(u, i, j)) * (x - U(u, i, j));
                U(v, i, j) = x;
            }
        double *t = u;
        u = v;
        v = t;
        work();
        EV(MPI_Allreduce(&lres, &res, 1, MPI_DOUBLE, MPI_SUM, cart));
    }
    double t_loop = app_now() - t0;

    double lsum = 0, sum;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            lsum += U(u, i, j);
    MPI_Allreduce(&lsum, &sum, 1, MPI_DOUBLE, MPI_SUM, cart);
    app_report("stencil", sum + res, t_loop, cart);
    free(u), free(v), free(sbuf), free(rbuf);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
