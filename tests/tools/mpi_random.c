/* mpi_random - a random MPI program, deadlock-free by construction, for
 * checking the online paths against the trace (tests/tools/test_random.sh).
 *
 *   mpi_random [seed [rounds [full]]]      (defaults 1, 40)
 *
 * Every rank draws the program's shape from the same seeded generator, and
 * its own "work" (nanosleeps of 0-3 ms) from a second one seeded with the
 * rank.  A round is one of:
 *   - point-to-point: a random permutation decides who sends to whom (no
 *     messages to self); each rank sends one message and receives one, in a
 *     randomly chosen style: Irecv + Send + Wait, Isend + Recv + Wait,
 *     Sendrecv, or Isend/Irecv + Waitall; receives use MPI_ANY_SOURCE (with
 *     the round's tag) or MPI_ANY_TAG (with the sender), and both wildcards
 *     together only in rounds that end with a world collective (so no
 *     message of the next round can be in flight yet);
 *   - a collective over the halves of MPI_COMM_WORLD (MPI_Comm_split):
 *     Allreduce, Bcast, Reduce, Scan or Barrier;
 *   - a collective over MPI_COMM_WORLD: Barrier, Allreduce (both end a
 *     phase), Bcast, Reduce, Gather or Scan.
 * With "full" (a third argument), the draws also take the styles below, so
 * a seed's program differs from the one without it:
 *   - point-to-point: Irecv + Ssend + Wait; persistent Recv_init/Send_init +
 *     Startall + Waitall; Isend + Probe + Recv; Isend + Mprobe + Mrecv;
 *     Isend + an Iprobe loop + Recv; Irecv + Isend + Waitany twice;
 *     Sendrecv_replace; Bsend + Recv; Isend + an Improbe loop + Imrecv +
 *     Waitall; Irecv + Issend + a Testall loop;
 *   - half collectives: Iallreduce, Iscan, Ireduce, Igather (+ Wait);
 *     MPI-IO on a file opened over the half (atomic mode): write_at_all,
 *     Ibarrier + Wait, then read_at_all of the next member's value;
 *   - world collectives: Ibarrier + a Test loop, Iallreduce + Wait,
 *     Ibcast + Wait, Allgather, Alltoall, Reduce_scatter_block, Exscan;
 *     MPI-IO on a file opened over MPI_COMM_WORLD: a split
 *     write_at_all_begin/_end, Ibarrier + Wait, then iread_at_all + Wait of
 *     the next rank's value.  The files live in $TMPDIR (else /tmp) and are deleted.
 *   - under an MPI-4 library, each point-to-point call of either kind of
 *     round is its large-count form (MPI_Send_c, MPI_Irecv_c, ...) or not,
 *     at random on each rank.
 * Every received value is checked (sender and round), and rank 0 prints a
 * checksum of the whole run, identical with and without the profiler. */
#include <unistd.h>
#include "../mpi/rptest.h"

/* a failed check names the values, then aborts the job */
#define CHK(cond, ...)                                                         \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "mpi_random: CHECK FAILED line %d: ", __LINE__);   \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            MPI_Abort(MPI_COMM_WORLD, 3);                                      \
        }                                                                      \
    } while (0)

static uint64_t shared_state, my_state;

