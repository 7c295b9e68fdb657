/* mpi_large.c - the MPI-4 calls rpprof wraps in C (tests/mpi/test_large.sh):
 * every large-count form MPI_X_c of a wrapped call, and MPI_Isendrecv[_replace]
 * (doc/coverage.md, "MPI-4").
 *
 * A receive matches a send of either form, so the point-to-point part mixes
 * them around a ring: a large-count send to a plain receive and the other
 * way round.  Before these forms were wrapped, MPI_Send_c to an MPI_Recv
 * hung the receiver, which waited for the sender's path-set.  Then every
 * collective, neighbourhood, one-sided and MPI-IO large-count form once.
 * Each rank prints what MPI semantics decide (rpt_out), so the output is
 * identical with and without the profiler.  Any number of ranks >= 1.
 *
 *   mpi_large path T   a token goes around the ring twice (2 ranks or
 *                      more), each holder working T ms before it passes it
 *                      on, each hop by another pairing of large-count and
 *                      plain forms: the 100 % path is 2 * P * T, and one
 *                      missing join cuts it to at most half of that.
 *   mpi_large wild     one MPI_Isendrecv_c from any source a rank: MPICH
 *                      4.0.2 leaves its status unset, so the profiler cannot
 *                      join it; it must complete, and be counted
 *                      (unsupported_calls, pathset_unmatched: one a rank).
 *
 * Under an MPI-3 library (Open MPI 4.1 here) there are no such functions:
 * the program says so and the test script checks nothing else there.
 */
#include <unistd.h>
#include "rptest.h"

#if MPI_VERSION >= 4

static int me, np, left, right;
static MPI_Status sts[8];   /* not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's (MPI_Status *)1 */

#define H(p, n) rpt_hash((p), sizeof(int) * (size_t)(n))
#define OUT(what, v) rpt_out("r%d %s %u\n", me, (what), (unsigned)(v))

