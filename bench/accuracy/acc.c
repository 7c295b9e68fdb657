/* acc.c - programs with random task times for the percentile accuracy
 * benchmark (bench/accuracy/run.sh, doc/accuracy.md; issue 14).
 *
 *   acc SHAPE PHASES STEPS MEAN_US SEED
 *
 * SHAPE: halo1d   every step each rank works, then exchanges with its two
 *                 neighbours on a ring (Irecv/Isend/Waitall);
 *        stencil2d the same on a 2-D torus of ranks (4 neighbours);
 *        master   rank 0 hands out work items to whoever asks
 *                 (MPI_ANY_SOURCE), the workers work and ask again;
 *        halo3d   LULESH-like: ranks on a 3-D grid (not periodic), each
 *                 exchanging with every neighbour of its 3x3x3 cube (up
 *                 to 26), task times nearly equal (uniform, mean +-10 %),
 *                 so a phase's paths have few distinct costs;
 *        split    halo1d, and after each exchange an MPI_Allreduce, an
 *                 MPI_Reduce (to rank 0) and an MPI_Scan on the even and
 *                 the odd ranks' communicator, split with its ranks in
 *                 reverse world order: collectives whose member order is
 *                 not the world's (the replay must order them as the
 *                 runtime does);
 *        nbc      split's communicators with non-blocking collectives
 *                 overlapping work: MPI_Iallreduce, then MPI_Ireduce and
 *                 MPI_Iscan, each completed after a task (a member's
 *                 call joins its own completion too: --check's ends).
 * Task times are exponential with mean MEAN_US, slept (nanosleep), so the
 * program can oversubscribe the machine; each phase (STEPS steps) ends with
 * an MPI_Allreduce over MPI_COMM_WORLD.  The random stream depends on SEED
 * and the rank only: the same run every time, whatever the timing. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng;

static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static int flat;   /* halo3d: nearly equal task times */

static void work(double mean_us)
{
    double us = flat ? mean_us * (0.9 + 0.2 * urand()) : -mean_us * log(urand());
    struct timespec ts = {(time_t)(us / 1e6), (long)(fmod(us, 1e6) * 1e3)};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void exchange(int n, const int *nb, int tag)
{
    MPI_Request rq[52];
    int sbuf = 1, rbuf[26];
    for (int i = 0; i < n; i++)
        MPI_Irecv(&rbuf[i], 1, MPI_INT, nb[i], tag, MPI_COMM_WORLD, &rq[i]);
    for (int i = 0; i < n; i++)
        MPI_Isend(&sbuf, 1, MPI_INT, nb[i], tag, MPI_COMM_WORLD, &rq[n + i]);
    MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc != 6) {
        if (me == 0)
            fprintf(stderr, "usage: acc halo1d|stencil2d|master|halo3d|split|nbc PHASES STEPS MEAN_US "
                    "SEED\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *shape = argv[1];
    int phases = atoi(argv[2]), steps = atoi(argv[3]);
    double mean = atof(argv[4]);
    rng = 0x9E3779B97F4A7C15ull * (uint64_t)(atoi(argv[5]) + 1) + (uint64_t)me * 7919u + 1;
    int nb[26], nn = 0;
    MPI_Comm sub = MPI_COMM_NULL;
    int nbc = !strcmp(shape, "nbc");
    if (!strcmp(shape, "split") || nbc)
        MPI_Comm_split(MPI_COMM_WORLD, me % 2, np - me, &sub);
    if ((!strcmp(shape, "halo1d") || !strcmp(shape, "split") || nbc) && np > 1) {
        nb[nn++] = (me + np - 1) % np;
        nb[nn++] = (me + 1) % np;
    } else if (!strcmp(shape, "stencil2d") && np > 1) {
        int px = 1;
        while ((px + 1) * (px + 1) <= np)
            px++;
        while (np % px)
            px--;
        int py = np / px, x = me % px, y = me / px;
        nb[nn++] = y * px + (x + px - 1) % px;
        nb[nn++] = y * px + (x + 1) % px;
        nb[nn++] = ((y + py - 1) % py) * px + x;
        nb[nn++] = ((y + 1) % py) * px + x;
    } else if (!strcmp(shape, "halo3d") && np > 1) {
        int d[3] = { 0, 0, 0 };
        MPI_Dims_create(np, 3, d);
        int c[3] = { me % d[0], me / d[0] % d[1], me / (d[0] * d[1]) };
        flat = 1;
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int x = c[0] + dx, y = c[1] + dy, z = c[2] + dz;
                    if ((dx || dy || dz) && x >= 0 && x < d[0] && y >= 0 && y < d[1] && z >= 0 &&
                        z < d[2])
                        nb[nn++] = (z * d[1] + y) * d[0] + x;
                }
    }
    long sum = 0;
    for (int q = 0; q < phases; q++) {
        if (!strcmp(shape, "master") && np > 1) {
            int items = steps * (np - 1);
            if (me == 0) {
                int sent = 0, done = 0, dummy;
                MPI_Status st;
                while (done < np - 1) {
                    MPI_Recv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
                    int item = sent < items ? sent++ : -1;
                    if (item < 0)
                        done++;
                    MPI_Send(&item, 1, MPI_INT, st.MPI_SOURCE, 2, MPI_COMM_WORLD);
                }
            } else {
                int item = 0, ask = 1;
                for (;;) {
                    MPI_Send(&ask, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
                    MPI_Recv(&item, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    if (item < 0)
                        break;
                    work(mean);
                    sum += item;
                }
            }
        } else {
            for (int s = 0; s < steps; s++) {
                work(mean);
                if (nn)
                    exchange(nn, nb, 10 + s % 4);
                if (sub != MPI_COMM_NULL && nbc) {
                    long v = sum + s, r = 0, w[2] = {0, 0};
                    MPI_Request rq[2];
                    MPI_Iallreduce(&v, &r, 1, MPI_LONG, MPI_MAX, sub, &rq[0]);
                    work(mean / 4);
                    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
                    MPI_Ireduce(&r, &w[0], 1, MPI_LONG, MPI_SUM, 0, sub, &rq[0]);
                    MPI_Iscan(&r, &w[1], 1, MPI_LONG, MPI_SUM, sub, &rq[1]);
                    work(mean / 4);
                    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
                    sum = (sum + (w[0] + w[1]) % 7) % 1000003;
                } else if (sub != MPI_COMM_NULL) {
                    long v = sum + s, r = 0;
                    MPI_Allreduce(&v, &r, 1, MPI_LONG, MPI_MAX, sub);
                    work(mean / 4);
                    MPI_Reduce(&r, &v, 1, MPI_LONG, MPI_SUM, 0, sub);
                    work(mean / 4);
                    long x = 0;
                    MPI_Scan(&r, &x, 1, MPI_LONG, MPI_SUM, sub);
                    sum = (sum + (v + x) % 7) % 1000003;
                }
            }
        }
        long tot = 0;
        MPI_Allreduce(&sum, &tot, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum = tot % 1000003;
    }
    if (me == 0)
        printf("acc %s ranks=%d phases=%d steps=%d mean_us=%g check=%ld\n", shape, np, phases,
               steps, mean, sum);
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Finalize();
    return 0;
}
