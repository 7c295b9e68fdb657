/* Ring pipeline + allreduce, the C reference of the Fortran programs
 * tests/fortran/mpi_ring_f77.f (mpif.h), mpi_ring_f90.f90 (use mpi) and
 * mpi_ring_f08.f90 (use mpi_f08): the same calls in the same order, the same
 * work and the same output, so their profiles must match (tests/fortran/test_fortran.sh).
 *
 * Timed part, NITER iterations (one phase each):
 *   rank 0 works T and sends a token to rank 1; rank r > 0 receives from
 *   r-1, works T and sends to r+1 (the last rank does not send); then every
 *   rank works T*r/P and all take part in an MPI_Allreduce (phase end).
 *   100 % path per phase = P*T + (P-1)*T/P (the chain, then the last rank's
 *   extra work).
 * Then, untimed (the last phase, ended by MPI_Finalize): Irecv/Isend/Waitall
 * with MPI_STATUSES_IGNORE, a wildcard Irecv completed by MPI_Wait, Sendrecv
 * with MPI_STATUS_IGNORE, persistent requests (Startall, Start, Request_free),
 * Test, Testall, Waitany and Testany,
 * Bcast, Reduce and Gather with MPI_IN_PLACE at the
 * root.  Rank 0 prints every result.
 *
 * usage: mpi_ringar_c [T_ms [NITER]]   (default 30 ms, 3)
 */
#include "../mpi/rptest.h"

