/* Fan-in with wildcard receives (timing): rank r > 0 works r*B and sends to
 * rank 0; rank 0 receives the P-1 messages with MPI_ANY_SOURCE and works S
 * after each (S < B, so the messages arrive in rank order, one every B).
 * The path-set that joins at each receive must be the one of the rank that
 * actually matched.  One phase (MPI_Finalize):
 *
 *   path via rank r's message:  r*B + (P - r)*S    (r = 1 .. P-1)
 *   rank r's own path:          r*B                (its task, then Finalize)
 *   rank 0's own path:          (P-1)*S
 *   100 % = (P-1)*B + S,   0 % = min((P-1)*S, B)   (P >= 2)
 *
 * usage: mpi_fanin recv|waitany|testsome [B_ms [S_ms]]   (defaults 30, 5)
 *   recv:     blocking MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG)
 *   waitany:  P-1 MPI_Irecv(MPI_ANY_SOURCE) posted at once, MPI_Waitany
 *   testsome: the same, completed by an MPI_Testsome polling loop
 */
#include "rptest.h"

int main(int argc, char **argv)
{
    int me, np, i, sum = 0, order_ok = 1, last = 0;
    const char *mode = argc > 1 ? argv[1] : "recv";
    double b = argc > 2 ? atof(argv[2]) : 30.0, s = argc > 3 ? atof(argv[3]) : 5.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    if (me > 0) {
        int v = me;
        rpt_sleep_ms(b * me);
        MPI_Send(&v, 1, MPI_INT, 0, 100 + me, MPI_COMM_WORLD);
    } else if (!strcmp(mode, "recv")) {
        for (i = 1; i < np; i++) {
            MPI_Status st;
            int v;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            RPT_CHECK(v == st.MPI_SOURCE && st.MPI_TAG == 100 + v);
            order_ok &= v > last;
            last = v;
            sum += v;
            rpt_sleep_ms(s);
        }
    } else {
        int n = np - 1, done = 0, *vals = calloc((size_t)np, sizeof(int));
        int *idx = calloc((size_t)np, sizeof(int));
        MPI_Request *rq = calloc((size_t)np, sizeof(MPI_Request));
        MPI_Status *st = calloc((size_t)np, sizeof(MPI_Status));
        RPT_CHECK(vals && idx && rq && st);
        for (i = 0; i < n; i++)
            MPI_Irecv(&vals[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[i]);
        while (done < n) {
            int k, cnt = 0;
            if (!strcmp(mode, "waitany")) {
                MPI_Waitany(n, rq, &idx[0], &st[0]);
                cnt = 1;
            } else {
                MPI_Testsome(n, rq, &cnt, idx, st);
                RPT_CHECK(cnt != MPI_UNDEFINED);
            }
            for (k = 0; k < cnt; k++) {
                int v = vals[idx[k]];
                RPT_CHECK(v == st[k].MPI_SOURCE && st[k].MPI_TAG == 100 + v);
                order_ok &= v > last;
                last = v;
                sum += v;
                done++;
                rpt_sleep_ms(s);
            }
        }
        free(vals);
        free(idx);
        free(rq);
        free(st);
    }
    if (me == 0) {
        printf("fanin %s np=%d sum=%d in-order=%d\n", mode, np, sum, order_ok);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
