/* Point-to-point semantics under the profiler (test c).
 *
 * Every section computes results that do not depend on timing (sorted when
 * arrival order is free) and prints them through rpt_out(); the test runs
 * the program with and without librpprof.so and the two outputs must be
 * byte-identical.  Works for any number of ranks >= 1.
 */
#include "rptest.h"

static int me, np, right, left;

static int cmp_int4(const void *a, const void *b)
{
    const int *x = (const int *)a, *y = (const int *)b;
    int i;
    for (i = 0; i < 4; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* wildcards: every rank sends two messages to rank 0 (tags 100+r, 200+r);
 * rank 0 receives them with ANY_SOURCE / ANY_TAG. */
static void sec_wildcards(void)
{
    int i, n = 2 * np, val[2];
    int (*rec)[4] = calloc((size_t)n, sizeof *rec);
    int *seen_first = calloc((size_t)np, sizeof(int));
    MPI_Request rq[2];
    RPT_CHECK(rec && seen_first);
    val[0] = 1000 * me + 1;
    val[1] = 1000 * me + 2;
    MPI_Isend(&val[0], 1, MPI_INT, 0, 100 + me, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&val[1], 1, MPI_INT, 0, 200 + me, MPI_COMM_WORLD, &rq[1]);
    if (me == 0) {
        int order_ok = 1;
        for (i = 0; i < n; i++) {
            MPI_Status st;
            int v, cnt;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            rec[i][0] = st.MPI_SOURCE;
            rec[i][1] = st.MPI_TAG;
            rec[i][2] = cnt;
            rec[i][3] = v;
            /* non-overtaking: from one source, tag 100+s arrives before 200+s */
            if (st.MPI_TAG < 200) {
                if (seen_first[st.MPI_SOURCE])
                    order_ok = 0;
                seen_first[st.MPI_SOURCE] = 1;
            } else if (!seen_first[st.MPI_SOURCE]) {
                order_ok = 0;
            }
            RPT_CHECK(v == 1000 * st.MPI_SOURCE + (st.MPI_TAG < 200 ? 1 : 2));
        }
        qsort(rec, (size_t)n, sizeof *rec, cmp_int4);
        for (i = 0; i < n; i++)
            rpt_out("r%d wildcard src=%d tag=%d count=%d val=%d\n", me, rec[i][0], rec[i][1],
                    rec[i][2], rec[i][3]);
        rpt_out("r%d wildcard non-overtaking=%d\n", me, order_ok);
    }
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD); /* no later message may meet rank 0's wildcards */
    /* ANY_SOURCE with a fixed tag, and ANY_TAG with a fixed source */
    {
        int v = me * 7, got = -1;
        MPI_Status st;
        MPI_Request r;
        MPI_Isend(&v, 1, MPI_INT, right, 55, MPI_COMM_WORLD, &r);
        MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 55, MPI_COMM_WORLD, &st);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        rpt_out("r%d anysrc src=%d tag=%d val=%d\n", me, st.MPI_SOURCE, st.MPI_TAG, got);
        MPI_Isend(&v, 1, MPI_INT, right, 56, MPI_COMM_WORLD, &r);
        MPI_Recv(&got, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        rpt_out("r%d anytag src=%d tag=%d val=%d\n", me, st.MPI_SOURCE, st.MPI_TAG, got);
        /* Irecv with ANY_SOURCE completed by Wait */
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        MPI_Send(&v, 1, MPI_INT, right, 57, MPI_COMM_WORLD);
        MPI_Wait(&r, &st);
        rpt_out("r%d irecv-any src=%d tag=%d val=%d\n", me, st.MPI_SOURCE, st.MPI_TAG, got);
    }
    free(rec);
    free(seen_first);
}

/* out-of-order tags: send tag 1 then tag 2, receive tag 2 then tag 1 */
static void sec_tag_order(void)
{
    int a = 10 + me, b = 20 + me, x = -1, y = -1;
    MPI_Request s[2], r[2];
    MPI_Status st[2];
    MPI_Isend(&a, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &s[0]);
    MPI_Isend(&b, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &s[1]);
    MPI_Irecv(&y, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&x, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, st);
    MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
    rpt_out("r%d tagorder irecv x=%d y=%d tags=%d,%d\n", me, x, y, st[0].MPI_TAG, st[1].MPI_TAG);

    /* blocking receives in reverse tag order (sends are non-blocking) */
    MPI_Isend(&a, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &s[0]);
    MPI_Isend(&b, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &s[1]);
    MPI_Recv(&y, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &st[0]);
    MPI_Recv(&x, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &st[1]);
    MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
    rpt_out("r%d tagorder recv x=%d y=%d tags=%d,%d\n", me, x, y, st[0].MPI_TAG, st[1].MPI_TAG);

    /* the largest tag the implementation allows */
    {
        int *ub, flag, v = me, got = -1;
        MPI_Status s1;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
        RPT_CHECK(flag);
        MPI_Isend(&v, 1, MPI_INT, right, *ub, MPI_COMM_WORLD, &s[0]);
        MPI_Recv(&got, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &s1);
        MPI_Wait(&s[0], MPI_STATUS_IGNORE);
        rpt_out("r%d tag_ub match=%d val=%d\n", me, s1.MPI_TAG == *ub, got);
    }
}

#define NREQ 6
/* post NREQ receives from left (tags 0..NREQ-1) and NREQ sends to right in
 * reverse tag order; slot 2 is left MPI_REQUEST_NULL on purpose. */
static void post(MPI_Request *rr, MPI_Request *sr, int *rbuf, int *sbuf, int round)
{
    int i;
    for (i = 0; i < NREQ; i++) {
        rbuf[i] = -1;
        if (i == 2)
            rr[i] = MPI_REQUEST_NULL;
        else
            MPI_Irecv(&rbuf[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &rr[i]);
    }
    for (i = NREQ - 1; i >= 0; i--) {
        sbuf[i] = 100 * round + 10 * me + i;
        if (i == 2)
            sr[i] = MPI_REQUEST_NULL;
        else
            MPI_Isend(&sbuf[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &sr[i]);
    }
}

static void report_round(const char *name, const int *rbuf, const int *hits, MPI_Status *st)
{
    int i;
    rpt_out("r%d %s:", me, name);
    for (i = 0; i < NREQ; i++)
        rpt_out(" %d/%d/%d/%d", rbuf[i], hits[i], i == 2 ? -9 : st[i].MPI_SOURCE,
                i == 2 ? -9 : st[i].MPI_TAG);
    rpt_out("\n");
}

static void sec_completion(void)
{
    MPI_Request rr[NREQ], sr[NREQ];
    MPI_Status st[NREQ], s1;
    int rbuf[NREQ], sbuf[NREQ], hits[NREQ], i, idx, flag, outcount, done;
    int idxs[NREQ];

    /* Waitany */
    post(rr, sr, rbuf, sbuf, 1);
    memset(hits, 0, sizeof hits);
    for (;;) {
        MPI_Waitany(NREQ, rr, &idx, &s1);
        if (idx == MPI_UNDEFINED)
            break;
        hits[idx]++;
        st[idx] = s1;
    }
    MPI_Waitall(NREQ, sr, MPI_STATUSES_IGNORE);
    report_round("waitany", rbuf, hits, st);

    /* Waitsome */
    post(rr, sr, rbuf, sbuf, 2);
    memset(hits, 0, sizeof hits);
    for (;;) {
        MPI_Status ss[NREQ];
        MPI_Waitsome(NREQ, rr, &outcount, idxs, ss);
        if (outcount == MPI_UNDEFINED)
            break;
        for (i = 0; i < outcount; i++) {
            hits[idxs[i]]++;
            st[idxs[i]] = ss[i];
        }
    }
    MPI_Waitall(NREQ, sr, MPI_STATUSES_IGNORE);
    report_round("waitsome", rbuf, hits, st);

    /* Testall (spin) */
    post(rr, sr, rbuf, sbuf, 3);
    memset(hits, 0, sizeof hits);
    do {
        MPI_Testall(NREQ, rr, &flag, st);
    } while (!flag);
    for (i = 0; i < NREQ; i++)
        hits[i] = rr[i] == MPI_REQUEST_NULL;
    /* Testall on the sends, with statuses ignored */
    do {
        MPI_Testall(NREQ, sr, &flag, MPI_STATUSES_IGNORE);
    } while (!flag);
    report_round("testall", rbuf, hits, st);

    /* Testany (spin) */
    post(rr, sr, rbuf, sbuf, 4);
    memset(hits, 0, sizeof hits);
    done = 0;
    while (!done) {
        MPI_Testany(NREQ, rr, &idx, &flag, &s1);
        if (flag && idx == MPI_UNDEFINED)
            done = 1;
        else if (flag) {
            hits[idx]++;
            st[idx] = s1;
        }
    }
    /* Testany on the sends */
    done = 0;
    while (!done) {
        MPI_Testany(NREQ, sr, &idx, &flag, MPI_STATUS_IGNORE);
        if (flag && idx == MPI_UNDEFINED)
            done = 1;
    }
    report_round("testany", rbuf, hits, st);

    /* Testsome (spin) */
    post(rr, sr, rbuf, sbuf, 5);
    memset(hits, 0, sizeof hits);
    for (;;) {
        MPI_Status ss[NREQ];
        MPI_Testsome(NREQ, rr, &outcount, idxs, ss);
        if (outcount == MPI_UNDEFINED)
            break;
        for (i = 0; i < outcount; i++) {
            hits[idxs[i]]++;
            st[idxs[i]] = ss[i];
        }
    }
    for (;;) {
        MPI_Testsome(NREQ, sr, &outcount, idxs, MPI_STATUSES_IGNORE);
        if (outcount == MPI_UNDEFINED)
            break;
    }
    report_round("testsome", rbuf, hits, st);

    /* MPI_Test one by one, and Wait on a completed/NULL request */
    post(rr, sr, rbuf, sbuf, 6);
    memset(hits, 0, sizeof hits);
    for (i = 0; i < NREQ; i++) {
        flag = 0;
        while (!flag)
            MPI_Test(&rr[i], &flag, &st[i]);
        hits[i] = 1;
        MPI_Wait(&rr[i], MPI_STATUS_IGNORE); /* already MPI_REQUEST_NULL: returns at once */
    }
    MPI_Waitall(NREQ, sr, MPI_STATUSES_IGNORE);
    report_round("test", rbuf, hits, st);
}

static void sec_sendrecv(void)
{
    int v = 3 * me + 1, got = -1, cnt;
    int buf[4];
    MPI_Status st;
    MPI_Sendrecv(&v, 1, MPI_INT, right, 31, &got, 1, MPI_INT, left, 31, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    rpt_out("r%d sendrecv got=%d src=%d tag=%d count=%d\n", me, got, st.MPI_SOURCE, st.MPI_TAG, cnt);
    /* shift by two with Sendrecv_replace, wildcard source */
    buf[0] = me;
    buf[1] = me * me;
    buf[2] = -me;
    buf[3] = 77;
    MPI_Sendrecv_replace(buf, 4, MPI_INT, (me + 2) % np, 32, MPI_ANY_SOURCE, 32, MPI_COMM_WORLD,
                         &st);
    rpt_out("r%d sendrecv_replace buf=%d,%d,%d,%d src=%d\n", me, buf[0], buf[1], buf[2], buf[3],
            st.MPI_SOURCE);
    /* different send and receive tags */
    MPI_Sendrecv(&v, 1, MPI_INT, left, 33, &got, 1, MPI_INT, right, 33, MPI_COMM_WORLD, &st);
    rpt_out("r%d sendrecv-back got=%d src=%d\n", me, got, st.MPI_SOURCE);
}

static void sec_self_procnull(void)
{
    int v = 500 + me, got = -1, cnt = -1;
    MPI_Request r;
    MPI_Status st;
    /* messages to self */
    MPI_Isend(&v, 1, MPI_INT, me, 41, MPI_COMM_WORLD, &r);
    MPI_Recv(&got, 1, MPI_INT, me, 41, MPI_COMM_WORLD, &st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    rpt_out("r%d self isend/recv got=%d src=%d\n", me, got, st.MPI_SOURCE);
    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 42, MPI_COMM_WORLD, &r);
    v++;
    MPI_Send(&v, 1, MPI_INT, me, 42, MPI_COMM_WORLD);
    MPI_Wait(&r, &st);
    rpt_out("r%d self irecv/send got=%d src=%d\n", me, got, st.MPI_SOURCE);
    v++;
    MPI_Sendrecv(&v, 1, MPI_INT, me, 43, &got, 1, MPI_INT, me, 43, MPI_COMM_WORLD, &st);
    rpt_out("r%d self sendrecv got=%d\n", me, got);

    /* MPI_PROC_NULL */
    got = 12345;
    MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 44, MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_INT, MPI_PROC_NULL, 44, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    rpt_out("r%d procnull recv got=%d src_is_null=%d tag_any=%d count=%d\n", me, got,
            st.MPI_SOURCE == MPI_PROC_NULL, st.MPI_TAG == MPI_ANY_TAG, cnt);
    MPI_Irecv(&got, 1, MPI_INT, MPI_PROC_NULL, 45, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
    rpt_out("r%d procnull irecv src_is_null=%d\n", me, st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Isend(&v, 1, MPI_INT, MPI_PROC_NULL, 45, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    /* non-periodic shift: the ends talk to MPI_PROC_NULL */
    {
        int up = me + 1 < np ? me + 1 : MPI_PROC_NULL, down = me > 0 ? me - 1 : MPI_PROC_NULL;
        got = -7;
        MPI_Sendrecv(&v, 1, MPI_INT, up, 46, &got, 1, MPI_INT, down, 46, MPI_COMM_WORLD, &st);
        rpt_out("r%d shift got=%d src=%d\n", me, got,
                st.MPI_SOURCE == MPI_PROC_NULL ? -1 : st.MPI_SOURCE);
    }
}

static void sec_persistent(void)
{
    int sbuf[3], rbuf[3], it, acc = 0;
    MPI_Request req[2], extra;
    MPI_Status st[2];
    MPI_Send_init(sbuf, 3, MPI_INT, right, 51, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(rbuf, 3, MPI_INT, left, 51, MPI_COMM_WORLD, &req[1]);
    for (it = 0; it < 5; it++) {
        sbuf[0] = me;
        sbuf[1] = it;
        sbuf[2] = me * 10 + it;
        MPI_Startall(2, req);
        MPI_Waitall(2, req, st);
        RPT_CHECK(rbuf[0] == left && rbuf[1] == it);
        acc += rbuf[2];
        rpt_out("r%d persistent it=%d got=%d src=%d tag=%d\n", me, it, rbuf[2], st[1].MPI_SOURCE,
                st[1].MPI_TAG);
    }
    /* individual MPI_Start, receive started first, completed with Wait/Test */
    for (it = 0; it < 3; it++) {
        int flag = 0;
        sbuf[2] = 1000 + it;
        MPI_Start(&req[1]);
        MPI_Start(&req[0]);
        while (!flag)
            MPI_Test(&req[1], &flag, &st[1]);
        MPI_Wait(&req[0], &st[0]);
        acc += rbuf[2];
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    /* a persistent request that is never started */
    MPI_Recv_init(rbuf, 3, MPI_INT, left, 52, MPI_COMM_WORLD, &extra);
    MPI_Request_free(&extra);
    /* persistent synchronous and buffered-free variants */
    MPI_Ssend_init(sbuf, 3, MPI_INT, right, 53, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(rbuf, 3, MPI_INT, MPI_ANY_SOURCE, 53, MPI_COMM_WORLD, &req[1]);
    for (it = 0; it < 2; it++) {
        sbuf[2] = 2000 + it;
        MPI_Start(&req[1]);
        MPI_Start(&req[0]);
        MPI_Waitall(2, req, st);
        acc += rbuf[2];
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    rpt_out("r%d persistent acc=%d\n", me, acc);
}

static void sec_modes(void)
{
    int v[6], got[6], i, bsize;
    void *bbuf, *dbuf;
    MPI_Request r[6], s[6];
    MPI_Status st;

    for (i = 0; i < 6; i++) {
        v[i] = 60 + 10 * me + i;
        got[i] = -1;
    }
    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &bsize);
    bsize = 4 * (bsize + MPI_BSEND_OVERHEAD);
    bbuf = malloc((size_t)bsize);
    RPT_CHECK(bbuf);
    MPI_Buffer_attach(bbuf, bsize);

    /* every receive is posted before the barrier, so ready sends are legal */
    for (i = 0; i < 6; i++)
        MPI_Irecv(&got[i], 1, MPI_INT, left, 61 + i, MPI_COMM_WORLD, &r[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Ssend(&v[0], 1, MPI_INT, right, 61, MPI_COMM_WORLD);
    MPI_Bsend(&v[1], 1, MPI_INT, right, 62, MPI_COMM_WORLD);
    MPI_Rsend(&v[2], 1, MPI_INT, right, 63, MPI_COMM_WORLD);
    MPI_Issend(&v[3], 1, MPI_INT, right, 64, MPI_COMM_WORLD, &s[0]);
    MPI_Ibsend(&v[4], 1, MPI_INT, right, 65, MPI_COMM_WORLD, &s[1]);
    MPI_Irsend(&v[5], 1, MPI_INT, right, 66, MPI_COMM_WORLD, &s[2]);
    MPI_Waitall(6, r, MPI_STATUSES_IGNORE);
    MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
    rpt_out("r%d modes got=%d,%d,%d,%d,%d,%d\n", me, got[0], got[1], got[2], got[3], got[4],
            got[5]);

    /* blocking receive of a buffered send (sender does not wait) */
    MPI_Bsend(&v[0], 1, MPI_INT, right, 67, MPI_COMM_WORLD);
    MPI_Recv(&got[0], 1, MPI_INT, left, 67, MPI_COMM_WORLD, &st);
    MPI_Buffer_detach(&dbuf, &bsize);
    RPT_CHECK(dbuf == bbuf);
    free(bbuf);
    /* Ssend to self with a pre-posted receive */
    MPI_Irecv(&got[1], 1, MPI_INT, me, 68, MPI_COMM_WORLD, &r[0]);
    MPI_Ssend(&v[1], 1, MPI_INT, me, 68, MPI_COMM_WORLD);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    rpt_out("r%d modes2 got=%d,%d\n", me, got[0], got[1]);
}

static void sec_probe(void)
{
    int n = me + 1, i, cnt, *buf, flag = 0;
    int *data = malloc(sizeof(int) * (size_t)(np + 1));
    MPI_Status st;
    MPI_Request r;
    RPT_CHECK(data);
    for (i = 0; i < n; i++)
        data[i] = me * 100 + i;
    /* Probe then Recv of the probed size */
    MPI_Isend(data, n, MPI_INT, right, 71, MPI_COMM_WORLD, &r);
    MPI_Probe(left, 71, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    buf = malloc(sizeof(int) * (size_t)cnt);
    RPT_CHECK(buf);
    MPI_Recv(buf, cnt, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    rpt_out("r%d probe count=%d hash=%08x\n", me, cnt, rpt_hash(buf, sizeof(int) * (size_t)cnt));
    free(buf);
    /* Iprobe (ANY_SOURCE, ANY_TAG) loop, then Recv from the probed source */
    MPI_Isend(data, n, MPI_INT, right, 72, MPI_COMM_WORLD, &r);
    while (!flag)
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    buf = malloc(sizeof(int) * (size_t)cnt);
    RPT_CHECK(buf);
    MPI_Recv(buf, cnt, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    rpt_out("r%d iprobe src=%d tag=%d count=%d hash=%08x\n", me, st.MPI_SOURCE, st.MPI_TAG, cnt,
            rpt_hash(buf, sizeof(int) * (size_t)cnt));
    free(buf);
    /* Matched probe (any source) then Mrecv of the probed size: the
     * profiler joins the sender's path-set at the Mrecv (an unjoined one
     * would show as pathset_unmatched, which the report check refuses) */
    MPI_Message msg;
    MPI_Isend(data, n, MPI_INT, right, 73, MPI_COMM_WORLD, &r);
    MPI_Mprobe(MPI_ANY_SOURCE, 73, MPI_COMM_WORLD, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    buf = malloc(sizeof(int) * (size_t)cnt);
    RPT_CHECK(buf);
    MPI_Mrecv(buf, cnt, MPI_INT, &msg, &st);
    RPT_CHECK(msg == MPI_MESSAGE_NULL);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    rpt_out("r%d mprobe src=%d tag=%d count=%d hash=%08x\n", me, st.MPI_SOURCE, st.MPI_TAG, cnt,
            rpt_hash(buf, sizeof(int) * (size_t)cnt));
    free(buf);
    /* Improbe loop (the sender, any tag), then Imrecv completed by Wait */
    MPI_Request rr;
    flag = 0;
    MPI_Isend(data, n, MPI_INT, right, 74, MPI_COMM_WORLD, &r);
    while (!flag)
        MPI_Improbe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    buf = malloc(sizeof(int) * (size_t)cnt);
    RPT_CHECK(buf);
    MPI_Imrecv(buf, cnt, MPI_INT, &msg, &rr);
    MPI_Wait(&rr, &st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    rpt_out("r%d improbe src=%d tag=%d count=%d hash=%08x\n", me, st.MPI_SOURCE, st.MPI_TAG, cnt,
            rpt_hash(buf, sizeof(int) * (size_t)cnt));
    free(buf);
    /* MPI_PROC_NULL: the no-process message, received at once */
    MPI_Mprobe(MPI_PROC_NULL, 75, MPI_COMM_WORLD, &msg, &st);
    RPT_CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Mrecv(NULL, 0, MPI_INT, &msg, &st);
    RPT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
    free(data);
}

static void sec_cancel(void)
{
    int got = -1, flag = -1, v = 800 + me, got2 = -1;
    MPI_Request r, s;
    MPI_Status st;
    /* a receive that nothing will ever match (tag 81 from left) */
    MPI_Irecv(&got, 1, MPI_INT, left, 81, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    rpt_out("r%d cancel cancelled=%d got=%d\n", me, flag, got);
    /* a wildcard receive cancelled, then traffic from the same source */
    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 82, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Isend(&v, 1, MPI_INT, right, 83, MPI_COMM_WORLD, &s);
    MPI_Recv(&got2, 1, MPI_INT, left, 83, MPI_COMM_WORLD, &st);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    rpt_out("r%d cancel2 cancelled=%d after=%d src=%d\n", me, flag, got2, st.MPI_SOURCE);
}

static void sec_large(void)
{
    /* beyond any eager limit: rendezvous protocol */
    const int n = 1 << 18; /* 1 MiB of ints */
    int *a = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * (size_t)n), i;
    MPI_Request r[2];
    MPI_Status st;
    RPT_CHECK(a && b);
    for (i = 0; i < n; i++)
        a[i] = i ^ (me * 2654435761u);
    MPI_Irecv(b, n, MPI_INT, left, 91, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(a, n, MPI_INT, right, 91, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    rpt_out("r%d large isend hash=%08x\n", me, rpt_hash(b, sizeof(int) * (size_t)n));
    memset(b, 0, sizeof(int) * (size_t)n);
    MPI_Sendrecv(a, n, MPI_INT, right, 92, b, n, MPI_INT, left, 92, MPI_COMM_WORLD, &st);
    rpt_out("r%d large sendrecv hash=%08x\n", me, rpt_hash(b, sizeof(int) * (size_t)n));
    /* blocking Send/Recv, ordered so that it cannot deadlock */
    if (np == 1) {
        MPI_Sendrecv(a, n, MPI_INT, 0, 93, b, n, MPI_INT, 0, 93, MPI_COMM_WORLD, &st);
    } else if (me % 2 == 0) {
        if (me + 1 < np)
            MPI_Send(a, n, MPI_INT, me + 1, 93, MPI_COMM_WORLD);
        if (me > 0)
            MPI_Recv(b, n, MPI_INT, me - 1, 93, MPI_COMM_WORLD, &st);
    } else {
        MPI_Recv(b, n, MPI_INT, me - 1, 93, MPI_COMM_WORLD, &st);
        if (me + 1 < np)
            MPI_Send(a, n, MPI_INT, me + 1, 93, MPI_COMM_WORLD);
    }
    if (me > 0 || np == 1)
        rpt_out("r%d large send/recv hash=%08x\n", me, rpt_hash(b, sizeof(int) * (size_t)n));
    free(a);
    free(b);
}

/* A long phase: 600 ring exchanges with no collective in between, so a
 * path-mode run with RP_BUFFER=256 overflows the phase's task index space
 * deterministically (test_p2p.sh). */
static void sec_long_phase(void)
{
    int v = me, got = 0;
    unsigned acc = 0;
    for (int i = 0; i < 600; i++) {
        MPI_Sendrecv(&v, 1, MPI_INT, right, 95, &got, 1, MPI_INT, left, 95, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        acc = acc * 31u + (unsigned)got;
        v = got + 1;
    }
    rpt_out("r%d long phase acc=%08x\n", me, acc);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    right = (me + 1) % np;
    left = (me + np - 1) % np;
    rpt_out("r%d p2p np=%d\n", me, np);

    sec_wildcards();
    sec_tag_order();
    sec_completion();
    sec_sendrecv();
    sec_self_procnull();
    sec_persistent();
    sec_modes();
    sec_probe();
    sec_cancel();
    sec_large();
    sec_long_phase();

    rpt_out("r%d p2p done\n", me);
    rpt_flush();
    MPI_Finalize();
    return 0;
}
