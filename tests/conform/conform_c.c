/* Conformance program, C part (tests/conform/test_conform.sh): the wrapped
 * functions that the other C semantic programs (mpi_p2p, mpi_coll,
 * mpi_comm, mpi_nbc, mpi_corner) do not call, so that every row of
 * lib/mpi/mpi_functions.def has a C call site that a test runs with and without
 * the profiler (tests/conform/conform_coverage.py checks this):
 *   MPI_Init_thread; MPI_Bsend_init, MPI_Rsend_init (with Start/Startall);
 *   every communicator constructor (Comm_dup_with_info, Comm_split_type,
 *   Comm_create_group, Cart_create, Cart_sub, Graph_create,
 *   Dist_graph_create(_adjacent), Intercomm_create, Intercomm_merge);
 *   every non-blocking collective, on MPI_COMM_WORLD and on the new
 *   communicators; MPI_File_open (a collective write and read back on
 *   MPI_COMM_WORLD, a file deleted on close).
 * Prints only what MPI semantics decide (through rpt_out: rank 0 prints
 * every rank's lines in rank order).  Any number of ranks >= 1.
 */
#include <unistd.h>
#include "../mpi/rptest.h"

static int me, np, left, right;

#define H(p, n) rpt_hash((p), sizeof(int) * (size_t)(n))
#define OUT(nm, what, v) rpt_out("r%d %s.%s %u\n", me, (nm), (what), (unsigned)(v))

