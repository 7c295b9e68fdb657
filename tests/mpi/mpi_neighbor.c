/* mpi_neighbor.c - neighbourhood collectives under the profiler
 * (tests/mpi/test_onesided.sh).
 *
 *   mpi_neighbor             every (I)neighbor_* function on a periodic
 *                            cartesian ring, a non-periodic line (borders are
 *                            MPI_PROC_NULL), a graph and a directed
 *                            distributed graph; deterministic output
 *   mpi_neighbor path T B    directed ring (in-neighbour me-1, out-neighbour
 *                            me+1, P >= 4), three steps; in step j rank
 *                            s_j = 0, 1, 3 works 5T ms, the others T, then
 *                            one neighbourhood allgather (B = 1: blocking,
 *                            0: Ineighbor_allgather + Wait).  A slow rank's
 *                            cost reaches only its out-neighbour: 100 % path
 *                            = 11T (all-join would give 15T, no join 7T).
 */
#include "rptest.h"

static int me, np;
static int one = 1;   /* edge weight (MPI_UNWEIGHTED makes gcc warn) */

static uint32_t h32(const int *v, int n) { return rpt_hash(v, (size_t)n * sizeof *v); }

/* All ten functions on comm, whose in- and out-degree are nin, nout. */
static void all_ten(MPI_Comm comm, int nin, int nout, const char *name)
{
    int sb[16], rb[16], sc[16], rc[16], sd[16], rd[16];
    MPI_Aint sdw[16], rdw[16];
    MPI_Datatype st[16], rt[16];
    MPI_Request rq[5];
    uint32_t h[10];
    for (int i = 0; i < 16; i++) {
        sb[i] = 10 * me + i;
        sc[i] = rc[i] = 1;
        sd[i] = rd[i] = i;
        sdw[i] = rdw[i] = (MPI_Aint)(i * (int)sizeof(int));
        st[i] = rt[i] = MPI_INT;
    }
    /* Borders (MPI_PROC_NULL) leave their slots untouched: -1. */
#define CLR() for (int i = 0; i < 16; i++) rb[i] = -1
    CLR(); MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, comm); h[0] = h32(rb, nin);
    CLR(); MPI_Neighbor_allgatherv(sb, 1, MPI_INT, rb, rc, rd, MPI_INT, comm); h[1] = h32(rb, nin);
    CLR(); MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, comm); h[2] = h32(rb, nin);
    CLR(); MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, comm); h[3] = h32(rb, nin);
    CLR(); MPI_Neighbor_alltoallw(sb, sc, sdw, st, rb, rc, rdw, rt, comm); h[4] = h32(rb, nin);
    int r5[5][16];
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 16; i++)
            r5[k][i] = -1;
    MPI_Ineighbor_allgather(sb, 1, MPI_INT, r5[0], 1, MPI_INT, comm, &rq[0]);
    MPI_Ineighbor_allgatherv(sb, 1, MPI_INT, r5[1], rc, rd, MPI_INT, comm, &rq[1]);
    MPI_Ineighbor_alltoall(sb, 1, MPI_INT, r5[2], 1, MPI_INT, comm, &rq[2]);
    MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, r5[3], rc, rd, MPI_INT, comm, &rq[3]);
    MPI_Ineighbor_alltoallw(sb, sc, sdw, st, r5[4], rc, rdw, rt, comm, &rq[4]);
    /* Completed by different Wait/Test calls: the joins happen there. */
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    int flag = 0;
    while (!flag)
        MPI_Test(&rq[1], &flag, MPI_STATUS_IGNORE);
    MPI_Status sts[3];   /* (MPICH's MPI_STATUSES_IGNORE makes gcc warn) */
    MPI_Waitall(3, &rq[2], sts);
    for (int k = 0; k < 5; k++)
        h[5 + k] = h32(r5[k], nin);
    rpt_out("rank %d %s in=%d out=%d:", me, name, nin, nout);
    for (int k = 0; k < 10; k++)
        rpt_out(" %08x", (unsigned)h[k]);
    rpt_out("\n");
    (void)nout;
}

static void semantic(void)
{
    MPI_Comm ring, line, graph, dgraph;
    int dims[1] = { np }, per[1] = { 1 };
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    all_ten(ring, 2, 2, "cart-ring");
    per[0] = 0;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &line);
    all_ten(line, 2, 2, "cart-line");
    /* A star graph: rank 0 neighbours everybody, everybody neighbours 0. */
    int *index = malloc((size_t)np * sizeof *index), *edges = malloc((size_t)(2 * np) * sizeof *edges);
    RPT_CHECK(index && edges);
    int ne = 0;
    for (int i = 0; i < np; i++) {
        if (i == 0)
            for (int j = 1; j < np; j++)
                edges[ne++] = j;
        else
            edges[ne++] = 0;
        index[i] = ne;
    }
    MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &graph);
    int gn = 0;
    MPI_Graph_neighbors_count(graph, me, &gn);
    all_ten(graph, gn, gn, "graph-star");
    /* Directed ring: from me-1, to me+1. */
    int src = (me + np - 1) % np, dst = (me + 1) % np;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, &one, 1, &dst,
                                   &one, MPI_INFO_NULL, 0, &dgraph);
    all_ten(dgraph, 1, 1, "dgraph-ring");
    MPI_Comm_free(&ring);
    MPI_Comm_free(&line);
    MPI_Comm_free(&graph);
    MPI_Comm_free(&dgraph);
    free(index);
    free(edges);
}

static void path_run(double t, int blocking)
{
    MPI_Comm dg;
    int src = (me + np - 1) % np, dst = (me + 1) % np, x = me, y = -1;
    static const int slow[3] = { 0, 1, 3 };
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, &one, 1, &dst,
                                   &one, MPI_INFO_NULL, 0, &dg);
    for (int j = 0; j < 3; j++) {
        rpt_sleep_ms(me == slow[j] ? 5 * t : t);
        if (blocking) {
            MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, dg);
        } else {
            MPI_Request r;
            MPI_Ineighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, dg, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        RPT_CHECK(y == src);
    }
    MPI_Comm_free(&dg);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc > 3 && strcmp(argv[1], "path") == 0) {
        path_run(atof(argv[2]), atoi(argv[3]));
    } else {
        semantic();
        rpt_flush();
    }
    MPI_Finalize();
    return 0;
}
