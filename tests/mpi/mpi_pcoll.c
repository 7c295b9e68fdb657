/* mpi_pcoll.c - MPI-4 persistent collectives and partitioned communication
 * under rpprof (tests/mpi/test_pcoll.sh; doc/coverage.md, "MPI-4").
 *
 *   mpi_pcoll          every persistent collective, int and large-count
 *                      forms, on MPI_COMM_WORLD (the neighbourhood ones on a
 *                      periodic ring), each started three times with other
 *                      data (MPI_Start + MPI_Wait, MPI_Start + an MPI_Test
 *                      loop, MPI_Startall + MPI_Waitall), then freed; and a
 *                      partitioned ring (MPI_Psend_init / MPI_Precv_init,
 *                      MPI_Pready_range / MPI_Pready_list / MPI_Pready,
 *                      MPI_Parrived), three rounds.  Prints a checksum of
 *                      every result, in rank order.
 *
 * Under an MPI-3 library the functions do not exist: one line says so. */
#include <mpi.h>
#include "rptest.h"

#if MPI_VERSION >= 4

static int me, np, left, right;

#define H(p, n) rpt_hash((p), sizeof(int) * (size_t)(n))
#define OUT(what, rep, v) rpt_out("r%d %s %d %u\n", me, (what), (rep), (unsigned)(v))

enum { M = 64 };
static int a[M], b[M];

static void fill(int rep)
{
    for (int i = 0; i < M; i++)
        a[i] = 7 * me + i + 1 + 100 * rep;
    memset(b, 0, sizeof b);
}

/* Start request *rq reps times (3 at most) with new data; rep 0: Start +
 * Wait, rep 1: Start + Test until done, rep 2: Startall + Waitall; print
 * what came; free it. */
static void runn(MPI_Request *rq, const char *what, int n, int undefined_here, int reps)
{
    for (int rep = 0; rep < reps; rep++) {
        fill(rep);
        if (rep == 0) {
            MPI_Start(rq);
            MPI_Wait(rq, MPI_STATUS_IGNORE);
        } else if (rep == 1) {
            int done = 0;
            MPI_Start(rq);
            while (!done)
                MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        } else {
            MPI_Startall(1, rq);
            MPI_Waitall(1, rq, MPI_STATUSES_IGNORE);
        }
        if (undefined_here)
            memset(b, 0, sizeof b);
        OUT(what, rep, H(b, n));
    }
    MPI_Request_free(rq);
}

#define run3(rq, what, n, undef) runn((rq), (what), (n), (undef), 3)

