/* mpi_inter.c - intercommunicators and MPI_Comm_spawn under the profiler
 * (tests/mpi/test_onesided.sh).
 *
 *   mpi_inter            world split into even and odd ranks joined by
 *                        MPI_Intercomm_create: point-to-point across (with
 *                        path-sets on the shadow intercommunicator; matched
 *                        probes of a synchronous and a large send),
 *                        blocking and non-blocking intercommunicator
 *                        collectives, MPI_Intercomm_merge; P >= 2
 *   mpi_inter path T     three intercommunicator barriers; before barrier j
 *                        rank j % P works 5T ms, the others T: the joins on
 *                        the merged shadow make the 100 % path 15T
 *   mpi_inter spawn      every rank of the parent job calls MPI_Comm_spawn
 *                        (2 children) and MPI_Comm_spawn_multiple (1 + 1);
 *                        messages and a barrier over each intercommunicator,
 *                        a merge and a dup of it (communicators reaching
 *                        into the other job); only the parents print
 *   mpi_inter child      (run by spawn) MPI_Comm_get_parent and the replies
 *   mpi_inter ports      even ranks MPI_Comm_accept, odd ranks
 *                        MPI_Comm_connect on a port of world rank 0: an
 *                        intercommunicator within our world, shadowed like
 *                        Intercomm_create's; P >= 2
 */
#include <unistd.h>
#include "rptest.h"

static int me, np;

static void across(void)
{
    MPI_Comm half, inter, merged;
    int color = me % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &half);
    /* Leaders: world 0 (evens) and world 1 (odds). */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 7, &inter);
    int lme, lnp, rnp;
    MPI_Comm_rank(inter, &lme);
    MPI_Comm_size(inter, &lnp);
    MPI_Comm_remote_size(inter, &rnp);

    /* Point-to-point: local i <-> remote i (blocking), then remote 0
     * receives from everyone with a wildcard (non-blocking). */
    int v = 100 * me, got = -1;
    if (lme < rnp) {
        MPI_Sendrecv(&v, 1, MPI_INT, lme, 1, &got, 1, MPI_INT, lme, 1, inter, MPI_STATUS_IGNORE);
        rpt_out("rank %d inter sendrecv with remote %d: %d\n", me, lme, got);
    }
    MPI_Request r;
    MPI_Isend(&v, 1, MPI_INT, 0, 2, inter, &r);
    if (lme == 0) {
        int sum = 0;
        for (int i = 0; i < rnp; i++) {
            MPI_Status st;
            MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 2, inter, &st);
            sum += got;
        }
        rpt_out("rank %d inter recv sum %d\n", me, sum);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    /* Matched probes across: a synchronous and a rendezvous-sized send
     * (neither completes before its matched receive has begun; on an
     * intercommunicator the path-set follows the payload call, so a join
     * at the probe would deadlock), probed with Mprobe / an Improbe loop */
    if (lme < rnp) {
        enum { BIG = 1 << 18 };
        double *big = malloc(BIG * sizeof *big);
        RPT_CHECK(big);
        MPI_Message msg;
        MPI_Status st;
        int flag = 0;
        if (color == 0) {
            for (int i = 0; i < BIG; i++)
                big[i] = me + i;
            MPI_Ssend(&v, 1, MPI_INT, lme, 3, inter);
            MPI_Send(big, BIG, MPI_DOUBLE, lme, 4, inter);
        } else {
            MPI_Mprobe(lme, 3, inter, &msg, &st);
            MPI_Mrecv(&got, 1, MPI_INT, &msg, &st);
            while (!flag)
                MPI_Improbe(MPI_ANY_SOURCE, 4, inter, &flag, &msg, &st);
            MPI_Request rr;
            MPI_Imrecv(big, BIG, MPI_DOUBLE, &msg, &rr);
            MPI_Wait(&rr, &st);
            rpt_out("rank %d inter mprobe from %d: %d, %.0f\n", me, st.MPI_SOURCE, got,
                    big[BIG - 1]);
        }
        free(big);
    }

    /* Collectives: all-to-all and rooted (root: local 0 of the evens). */
    int s = me + 1, red = -1, b = -1, *all = malloc((size_t)rnp * sizeof *all);
    RPT_CHECK(all);
    MPI_Barrier(inter);
    MPI_Allreduce(&s, &red, 1, MPI_INT, MPI_SUM, inter);       /* sum of the remote group */
    MPI_Allgather(&s, 1, MPI_INT, all, 1, MPI_INT, inter);
    uint32_t h = rpt_hash(all, (size_t)rnp * sizeof *all);
    int root = color == 0 ? (lme == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (color == 0)
        b = 4242;
    MPI_Bcast(&b, 1, MPI_INT, root, inter);
    int rsum = -1;
    MPI_Reduce(&s, &rsum, 1, MPI_INT, MPI_SUM, root, inter);
    MPI_Request q[2];
    int ired = -1;
    MPI_Ibarrier(inter, &q[0]);
    MPI_Iallreduce(&s, &ired, 1, MPI_INT, MPI_MAX, inter, &q[1]);
    MPI_Status qs[2];   /* (MPICH's MPI_STATUSES_IGNORE makes gcc warn) */
    MPI_Waitall(2, q, qs);
    rpt_out("rank %d inter coll: allreduce %d allgather %08x bcast %d reduce %d iallreduce %d\n",
            me, red, (unsigned)h, b, color == 0 && lme == 0 ? rsum : -1, ired);

    MPI_Intercomm_merge(inter, color, &merged);
    int mme, t = 0;
    MPI_Comm_rank(merged, &mme);
    MPI_Allreduce(&mme, &t, 1, MPI_INT, MPI_SUM, merged);
    rpt_out("rank %d merged rank %d sum %d\n", me, mme, t);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    free(all);
}

