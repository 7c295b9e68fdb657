/* mpi_rma.c - one-sided communication under the profiler (tests/mpi/test_onesided.sh).
 *
 *   mpi_rma            every wrapped one-sided function once or more, with
 *                      deterministic output (the semantic test: identical
 *                      with and without the profiler)
 *   mpi_rma path T     three epochs of a window fenced by all; in epoch j
 *                      rank j % P works 5*T ms, the others T ms.  A fence
 *                      joins all, so the 100 % path is 3 * 5T (without the
 *                      join it would be at most 11T).
 */
#include "rptest.h"

static int me, np;

/* Fence epochs: Put, Get, Accumulate on a window of Win_create. */
static void fence_epochs(void)
{
    int buf[4] = { 0, 0, 0, 0 }, got = -1;
    MPI_Win win;
    MPI_Win_create(buf, (MPI_Aint)sizeof buf, (int)sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    int right = (me + 1) % np, left = (me + np - 1) % np, v = 100 + me, one = 1;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    rpt_out("rank %d fence: put from left %d, got left's %d, acc %d\n", me, buf[0], got,
            me == 0 ? buf[1] : -1);
    MPI_Win_free(&win);
    RPT_CHECK(win == MPI_WIN_NULL);
}

/* Passive target on a window of Win_allocate: atomics under lock/unlock,
 * request-based RMA under lock_all, flushes, sync. */
static void passive(void)
{
    int *base = NULL;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(4 * sizeof(int)), (int)sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win);
    for (int i = 0; i < 4; i++)
        base[i] = 0;
    MPI_Win_unlock(me, win);
    MPI_Barrier(MPI_COMM_WORLD);

    int one = 1, old = -1, cmp = 0, nv = 7, res = -1, acc = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    MPI_Get_accumulate(&one, 1, MPI_INT, &acc, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_flush_local(0, win);
    MPI_Win_unlock(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Exactly one rank swaps 0 -> 7 in slot 2. */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Compare_and_swap(&nv, &cmp, &res, MPI_INT, 0, 2, win);
    MPI_Win_unlock(0, win);
    int swapped = res == 0, nswapped = 0;
    MPI_Allreduce(&swapped, &nswapped, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    /* Request-based: each rank writes its number into slot 3 of its right
     * neighbour and reads it back with Rget; requests completed by every
     * kind of Wait/Test (they are not the profiler's: passed through). */
    int right = (me + 1) % np, v = 1000 + me, back = -1, extra = -1;
    MPI_Request rq[4];
    MPI_Status sts[4];   /* (MPICH's MPI_STATUSES_IGNORE makes gcc warn) */
    MPI_Win_lock_all(0, win);
    MPI_Rput(&v, 1, MPI_INT, right, 3, 1, MPI_INT, win, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Rget(&back, 1, MPI_INT, right, 3, 1, MPI_INT, win, &rq[1]);
    MPI_Raccumulate(&one, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_SUM, win, &rq[2]);
    MPI_Waitall(2, &rq[1], sts);
    MPI_Win_flush_local_all(win);
    MPI_Rget_accumulate(&one, 0, MPI_INT, &extra, 1, MPI_INT, right, 3, 1, MPI_INT,
                        MPI_NO_OP, win, &rq[3]);
    int flag = 0;
    while (!flag)
        MPI_Test(&rq[3], &flag, MPI_STATUS_IGNORE);
    /* The other completion calls on RMA requests (unknown to the
     * profiler's request table: passed through). */
    int four[4], idx = -1, cnt = 0, idxs[4];
    MPI_Request r4[4];
    for (int i = 0; i < 4; i++)
        MPI_Rget(&four[i], 1, MPI_INT, right, 3, 1, MPI_INT, win, &r4[i]);
    MPI_Waitany(4, r4, &idx, MPI_STATUS_IGNORE);
    MPI_Waitsome(4, r4, &cnt, idxs, sts);
    do
        MPI_Testsome(4, r4, &cnt, idxs, sts);
    while (cnt != MPI_UNDEFINED);
    flag = 0;
    MPI_Testall(4, r4, &flag, sts);
    RPT_CHECK(flag);
    MPI_Testany(4, r4, &idx, &flag, MPI_STATUS_IGNORE);
    RPT_CHECK(flag && idx == MPI_UNDEFINED);
    for (int i = 0; i < 4; i++)
        RPT_CHECK(four[i] == 1000 + me);
    MPI_Win_sync(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win);
    int mine[4];
    memcpy(mine, base, sizeof mine);
    MPI_Win_unlock(me, win);
    rpt_out("rank %d passive: slot3 %d rget %d rgetacc %d\n", me, mine[3], back, extra);
    if (me == 0)
        rpt_out("rank 0 passive: fetch-and-op sum %d, get-acc sum %d, swapped once %d\n",
                mine[0], mine[1] - np, nswapped == 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

/* Win_allocate_shared on the node's ranks, fence-synchronised direct loads. */
static void shared(void)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int nme, nnp;
    MPI_Comm_rank(node, &nme);
    MPI_Comm_size(node, &nnp);
    int *mine = NULL, *peer = NULL, du = 0;
    MPI_Aint sz = 0;
    MPI_Win win;
    MPI_Win_allocate_shared((MPI_Aint)sizeof(int), (int)sizeof(int), MPI_INFO_NULL, node,
                            &mine, &win);
    MPI_Win_fence(0, win);
    *mine = 500 + nme;
    MPI_Win_fence(0, win);
    MPI_Win_shared_query(win, (nme + 1) % nnp, &sz, &du, &peer);
    rpt_out("rank %d shared: right's value %d\n", me, *peer);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

/* Win_create_dynamic: attached memory, addresses exchanged, PSCW epochs
 * between ring neighbours (post/start/complete/wait, and Win_test). */
static void dynamic_pscw(void)
{
    int cell = -1;
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, &cell, (MPI_Aint)sizeof cell);
    MPI_Aint addr, *addrs = malloc((size_t)np * sizeof *addrs);
    RPT_CHECK(addrs);
    MPI_Get_address(&cell, &addr);
    MPI_Allgather(&addr, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);

    MPI_Group world, from, to;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int left = (me + np - 1) % np, right = (me + 1) % np, v = 300 + me;
    MPI_Group_incl(world, 1, &left, &from);   /* who writes into me */
    MPI_Group_incl(world, 1, &right, &to);    /* whom I write into */
    MPI_Win_post(from, 0, win);
    MPI_Win_start(to, 0, win);
    MPI_Put(&v, 1, MPI_INT, right, addrs[right], 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    rpt_out("rank %d pscw: from left %d\n", me, cell);
    /* Second epoch closed with Win_test. */
    v += 10;
    MPI_Win_post(from, 0, win);
    MPI_Win_start(to, 0, win);
    MPI_Put(&v, 1, MPI_INT, right, addrs[right], 1, MPI_INT, win);
    MPI_Win_complete(win);
    int flag = 0;
    while (!flag)
        MPI_Win_test(win, &flag);
    rpt_out("rank %d pscw+test: from left %d\n", me, cell);
    MPI_Group_free(&from);
    MPI_Group_free(&to);
    MPI_Group_free(&world);
    MPI_Win_detach(win, &cell);
    MPI_Win_free(&win);
    free(addrs);
}

static void path_run(double t)
{
    int buf = 0;
    MPI_Win win;
    MPI_Win_create(&buf, (MPI_Aint)sizeof buf, (int)sizeof buf, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    for (int j = 0; j < 3; j++) {
        rpt_sleep_ms(me == j % np ? 5 * t : t);
        int v = j;
        MPI_Put(&v, 1, MPI_INT, (me + 1) % np, 0, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
    }
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc > 2 && strcmp(argv[1], "path") == 0) {
        path_run(atof(argv[2]));
    } else {
        fence_epochs();
        passive();
        shared();
        dynamic_pscw();
        rpt_flush();
    }
    MPI_Finalize();
    return 0;
}
