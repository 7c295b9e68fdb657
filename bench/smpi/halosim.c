/* bench/smpi/halosim.c - HPCG- and LULESH-shaped proxies for SimGrid's SMPI:
 * ranks on a 3-D Cartesian grid (MPI_Dims_create, not periodic), each
 * exchanging halos with the neighbours of its 26 (faces, edges, corners)
 * that exist, and world MPI_Allreduces, with the message sizes and call
 * counts of the real codes' time steps (bench/apps/hpcg.c and
 * bench/apps/lulesh.c run the same shapes for real):
 *
 *   HALOSIM_SHAPE=lulesh (default)  LULESH 2.0 -s 30, a time step:
 *     3 exchanges (26 neighbours: CommRecv/CommSend of the forces,
 *     26: CommSyncPosVel, 6 faces: CommMonoQ); each posts MPI_Irecv from
 *     every neighbour, computes WORK_US, MPI_Isend to every neighbour,
 *     MPI_Waitall; then one 8-byte MPI_Allreduce(MIN) (the time step).
 *     Halo of a 30^3 block, 3 doubles a point: faces 21 600 B, edges
 *     720 B, corners 24 B.
 *   HALOSIM_SHAPE=hpcg  HPCG 104^3, a CG iteration: 11 exchanges (the
 *     SpMV and a 4-level V-cycle: 3 at each of the 3 finer levels, 1 at
 *     the coarsest; level l halves the side) with the 26 neighbours, one
 *     double a halo point (faces 104^2 * 8 B at the finest level), each
 *     after WORK_US / 4^l of computation (the level's share), and
 *     3 8-byte MPI_Allreduce(SUM) (two dot products and the residual).
 *
 * HALOSIM_SIDE=S: a block of side S instead (smaller halos).
 *
 * Computation is smpi_execute_benched(): simulated time, no host CPU.
 * Usage and output as cgsim.c (bench/smpi/run.sh PROXY=halosim):
 * halosim ITERS WORK_US...; rank 0 prints "cgsim n=.. init_s=..", one
 * "cgsim work_us=W loop_s=S" per WORK_US, and "cgsim finalize_s=..".
 * Built with smpicc only. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nbr {
    int rank, kind;   /* kind: number of non-zero offsets (1 face, 2 edge, 3 corner) */
    int dir;          /* index of the offset, 0..26, for tags */
} nbr;

static nbr nb[26];
static int n_nb;
static char *sbuf, *rbuf;

/* bytes of a halo of kind `kind` for a block of side `side` and `per`
 * bytes a point */
static int halo_bytes(int kind, int side, int per)
{
    return kind == 1 ? side * side * per : kind == 2 ? side * per : per;
}

/* one exchange with the neighbours of kinds <= max_kind (1: faces only) */
static void exchange(MPI_Comm cart, int max_kind, int side, int per, double work_s)
{
    MPI_Request req[52];
    int nr = 0;
    size_t off = 0;
    for (int i = 0; i < n_nb; i++) {
        if (nb[i].kind > max_kind)
            continue;
        int b = halo_bytes(nb[i].kind, side, per);
        MPI_Irecv(rbuf + off, b, MPI_BYTE, nb[i].rank, 26 - nb[i].dir, cart, &req[nr++]);
        off += (size_t)b;
    }
    smpi_execute_benched(work_s);
    off = 0;
    for (int i = 0; i < n_nb; i++) {
        if (nb[i].kind > max_kind)
            continue;
        int b = halo_bytes(nb[i].kind, side, per);
        MPI_Isend(sbuf + off, b, MPI_BYTE, nb[i].rank, nb[i].dir, cart, &req[nr++]);
        off += (size_t)b;
    }
    MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    double t_start = MPI_Wtime();
    MPI_Init(&argc, &argv);
    double t_init = MPI_Wtime();
    long iters = argc > 1 ? atol(argv[1]) : 100;
    const char *shape = getenv("HALOSIM_SHAPE");
    int hpcg = shape && strcmp(shape, "hpcg") == 0;
    int rank, size, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, me[3];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 3, me);
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int c[3] = {me[0] + dx, me[1] + dy, me[2] + dz};
                int kind = (dx != 0) + (dy != 0) + (dz != 0);
                if (kind == 0 || c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= dims[0] ||
                    c[1] >= dims[1] || c[2] >= dims[2])
                    continue;
                MPI_Cart_rank(cart, c, &nb[n_nb].rank);
                nb[n_nb].kind = kind;
                nb[n_nb].dir = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1);
                n_nb++;
            }
    const char *sd = getenv("HALOSIM_SIDE");
    int side = sd && atoi(sd) > 0 ? atoi(sd) : hpcg ? 104 : 30, per = hpcg ? 8 : 24;
    size_t cap = 0;
    for (int i = 0; i < n_nb; i++)
        cap += (size_t)halo_bytes(nb[i].kind, side, per);
    sbuf = calloc(cap ? cap : 1, 1);
    rbuf = calloc(cap ? cap : 1, 1);
    if (!sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    double x = rank + 1.0, y;
    if (rank == 0)
        printf("cgsim n=%d iters=%ld init_s=%.6f\n", size, iters, t_init - t_start);
    for (int a = 2; a < (argc > 2 ? argc : 3); a++) {
        double work = (argc > 2 ? atof(argv[a]) : 100.0) * 1e-6;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < iters; i++) {
            if (hpcg) {
                for (int l = 0; l < 4; l++) {   /* the V-cycle, finest first */
                    int s = side >> l, reps = l < 3 ? 3 : 1;
                    for (int r = 0; r < reps; r++)
                        exchange(cart, 3, s, per, work / (double)(1 << (2 * l)));
                }
                exchange(cart, 3, side, per, work);   /* SpMV */
                for (int d = 0; d < 3; d++) {
                    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                    x = y / size;
                }
            } else {
                exchange(cart, 3, side, per, work);
                exchange(cart, 3, side, per, work);
                exchange(cart, 1, side, per, work);
                MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
                x = y + 1.0;
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t1 = MPI_Wtime();
        if (rank == 0)
            printf("cgsim work_us=%g loop_s=%.6f x=%g\n", work * 1e6, t1 - t0, x);
    }
    double t_fin = MPI_Wtime();
    MPI_Comm_free(&cart);
    MPI_Finalize();
    double t_end = MPI_Wtime();
    if (rank == 0)
        printf("cgsim finalize_s=%.6f\n", t_end - t_fin);
    free(sbuf);
    free(rbuf);
    return 0;
}
