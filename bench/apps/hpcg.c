/* bench/apps/hpcg.c - proxy application with the shape and call rate of
 * HPCG (issue 16): preconditioned CG on a 27-point stencil over an
 * nx x nx x (nx * P) grid, split in z slabs of nx^3 points per rank, with a
 * 4-level multigrid V-cycle (symmetric Gauss-Seidel smoother) as the
 * preconditioner.  Per CG iteration and rank, as in HPCG's reference code:
 * 11 halo exchanges (MPI_Irecv from each z neighbour, MPI_Send to each,
 * MPI_Wait on each receive; 3 per fine/intermediate level of the V-cycle,
 * 1 on the coarsest, 1 for the SpMV of the search direction) and 3
 * MPI_Allreduce dot products.  The stencil is applied matrix-free (diagonal
 * 26, off-diagonals -1), so nothing but the arithmetic differs from HPCG.
 * --iters is the number of CG iterations (restarted every 50 with the same
 * right-hand side, so the run stays deterministic and never converges to
 * nothing).  --work-us W adds W us of the calibrated loop twice per
 * V-cycle level: bench/cost.sh uses --n 16 --work-us 25 at 2 ranks, 62 k to
 * 110 k MPI calls per rank per second on the shared 2-core test machine
 * (HPCG 16^3: about 90 k; the arithmetic alone, without --work-us, makes
 * 180 k).  Options: bench/apps/common.h (--n = nx, must be a
 * multiple of 8). */
#include "common.h"

#define LEVELS 4

typedef struct grid {
    int nx, nz;             /* local points: nx * nx * nz (+ 2 halo planes) */
    double *x, *r, *ax;     /* x: smoother solution, r: rhs, ax: A x */
} grid;

static int g_up, g_down;    /* z neighbours (MPI_PROC_NULL at the ends) */

/* Every plane is padded by one zero point on each side in x and y, so the
 * stencil needs no bounds checks (the padding is never written). */
static size_t gsize(const grid *g) { return (size_t)(g->nx + 2) * (g->nx + 2) * (g->nz + 2); }
static inline size_t at(const grid *g, int i, int j, int k)
{
    return ((size_t)k * (g->nx + 2) + j + 1) * (g->nx + 2) + i + 1;
}

/* HPCG's ExchangeHalo: post receives, blocking sends, wait per receive. */
static void exchange(const grid *g, double *v)
{
    const int plane = (g->nx + 2) * (g->nx + 2);
    MPI_Request rq[2];
    CALL(MPI_Irecv(v, plane, MPI_DOUBLE, g_down, 7, MPI_COMM_WORLD, &rq[0]));
    CALL(MPI_Irecv(v + (size_t)(g->nz + 1) * plane, plane, MPI_DOUBLE, g_up, 7,
                   MPI_COMM_WORLD, &rq[1]));
    if (g_down != MPI_PROC_NULL)
        EV(MPI_Send(v + plane, plane, MPI_DOUBLE, g_down, 7, MPI_COMM_WORLD));
    if (g_up != MPI_PROC_NULL)
        EV(MPI_Send(v + (size_t)g->nz * plane, plane, MPI_DOUBLE, g_up, 7, MPI_COMM_WORLD));
    for (int q = 0; q < 2; q++)
        if ((q == 0 ? g_down : g_up) != MPI_PROC_NULL)
            EV(MPI_Wait(&rq[q], MPI_STATUS_IGNORE));
}

/* Sum of the 26 neighbours of (i,j,k) (the halo planes hold the
 * neighbours' values, the padding and the domain's ends zeros). */
static inline double nbsum(const grid *g, const double *v, int i, int j, int k)
{
    double s = -v[at(g, i, j, k)];
    for (int dk = -1; dk <= 1; dk++)
        for (int dj = -1; dj <= 1; dj++) {
            const double *row = v + at(g, i, j + dj, k + dk);
            s += row[-1] + row[0] + row[1];
        }
    return s;
}

static void spmv(const grid *g, double *v, double *y)
{
    exchange(g, v);
    for (int k = 1; k <= g->nz; k++)
        for (int j = 0; j < g->nx; j++)
            for (int i = 0; i < g->nx; i++)
                y[at(g, i, j, k)] = 26.0 * v[at(g, i, j, k)] - nbsum(g, v, i, j, k);
}

