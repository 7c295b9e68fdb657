/* collpaths.c - the collective path algorithms (doc/design.md,
 * "Collectives"; paper §4.3): the all-to-all path-allreduce in
 * ceil(log2 n) rounds - a butterfly for a power of two, after which every
 * member holds the identical set; otherwise dissemination (send to me+2^d,
 * receive from me-2^d, mod n) and then (repr selection is not associative)
 * a broadcast of rank 0's set - and the broadcast of one set.  All traffic
 * uses the communicator's second shadow (`coll`), never a user tag.
 *
 * Dissemination's last round at n = 2^R' + m (0 < m < 2^R') would join a
 * window of 2^R' members that overlaps the 2^R' a member already holds by
 * 2^R' - m, counting their paths' weights twice (repr weights paths by how
 * many they stand for).  So in that round each member instead receives the
 * sets that cover exactly the m members it lacks: for each set bit 2^b of
 * m, the set a member sent in round b (its window of 2^b), from the member
 * just below the part already covered.  popcount(m) messages in the last
 * round (one at n = 6, 10, 12 ...), the same number of rounds.
 *
 * A phase-end exchange (a collective over MPI_COMM_WORLD, and Finalize)
 * decides the phase's k reported paths.  Under the weighted selection each
 * member then works on a *wide* set of RP_PHASE_K paths (default
 * 4 (k - 1) + 1) and chooses its k only after the last round, from the
 * identical wide set every member holds (after rank 0's broadcast when n
 * is not a power of two, which sends the chosen k).  Measured: the
 * butterfly's last rounds join two halves of equal weight, and summarising
 * that union in k paths lost most of the accuracy the joins before had
 * kept (doc/accuracy.md: real LULESH at k = 5, medians
 * 1.9-3.3 % of a phase's range -> 0.6-1.0 %).  Once a phase, so no
 * message of the program pays for it.  Two
 * members skip it: their one round is the plain join of their two sets,
 * which sees both sets' sketch boxes, where choosing k from the wide union
 * sees that union's boxes re-centred one a gap.  The two pick the same
 * paths for 93-99.8 % of random pairs (k = 9 .. 3, sets with sketches),
 * and the plain join costs ~0.5 us less.  tools/common/replay.c
 * skips it too. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "core/counters.h"
#include "core/pathset.h"
#include "core/wire.h"
#include "exchange/collpaths.h"
#include "exchange/proto.h"

static rp_state *g_st;
static rp_pathset g_wide;   /* the phase-end exchange's set; k_cap 0: none */

int collpaths_init(rp_state *st)
{
    g_st = st;
    if (st->cfg.phase_k <= st->cfg.k)
        return 0;
    return pathset_init(&g_wide, st->cfg.phase_k, st->cfg.summary);
}

/* Broadcasts go in two pieces: a first chunk that the shared-memory
 * transport sends inline (k = 5 with a few intervals fits), and the rest
 * only when the header says so. */
#define BCAST_CHUNK 248u


/* Broadcast root's set over c->coll; members replace or join. */
void coll_bcast_set(rp_comm *c, int root, int replace)
{
    uint8_t *buf = proto_sendbuf();
    uint32_t cap = g_st->max_wire;
    uint32_t chunk = cap < BCAST_CHUNK ? cap : BCAST_CHUNK;
    if (c->rank == root)
        pathset_encode(&g_st->ps, buf, cap);
    PMPI_Bcast(buf, (int)chunk, MPI_BYTE, root, c->coll);
    uint32_t len = pathset_wire_len(buf);
    if (len > cap) {             /* corrupt: everyone saw the same header */
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return;
    }
    if (len > chunk)
        PMPI_Bcast(buf + chunk, (int)(len - chunk), MPI_BYTE, root, c->coll);
    if (c->rank != root)
        proto_join_buffer(buf, (int)len, replace);
}