static void coll(void)
{
    int i, root = np - 1, cnt[M], dsp[M], one[M], bd[M], sc[M], sd[M], rc[M];
    MPI_Count ccnt[M], cone[M], csc[M], crc[M];
    MPI_Aint cdsp[M], cbd[M], csd[M];
    MPI_Datatype ty[M];
    MPI_Request rq;
    for (i = 0; i < np; i++) {
        cnt[i] = 1 + i % 2;     /* gatherv/allgatherv: rank i gives 1 + i % 2 */
        ccnt[i] = cnt[i];
        dsp[i] = 2 * i;
        cdsp[i] = dsp[i];
        one[i] = 1;
        cone[i] = 1;
        bd[i] = (int)sizeof(int) * i;
        cbd[i] = bd[i];
        ty[i] = MPI_INT;
        sc[i] = 1 + me % 2;     /* alltoallv: rank j sends 1 + j % 2 to everyone */
        csc[i] = sc[i];
        sd[i] = 0;
        csd[i] = 0;
        rc[i] = 1 + i % 2;
        crc[i] = rc[i];
    }
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "barrier", 0, 0);
    MPI_Bcast_init(a, 5, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    for (int rep = 0; rep < 3; rep++) {   /* bcast's buffer is its result */
        fill(rep);
        MPI_Start(&rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        OUT("bcast", rep, H(a, 5));
    }
    MPI_Request_free(&rq);
    MPI_Bcast_init_c(a, 5, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    for (int rep = 0; rep < 3; rep++) {
        fill(rep);
        MPI_Start(&rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        OUT("bcast_c", rep, H(a, 5));
    }
    MPI_Request_free(&rq);
    MPI_Reduce_init(a, b, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "reduce", 4, 0);
    MPI_Reduce_init_c(a, b, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "reduce_c", 4, 0);
    MPI_Allreduce_init(a, b, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "allreduce", 4, 0);
    MPI_Allreduce_init_c(a, b, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "allreduce_c", 4, 0);
    MPI_Gather_init(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "gather", 2 * np, 0);
    MPI_Gather_init_c(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "gather_c", 2 * np, 0);
    MPI_Gatherv_init(a, 1 + me % 2, MPI_INT, b, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &rq);
    run3(&rq, "gatherv", 2 * np, 0);
    MPI_Gatherv_init_c(a, 1 + me % 2, MPI_INT, b, ccnt, cdsp, MPI_INT, root, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &rq);
    run3(&rq, "gatherv_c", 2 * np, 0);
    MPI_Scatter_init(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    /* MPICH 4.0.2's persistent MPI_Scatter fails on its second start at 3
     * ranks or more ("Invalid communicator"), without the profiler too */
    runn(&rq, "scatter", 2, 0, np > 2 ? 1 : 3);
    MPI_Scatter_init_c(a, 2, MPI_INT, b, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    runn(&rq, "scatter_c", 2, 0, np > 2 ? 1 : 3);
    MPI_Scatterv_init(a, cnt, dsp, MPI_INT, b, 1 + me % 2, MPI_INT, root, MPI_COMM_WORLD,
                      MPI_INFO_NULL, &rq);
    run3(&rq, "scatterv", 2, 0);
    MPI_Scatterv_init_c(a, ccnt, cdsp, MPI_INT, b, 1 + me % 2, MPI_INT, root, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &rq);
    run3(&rq, "scatterv_c", 2, 0);
    MPI_Allgather_init(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "allgather", np, 0);
    MPI_Allgather_init_c(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "allgather_c", np, 0);
    MPI_Allgatherv_init(a, 1 + me % 2, MPI_INT, b, cnt, dsp, MPI_INT, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &rq);
    run3(&rq, "allgatherv", 2 * np, 0);
    MPI_Allgatherv_init_c(a, 1 + me % 2, MPI_INT, b, ccnt, cdsp, MPI_INT, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &rq);
    run3(&rq, "allgatherv_c", 2 * np, 0);
    MPI_Alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "alltoall", np, 0);
    MPI_Alltoall_init_c(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "alltoall_c", np, 0);
    MPI_Alltoallv_init(a, sc, sd, MPI_INT, b, rc, dsp, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &rq);
    run3(&rq, "alltoallv", 2 * np, 0);
    MPI_Alltoallv_init_c(a, csc, csd, MPI_INT, b, crc, cdsp, MPI_INT, MPI_COMM_WORLD,
                         MPI_INFO_NULL, &rq);
    run3(&rq, "alltoallv_c", 2 * np, 0);
    MPI_Alltoallw_init(a, one, bd, ty, b, one, bd, ty, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "alltoallw", np, 0);
    MPI_Alltoallw_init_c(a, cone, cbd, ty, b, cone, cbd, ty, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "alltoallw_c", np, 0);
    MPI_Reduce_scatter_init(a, b, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "reduce_scatter", 1 + me % 2, 0);
    MPI_Reduce_scatter_init_c(a, b, ccnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "reduce_scatter_c", 1 + me % 2, 0);
    MPI_Reduce_scatter_block_init(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "reduce_scatter_block", 2, 0);
    MPI_Reduce_scatter_block_init_c(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                    &rq);
    run3(&rq, "reduce_scatter_block_c", 2, 0);
    MPI_Scan_init(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "scan", 3, 0);
    MPI_Scan_init_c(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "scan_c", 3, 0);
    MPI_Exscan_init(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "exscan", 3, me == 0);   /* undefined on rank 0 */
    MPI_Exscan_init_c(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    run3(&rq, "exscan_c", 3, me == 0);
}

/* neighbourhood collectives on a periodic ring: in-neighbours left, right */
static void neighbor(void)
{
    MPI_Comm ring;
    int dims[1] = { np }, per[1] = { 1 };
    int two[2] = { 1, 1 }, c2[2] = { 2, 2 }, d2[2] = { 0, 4 }, de[2] = { 0, 1 };
    MPI_Count ctwo[2] = { 1, 1 }, cc2[2] = { 2, 2 };
    MPI_Aint cd2[2] = { 0, 4 }, cde[2] = { 0, 1 }, cdb[2] = { 0, (MPI_Aint)sizeof(int) };
    MPI_Datatype t2[2] = { MPI_INT, MPI_INT };
    MPI_Request rq;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    MPI_Neighbor_allgather_init(a, 2, MPI_INT, b, 2, MPI_INT, ring, MPI_INFO_NULL, &rq);
    run3(&rq, "neighbor_allgather", 4, 0);
    MPI_Neighbor_allgather_init_c(a, 2, MPI_INT, b, 2, MPI_INT, ring, MPI_INFO_NULL, &rq);
    run3(&rq, "neighbor_allgather_c", 4, 0);
    MPI_Neighbor_allgatherv_init(a, 2, MPI_INT, b, c2, d2, MPI_INT, ring, MPI_INFO_NULL, &rq);
    run3(&rq, "neighbor_allgatherv", 8, 0);
    MPI_Neighbor_allgatherv_init_c(a, 2, MPI_INT, b, cc2, cd2, MPI_INT, ring, MPI_INFO_NULL,
                                   &rq);
    run3(&rq, "neighbor_allgatherv_c", 8, 0);
    MPI_Neighbor_alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, ring, MPI_INFO_NULL, &rq);
    run3(&rq, "neighbor_alltoall", 2, 0);
    MPI_Neighbor_alltoall_init_c(a, 1, MPI_INT, b, 1, MPI_INT, ring, MPI_INFO_NULL, &rq);
    run3(&rq, "neighbor_alltoall_c", 2, 0);
    MPI_Neighbor_alltoallv_init(a, two, de, MPI_INT, b, two, de, MPI_INT, ring, MPI_INFO_NULL,
                                &rq);
    run3(&rq, "neighbor_alltoallv", 2, 0);
    MPI_Neighbor_alltoallv_init_c(a, ctwo, cde, MPI_INT, b, ctwo, cde, MPI_INT, ring,
                                  MPI_INFO_NULL, &rq);
    run3(&rq, "neighbor_alltoallv_c", 2, 0);
    {
        MPI_Aint wd[2] = { 0, (MPI_Aint)sizeof(int) };   /* bytes */
        MPI_Neighbor_alltoallw_init(a, two, wd, t2, b, two, wd, t2, ring, MPI_INFO_NULL, &rq);
        run3(&rq, "neighbor_alltoallw", 2, 0);
    }
    MPI_Neighbor_alltoallw_init_c(a, ctwo, cdb, t2, b, ctwo, cdb, t2, ring, MPI_INFO_NULL, &rq);
    run3(&rq, "neighbor_alltoallw_c", 2, 0);
    MPI_Comm_free(&ring);
}

/* a partitioned ring: 4 partitions of 2 ints to the right, from the left */
static void partitioned(void)
{
    enum { NP = 4, PC = 2 };
    int sbuf[NP * PC], rbuf[NP * PC], flag;
    MPI_Request rq[2];
    MPI_Psend_init(sbuf, NP, PC, MPI_INT, right, 40, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]);
    MPI_Precv_init(rbuf, NP, PC, MPI_INT, left, 40, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]);
    for (int rep = 0; rep < 3; rep++) {
        int list[2] = { 3, 1 };
        for (int i = 0; i < NP * PC; i++)
            sbuf[i] = 1000 * rep + 10 * me + i;
        memset(rbuf, 0, sizeof rbuf);
        MPI_Startall(2, rq);
        MPI_Pready(0, rq[0]);
        MPI_Pready_list(2, list, rq[0]);
        MPI_Pready_range(2, 2, rq[0]);
        do
            MPI_Parrived(rq[1], NP - 1, &flag);
        while (!flag);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        OUT("partitioned", rep, H(rbuf, NP * PC));
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    left = (me + np - 1) % np;
    right = (me + 1) % np;
    coll();
    neighbor();
    partitioned();
    rpt_flush();
    MPI_Finalize();
    return 0;
}

#else /* an MPI-3 library */

int main(int argc, char **argv)
{
    return rpt_mpi3_main(argc, argv, "mpi_pcoll", "persistent collectives");
}

#endif
