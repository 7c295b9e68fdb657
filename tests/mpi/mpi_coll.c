/* Collective semantics under the profiler (test c).
 *
 * Runs every blocking collective (with and without MPI_IN_PLACE) on
 * MPI_COMM_WORLD, on a duplicate of it, and on sub-communicators from
 * MPI_Comm_split (even/odd ranks, reversed key order) and MPI_Comm_create,
 * plus a few non-blocking collectives, and that no member leaves a barrier
 * before the last one entered.  Prints checksums through rpt_out();
 * the output must be byte-identical with and without librpprof.so.
 * Works for any number of ranks >= 1.
 */
#include "rptest.h"

static int wme, wnp;

#define H(p, n) rpt_hash((p), sizeof(int) * (size_t)(n))

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);   /* one clock for every process of the host */
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* MPI_Barrier's one promise: no member leaves before every member entered.
 * Members enter 1 ms apart (the last one last); every member's exit must
 * come after the last entry.  (The profiler makes its path exchange the
 * barrier: this is what that must keep.)  1 when it held. */
static int barrier_ordered(MPI_Comm comm, int me, int np)
{
    int64_t io[2], *all = calloc((size_t)np * 2, sizeof *all), last_in = INT64_MIN;
    int ok = 1;
    RPT_CHECK(all);
    struct timespec d = { 0, 1000000L * me };
    nanosleep(&d, NULL);
    io[0] = mono_ns();
    MPI_Barrier(comm);
    io[1] = mono_ns();
    MPI_Allgather(io, 2, MPI_INT64_T, all, 2, MPI_INT64_T, comm);
    for (int i = 0; i < np; i++)
        if (all[2 * i] > last_in)
            last_in = all[2 * i];
    for (int i = 0; i < np; i++)
        if (all[2 * i + 1] < last_in)
            ok = 0;
    free(all);
    return ok;
}

