/* Communicator management and point-to-point traffic on derived
 * communicators under the profiler (test c): Comm_split (with an
 * MPI_UNDEFINED colour), Comm_dup (of world and of a split), Comm_create,
 * Comm_free, then p2p with ranks translated per communicator, the same
 * tags on different communicators at the same time (isolation), wildcards
 * on sub-communicators, and collectives mixed in.  Output must be
 * byte-identical with and without librpprof.so.  Any number of ranks >= 1.
 */
#include "rptest.h"

static int wme, wnp;

static void ring(MPI_Comm comm, const char *name, int tag)
{
    int me, np, v, got = -1, got2 = -1, wsrc;
    MPI_Status st;
    MPI_Request r[2];
    MPI_Group g, wg;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    v = 1000 * wme + tag;
    /* blocking Sendrecv around the communicator's ring */
    MPI_Sendrecv(&v, 1, MPI_INT, (me + 1) % np, tag, &got, 1, MPI_INT, (me + np - 1) % np, tag,
                 comm, &st);
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(g, 1, &st.MPI_SOURCE, wg, &wsrc);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    rpt_out("r%d %s/%d ring got=%d src=%d world_src=%d\n", wme, name, me, got, st.MPI_SOURCE, wsrc);
    /* wildcard Irecv on the communicator, Isend the other way round */
    MPI_Irecv(&got2, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r[0]);
    MPI_Isend(&v, 1, MPI_INT, (me + np - 1) % np, tag + 1, comm, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    rpt_out("r%d %s/%d back got=%d\n", wme, name, me, got2);
}

int main(int argc, char **argv)
{
    MPI_Comm dup, split, split_dup, some, created, world_dup;
    MPI_Group wg, g;
    int i, n, *ranks, sum, v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wme);
    MPI_Comm_size(MPI_COMM_WORLD, &wnp);

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, wme % 2, wnp - wme, &split);
    MPI_Comm_dup(split, &split_dup);
    /* rank 0 is left out (MPI_UNDEFINED) */
    MPI_Comm_split(MPI_COMM_WORLD, wme == 0 && wnp > 1 ? MPI_UNDEFINED : 0, wme, &some);
    rpt_out("r%d some=%s\n", wme, some == MPI_COMM_NULL ? "null" : "comm");

    /* same tag, same peers, different communicators, posted crosswise:
     * each message must land on its own communicator */
    {
        int a = 1 + wme, b = 2 + wme, x = -1, y = -1, right = (wme + 1) % wnp,
            left = (wme + wnp - 1) % wnp;
        MPI_Request r[4];
        MPI_Irecv(&y, 1, MPI_INT, left, 5, dup, &r[0]);
        MPI_Irecv(&x, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &r[1]);
        MPI_Isend(&a, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(&b, 1, MPI_INT, right, 5, dup, &r[3]);
        MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
        rpt_out("r%d isolation world=%d dup=%d\n", wme, x, y);
    }

    ring(MPI_COMM_WORLD, "world", 10);
    ring(dup, "dup", 10);
    ring(split, "split", 10);
    ring(split_dup, "split_dup", 10);
    if (some != MPI_COMM_NULL)
        ring(some, "some", 20);

    /* collectives on the sub-communicators between p2p */
    v = wme + 1;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, split);
    rpt_out("r%d split allreduce=%d\n", wme, sum);
    MPI_Bcast(&sum, 1, MPI_INT, 0, split_dup);
    rpt_out("r%d split_dup bcast=%d\n", wme, sum);
    MPI_Barrier(dup);
    if (some != MPI_COMM_NULL) {
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_MAX, some);
        rpt_out("r%d some allreduce=%d\n", wme, sum);
        MPI_Comm_free(&some);
    }

    /* Comm_create from a group: every other rank */
    n = (wnp + 1) / 2;
    ranks = malloc(sizeof(int) * (size_t)n);
    RPT_CHECK(ranks);
    for (i = 0; i < n; i++)
        ranks[i] = 2 * i;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n, ranks, &g);
    MPI_Comm_create(MPI_COMM_WORLD, g, &created);
    if (created != MPI_COMM_NULL) {
        ring(created, "created", 30);
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, created);
        rpt_out("r%d created allreduce=%d\n", wme, sum);
        MPI_Comm_free(&created);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(ranks);

    /* free, re-create, and use again (handles get reused) */
    MPI_Comm_free(&split_dup);
    MPI_Comm_free(&dup);
    for (i = 0; i < 3; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &world_dup);
        ring(world_dup, "redup", 40 + 2 * i);
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, world_dup);
        rpt_out("r%d redup%d allreduce=%d\n", wme, i, sum);
        MPI_Comm_free(&world_dup);
    }
    MPI_Comm_free(&split);

    rpt_flush();
    MPI_Finalize();
    return 0;
}