int main(int argc, char **argv)
{
    int me, np, it, token = 0, sum = 0;
    double t_ms = argc > 1 ? atof(argv[1]) : 30.0;
    int niter = argc > 2 ? atoi(argv[2]) : 3;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    for (it = 1; it <= niter; it++) {
        if (me == 0) {
            rpt_sleep_ms(t_ms);
            token = 1000 * it;
            if (np > 1)
                MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
        } else {
            MPI_Status st;
            MPI_Recv(&token, 1, MPI_INT, me - 1, 7, MPI_COMM_WORLD, &st);
            RPT_CHECK(st.MPI_SOURCE == me - 1 && st.MPI_TAG == 7);
            token += me;
            rpt_sleep_ms(t_ms);
            if (me < np - 1)
                MPI_Send(&token, 1, MPI_INT, me + 1, 7, MPI_COMM_WORLD);
        }
        rpt_sleep_ms(t_ms * me / np);
        MPI_Allreduce(&token, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (me == 0)
            printf("ring np=%d iter=%d sum=%d\n", np, it, sum);
    }

    /* point-to-point */
    int left = (me - 1 + np) % np, right = (me + 1) % np;
    int sbuf[2], rbuf[2], x = -1, y = -1, v = 0, r, rsum = 0, val;
    MPI_Request reqs[4], req;
    MPI_Status st;
    sbuf[0] = 100 * me + 1;
    sbuf[1] = 100 * me + 2;
    MPI_Irecv(&rbuf[0], 1, MPI_INT, left, 11, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&rbuf[1], 1, MPI_INT, right, 12, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&sbuf[0], 1, MPI_INT, right, 11, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(&sbuf[1], 1, MPI_INT, left, 12, MPI_COMM_WORLD, &reqs[3]);
    MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
    RPT_CHECK(rbuf[0] == 100 * left + 1 && rbuf[1] == 100 * right + 2);
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, &req);
    MPI_Send(&me, 1, MPI_INT, right, 13, MPI_COMM_WORLD);
    MPI_Wait(&req, &st);
    RPT_CHECK(x == left && st.MPI_SOURCE == left && st.MPI_TAG == 13);
    /* wildcard receives completed with the status sentinels */
    x = -1;
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 15, MPI_COMM_WORLD, &req);
    MPI_Send(&me, 1, MPI_INT, right, 15, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    RPT_CHECK(x == left);
    MPI_Irecv(&rbuf[0], 1, MPI_INT, MPI_ANY_SOURCE, 16, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&rbuf[1], 1, MPI_INT, MPI_ANY_SOURCE, 17, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send(&me, 1, MPI_INT, right, 16, MPI_COMM_WORLD);
    MPI_Send(&me, 1, MPI_INT, left, 17, MPI_COMM_WORLD);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    RPT_CHECK(rbuf[0] == left && rbuf[1] == right);
    int s7 = 7 * me;
    MPI_Sendrecv(&s7, 1, MPI_INT, right, 14, &y, 1, MPI_INT, left, 14, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    RPT_CHECK(y == 7 * left);

    /* persistent requests: Startall twice, then Start one by one, then
     * Request_free (the Fortran layer's binding-neutral bodies) */
    int psend = 0, precv = -1, psum = 0;
    MPI_Request preq[2];
    MPI_Recv_init(&precv, 1, MPI_INT, left, 18, MPI_COMM_WORLD, &preq[0]);
    MPI_Send_init(&psend, 1, MPI_INT, right, 18, MPI_COMM_WORLD, &preq[1]);
    for (int k = 1; k <= 3; k++) {
        psend = 10 * me + k;
        if (k < 3) {
            MPI_Startall(2, preq);
            MPI_Waitall(2, preq, MPI_STATUSES_IGNORE);
        } else {
            MPI_Start(&preq[0]);
            MPI_Start(&preq[1]);
            MPI_Wait(&preq[1], MPI_STATUS_IGNORE);
            MPI_Wait(&preq[0], MPI_STATUS_IGNORE);
        }
        RPT_CHECK(precv == 10 * left + k);
        psum += precv;
    }
    MPI_Request_free(&preq[0]);
    MPI_Request_free(&preq[1]);

    /* Test, Testall, Waitany, Testany.  A neighbour handshake (tag 24) after
     * the sends lets the messages arrive first, so a Test completes them at
     * once; if not, a Wait does (no spinning: a polling loop is task time
     * and would lengthen the path by however long the neighbour is late). */
    int cv[2] = { -1, -1 }, flag = 0, idx = -1, hs = 0;
    MPI_Request creq[2];
    MPI_Irecv(&cv[0], 1, MPI_INT, left, 19, MPI_COMM_WORLD, &creq[0]);
    MPI_Send(&me, 1, MPI_INT, right, 19, MPI_COMM_WORLD);
    MPI_Sendrecv(&me, 1, MPI_INT, right, 24, &hs, 1, MPI_INT, left, 24, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Test(&creq[0], &flag, MPI_STATUS_IGNORE);
    if (!flag)
        MPI_Wait(&creq[0], MPI_STATUS_IGNORE);
    RPT_CHECK(cv[0] == left);
    MPI_Irecv(&cv[0], 1, MPI_INT, left, 20, MPI_COMM_WORLD, &creq[0]);
    MPI_Irecv(&cv[1], 1, MPI_INT, right, 21, MPI_COMM_WORLD, &creq[1]);
    MPI_Send(&me, 1, MPI_INT, right, 20, MPI_COMM_WORLD);
    MPI_Send(&me, 1, MPI_INT, left, 21, MPI_COMM_WORLD);
    MPI_Sendrecv(&me, 1, MPI_INT, right, 24, &hs, 1, MPI_INT, left, 24, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&me, 1, MPI_INT, left, 24, &hs, 1, MPI_INT, right, 24, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Testall(2, creq, &flag, MPI_STATUSES_IGNORE);
    if (!flag)
        MPI_Waitall(2, creq, MPI_STATUSES_IGNORE);
    RPT_CHECK(cv[0] == left && cv[1] == right);
    cv[0] = cv[1] = -1;
    MPI_Irecv(&cv[0], 1, MPI_INT, left, 22, MPI_COMM_WORLD, &creq[0]);
    MPI_Irecv(&cv[1], 1, MPI_INT, right, 23, MPI_COMM_WORLD, &creq[1]);
    MPI_Send(&me, 1, MPI_INT, right, 22, MPI_COMM_WORLD);
    MPI_Send(&me, 1, MPI_INT, left, 23, MPI_COMM_WORLD);
    MPI_Waitany(2, creq, &idx, MPI_STATUS_IGNORE);
    RPT_CHECK(idx == 0 || idx == 1);
    MPI_Sendrecv(&me, 1, MPI_INT, right, 24, &hs, 1, MPI_INT, left, 24, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&me, 1, MPI_INT, left, 24, &hs, 1, MPI_INT, right, 24, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Testany(2, creq, &idx, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        MPI_Waitany(2, creq, &idx, MPI_STATUS_IGNORE);
    RPT_CHECK(idx == 0 || idx == 1);
    RPT_CHECK(cv[0] == left && cv[1] == right);
    psum += cv[0] + cv[1];

    /* collectives, MPI_IN_PLACE at the root */
    if (me == 0)
        v = 42;
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    r = me + 1;
    if (me == 0) {
        rsum = r;
        MPI_Reduce(MPI_IN_PLACE, &rsum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else {
        MPI_Reduce(&r, &rsum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    val = rbuf[0] + rbuf[1] + x + y + v + psum;
    int *g = calloc((size_t)np, sizeof *g);
    RPT_CHECK(g);
    if (me == 0) {
        g[0] = val;
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD);
        printf("p2p+coll np=%d bcast=%d reduce=%d\n", np, v, rsum);
        printf("gather");
        for (int i = 0; i < np; i++)
            printf(" %d", g[i]);
        printf("\n");
        fflush(stdout);
    } else {
        MPI_Gather(&val, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    free(g);
    MPI_Finalize();
    return 0;
}