/* ---- a small broadcast carries the root's set -----------------------------
 * A broadcast of at most RP_CARRY_MAX bytes of the program's data becomes
 * one broadcast, on the program's communicator, of those bytes packed
 * (MPI_Pack) followed by the first BCAST_CHUNK bytes of the root's encoded
 * set; a longer set sends its rest on c->coll as coll_bcast_set does.  The
 * program's call is replaced one for one, so the communicator sees the
 * same collectives in the same order, and no message of the profiler's is
 * left to travel or be waited for after it: the separate set (n - 1
 * messages, or a second broadcast beyond 4 members) cost 4-8 us a call
 * from 8 to 1 024 simulated ranks, the carried one under 0.3 us
 * (doc/performance.md, "Collectives").
 * Every member decides alike: the data's size in bytes is the same on all
 * (the type signatures of a broadcast match), and so are the settings and
 * the MPI library.  Packing must produce the data's bytes and no more, as
 * in every homogeneous MPI; a library that packs otherwise (heterogeneous
 * builds) is found at the first call, deterministically, and keeps the
 * separate exchange. */
#define RP_CARRY_MAX 1024u
static uint8_t carry_buf[RP_CARRY_MAX + BCAST_CHUNK];

/* 1 if MPI_Pack of a strided type writes its data's bytes, nothing else */
static int pack_is_raw(MPI_Comm comm)
{
    static int raw = -1;
    if (raw >= 0)
        return raw;
    int32_t v[4] = {1, 2, 3, 4}, w[4] = {0, 0, 0, 0};
    uint8_t out[64];
    int pos = 0, back = 0, tsz = 0;
    MPI_Datatype t;
    raw = 0;
    if (PMPI_Type_vector(2, 1, 2, MPI_INT32_T, &t) != MPI_SUCCESS)
        return raw;
    if (PMPI_Type_commit(&t) == MPI_SUCCESS && PMPI_Type_size(t, &tsz) == MPI_SUCCESS &&
        PMPI_Pack(v, 1, t, out, (int)sizeof out, &pos, comm) == MPI_SUCCESS && pos == tsz &&
        tsz == 8 && memcmp(out, &v[0], 4) == 0 && memcmp(out + 4, &v[2], 4) == 0 &&
        PMPI_Unpack(out, pos, &back, w, 1, t, comm) == MPI_SUCCESS && back == pos &&
        w[0] == 1 && w[2] == 3 && w[1] == 0)
        raw = 1;
    PMPI_Type_free(&t);
    return raw;
}

int coll_bcast_carry(rp_comm *c, void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
                     int *rc)
{
#if !defined(OPEN_MPI) && !defined(RP_SMPI)
    /* MPICH's MPI_Pack refuses MPI_BOTTOM (NULL) as its buffer, and its
     * Fortran 2008 binding passes MPI_BOTTOM to this C wrapper: only a
     * library known to accept it carries (decided per library, so alike on
     * every member) */
    (void)c, (void)buf, (void)count, (void)dt, (void)root, (void)comm, (void)rc;
    (void)pack_is_raw;
    return 0;
#endif
    int tsz = 0;
    if (root < 0 || root >= c->size || count < 0 || PMPI_Type_size(dt, &tsz) != MPI_SUCCESS ||
        tsz < 0 /* MPI_UNDEFINED: larger than an int */ ||
        (int64_t)tsz * count > (int64_t)RP_CARRY_MAX || !pack_is_raw(comm))
        return 0;
    int bytes = tsz * count, pos = 0;
    uint32_t cap = g_st->max_wire;
    uint32_t chunk = cap < BCAST_CHUNK ? cap : BCAST_CHUNK;
    uint8_t *set = proto_sendbuf();
    if (c->rank == root) {
        pathset_encode(&g_st->ps, set, cap);
        if (bytes && (*rc = PMPI_Pack(buf, count, dt, carry_buf, bytes, &pos, comm)) != MPI_SUCCESS)
            return 1;   /* the program's arguments: its broadcast would fail alike */
        memcpy(carry_buf + bytes, set, chunk);
    }
    *rc = PMPI_Bcast(carry_buf, bytes + (int)chunk, MPI_BYTE, root, comm);
    if (*rc != MPI_SUCCESS)
        return 1;
    if (c->rank != root) {
        if (bytes && (*rc = PMPI_Unpack(carry_buf, bytes, &pos, buf, count, dt, comm)) != MPI_SUCCESS)
            return 1;
        memcpy(set, carry_buf + bytes, chunk);
    }
    uint32_t len = pathset_wire_len(set);
    if (len > cap) {             /* corrupt: everyone saw the same header */
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return 1;
    }
    if (len > chunk)
        PMPI_Bcast(set + chunk, (int)(len - chunk), MPI_BYTE, root, c->coll);
    if (c->rank != root)
        proto_join_buffer(set, (int)len, 0);
    rp_counters[RP_CNT_BCASTS_CARRIED]++;
    return 1;
}

