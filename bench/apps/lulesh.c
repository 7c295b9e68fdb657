/* bench/apps/lulesh.c - proxy application with the shape and call rate of
 * LULESH 2.0 (issue 16): ranks on a 3-D Cartesian grid (MPI_Dims_create,
 * not periodic), each exchanging with every neighbour of its 26 (faces,
 * edges, corners) that exists.  Per iteration, as LULESH's time step:
 *   1. forces:   MPI_Irecv from every neighbour, work, MPI_Isend to every
 *                neighbour, MPI_Wait on every receive, MPI_Waitall on the
 *                sends (CommRecv / CommSend / CommSBN);
 *   2. position/velocity sync: the same over the 26 neighbours
 *                (CommSyncPosVel);
 *   3. monotonic Q gradients: the same over the 6 face neighbours only
 *                (CommMonoQ);
 *   4. the time-step constraint: MPI_Allreduce(MIN) of a double.
 * The buffers are the halo of an n^3 element block (faces n^2, edges n,
 * corners 1 double per field, 3 fields).  Work before each of the three
 * exchanges: --work-us W (with --sleep: nanosleep, for 8 ranks on 2 cores)
 * plus the block's own arithmetic.  --work-us 2500 --sleep at 8 ranks gives
 * about 6 k MPI calls per rank per second, LULESH -s 14's rate measured
 * oversubscribed (issue 16).  Options: bench/apps/common.h. */
#include "common.h"

#define NFIELD 3

typedef struct nbr {
    int rank, len;              /* doubles exchanged */
    double *sbuf, *rbuf;
} nbr;

static nbr nb[26], *face[6];
static int n_nb, n_face;

static void setup(MPI_Comm cart, int n)
{
    int rank, coords[3], dims[3], periods[3];
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_get(cart, 3, dims, periods, coords);
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nz = (dx != 0) + (dy != 0) + (dz != 0), c[3] = {coords[0] + dx,
                                                                    coords[1] + dy,
                                                                    coords[2] + dz};
                if (!nz || c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= dims[0] ||
                    c[1] >= dims[1] || c[2] >= dims[2])
                    continue;
                nbr *b = &nb[n_nb++];
                MPI_Cart_rank(cart, c, &b->rank);
                b->len = NFIELD * (nz == 1 ? n * n : nz == 2 ? n : 1);
                b->sbuf = calloc(b->len, sizeof(double));
                b->rbuf = calloc(b->len, sizeof(double));
                if (!b->sbuf || !b->rbuf)
                    MPI_Abort(MPI_COMM_WORLD, 1);
                if (nz == 1)
                    face[n_face++] = b;
            }
}

/* One halo exchange over `list` (LULESH's CommRecv, CommSend, CommSBN). */
static double comm(nbr **list, int cnt, const double *field, int tag, MPI_Comm cart)
{
    MPI_Request rr[26], sr[26];
    for (int q = 0; q < cnt; q++)
        CALL(MPI_Irecv(list[q]->rbuf, list[q]->len, MPI_DOUBLE, list[q]->rank, tag, cart,
                       &rr[q]));
    work();
    for (int q = 0; q < cnt; q++) {
        for (int e = 0; e < list[q]->len; e++)
            list[q]->sbuf[e] = field[e % 64] + q;
        EV(MPI_Isend(list[q]->sbuf, list[q]->len, MPI_DOUBLE, list[q]->rank, tag, cart,
                     &sr[q]));
    }
    double s = 0;
    for (int q = 0; q < cnt; q++) {
        EV(MPI_Wait(&rr[q], MPI_STATUS_IGNORE));
        s += list[q]->rbuf[0] + list[q]->rbuf[list[q]->len - 1];
    }
    if (cnt)
        EV(MPI_Waitall(cnt, sr, MPI_STATUSES_IGNORE));
    return s;
}

int main(int argc, char **argv)
{
    opt.n = 14;
    app_parse(argc, argv);
    MPI_Init(&argc, &argv);
    int size, rank, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Dims_create(size, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    setup(cart, opt.n);
    nbr *all[26];
    for (int q = 0; q < n_nb; q++)
        all[q] = &nb[q];
    double field[64], check = 0;
    for (int e = 0; e < 64; e++)
        field[e] = rank + e * 0.01;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    for (long it = 0; it < opt.iters; it++) {
        check += comm(all, n_nb, field, 1, cart);        /* forces */
        check += comm(all, n_nb, field, 2, cart);        /* position, velocity */
        check += comm(face, n_face, field, 3, cart);     /* monotonic Q */
        double dt = 1.0 / (1.0 + rank + (it % 7)), mdt;
        EV(MPI_Allreduce(&dt, &mdt, 1, MPI_DOUBLE, MPI_MIN, cart));
        for (int e = 0; e < 64; e++)
            field[e] = field[e] * 0.5 + mdt;
        check += mdt;
    }
    double t_loop = app_now() - t0, s;
    MPI_Allreduce(&check, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    app_report("lulesh", s, t_loop, MPI_COMM_WORLD);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