/* point to point around the ring: receive from left, send to right */
static void p2p(void)
{
    int a[8], b[8], i;
    MPI_Request rq[4];
    MPI_Status st;
    MPI_Message msg;
    for (i = 0; i < 8; i++)
        a[i] = 100 * me + i;

    /* large-count send, plain receive; plain send, large-count receive */
    MPI_Irecv(b, 8, MPI_INT, left, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_c(a, 8, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Wait(&rq[0], &st);
    OUT("send_c>irecv", H(b, 8));
    MPI_Irecv_c(b, 8, MPI_INT, left, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Send(a, 8, MPI_INT, right, 2, MPI_COMM_WORLD);
    MPI_Wait(&rq[0], &st);
    OUT("send>irecv_c", H(b, 8));
    MPI_Irecv(b, 8, MPI_INT, left, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Ssend_c(a, 4, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Wait(&rq[0], &st);
    OUT("ssend_c", H(b, 4));
    {
        static char bsbuf[4096];
        void *old;
        int osz;
        MPI_Buffer_attach(bsbuf, sizeof bsbuf);
        MPI_Irecv(b, 8, MPI_INT, left, 4, MPI_COMM_WORLD, &rq[0]);
        MPI_Bsend_c(a, 5, MPI_INT, right, 4, MPI_COMM_WORLD);
        MPI_Wait(&rq[0], &st);
        OUT("bsend_c", H(b, 5));
        MPI_Irecv(b, 8, MPI_INT, left, 5, MPI_COMM_WORLD, &rq[0]);
        MPI_Ibsend_c(a, 6, MPI_INT, right, 5, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, sts);
        OUT("ibsend_c", H(b, 6));
        MPI_Buffer_detach(&old, &osz);
    }
    /* ready sends: the receive is posted before anyone sends */
    MPI_Irecv(b, 8, MPI_INT, left, 6, MPI_COMM_WORLD, &rq[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Rsend_c(a, 7, MPI_INT, right, 6, MPI_COMM_WORLD);
    MPI_Wait(&rq[0], &st);
    OUT("rsend_c", H(b, 7));
    MPI_Irecv(b, 8, MPI_INT, left, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Irsend_c(a, 3, MPI_INT, right, 7, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, sts);
    OUT("irsend_c", H(b, 3));
    /* non-blocking large-count sends to a blocking large-count receive */
    MPI_Isend_c(a, 8, MPI_INT, right, 8, MPI_COMM_WORLD, &rq[0]);
    MPI_Issend_c(a + 1, 7, MPI_INT, right, 9, MPI_COMM_WORLD, &rq[1]);
    MPI_Recv_c(b, 8, MPI_INT, left, 8, MPI_COMM_WORLD, &st);
    OUT("isend_c>recv_c", H(b, 8));
    MPI_Recv(b, 8, MPI_INT, left, 9, MPI_COMM_WORLD, &st);
    MPI_Waitall(2, rq, sts);
    OUT("issend_c>recv", H(b, 7));
    /* combined */
    MPI_Sendrecv_c(a, 8, MPI_INT, right, 10, b, 8, MPI_INT, left, 10, MPI_COMM_WORLD, &st);
    OUT("sendrecv_c", H(b, 8));
    memcpy(b, a, sizeof a);
    MPI_Sendrecv_replace_c(b, 8, MPI_INT, right, 11, left, 11, MPI_COMM_WORLD, &st);
    OUT("sendrecv_replace_c", H(b, 8));
    MPI_Isendrecv(a, 8, MPI_INT, right, 12, b, 8, MPI_INT, left, 12, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st);
    OUT("isendrecv", H(b, 8));   /* MPICH 4.0.2 leaves its status unset */
    memcpy(b, a, sizeof a);
    MPI_Isendrecv_replace(b, 8, MPI_INT, right, 13, left, 13, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st);
    OUT("isendrecv_replace", H(b, 8));
    MPI_Isendrecv_c(a, 6, MPI_INT, right, 14, b, 8, MPI_INT, left, 14, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st);
    OUT("isendrecv_c", H(b, 6));
    memcpy(b, a, sizeof a);
    MPI_Isendrecv_replace_c(b, 8, MPI_INT, right, 15, left, 15, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st);
    OUT("isendrecv_replace_c", H(b, 8));
    /* matched probes */
    MPI_Isend(a, 8, MPI_INT, right, 16, MPI_COMM_WORLD, &rq[0]);
    MPI_Mprobe(left, 16, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv_c(b, 8, MPI_INT, &msg, &st);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    OUT("mrecv_c", H(b, 8));
    MPI_Isend_c(a, 8, MPI_INT, right, 17, MPI_COMM_WORLD, &rq[0]);
    MPI_Mprobe(left, 17, MPI_COMM_WORLD, &msg, &st);
    MPI_Imrecv_c(b, 8, MPI_INT, &msg, &rq[1]);
    MPI_Waitall(2, rq, sts);
    OUT("imrecv_c", H(b, 8));
    /* persistent, twice each */
    {
        static char bsbuf[4096];
        void *old;
        int osz, r;
        MPI_Request ps[5];
        MPI_Buffer_attach(bsbuf, sizeof bsbuf);
        for (r = 0; r < 2; r++) {
            int got[4][8];
            MPI_Recv_init_c(got[0], 8, MPI_INT, left, 20, MPI_COMM_WORLD, &ps[0]);
            MPI_Send_init_c(a, 8, MPI_INT, right, 20, MPI_COMM_WORLD, &ps[1]);
            MPI_Ssend_init_c(a, 8, MPI_INT, right, 21, MPI_COMM_WORLD, &ps[2]);
            MPI_Bsend_init_c(a, 8, MPI_INT, right, 22, MPI_COMM_WORLD, &ps[3]);
            MPI_Irecv(got[1], 8, MPI_INT, left, 21, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(got[2], 8, MPI_INT, left, 22, MPI_COMM_WORLD, &rq[1]);
            MPI_Irecv(got[3], 8, MPI_INT, left, 23, MPI_COMM_WORLD, &rq[2]);
            MPI_Rsend_init_c(a, 8, MPI_INT, right, 23, MPI_COMM_WORLD, &ps[4]);
            MPI_Barrier(MPI_COMM_WORLD);   /* every receive of tag 23 is posted */
            MPI_Startall(5, ps);
            MPI_Waitall(5, ps, sts);
            MPI_Waitall(3, rq, sts);
            for (i = 0; i < 5; i++)
                MPI_Request_free(&ps[i]);
            OUT("persistent_c", H(got, 32) + (unsigned)r);
        }
        MPI_Buffer_detach(&old, &osz);
    }
}

/* every large-count collective on MPI_COMM_WORLD, blocking and not */
static void coll(void)
{
    enum { M = 64 };
    int a[M], b[M], i, root = np - 1;
    MPI_Count cnt[M], rc[M], one[M];
    MPI_Aint dsp[M], rd[M], bd[M];
    MPI_Datatype ty[M];
    MPI_Request rq;
    for (i = 0; i < M; i++)
        a[i] = 7 * me + i + 1;
    for (i = 0; i < np; i++) {
        cnt[i] = 1 + i % 2;     /* gatherv/allgatherv: rank i gives 1 + i % 2 */
        dsp[i] = 2 * i;
        rc[i] = 1 + me % 2;     /* alltoallv: what every rank sends me */
        rd[i] = 2 * i;
        one[i] = 1;
        bd[i] = (MPI_Aint)sizeof(int) * i;
        ty[i] = MPI_INT;
    }
#define RESET() memset(b, 0, sizeof b)
#define SHOW(nm, n) OUT(nm, H(b, n))
    for (int nb = 0; nb < 2; nb++) {
        /* nb: the non-blocking form, completed at once */
#define DO(blocking, nonblocking)                                               \
    do {                                                                        \
        RESET();                                                                \
        if (nb) {                                                               \
            nonblocking;                                                        \
            MPI_Wait(&rq, MPI_STATUS_IGNORE);                                   \
        } else {                                                                \
            blocking;                                                           \
        }                                                                       \
    } while (0)
        const char *p = nb ? "i" : "";
        char nm[64];
        DO(MPI_Bcast_c(a, 5, MPI_INT, root, MPI_COMM_WORLD),
           MPI_Ibcast_c(a, 5, MPI_INT, root, MPI_COMM_WORLD, &rq));
        memcpy(b, a, sizeof a);
        snprintf(nm, sizeof nm, "%sbcast_c", p), SHOW(nm, 5);
        for (i = 0; i < M; i++)
            a[i] = 7 * me + i + 1;
        DO(MPI_Reduce_c(a, b, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD),
           MPI_Ireduce_c(a, b, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sreduce_c", p), SHOW(nm, 4);
        DO(MPI_Allreduce_c(a, b, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD),
           MPI_Iallreduce_c(a, b, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sallreduce_c", p), SHOW(nm, 4);
        DO(MPI_Gather_c(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD),
           MPI_Igather_c(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sgather_c", p), SHOW(nm, 2 * np);
        DO(MPI_Gatherv_c(a, 1 + me % 2, MPI_INT, b, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD),
           MPI_Igatherv_c(a, 1 + me % 2, MPI_INT, b, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD,
                          &rq));
        snprintf(nm, sizeof nm, "%sgatherv_c", p), SHOW(nm, 2 * np);
        DO(MPI_Scatter_c(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD),
           MPI_Iscatter_c(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sscatter_c", p), SHOW(nm, 2);
        DO(MPI_Scatterv_c(a, cnt, dsp, MPI_INT, b, 1 + me % 2, MPI_INT, root, MPI_COMM_WORLD),
           MPI_Iscatterv_c(a, cnt, dsp, MPI_INT, b, 1 + me % 2, MPI_INT, root, MPI_COMM_WORLD,
                           &rq));
        snprintf(nm, sizeof nm, "%sscatterv_c", p), SHOW(nm, 2);
        DO(MPI_Allgather_c(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD),
           MPI_Iallgather_c(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sallgather_c", p), SHOW(nm, np);
        DO(MPI_Allgatherv_c(a, 1 + me % 2, MPI_INT, b, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
           MPI_Iallgatherv_c(a, 1 + me % 2, MPI_INT, b, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sallgatherv_c", p), SHOW(nm, 2 * np);
        DO(MPI_Alltoall_c(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD),
           MPI_Ialltoall_c(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%salltoall_c", p), SHOW(nm, np);
        /* alltoallv: rank j sends 1 + j % 2 ints to everyone */
        {
            MPI_Count sc[M];
            MPI_Aint sd[M];
            for (i = 0; i < np; i++) {
                sc[i] = 1 + me % 2;
                sd[i] = 0;
                rc[i] = 1 + i % 2;
            }
            DO(MPI_Alltoallv_c(a, sc, sd, MPI_INT, b, rc, rd, MPI_INT, MPI_COMM_WORLD),
               MPI_Ialltoallv_c(a, sc, sd, MPI_INT, b, rc, rd, MPI_INT, MPI_COMM_WORLD, &rq));
            snprintf(nm, sizeof nm, "%salltoallv_c", p), SHOW(nm, 2 * np);
        }
        DO(MPI_Alltoallw_c(a, one, bd, ty, b, one, bd, ty, MPI_COMM_WORLD),
           MPI_Ialltoallw_c(a, one, bd, ty, b, one, bd, ty, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%salltoallw_c", p), SHOW(nm, np);
        DO(MPI_Reduce_scatter_c(a, b, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
           MPI_Ireduce_scatter_c(a, b, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sreduce_scatter_c", p), SHOW(nm, 1 + me % 2);
        DO(MPI_Reduce_scatter_block_c(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
           MPI_Ireduce_scatter_block_c(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sreduce_scatter_block_c", p), SHOW(nm, 2);
        DO(MPI_Scan_c(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
           MPI_Iscan_c(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
        snprintf(nm, sizeof nm, "%sscan_c", p), SHOW(nm, 3);
        DO(MPI_Exscan_c(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
           MPI_Iexscan_c(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
        if (me == 0)
            RESET();   /* undefined on rank 0 */
        snprintf(nm, sizeof nm, "%sexscan_c", p), SHOW(nm, 3);
    }
#undef DO
}

/* neighbourhood collectives on a periodic ring: in-neighbours left, right */
static void neighbor(void)
{
    MPI_Comm ring;
    int dims[1] = { np }, per[1] = { 1 }, a[4], b[8], i;
    MPI_Count two[2] = { 1, 1 }, c2[2] = { 2, 2 };
    MPI_Aint d2[2] = { 0, 4 }, dz[2] = { 0, 0 }, de[2] = { 0, 1 };   /* d2, de: in ints */
    MPI_Aint db[2] = { 0, (MPI_Aint)sizeof(int) };
    MPI_Datatype t2[2] = { MPI_INT, MPI_INT };
    MPI_Request rq;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    for (i = 0; i < 4; i++)
        a[i] = 10 * me + i;
    for (int nb = 0; nb < 2; nb++) {
        const char *p = nb ? "i" : "";
        char nm[64];
#define NB(blocking, nonblocking, what, n)                                      \
    do {                                                                        \
        memset(b, 0, sizeof b);                                                 \
        if (nb) {                                                               \
            nonblocking;                                                        \
            MPI_Wait(&rq, MPI_STATUS_IGNORE);                                   \
        } else {                                                                \
            blocking;                                                           \
        }                                                                       \
        snprintf(nm, sizeof nm, "%s" what, p);                                  \
        OUT(nm, H(b, n));                                                       \
    } while (0)
        NB(MPI_Neighbor_allgather_c(a, 2, MPI_INT, b, 2, MPI_INT, ring),
           MPI_Ineighbor_allgather_c(a, 2, MPI_INT, b, 2, MPI_INT, ring, &rq),
           "neighbor_allgather_c", 4);
        NB(MPI_Neighbor_allgatherv_c(a, 2, MPI_INT, b, c2, d2, MPI_INT, ring),
           MPI_Ineighbor_allgatherv_c(a, 2, MPI_INT, b, c2, d2, MPI_INT, ring, &rq),
           "neighbor_allgatherv_c", 8);
        NB(MPI_Neighbor_alltoall_c(a, 1, MPI_INT, b, 1, MPI_INT, ring),
           MPI_Ineighbor_alltoall_c(a, 1, MPI_INT, b, 1, MPI_INT, ring, &rq),
           "neighbor_alltoall_c", 2);
        NB(MPI_Neighbor_alltoallv_c(a, two, de, MPI_INT, b, two, de, MPI_INT, ring),
           MPI_Ineighbor_alltoallv_c(a, two, de, MPI_INT, b, two, de, MPI_INT, ring, &rq),
           "neighbor_alltoallv_c", 2);
        NB(MPI_Neighbor_alltoallw_c(a, two, db, t2, b, two, db, t2, ring),
           MPI_Ineighbor_alltoallw_c(a, two, db, t2, b, two, db, t2, ring, &rq),
           "neighbor_alltoallw_c", 2);
#undef NB
    }
    (void)dz;
    MPI_Comm_free(&ring);
}

/* one-sided: windows made by each large-count constructor, every
 * large-count access between fences */
static void rma(void)
{
    int *base, *sh, loc[4], res[4], i, k;
    MPI_Win w[3];
    MPI_Comm node;
    MPI_Request rq[4];
    MPI_Aint sz;
    MPI_Aint du;
    static int mem[16];
    memset(mem, 0, sizeof mem);
    MPI_Win_create_c(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w[0]);
    MPI_Win_allocate_c(sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w[1]);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Win_allocate_shared_c(sizeof mem, sizeof(int), MPI_INFO_NULL, node, &sh, &w[2]);
    memset(base, 0, sizeof mem);
    memset(sh, 0, sizeof mem);
    MPI_Win_shared_query_c(w[2], MPI_PROC_NULL, &sz, &du, &sh);
    for (k = 0; k < 3; k++) {
        int tgt = k == 2 ? 0 : right;   /* the shared window: its first process */
        for (i = 0; i < 4; i++)
            loc[i] = 1000 * k + 10 * me + i;
        MPI_Win_fence(MPI_MODE_NOPRECEDE, w[k]);
        MPI_Put_c(loc, 1, MPI_INT, tgt, me, 1, MPI_INT, w[k]);
        MPI_Accumulate_c(loc, 1, MPI_INT, tgt, 15, 1, MPI_INT, MPI_SUM, w[k]);
        MPI_Win_fence(0, w[k]);
        MPI_Get_c(res, 1, MPI_INT, tgt, 15, 1, MPI_INT, w[k]);
        MPI_Win_fence(0, w[k]);
        OUT("get_c", res[0]);
        MPI_Get_accumulate_c(loc, 1, MPI_INT, res, 1, MPI_INT, tgt, 14, 1, MPI_INT, MPI_NO_OP,
                             w[k]);
        MPI_Win_fence(MPI_MODE_NOSUCCEED, w[k]);   /* no fence epoch around the locks */
        MPI_Win_lock_all(0, w[k]);
        MPI_Rput_c(loc + 1, 1, MPI_INT, tgt, me, 1, MPI_INT, w[k], &rq[0]);   /* its own slot */
        MPI_Raccumulate_c(loc, 1, MPI_INT, tgt, 12, 1, MPI_INT, MPI_SUM, w[k], &rq[1]);
        MPI_Waitall(2, rq, sts);
        MPI_Win_unlock_all(w[k]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock_all(0, w[k]);
        MPI_Rget_c(res, 1, MPI_INT, tgt, 12, 1, MPI_INT, w[k], &rq[0]);
        MPI_Rget_accumulate_c(loc, 1, MPI_INT, res + 1, 1, MPI_INT, tgt, 15, 1, MPI_INT,
                              MPI_NO_OP, w[k], &rq[1]);
        MPI_Waitall(2, rq, sts);
        MPI_Win_unlock_all(w[k]);
        OUT("rget_c", (unsigned)res[0] + 7u * (unsigned)res[1]);
        MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED, w[k]);
    }
    for (k = 0; k < 3; k++)
        MPI_Win_free(&w[k]);
    MPI_Comm_free(&node);
}

/* MPI-IO: rank r owns ints [8r, 8r + 8) of a file */
static void io(void)
{
    char path[256];
    const char *dir = getenv("TMPDIR");
    int pid = (int)getpid(), a[8], b[8], i;
    MPI_File fh;
    MPI_Status st;
    MPI_Request rq;
    MPI_Offset off = (MPI_Offset)sizeof(int) * 8 * me;
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/rp_large_%d.dat", dir && *dir ? dir : "/tmp", pid);
    for (i = 0; i < 8; i++)
        a[i] = 8 * me + i;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
#define BACK(what, n)                                                           \
    do {                                                                        \
        memset(b, 0, sizeof b);                                                 \
        MPI_File_read_at_c(fh, off, b, 8, MPI_INT, &st);                        \
        OUT(what, H(b, n));                                                     \
    } while (0)
    MPI_File_write_at_c(fh, off, a, 8, MPI_INT, &st);
    MPI_File_sync(fh);
    BACK("write_at_c", 8);
    MPI_File_write_at_all_c(fh, off, a + 1, 7, MPI_INT, &st);
    MPI_File_read_at_all_c(fh, off, b, 8, MPI_INT, &st);
    OUT("at_all_c", H(b, 8));
    MPI_File_iwrite_at_c(fh, off, a, 8, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_iread_at_c(fh, off, b, 8, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    OUT("iat_c", H(b, 8));
    MPI_File_iwrite_at_all_c(fh, off, a + 2, 6, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_iread_at_all_c(fh, off, b, 8, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    OUT("iat_all_c", H(b, 8));
    MPI_File_write_at_all_begin_c(fh, off, a, 8, MPI_INT);
    MPI_File_write_at_all_end(fh, a, &st);
    MPI_File_read_at_all_begin_c(fh, off, b, 8, MPI_INT);
    MPI_File_read_at_all_end(fh, b, &st);
    OUT("at_all_split_c", H(b, 8));
    /* individual pointers: each rank's view starts at its own block */
    MPI_File_set_view(fh, off, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_write_c(fh, a, 2, MPI_INT, &st);
    MPI_File_iwrite_c(fh, a + 2, 2, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_write_all_c(fh, a + 4, 2, MPI_INT, &st);
    MPI_File_iwrite_all_c(fh, a + 6, 1, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_write_all_begin_c(fh, a + 7, 1, MPI_INT);
    MPI_File_write_all_end(fh, a + 7, &st);
    MPI_File_seek(fh, 0, MPI_SEEK_SET);
    memset(b, 0, sizeof b);
    MPI_File_read_c(fh, b, 2, MPI_INT, &st);
    MPI_File_iread_c(fh, b + 2, 2, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_read_all_c(fh, b + 4, 2, MPI_INT, &st);
    MPI_File_iread_all_c(fh, b + 6, 1, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_read_all_begin_c(fh, b + 7, 1, MPI_INT);
    MPI_File_read_all_end(fh, b + 7, &st);
    OUT("individual_c", H(b, 8));
    /* shared pointer: ordered writes, in rank order, then ordered reads;
     * they overwrite other ranks' blocks: sync-barrier-sync first */
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_write_ordered_c(fh, a, 2, MPI_INT, &st);
    MPI_File_write_ordered_begin_c(fh, a + 2, 2, MPI_INT);
    MPI_File_write_ordered_end(fh, a + 2, &st);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    memset(b, 0, sizeof b);
    MPI_File_read_ordered_c(fh, b, 2, MPI_INT, &st);
    MPI_File_read_ordered_begin_c(fh, b + 2, 2, MPI_INT);
    MPI_File_read_ordered_end(fh, b + 2, &st);
    OUT("ordered_c", H(b, 4));
    /* independent shared-pointer accesses: one rank at a time */
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    for (i = 0; i < np; i++) {
        if (i == me) {
            MPI_File_write_shared_c(fh, a, 1, MPI_INT, &st);
            MPI_File_iwrite_shared_c(fh, a + 1, 1, MPI_INT, &rq);
            MPI_Wait(&rq, &st);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    for (i = 0; i < np; i++) {
        if (i == me) {
            memset(b, 0, sizeof b);
            MPI_File_read_shared_c(fh, b, 1, MPI_INT, &st);
            MPI_File_iread_shared_c(fh, b + 1, 1, MPI_INT, &rq);
            MPI_Wait(&rq, &st);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    OUT("shared_c", H(b, 2));
    MPI_File_close(&fh);
#undef BACK
}

/* the token ring of `path T` (no collective over the world until
 * MPI_Finalize: one phase) */
static void path(double t_ms)
{
    int tok = 0;
    MPI_Request rq;
    MPI_Status st;
    MPI_Message msg;
    for (int j = 0; j < 2 * np; j++) {
        int src = j % np, dst = (j + 1) % np, form = j % 5;
        if (me == src) {
            rpt_sleep_ms(t_ms);
            tok++;
            if (form == 0)
                MPI_Send_c(&tok, 1, MPI_INT, dst, j, MPI_COMM_WORLD);
            else if (form == 1)
                MPI_Send(&tok, 1, MPI_INT, dst, j, MPI_COMM_WORLD);
            else if (form == 2) {
                MPI_Isend_c(&tok, 1, MPI_INT, dst, j, MPI_COMM_WORLD, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
            } else if (form == 3)
                MPI_Ssend_c(&tok, 1, MPI_INT, dst, j, MPI_COMM_WORLD);
            else {
                int dummy = 0;
                MPI_Isendrecv_c(&tok, 1, MPI_INT, dst, j, &dummy, 1, MPI_INT, dst, 1000 + j,
                                MPI_COMM_WORLD, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
            }
        }
        if (me == dst) {
            if (form == 0)
                MPI_Recv(&tok, 1, MPI_INT, src, j, MPI_COMM_WORLD, &st);
            else if (form == 1)
                MPI_Recv_c(&tok, 1, MPI_INT, src, j, MPI_COMM_WORLD, &st);
            else if (form == 2) {
                MPI_Irecv_c(&tok, 1, MPI_INT, src, j, MPI_COMM_WORLD, &rq);
                MPI_Wait(&rq, &st);
            } else if (form == 3) {
                MPI_Mprobe(src, j, MPI_COMM_WORLD, &msg, &st);
                MPI_Mrecv_c(&tok, 1, MPI_INT, &msg, &st);
            } else {
                int zero = 0;
                MPI_Sendrecv_c(&zero, 1, MPI_INT, src, 1000 + j, &tok, 1, MPI_INT, src, j,
                               MPI_COMM_WORLD, &st);
            }
        }
    }
    rpt_out("r%d token %d\n", me, tok);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    left = (me + np - 1) % np;
    right = (me + 1) % np;
    if (argc > 1 && strcmp(argv[1], "wild") == 0) {
        int a[4] = { me, 1, 2, 3 }, b[4] = { 0, 0, 0, 0 };
        MPI_Request rq;
        MPI_Isendrecv_c(a, 4, MPI_INT, right, 30, b, 4, MPI_INT, MPI_ANY_SOURCE, 30,
                        MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        rpt_out("r%d wild from %d\n", me, b[0]);
        rpt_flush();
        MPI_Finalize();
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "path") == 0) {
        if (np < 2) {
            if (me == 0)
                fprintf(stderr, "mpi_large path: needs 2 ranks or more\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        path(atof(argv[2]));
        rpt_flush();
        MPI_Finalize();
        return 0;
    }
    p2p();
    coll();
    neighbor();
    rma();
    io();
    rpt_flush();
    MPI_Finalize();
    return 0;
}

#else /* an MPI-3 library */

int main(int argc, char **argv)
{
    return rpt_mpi3_main(argc, argv, "mpi_large", "large-count functions");
}

#endif