static void colls(MPI_Comm comm, const char *name)
{
    int me, np, i, j, root;
    int *a, *b, *c, *cnts, *displs, *rcnts, *rdispls, *wcnts, *wdispls;
    MPI_Datatype *types;
    int v, w;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    a = calloc((size_t)(np * np + 16), sizeof(int));
    b = calloc((size_t)(np * np + 16), sizeof(int));
    c = calloc((size_t)(np * np + 16), sizeof(int));
    cnts = calloc((size_t)np, sizeof(int));
    displs = calloc((size_t)np, sizeof(int));
    rcnts = calloc((size_t)np, sizeof(int));
    rdispls = calloc((size_t)np, sizeof(int));
    wcnts = calloc((size_t)np, sizeof(int));
    wdispls = calloc((size_t)np, sizeof(int));
    types = calloc((size_t)np, sizeof(MPI_Datatype));
    RPT_CHECK(a && b && c && cnts && displs && rcnts && rdispls && wcnts && wdispls && types);
    root = np - 1;

#define OUT(what, val) rpt_out("r%d %s/%d %s %08x\n", wme, name, me, what, (unsigned)(val))

    MPI_Barrier(comm);
    OUT("barrier", 1);
    OUT("barrier-ordered", barrier_ordered(comm, me, np));

    /* Bcast from every root in turn */
    for (i = 0; i < np; i++) {
        for (j = 0; j < 4; j++)
            a[j] = me == i ? 100 * i + j : -1;
        MPI_Bcast(a, 4, MPI_INT, i, comm);
        OUT("bcast", H(a, 4));
    }
    /* Bcast with the root's data strided (every other int) and the members'
     * contiguous: the same type signature, different layouts; nothing; and
     * 256 / 257 ints, on both sides of the size up to which the profiler
     * packs the data with its path-set (1 KiB) */
    {
        MPI_Datatype strided;
        int big[2 * 257];
        MPI_Type_vector(4, 1, 2, MPI_INT, &strided);
        MPI_Type_commit(&strided);
        for (j = 0; j < 8; j++)
            a[j] = me == 0 ? (j % 2 ? -7 : 10 + j) : -1;
        if (me == 0)
            MPI_Bcast(a, 1, strided, 0, comm);
        else
            MPI_Bcast(a, 4, MPI_INT, 0, comm);
        OUT("bcast-strided", H(a, 8));
        MPI_Bcast(a, 0, MPI_INT, root, comm);
        OUT("bcast-empty", H(a, 8));
        for (int n = 256; n <= 257; n++) {
            for (j = 0; j < n; j++)
                big[j] = me == root ? 3 * j + n : -1;
            MPI_Bcast(big, n, MPI_INT, root, comm);
            OUT(n == 256 ? "bcast-1024B" : "bcast-1028B", H(big, n));
        }
        MPI_Type_free(&strided);
    }

    /* Reduce (root = last), also MPI_IN_PLACE at the root */
    for (j = 0; j < 3; j++)
        a[j] = me + j;
    b[0] = b[1] = b[2] = -1;
    MPI_Reduce(a, b, 3, MPI_INT, MPI_SUM, root, comm);
    if (me == root)
        OUT("reduce", H(b, 3));
    for (j = 0; j < 3; j++)
        a[j] = me * (j + 1);
    if (me == root)
        MPI_Reduce(MPI_IN_PLACE, a, 3, MPI_INT, MPI_MAX, root, comm);
    else
        MPI_Reduce(a, NULL, 3, MPI_INT, MPI_MAX, root, comm);
    if (me == root)
        OUT("reduce-inplace", H(a, 3));

    /* Allreduce, plain and in place, several ops */
    v = me + 1;
    MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, comm);
    OUT("allreduce-sum", w);
    MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_PROD, comm);
    OUT("allreduce-prod", w);
    v = me * 37 % 11;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, comm);
    OUT("allreduce-inplace-min", v);
    {
        double d = 0.5 * me, e;
        MPI_Allreduce(&d, &e, 1, MPI_DOUBLE, MPI_MAX, comm);
        OUT("allreduce-double", (int)(e * 2));
    }

    /* Gather / Gatherv (+ in place at the root) */
    a[0] = 3 * me;
    a[1] = 3 * me + 1;
    memset(b, 0xff, sizeof(int) * (size_t)(2 * np));
    MPI_Gather(a, 2, MPI_INT, b, 2, MPI_INT, root, comm);
    if (me == root)
        OUT("gather", H(b, 2 * np));
    if (me == root) {
        b[2 * root] = 3 * me;
        b[2 * root + 1] = 3 * me + 1;
        MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, b, 2, MPI_INT, root, comm);
        OUT("gather-inplace", H(b, 2 * np));
    } else
        MPI_Gather(a, 2, MPI_INT, NULL, 0, MPI_INT, root, comm);
    for (i = 0, j = 0; i < np; i++) {
        cnts[i] = i + 1;
        displs[i] = j;
        j += i + 1;
    }
    for (i = 0; i < me + 1; i++)
        a[i] = 1000 * me + i;
    memset(b, 0, sizeof(int) * (size_t)j);
    MPI_Gatherv(a, me + 1, MPI_INT, b, cnts, displs, MPI_INT, 0, comm);
    if (me == 0)
        OUT("gatherv", H(b, j));

    /* Scatter / Scatterv (+ in place at the root) */
    if (me == 0)
        for (i = 0; i < 2 * np; i++)
            a[i] = 7 * i + 1;
    MPI_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 0, comm);
    OUT("scatter", H(b, 2));
    if (me == 0)
        MPI_Scatter(a, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, 0, comm);
    else
        MPI_Scatter(NULL, 2, MPI_INT, b, 2, MPI_INT, 0, comm);
    OUT("scatter-inplace", me == 0 ? H(a, 2) : H(b, 2));
    if (me == root)
        for (i = 0; i < j; i++)
            a[i] = 5 * i + 2;
    memset(b, 0, sizeof(int) * (size_t)(me + 1));
    MPI_Scatterv(a, cnts, displs, MPI_INT, b, me + 1, MPI_INT, root, comm);
    OUT("scatterv", H(b, me + 1));

    /* Allgather / Allgatherv (+ in place) */
    a[0] = me * me;
    MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, comm);
    OUT("allgather", H(b, np));
    for (i = 0; i < np; i++)
        b[i] = i == me ? me * me + 1 : -5;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 1, MPI_INT, comm);
    OUT("allgather-inplace", H(b, np));
    for (i = 0; i < me + 1; i++)
        a[i] = 10 * me + i;
    MPI_Allgatherv(a, me + 1, MPI_INT, b, cnts, displs, MPI_INT, comm);
    OUT("allgatherv", H(b, j));
    for (i = 0; i < me + 1; i++)
        b[displs[me] + i] = 20 * me + i;
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, cnts, displs, MPI_INT, comm);
    OUT("allgatherv-inplace", H(b, j));

    /* Alltoall (+ in place), Alltoallv, Alltoallw */
    for (i = 0; i < np; i++)
        a[i] = 100 * me + i;
    MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, comm);
    OUT("alltoall", H(b, np));
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 1, MPI_INT, comm);
    OUT("alltoall-inplace", H(a, np));
    /* rank me sends (i + 1) ints to rank i; receives (me + 1) from everyone */
    for (i = 0, j = 0; i < np; i++) {
        cnts[i] = i + 1;
        displs[i] = j;
        j += i + 1;
        rcnts[i] = me + 1;
        rdispls[i] = i * (me + 1);
    }
    for (i = 0; i < j; i++)
        a[i] = 1000 * me + i;
    MPI_Alltoallv(a, cnts, displs, MPI_INT, b, rcnts, rdispls, MPI_INT, comm);
    OUT("alltoallv", H(b, np * (me + 1)));
    for (i = 0; i < np; i++) {
        wcnts[i] = 1;
        wdispls[i] = (int)(i * sizeof(int));
        types[i] = MPI_INT;
        a[i] = 31 * me + i;
    }
    MPI_Alltoallw(a, wcnts, wdispls, types, b, wcnts, wdispls, types, comm);
    OUT("alltoallw", H(b, np));

    /* Reduce_scatter, Reduce_scatter_block (+ in place) */
    for (i = 0, j = 0; i < np; i++) {
        cnts[i] = (i % 2) + 1;
        j += cnts[i];
    }
    for (i = 0; i < j; i++)
        a[i] = me + i;
    MPI_Reduce_scatter(a, b, cnts, MPI_INT, MPI_SUM, comm);
    OUT("reduce_scatter", H(b, cnts[me]));
    for (i = 0; i < 2 * np; i++)
        a[i] = me * 3 + i;
    MPI_Reduce_scatter_block(a, b, 2, MPI_INT, MPI_SUM, comm);
    OUT("reduce_scatter_block", H(b, 2));
    MPI_Reduce_scatter_block(MPI_IN_PLACE, a, 2, MPI_INT, MPI_MAX, comm);
    OUT("reduce_scatter_block-inplace", H(a, 2));

    /* Scan / Exscan (+ in place) */
    v = me + 1;
    MPI_Scan(&v, &w, 1, MPI_INT, MPI_SUM, comm);
    OUT("scan", w);
    MPI_Scan(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_PROD, comm);
    OUT("scan-inplace", v);
    v = me + 1;
    w = -1;
    MPI_Exscan(&v, &w, 1, MPI_INT, MPI_SUM, comm);
    if (me > 0) /* undefined on rank 0 */
        OUT("exscan", w);
    MPI_Exscan(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, comm);
    if (me > 0)
        OUT("exscan-inplace", v);

    /* non-blocking collectives completed by Wait / Waitall / Test */
    {
        MPI_Request r[2];
        int flag = 0, x = me + 2, y = 0, z = me == 0 ? 99 : 0;
        MPI_Ibarrier(comm, &r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, comm, &r[0]);
        MPI_Ibcast(&z, 1, MPI_INT, 0, comm, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        OUT("iallreduce", y);
        OUT("ibcast", z);
        MPI_Ibarrier(comm, &r[0]);
        while (!flag)
            MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
        OUT("ibarrier-test", flag);
    }
#undef OUT
    free(a);
    free(b);
    free(c);
    free(cnts);
    free(displs);
    free(rcnts);
    free(rdispls);
    free(wcnts);
    free(wdispls);
    free(types);
}

int main(int argc, char **argv)
{
    MPI_Comm dup, split, created;
    MPI_Group wg, g;
    int n, *ranks, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wme);
    MPI_Comm_size(MPI_COMM_WORLD, &wnp);

    colls(MPI_COMM_WORLD, "world");

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    colls(dup, "dup");

    MPI_Comm_split(MPI_COMM_WORLD, wme % 2, -wme, &split);
    colls(split, wme % 2 ? "odd" : "even");

    /* the first ceil(n/2) ranks */
    n = (wnp + 1) / 2;
    ranks = malloc(sizeof(int) * (size_t)n);
    RPT_CHECK(ranks);
    for (i = 0; i < n; i++)
        ranks[i] = i;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n, ranks, &g);
    MPI_Comm_create(MPI_COMM_WORLD, g, &created);
    if (created != MPI_COMM_NULL) {
        colls(created, "created");
        MPI_Comm_free(&created);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(ranks);

    /* collectives on world interleaved with the sub-communicators */
    colls(MPI_COMM_WORLD, "world2");
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);

    rpt_flush();
    MPI_Finalize();
    return 0;
}