static void symgs(const grid *g)
{
    exchange(g, g->x);
    for (int k = 1; k <= g->nz; k++)   /* forward sweep */
        for (int j = 0; j < g->nx; j++)
            for (int i = 0; i < g->nx; i++)
                g->x[at(g, i, j, k)] = (g->r[at(g, i, j, k)] + nbsum(g, g->x, i, j, k)) / 26.0;
    for (int k = g->nz; k >= 1; k--)   /* backward sweep */
        for (int j = g->nx - 1; j >= 0; j--)
            for (int i = g->nx - 1; i >= 0; i--)
                g->x[at(g, i, j, k)] = (g->r[at(g, i, j, k)] + nbsum(g, g->x, i, j, k)) / 26.0;
}

/* One V-cycle: level l's x approximates A^-1 r. */
static void mg(grid *lv, int l)
{
    grid *g = &lv[l];
    memset(g->x, 0, gsize(g) * sizeof *g->x);
    symgs(g);
    if (l + 1 == LEVELS)
        return;
    work();
    spmv(g, g->x, g->ax);
    grid *c = &lv[l + 1];
    for (int k = 1; k <= c->nz; k++)   /* restriction by injection */
        for (int j = 0; j < c->nx; j++)
            for (int i = 0; i < c->nx; i++) {
                size_t f = at(g, 2 * i, 2 * j, 2 * k - 1);
                c->r[at(c, i, j, k)] = g->r[f] - g->ax[f];
            }
    mg(lv, l + 1);
    for (int k = 1; k <= c->nz; k++)   /* prolongation */
        for (int j = 0; j < c->nx; j++)
            for (int i = 0; i < c->nx; i++)
                g->x[at(g, 2 * i, 2 * j, 2 * k - 1)] += c->x[at(c, i, j, k)];
    work();
    symgs(g);
}

static double dot(const grid *g, const double *a, const double *b)
{
    double l = 0, s;
    for (int k = 1; k <= g->nz; k++)
        for (int j = 0; j < g->nx; j++)
            for (int i = 0; i < g->nx; i++)
                l += a[at(g, i, j, k)] * b[at(g, i, j, k)];
    EV(MPI_Allreduce(&l, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    return s;
}

int main(int argc, char **argv)
{
    opt.n = 16;
    app_parse(argc, argv);
    if (opt.n % 8)
        usage(argv[0]);
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    g_down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    g_up = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    grid lv[LEVELS];
    for (int l = 0; l < LEVELS; l++) {
        lv[l].nx = lv[l].nz = opt.n >> l;
        lv[l].x = calloc(gsize(&lv[l]), sizeof(double));
        lv[l].r = calloc(gsize(&lv[l]), sizeof(double));
        lv[l].ax = calloc(gsize(&lv[l]), sizeof(double));
        if (!lv[l].x || !lv[l].r || !lv[l].ax)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    grid *g = &lv[0];
    size_t n = gsize(g);
    double *x = calloc(n, sizeof *x), *r = calloc(n, sizeof *r);
    double *p = calloc(n, sizeof *p), *ap = calloc(n, sizeof *ap);
    if (!x || !r || !p || !ap)
        MPI_Abort(MPI_COMM_WORLD, 1);
    double rtz = 0, check = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    for (long it = 0; it < opt.iters; it++) {
        if (it % 50 == 0) {   /* (re)start: x = 0, r = b = A * ones */
            for (size_t q = 0; q < n; q++) {
                check += x[q];
                x[q] = 0;
                p[q] = 0;
            }
            for (int k = 1; k <= g->nz; k++)
                for (int j = 0; j < g->nx; j++)
                    for (int i = 0; i < g->nx; i++)
                        r[at(g, i, j, k)] = 26.0 - (double)(g->nx > 1 ? 7 : 0);
            rtz = 0;
        }
        memcpy(g->r, r, n * sizeof *r);   /* z = M^-1 r (one V-cycle) */
        mg(lv, 0);
        double rtz_new = dot(g, r, g->x);
        double beta = rtz > 0 ? rtz_new / rtz : 0;
        rtz = rtz_new;
        for (size_t q = 0; q < n; q++)
            p[q] = g->x[q] + beta * p[q];
        spmv(g, p, ap);
        double pap = dot(g, p, ap);
        double alpha = pap != 0 ? rtz / pap : 0;
        for (size_t q = 0; q < n; q++) {
            x[q] += alpha * p[q];
            r[q] -= alpha * ap[q];
        }
        check += dot(g, r, r);   /* the residual norm HPCG reports */
    }
    double t_loop = app_now() - t0;
    double l = 0, s;
    for (size_t q = 0; q < n; q++)
        l += x[q];
    MPI_Allreduce(&l, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    app_report("hpcg", s + check, t_loop, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