static uint64_t next(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int pick(int n) { return (int)(next(&shared_state) % (uint64_t)n); }

/* "full" under an MPI-4 library: each point-to-point call is its large-count
 * form MPI_X_c or MPI_X, by a coin of the rank's own (a third generator, so
 * the program's shape and work do not change): a send of one form meets a
 * receive of the other (doc/design.md, "MPI-4"). */
#if MPI_VERSION >= 4
static int lc_on;
static uint64_t lc_state;
static int lc(void) { return lc_on && (next(&lc_state) & 1); }
#define LC(f, ...) (lc() ? f##_c(__VA_ARGS__) : f(__VA_ARGS__))
#else
#define LC(f, ...) f(__VA_ARGS__)
#endif

static void work(void)
{
    /* 0 .. 3 ms, in 10 us steps; now and then none at all */
    uint64_t v = next(&my_state) % 301;
    if (v > 20)
        rpt_sleep_ms((double)v / 100.0);
}

/* A polling loop's condition: flag, after a 20 us pause when it is still 0
 * past the first poll (as a code computes between polls), so that a wait of
 * milliseconds is a few dozen tasks, not thousands: path mode keeps a
 * path's tasks in a bounded summary, and MPICH's Iprobe spins fast. */
static int poll_pause(int flag)
{
    static int polled;
    if (flag) {
        polled = 0;
        return 1;
    }
    if (polled++)
        rpt_sleep_ms(0.02);
    return 0;
}

/* The "full" point-to-point styles 4..13: send `out` to dest with tag,
 * receive `in` from (rsrc, rtag), *st the receive's status. */
static void p2p_full(int style, int *out, int *in, int dest, int tag, int rsrc, int rtag,
                     MPI_Status *st)
{
    MPI_Request rq[2];
    MPI_Status sts[2];
    int flag = 0, idx;
    switch (style) {
    case 4:   /* synchronous send: every rank's receive is posted first */
        LC(MPI_Irecv, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &rq[0]);
        work();
        LC(MPI_Ssend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD);
        MPI_Wait(&rq[0], st);
        break;
    case 5:   /* persistent requests */
        LC(MPI_Recv_init, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &rq[0]);
        LC(MPI_Send_init, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[1]);
        MPI_Startall(2, rq);
        work();
        MPI_Waitall(2, rq, sts);
        *st = sts[0];
        MPI_Request_free(&rq[0]);
        MPI_Request_free(&rq[1]);
        break;
    case 6:   /* probe, then receive what it found */
        LC(MPI_Isend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[0]);
        work();
        MPI_Probe(rsrc, rtag, MPI_COMM_WORLD, st);
        LC(MPI_Recv, in, 2, MPI_INT, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, st);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        break;
    case 7: { /* matched probe */
        MPI_Message msg;
        LC(MPI_Isend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[0]);
        MPI_Mprobe(rsrc, rtag, MPI_COMM_WORLD, &msg, st);
        work();
        LC(MPI_Mrecv, in, 2, MPI_INT, &msg, st);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        break;
    }
    case 8:   /* poll with Iprobe */
        LC(MPI_Isend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[0]);
        while (!poll_pause(flag))
            MPI_Iprobe(rsrc, rtag, MPI_COMM_WORLD, &flag, st);
        LC(MPI_Recv, in, 2, MPI_INT, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, st);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        break;
    case 9:   /* complete one at a time, in whichever order */
        LC(MPI_Irecv, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &rq[0]);
        LC(MPI_Isend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[1]);
        work();
        for (int n = 0; n < 2; n++) {
            MPI_Status s1;
            MPI_Waitany(2, rq, &idx, &s1);
            if (idx == 0)
                *st = s1;
        }
        break;
    case 10:  /* one buffer, sent then received into */
        in[0] = out[0];
        in[1] = out[1];
        LC(MPI_Sendrecv_replace, in, 2, MPI_INT, dest, tag, rsrc, rtag, MPI_COMM_WORLD, st);
        break;
    case 11:  /* buffered send */
        LC(MPI_Bsend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD);
        work();
        LC(MPI_Recv, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, st);
        break;
    case 12: { /* matched probe by polling, non-blocking matched receive */
        MPI_Message msg;
        LC(MPI_Isend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[1]);
        while (!poll_pause(flag))
            MPI_Improbe(rsrc, rtag, MPI_COMM_WORLD, &flag, &msg, st);
        LC(MPI_Imrecv, in, 2, MPI_INT, &msg, &rq[0]);
        work();
        MPI_Waitall(2, rq, sts);
        *st = sts[0];
        break;
    }
    default:  /* synchronous non-blocking send, completed by polling */
        LC(MPI_Irecv, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &rq[0]);
        LC(MPI_Issend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[1]);
        while (!poll_pause(flag))
            MPI_Testall(2, rq, &flag, sts);
        *st = sts[0];
    }
}

/* The "full" half collectives 5..8: Iallreduce, Iscan, Ireduce, Igather;
 * returns a value every member can check (the root's for 7 and 8). */
static int half_nbc(int op, int v, int root, int hme, int hnp, MPI_Comm half)
{
    MPI_Request rq;
    int r = 0, *all = NULL;
    switch (op) {
    case 5:
        MPI_Iallreduce(&v, &r, 1, MPI_INT, MPI_SUM, half, &rq);
        work();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHK(r == hnp * (hnp + 1) / 2, "half iallreduce %d", r);
        break;
    case 6:
        MPI_Iscan(&v, &r, 1, MPI_INT, MPI_SUM, half, &rq);
        work();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHK(r == (hme + 1) * (hme + 2) / 2, "half iscan %d", r);
        break;
    case 7:
        MPI_Ireduce(&v, &r, 1, MPI_INT, MPI_MAX, root, half, &rq);
        work();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHK(hme != root || r == hnp, "half ireduce %d", r);
        break;
    default:
        all = malloc((size_t)hnp * sizeof *all);
        MPI_Igather(&v, 1, MPI_INT, all, 1, MPI_INT, root, half, &rq);
        work();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        if (hme == root)
            for (int i = 0; i < hnp; i++)
                CHK(all[i] == i + 1, "half igather [%d] = %d", i, all[i]);
        free(all);
    }
    return r;
}

/* The "full" world collectives 6..12; returns the value the checksum
 * takes for ops 8 (as 1) and 9 (as 2), 0 otherwise. */
static int world_full(int op, int v, int root, int me, int np, int round)
{
    MPI_Request rq;
    int r = 0, flag = 0, *a = malloc(2 * (size_t)np * sizeof *a), *b = a + np;
    switch (op) {
    case 6:
        MPI_Ibarrier(MPI_COMM_WORLD, &rq);
        while (!poll_pause(flag))
            MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        break;
    case 7:
        MPI_Allgather(&v, 1, MPI_INT, a, 1, MPI_INT, MPI_COMM_WORLD);
        for (int i = 0; i < np; i++)
            CHK(a[i] == i + 1, "allgather [%d] = %d", i, a[i]);
        break;
    case 8:
        MPI_Iallreduce(&v, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq);
        work();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHK(r == np, "iallreduce max %d", r);
        break;
    case 9:
        r = me == root ? 1000 + round : 0;
        MPI_Ibcast(&r, 1, MPI_INT, root, MPI_COMM_WORLD, &rq);
        work();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHK(r == 1000 + round, "ibcast %d", r);
        break;
    case 10:
        for (int i = 0; i < np; i++)
            a[i] = me * 1000 + i;
        MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
        for (int i = 0; i < np; i++)
            CHK(b[i] == i * 1000 + me, "alltoall [%d] = %d", i, b[i]);
        break;
    case 11:
        for (int i = 0; i < np; i++)
            a[i] = i + me;
        MPI_Reduce_scatter_block(a, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHK(r == np * me + np * (np - 1) / 2, "reduce_scatter_block %d", r);
        r = 0;
        break;
    default:
        MPI_Exscan(&v, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHK(me == 0 || r == me * (me + 1) / 2, "exscan %d", r);
        r = 0;
    }
    free(a);
    return r;
}

/* "full": the files of the MPI-IO styles (atomic mode, so a value one
 * member wrote is what the others read after the collective write). */
static MPI_File file_open(MPI_Comm comm, const char *name)
{
    MPI_File fh;
    CHK(MPI_File_open(comm, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) ==
            MPI_SUCCESS, "MPI_File_open %s", name);
    MPI_File_set_atomicity(fh, 1);
    return fh;
}

static void file_close(MPI_File *fh, MPI_Comm comm, const char *name)
{
    int r;
    MPI_File_close(fh);
    MPI_Barrier(comm);
    MPI_Comm_rank(comm, &r);
    if (r == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
}

/* MPI-IO on comm's file: every member writes v at its slot, reads the next
 * member's (a split write and a non-blocking read when split); returns it.
 * A collective write's return says nothing of the other members' writes:
 * an Ibarrier (which ends no phase) orders them before the reads. */
static int file_round(MPI_File fh, MPI_Comm comm, int v, int me, int n, int split)
{
    MPI_Offset mine = (MPI_Offset)me * (MPI_Offset)sizeof v;
    MPI_Offset next = (MPI_Offset)((me + 1) % n) * (MPI_Offset)sizeof v;
    int r = -1;
    if (split) {
        MPI_Request rq;
        MPI_File_write_at_all_begin(fh, mine, &v, 1, MPI_INT);
        work();
        MPI_File_write_at_all_end(fh, &v, MPI_STATUS_IGNORE);
        MPI_Ibarrier(comm, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_File_iread_at_all(fh, next, &r, 1, MPI_INT, &rq);
        work();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        MPI_Request rq;
        MPI_File_write_at_all(fh, mine, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
        work();
        MPI_Ibarrier(comm, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_File_read_at_all(fh, next, &r, 1, MPI_INT, MPI_STATUS_IGNORE);
    }
    return r;
}

int main(int argc, char **argv)
{
    int me, np;
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
    int rounds = argc > 2 ? atoi(argv[2]) : 40;
    int full = argc > 3 && !strcmp(argv[3], "full");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
#if MPI_VERSION >= 4
    lc_on = full;
    lc_state = seed * 6700417ull + (uint64_t)me * 2147483647ull + 5;
#endif
    shared_state = seed * 0x1234567ull + 17;
    my_state = seed * 7919ull + (uint64_t)me * 104729ull + 3;

    MPI_Comm half;
    int color = me < np / 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &half);
    int hme, hnp;
    MPI_Comm_rank(half, &hme);
    MPI_Comm_size(half, &hnp);

    int *perm = malloc((size_t)np * sizeof *perm), *inv = malloc((size_t)np * sizeof *inv);
    /* Bsend's buffer: one message a round at most is in it */
    int bsz = 0;
    MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, &bsz);
    bsz = 8 * (bsz + MPI_BSEND_OVERHEAD);
    void *bbuf = malloc((size_t)bsz);
    if (full)
        MPI_Buffer_attach(bbuf, bsz);
    char wname[512], hname[520];
    MPI_File wfile = MPI_FILE_NULL, hfile = MPI_FILE_NULL;
    if (full) {
        if (me == 0) {
            const char *d = getenv("TMPDIR");
            snprintf(wname, sizeof wname, "%s/rp_mpi_random_%ld", d && *d ? d : "/tmp",
                     (long)getpid());
        }
        MPI_Bcast(wname, (int)sizeof wname, MPI_CHAR, 0, MPI_COMM_WORLD);
        snprintf(hname, sizeof hname, "%s.h%d", wname, color);
        wfile = file_open(MPI_COMM_WORLD, wname);
        hfile = file_open(half, hname);
    }
    uint32_t check = 2166136261u;
    long nmsg = 0, ncoll = 0, nio = 0;
    for (int round = 0; round < rounds; round++) {
        int kind = pick(10);   /* 0-5 p2p, 6-7 half collective, 8-9 world collective */
        work();
        if (kind <= 5 && np > 1) {
            for (int i = 0; i < np; i++)
                perm[i] = i;
            for (int i = np - 1; i > 0; i--) {
                int j = pick(i + 1), t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            for (int i = 0; i < np; i++)
                inv[perm[i]] = i;
            int style = pick(full ? 14 : 4), wild = pick(3), end_coll = pick(2);
            if (wild == 2 && !end_coll)
                wild = 0;   /* full wildcards only before a world collective */
            int dest = perm[me], src = inv[me];
            int tag = round + 1;
            int out[2] = {me, round}, in[2] = {-1, -1};
            /* 0: any source, this round's tag; 1: the sender, any tag; 2: both */
            int rsrc = wild == 1 ? src : MPI_ANY_SOURCE;
            int rtag = wild == 0 ? tag : MPI_ANY_TAG;
            MPI_Request rq[2];
            MPI_Status st;
            if (dest != me) {
                switch (style) {
                case 0:
                    LC(MPI_Irecv, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &rq[0]);
                    work();
                    LC(MPI_Send, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD);
                    work();
                    MPI_Wait(&rq[0], &st);
                    break;
                case 1:
                    LC(MPI_Isend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[0]);
                    work();
                    LC(MPI_Recv, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &st);
                    work();
                    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
                    break;
                case 2:
                    LC(MPI_Sendrecv, out, 2, MPI_INT, dest, tag, in, 2, MPI_INT, rsrc, rtag,
                                 MPI_COMM_WORLD, &st);
                    break;
                case 3: {
                    MPI_Status sts[2];
                    LC(MPI_Irecv, in, 2, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &rq[0]);
                    LC(MPI_Isend, out, 2, MPI_INT, dest, tag, MPI_COMM_WORLD, &rq[1]);
                    work();
                    MPI_Waitall(2, rq, sts);
                    st = sts[0];
                    break;
                }
                default:
                    p2p_full(style, out, in, dest, tag, rsrc, rtag, &st);
                }
                CHK(in[0] == src && in[1] == round && st.MPI_SOURCE == src &&
                              st.MPI_TAG == tag,
                          "round %d: got (%d, %d) from %d tag %d, expected (%d, %d)", round,
                          in[0], in[1], st.MPI_SOURCE, st.MPI_TAG, src, round);
                check = (check ^ (uint32_t)(in[0] * 31 + in[1])) * 16777619u;
                nmsg++;
            }
            if (end_coll) {
                work();
                int v = me, s = 0;
                MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                CHK(s == np * (np - 1) / 2, "allreduce %d", s);
                ncoll++;
            }
        } else if (kind <= 7) {
            int op = pick(full ? 10 : 5), root = pick(hnp > 0 ? hnp : 1) % hnp;
            int v = hme + 1, r = 0;
            if (op == 9) {
                r = file_round(hfile, half, 100 * round + hme, hme, hnp, 0);
                CHK(r == 100 * round + (hme + 1) % hnp, "half file read %d", r);
                nio++;
            } else if (op >= 5) {
                r = half_nbc(op, v, root, hme, hnp, half);
                op = op == 5 ? 0 : op == 6 ? 3 : op == 7 ? 2 : 5;   /* the checksum's */
            } else
            switch (op) {
            case 0:
                MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_SUM, half);
                CHK(r == hnp * (hnp + 1) / 2, "half allreduce %d", r);
                break;
            case 1:
                r = hme == root ? 77 + round : 0;
                MPI_Bcast(&r, 1, MPI_INT, root, half);
                CHK(r == 77 + round, "half bcast %d", r);
                break;
            case 2:
                MPI_Reduce(&v, &r, 1, MPI_INT, MPI_MAX, root, half);
                CHK(hme != root || r == hnp, "half reduce %d", r);
                break;
            case 3:
                MPI_Scan(&v, &r, 1, MPI_INT, MPI_SUM, half);
                CHK(r == (hme + 1) * (hme + 2) / 2, "half scan %d", r);
                break;
            default:
                MPI_Barrier(half);
            }
            check = (check ^ (uint32_t)(op + 7 * r)) * 16777619u;
            ncoll++;
        } else {
            int op = pick(full ? 14 : 6), root = pick(np);
            int v = me + 1, r = 0;
            int *all = NULL;
            if (op == 13) {
                r = file_round(wfile, MPI_COMM_WORLD, 100 * round + me, me, np, 1);
                CHK(r == 100 * round + (me + 1) % np, "world file read %d", r);
                nio++;
                r = 0;
            } else if (op >= 6) {
                r = world_full(op, v, root, me, np, round);
                op = op == 8 ? 1 : op == 9 ? 2 : op;   /* the checksum's (r: ops 1, 2) */
            } else
            switch (op) {
            case 0:
                MPI_Barrier(MPI_COMM_WORLD);
                break;
            case 1:
                MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
                CHK(r == np, "allreduce max %d", r);
                break;
            case 2:
                r = me == root ? 1000 + round : 0;
                MPI_Bcast(&r, 1, MPI_INT, root, MPI_COMM_WORLD);
                CHK(r == 1000 + round, "bcast %d", r);
                break;
            case 3:
                MPI_Reduce(&v, &r, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
                CHK(me != root || r == np * (np + 1) / 2, "reduce %d", r);
                break;
            case 4:
                all = malloc((size_t)np * sizeof *all);
                MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, root, MPI_COMM_WORLD);
                if (me == root)
                    for (int i = 0; i < np; i++)
                        CHK(all[i] == i + 1, "gather [%d] = %d", i, all[i]);
                free(all);
                break;
            default:
                MPI_Scan(&v, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                CHK(r == (me + 1) * (me + 2) / 2, "scan %d", r);
            }
            check = (check ^ (uint32_t)(op + 13 * r * (op == 2 || op == 1))) * 16777619u;
            ncoll++;
        }
    }
    work();
    uint32_t all = 0;
    MPI_Reduce(&check, &all, 1, MPI_UINT32_T, MPI_BXOR, 0, MPI_COMM_WORLD);
    long tot[3] = {nmsg, ncoll, nio}, sum[3] = {0, 0, 0};
    MPI_Reduce(tot, sum, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("mpi_random seed=%lu rounds=%d ranks=%d messages=%ld collectives=%ld "
               "file_rounds=%ld check=%08x\n", seed, rounds, np, sum[0], sum[1], sum[2], all);
    if (full) {
        file_close(&hfile, half, hname);
        file_close(&wfile, MPI_COMM_WORLD, wname);
    }
    MPI_Comm_free(&half);
    if (full)
        MPI_Buffer_detach(&bbuf, &bsz);
    free(bbuf);
    free(perm);
    free(inv);
    MPI_Finalize();
    return 0;
}