/* every non-blocking collective of the table on comm */
static void nbcs(MPI_Comm comm, const char *nm)
{
    int cme, cn, i, root, v[4], w[2], a[64], b[64], e[64], f[64], g[64];
    int cnt[8], dsp[8], rc[8], rd[8], ic[8], bd[8];
    MPI_Datatype ty[8];
    MPI_Request rq[8];

    MPI_Comm_rank(comm, &cme);
    MPI_Comm_size(comm, &cn);
    root = cn - 1;
    for (i = 0; i < cn; i++) {
        cnt[i] = i + 1;
        dsp[i] = i * (i + 1) / 2;
        rc[i] = cme + 1;
        rd[i] = i * (cme + 1);
        ty[i] = MPI_INT;
        ic[i] = 1;
        bd[i] = (int)sizeof(int) * i;
    }
    for (i = 0; i < 64; i++)
        a[i] = 11 * cme + i + 1;
    memset(b, 0, sizeof b);
    memset(e, 0, sizeof e);
    memset(f, 0, sizeof f);
    memset(g, 0, sizeof g);

    MPI_Ibarrier(comm, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    w[0] = w[1] = -1;
    if (cme == root)
        w[0] = 5, w[1] = 6 + cn;
    MPI_Ibcast(w, 2, MPI_INT, root, comm, &rq[0]);
    v[0] = cme + 3;
    MPI_Ireduce(&v[0], &v[1], 1, MPI_INT, MPI_SUM, 0, comm, &rq[1]);
    v[2] = 2 * cme + 1;
    MPI_Iallreduce(&v[2], &v[3], 1, MPI_INT, MPI_MAX, comm, &rq[2]);
    MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    OUT(nm, "ibcast", H(w, 2));
    if (cme == 0)
        OUT(nm, "ireduce", v[1]);
    OUT(nm, "iallreduce", v[3]);

    MPI_Igather(a, 1, MPI_INT, b, 1, MPI_INT, 0, comm, &rq[0]);
    MPI_Igatherv(a, cme + 1, MPI_INT, e, cnt, dsp, MPI_INT, root, comm, &rq[1]);
    MPI_Iscatter(a, 2, MPI_INT, f, 2, MPI_INT, root, comm, &rq[2]);
    MPI_Iscatterv(a, cnt, dsp, MPI_INT, g, cme + 1, MPI_INT, 0, comm, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    if (cme == 0)
        OUT(nm, "igather", H(b, cn));
    if (cme == root)
        OUT(nm, "igatherv", H(e, cn * (cn + 1) / 2));
    OUT(nm, "iscatter", H(f, 2));
    OUT(nm, "iscatterv", H(g, cme + 1));

    MPI_Iallgather(a, 1, MPI_INT, b, 1, MPI_INT, comm, &rq[0]);
    MPI_Iallgatherv(a, cme + 1, MPI_INT, e, cnt, dsp, MPI_INT, comm, &rq[1]);
    MPI_Ialltoall(a, 1, MPI_INT, f, 1, MPI_INT, comm, &rq[2]);
    MPI_Ialltoallv(a, cnt, dsp, MPI_INT, g, rc, rd, MPI_INT, comm, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    OUT(nm, "iallgather", H(b, cn));
    OUT(nm, "iallgatherv", H(e, cn * (cn + 1) / 2));
    OUT(nm, "ialltoall", H(f, cn));
    OUT(nm, "ialltoallv", H(g, cn * (cme + 1)));

    MPI_Ialltoallw(a, ic, bd, ty, b, ic, bd, ty, comm, &rq[0]);
    for (i = 0; i < cn; i++)
        cnt[i] = (i + 1) % 2 + 1;
    MPI_Ireduce_scatter(a, e, cnt, MPI_INT, MPI_SUM, comm, &rq[1]);
    MPI_Ireduce_scatter_block(a, f, 2, MPI_INT, MPI_MIN, comm, &rq[2]);
    v[0] = cme + 2;
    MPI_Iscan(&v[0], &v[1], 1, MPI_INT, MPI_PROD, comm, &rq[3]);
    v[3] = -1;
    MPI_Iexscan(&v[0], &v[3], 1, MPI_INT, MPI_SUM, comm, &rq[4]);
    MPI_Waitall(5, rq, MPI_STATUSES_IGNORE);
    OUT(nm, "ialltoallw", H(b, cn));
    OUT(nm, "ireduce_scatter", H(e, cnt[cme]));
    OUT(nm, "ireduce_scatter_block", H(f, 2));
    OUT(nm, "iscan", v[1]);
    if (cme > 0)
        OUT(nm, "iexscan", v[3]);
}

/* size, rank and the sum of world ranks over comm (an intercommunicator
 * sums the remote group's) */
static void probe_comm(MPI_Comm comm, const char *nm)
{
    int cme, cn, s;
    MPI_Comm_rank(comm, &cme);
    MPI_Comm_size(comm, &cn);
    MPI_Allreduce(&me, &s, 1, MPI_INT, MPI_SUM, comm);
    OUT(nm, "size", cn);
    OUT(nm, "rank", cme);
    OUT(nm, "sum", s);
}

/* persistent buffered and ready sends (with a persistent receive), twice */
static void persistent(void)
{
    int s[2], c[2] = { -1, -1 }, it;
    MPI_Request rq[4];
    static int bbuf[2048];

    MPI_Buffer_attach(bbuf, (int)sizeof bbuf);
    MPI_Recv_init(&c[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Recv_init(&c[1], 1, MPI_INT, left, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Bsend_init(&s[0], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &rq[2]);
    MPI_Rsend_init(&s[1], 1, MPI_INT, right, 2, MPI_COMM_WORLD, &rq[3]);
    for (it = 1; it <= 2; it++) {
        s[0] = 1000 * it + me;
        s[1] = 2000 * it + me;
        MPI_Startall(2, rq);
        MPI_Barrier(MPI_COMM_WORLD); /* receives posted before the ready send */
        MPI_Start(&rq[2]);
        MPI_Start(&rq[3]);
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        OUT("w", "persistent", H(c, 2));
    }
    for (it = 0; it < 4; it++)
        MPI_Request_free(&rq[it]);
    {
        void *p;
        int sz;
        MPI_Buffer_detach(&p, &sz);
    }
}

static void comms(void)
{
    MPI_Comm di, sp, sh, cr, cg, ca, c2, cs, gr, dg, da, ic, mg;
    MPI_Group wg, eg;
    int i, ne, ev[8], dims[2] = { 0, 0 }, per[2] = { 1, 0 }, remain[2] = { 0, 1 };
    int idx[8], edg[8], src, dst, deg = 1, wt = 1, np1[1] = { np };
    int *volatile unw;

    MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &di);
    probe_comm(di, "dup_with_info");
    nbcs(di, "dup_with_info");
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, np - me, &sp);
    nbcs(sp, "split");
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &sh);
    probe_comm(sh, "split_type");

    ne = (np + 1) / 2;
    for (i = 0; i < ne; i++)
        ev[i] = 2 * i;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, ne, ev, &eg);
    MPI_Comm_create(MPI_COMM_WORLD, eg, &cr);
    if (me % 2 == 0) {
        probe_comm(cr, "create");
        MPI_Comm_create_group(MPI_COMM_WORLD, eg, 5, &cg);
        probe_comm(cg, "create_group");
        MPI_Comm_free(&cg);
        MPI_Comm_free(&cr);
    } else {
        OUT("w", "create.null", cr == MPI_COMM_NULL);
    }
    MPI_Group_free(&eg);
    MPI_Group_free(&wg);

    MPI_Cart_create(MPI_COMM_WORLD, 1, np1, per, 0, &ca);
    probe_comm(ca, "cart1");
    MPI_Dims_create(np, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &c2);
    MPI_Cart_sub(c2, remain, &cs);
    probe_comm(cs, "cart_sub");

    /* graph: a directed ring (no edges with one rank) */
    for (i = 0; i < np; i++) {
        idx[i] = np > 1 ? i + 1 : 0;
        edg[i] = (i + 1) % np;
    }
    MPI_Graph_create(MPI_COMM_WORLD, np, idx, edg, 0, &gr);
    probe_comm(gr, "graph");
    src = me;
    dst = right;
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, &wt, MPI_INFO_NULL, 0, &dg);
    probe_comm(dg, "dist_graph");
    src = left;
    /* through a volatile: gcc warns that Open MPI's constant (int *)2 points
     * to no array */
    unw = MPI_UNWEIGHTED;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, unw, 1, &dst, unw,
                                   MPI_INFO_NULL, 0, &da);
    probe_comm(da, "dist_graph_adjacent");
    nbcs(da, "dist_graph_adjacent");

    if (np >= 2) {
        /* evens and odds; each group's leader (rank 0 of sp) is its highest
         * world rank (split key np - me) */
        int he = 2 * ((np - 1) / 2), ho = 2 * (np / 2) - 1;
        MPI_Intercomm_create(sp, 0, MPI_COMM_WORLD, me % 2 == 0 ? ho : he, 77, &ic);
        probe_comm(ic, "intercomm");
        MPI_Intercomm_merge(ic, me % 2, &mg);
        probe_comm(mg, "merge");
        nbcs(mg, "merge");
        MPI_Comm_free(&mg);
        MPI_Comm_free(&ic);
    }
    MPI_Comm_free(&da);
    MPI_Comm_free(&dg);
    MPI_Comm_free(&gr);
    MPI_Comm_free(&cs);
    MPI_Comm_free(&c2);
    MPI_Comm_free(&ca);
    MPI_Comm_free(&sh);
    MPI_Comm_free(&sp);
    MPI_Comm_free(&di);
    OUT("w", "freed", di == MPI_COMM_NULL);
}