static void ports(void)
{
    MPI_Comm half, inter;
    char port[MPI_MAX_PORT_NAME];
    int color = me % 2, v = 10 * me, got = -1, lme, rnp, s = me + 1, red = -1;
    memset(port, 0, sizeof port);
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &half);
    if (me == 0)
        MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (color == 0)
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
    else
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter);
    MPI_Comm_rank(inter, &lme);
    MPI_Comm_remote_size(inter, &rnp);
    if (lme < rnp)
        MPI_Sendrecv(&v, 1, MPI_INT, lme, 5, &got, 1, MPI_INT, lme, 5, inter, MPI_STATUS_IGNORE);
    MPI_Allreduce(&s, &red, 1, MPI_INT, MPI_SUM, inter);
    rpt_out("rank %d ports: remote %d sent %d allreduce %d\n", me, rnp, got, red);
    MPI_Comm_disconnect(&inter);
    RPT_CHECK(inter == MPI_COMM_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        MPI_Close_port(port);
    MPI_Comm_free(&half);
}

static void path_run(double t)
{
    MPI_Comm half, inter;
    int color = me % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 7, &inter);
    for (int j = 0; j < 3; j++) {
        rpt_sleep_ms(me == j % np ? 5 * t : t);
        MPI_Barrier(inter);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* Communicators made from a spawn intercommunicator reach into the other
 * job: a merge and a dup, used once each (the same calls on both sides). */
static int derived(MPI_Comm inter, int high)
{
    MPI_Comm m, d;
    int one = 1, n = 0;
    MPI_Intercomm_merge(inter, high, &m);
    MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, m);
    MPI_Comm_dup(inter, &d);
    MPI_Barrier(d);
    MPI_Comm_free(&d);
    MPI_Comm_free(&m);
    return n;
}

/* Talk over a parent-side intercommunicator to nchild children. */
static void talk(MPI_Comm inter, int nchild, const char *what)
{
    int sum = 0;
    if (me == 0) {
        for (int i = 0; i < nchild; i++) {
            int v = 10 * i, back = -1;
            MPI_Send(&v, 1, MPI_INT, i, 3, inter);
            MPI_Recv(&back, 1, MPI_INT, i, 4, inter, MPI_STATUS_IGNORE);
            sum += back;
        }
    }
    MPI_Barrier(inter);
    int all = derived(inter, 0);
    MPI_Bcast(&sum, 1, MPI_INT, 0, MPI_COMM_WORLD);
    rpt_out("rank %d %s: %d children, replies sum %d, merged size %d\n", me, what, nchild,
            sum, all);
    MPI_Comm_disconnect(&inter);
}

static void spawn(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    RPT_CHECK(n > 0);
    exe[n] = 0;
    char *cargv[] = { "child", NULL };
    MPI_Comm inter;
    int errs[2];
    MPI_Comm_spawn(exe, cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errs);
    talk(inter, 2, "spawn");
    char *cmds[2] = { exe, exe };
    char **argvs[2] = { cargv, cargv };
    int counts[2] = { 1, 1 };
    MPI_Info infos[2] = { MPI_INFO_NULL, MPI_INFO_NULL };
    MPI_Comm_spawn_multiple(2, cmds, argvs, counts, infos, 0, MPI_COMM_WORLD, &inter,
                            MPI_ERRCODES_IGNORE);
    talk(inter, 2, "spawn_multiple");
}

static void child(void)
{
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    RPT_CHECK(parent != MPI_COMM_NULL);
    int v = -1;
    MPI_Recv(&v, 1, MPI_INT, 0, 3, parent, MPI_STATUS_IGNORE);
    v += 1;
    MPI_Send(&v, 1, MPI_INT, 0, 4, parent);
    MPI_Barrier(parent);
    derived(parent, 1);
    MPI_Comm_disconnect(&parent);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        child();
        MPI_Finalize();
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "path") == 0) {
        path_run(atof(argv[2]));
    } else {
        if (argc > 1 && strcmp(argv[1], "spawn") == 0)
            spawn();
        else if (argc > 1 && strcmp(argv[1], "ports") == 0 && np >= 2)
            ports();
        else if (np >= 2)
            across();
        else
            rpt_out("rank 0 alone: no intercommunicator\n");
        rpt_flush();
    }
    MPI_Finalize();
    return 0;
}