/* Send slen bytes of sbuf to dst and join the set that comes from src
 * (MPI_PROC_NULL: none) into ps. */
static void sendrecv_join(rp_comm *c, rp_pathset *ps, const uint8_t *sbuf, size_t slen, int dst,
                          int src)
{
    uint8_t *rbuf = proto_recvbuf();
    MPI_Status st;
    int len = 0;
    PMPI_Sendrecv(sbuf, (int)slen, MPI_BYTE, dst, RP_TAG_COLL, rbuf, (int)g_st->coll_wire,
                  MPI_BYTE, src, RP_TAG_COLL, c->coll, &st);
    if (src == MPI_PROC_NULL)
        return;
    PMPI_Get_count(&st, MPI_BYTE, &len);
    proto_join_into(ps, rbuf, len, 0);
}

/* One round: send ps, join what src sends into it. */
static void exchange_set(rp_comm *c, rp_pathset *ps, int dst, int src)
{
    uint8_t *sbuf = proto_sendbuf();
    sendrecv_join(c, ps, sbuf, pathset_encode(ps, sbuf, g_st->coll_wire), dst, src);
}

void coll_exchange(rp_comm *c, int dst, int src)
{
    exchange_set(c, &g_st->ps, dst, src);
}

/* The sets this member sent in the dissemination rounds (snap[b]: round
 * 2^b, its window of 2^b members), for the exact last round. */
static uint8_t *snap[32];
static uint32_t snap_len[32];

/* Keep len bytes of buf as snapshot b; 0, or -1 without memory. */
static int keep_snap(int b, const uint8_t *buf, uint32_t len)
{
    if (!snap[b] && !(snap[b] = malloc(g_st->coll_wire))) {
        rp_counters[RP_CNT_ALLOC_FAILURES]++;
        return -1;
    }
    memcpy(snap[b], buf, len);
    snap_len[b] = len;
    return 0;
}

/* One dissemination round that also keeps what it sends as snapshot b. */
static int exchange_snap(rp_comm *c, rp_pathset *ps, int dst, int src, int b)
{
    uint8_t *sbuf = proto_sendbuf();
    size_t slen = pathset_encode(ps, sbuf, g_st->coll_wire);
    int ok = keep_snap(b, sbuf, (uint32_t)slen) == 0;
    sendrecv_join(c, ps, sbuf, slen, dst, src);
    return ok;
}