/* MPI-IO, the common case (every MPI-IO call: tests/mpi/mpi_io.c): every
 * rank writes its value at its offset of one shared file (collectively),
 * reads its right neighbour's back; the file's collective operations join
 * all ranks.  The file lives in the working directory's
 * temporary space ($TMPDIR or /tmp) under a name rank 0 chooses. */
static void io(void)
{
    char name[256];
    if (me == 0) {
        const char *d = getenv("TMPDIR");
        snprintf(name, sizeof name, "%s/rp_conform_%ld.dat", d && *d ? d : "/tmp",
                 (long)getpid());
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_File fh;
    int v = 1000 + me, got = -1;
    int rc = MPI_File_open(MPI_COMM_WORLD, name,
                           MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh);
    RPT_CHECK(rc == MPI_SUCCESS);
    MPI_File_write_at_all(fh, (MPI_Offset)me * (MPI_Offset)sizeof v, &v, 1, MPI_INT,
                          MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_read_at_all(fh, (MPI_Offset)right * (MPI_Offset)sizeof v, &got, 1, MPI_INT,
                         MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    OUT("w", "file", got);
}

int main(int argc, char **argv)
{
    int provided = -1;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    left = (me - 1 + np) % np;
    right = (me + 1) % np;
    OUT("w", "init_thread", provided >= MPI_THREAD_FUNNELED);
    persistent();
    nbcs(MPI_COMM_WORLD, "w");
    comms();
    io();
    rpt_flush();
    MPI_Finalize();
    return 0;
}