void coll_allreduce_paths_from(rp_comm *c, int phase_end, int from_d, const uint8_t *first,
                               uint32_t first_len, const uint8_t *got, int got_len)
{
    int n = c->size, me = c->rank;
    /* the set the rounds work on: the rank's, or a wide copy of it */
    rp_pathset *ps = &g_st->ps;
    if (phase_end && g_wide.k_cap && n > 2) {
        pathset_copy(&g_wide, ps);
        ps = &g_wide;
        rp_counters[RP_CNT_PHASE_WIDE]++;
    }
    if (got)   /* the overlapped first round's set */
        proto_join_into(ps, got, got_len, 0);
    int disseminate = (n & (n - 1)) != 0;
    if (!disseminate) {
        /* Power of two: butterfly.  Partners join the same two sets, and a
         * join is a deterministic function of the union, so after each
         * round partners are identical, and after the last all members
         * are: no broadcast needed. */
        for (int d = from_d; d < n; d <<= 1)
            exchange_set(c, ps, me ^ d, me ^ d);
    } else {
        int top = 1, b = 0, ok = 1;
        while (top * 2 < n)
            top *= 2;          /* the last round's distance: n = top + m */
        if (from_d > 1)        /* round 1 ran overlapped: what it sent */
            ok = first && keep_snap(0, first, first_len) == 0;
        for (int d = 1; d < top; d <<= 1, b++)
            if (d >= from_d)
                ok &= exchange_snap(c, ps, (me + d) % n, (me - d + n) % n, b);
        /* the last round: exactly the m = n - top members not yet held.
         * Every member decides the same way (ok is local, so all must
         * take one path: a member short of memory still sends, from its
         * current set, which then over-counts, but it never deadlocks) */
        int m = n - top, off = 0;
        for (int bit = 30; bit >= 0; bit--) {
            if (!(m & (1 << bit)))
                continue;
            int dst = (me + top + off) % n, src = (me - top - off + 2 * n) % n;
            if (ok && snap[bit])
                sendrecv_join(c, ps, snap[bit], snap_len[bit], dst, src);
            else                  /* (no snapshot memory: counted) */
                exchange_set(c, ps, dst, src);
            off += 1 << bit;
        }
    }
    /* a wide set: each member chooses its k from it (after the butterfly
     * every member holds the same one) */
    if (ps != &g_st->ps)
        pathset_select_from(&g_st->ps, ps, (rp_select_mode)g_st->cfg.select);
    /* after dissemination the members' sets differ: rank 0's is broadcast */
    if (disseminate && g_st->cfg.select != RP_SELECT_TOPK)   /* not associative */
        coll_bcast_set(c, 0, 1);
    rp_counters[RP_CNT_COLL_JOINS]++;
}

void coll_allreduce_paths(rp_comm *c, int phase_end)
{
    coll_allreduce_paths_from(c, phase_end, 1, NULL, 0, NULL, 0);
}

int coll_all_equal(rp_comm *c, uint64_t v)
{
    /* the largest v and the largest -v (the smallest), in one call */
    long long mine[2] = { (long long)v, -(long long)v }, all[2];
    if (!c || PMPI_Allreduce(mine, all, 2, MPI_LONG_LONG, MPI_MAX, c->coll) != MPI_SUCCESS)
        return 1;
    return all[0] == -all[1];
}


int coll_allgather_bytes(rp_comm *c, const uint8_t *mine, size_t len, uint8_t **all,
                         size_t *all_len)
{
    *all = NULL;
    *all_len = 0;
    if (!c || c->size <= 0)
        return -1;
    uint32_t n = (uint32_t)c->size;
    long long my = (long long)len;
    long long *lens = malloc(n * sizeof *lens);
    int *cnt = malloc(n * sizeof *cnt), *disp = malloc(n * sizeof *disp);
    /* Whether every member has room for the lengths, every length, then
     * whether every member has room for the whole: all members take the
     * same road (no one left waiting in a call the others skipped). */
    int ok = lens && cnt && disp, all_ok = 0;
    if (PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->coll) != MPI_SUCCESS || !all_ok ||
        PMPI_Allgather(&my, 1, MPI_LONG_LONG, lens, 1, MPI_LONG_LONG, c->coll) != MPI_SUCCESS) {
        free(lens);
        free(cnt);
        free(disp);
        return -1;
    }
    unsigned long long total = 0;
    for (uint32_t r = 0; ok && r < n; r++) {
        if (lens[r] < 0 || lens[r] > INT_MAX || total + (unsigned long long)lens[r] > INT_MAX) {
            ok = 0;
            break;
        }
        cnt[r] = (int)lens[r];
        disp[r] = (int)total;
        total += (unsigned long long)lens[r];
    }
    uint8_t *buf = ok ? malloc(total ? total : 1) : NULL;
    int mine_ok = buf != NULL;
    all_ok = 0;
    if (PMPI_Allreduce(&mine_ok, &all_ok, 1, MPI_INT, MPI_MIN, c->coll) != MPI_SUCCESS)
        all_ok = 0;
    if (all_ok && PMPI_Allgatherv(mine, (int)len, MPI_BYTE, buf, cnt, disp, MPI_BYTE,
                                  c->coll) != MPI_SUCCESS)
        all_ok = 0;
    free(lens);
    free(cnt);
    free(disp);
    if (!all_ok) {
        free(buf);
        return -1;
    }
    *all = buf;
    *all_len = (size_t)total;
    return 0;
}
