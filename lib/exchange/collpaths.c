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


/* Broadcast root's set ps over c->coll; members replace theirs or join. */
static void bcast_one(rp_comm *c, rp_pathset *ps, int root, int replace)
{
    uint8_t *buf = proto_sendbuf();
    uint32_t cap = g_st->max_wire;
    uint32_t chunk = cap < BCAST_CHUNK ? cap : BCAST_CHUNK;
    if (c->rank == root)
        pathset_encode(ps, buf, cap);
    PMPI_Bcast(buf, (int)chunk, MPI_BYTE, root, c->coll);
    uint32_t len = pathset_wire_len(buf);
    if (len > cap) {             /* corrupt: everyone saw the same header */
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return;
    }
    if (len > chunk)
        PMPI_Bcast(buf + chunk, (int)(len - chunk), MPI_BYTE, root, c->coll);
    if (c->rank != root)
        proto_join_into(ps, buf, (int)len, replace);
}

void coll_bcast_set(rp_comm *c, int root, int replace)
{
    bcast_one(c, &g_st->ps, root, replace);
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

/* ---- the all-to-all exchange, of one set or of several -------------------
 * A vector of sets travels as one message a round: the phase-end exchange
 * of several phases at once (RP_PHASE_BATCH, lib/runtime/phasebatch.c).
 * Each set is joined with its own counterpart only, by the same rounds and
 * in the same order as alone, so a batch ends with exactly the sets the
 * phases would have had one by one.  One set travels as its plain
 * encoding; several as their encodings one after the other, each padded
 * to 8 bytes (a join reads 4-byte aligned buffers). */
typedef struct setvec {
    rp_pathset *const *ps;
    uint32_t n;
    /* a batch's message starts with 8 bytes that every join raises to the
     * larger of its two values: after the rounds every member holds the
     * largest of all members' (NULL: no such field) */
    int64_t *max;
} setvec;

static uint8_t *vec_sbuf, *vec_rbuf;   /* n > 1: n slots each */
static size_t vec_cap;

static size_t slot_bytes(void) { return ((size_t)g_st->coll_wire + 7u) & ~(size_t)7u; }

/* Buffers for n sets; 0, or -1 without memory. */
static int vec_buffers(uint32_t n)
{
    size_t need = (size_t)n * slot_bytes() + 8u;
    if (need <= vec_cap)
        return 0;
    uint8_t *s = malloc(need), *r = malloc(need);
    if (!s || !r) {
        free(s);
        free(r);
        rp_counters[RP_CNT_ALLOC_FAILURES]++;
        return -1;
    }
    free(vec_sbuf);
    free(vec_rbuf);
    vec_sbuf = s;
    vec_rbuf = r;
    vec_cap = need;
    return 0;
}

static int vec_plain(const setvec *v) { return v->n == 1 && !v->max; }
static uint8_t *vec_send(const setvec *v) { return vec_plain(v) ? proto_sendbuf() : vec_sbuf; }
static uint8_t *vec_recv(const setvec *v) { return vec_plain(v) ? proto_recvbuf() : vec_rbuf; }
static size_t vec_room(const setvec *v)
{
    return vec_plain(v) ? g_st->coll_wire : v->n * slot_bytes() + 8u;
}

static size_t vec_encode(const setvec *v, uint8_t *buf)
{
    if (vec_plain(v))
        return pathset_encode(v->ps[0], buf, g_st->coll_wire);
    size_t off = 0;
    if (v->max) {
        memcpy(buf, v->max, 8);
        off = 8;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        size_t len = pathset_encode(v->ps[i], buf + off, g_st->coll_wire);
        size_t pad = (len + 7u) & ~(size_t)7u;
        memset(buf + off + len, 0, pad - len);
        off += pad;
    }
    return off;
}

/* Join (or replace with) the sets of len bytes at buf, one per member of v. */
static void vec_join(const setvec *v, const uint8_t *buf, size_t len, int replace)
{
    if (vec_plain(v)) {
        proto_join_into(v->ps[0], buf, (int)len, replace);
        return;
    }
    size_t off = 0;
    if (v->max) {
        int64_t m;
        if (len < 8) {
            rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
            return;
        }
        memcpy(&m, buf, 8);
        if (m > *v->max)
            *v->max = m;
        off = 8;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        uint32_t l = off + 8u <= len ? pathset_wire_len(buf + off) : 0;
        if (l == 0 || l > len - off) {   /* short or corrupt: the rest is lost */
            rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
            return;
        }
        proto_join_into(v->ps[i], buf + off, (int)l, replace);
        off += ((size_t)l + 7u) & ~(size_t)7u;
    }
}

/* Send slen bytes of sbuf to dst and join the sets that come from src
 * (MPI_PROC_NULL: none) into v. */
static void sendrecv_join(rp_comm *c, const setvec *v, const uint8_t *sbuf, size_t slen, int dst,
                          int src)
{
    uint8_t *rbuf = vec_recv(v);
    MPI_Status st;
    int len = 0;
    PMPI_Sendrecv(sbuf, (int)slen, MPI_BYTE, dst, RP_TAG_COLL, rbuf, (int)vec_room(v),
                  MPI_BYTE, src, RP_TAG_COLL, c->coll, &st);
    if (src == MPI_PROC_NULL)
        return;
    PMPI_Get_count(&st, MPI_BYTE, &len);
    vec_join(v, rbuf, (size_t)(len > 0 ? len : 0), 0);
}

/* One round: send v, join what src sends into it. */
static void exchange_vec(rp_comm *c, const setvec *v, int dst, int src)
{
    uint8_t *sbuf = vec_send(v);
    sendrecv_join(c, v, sbuf, vec_encode(v, sbuf), dst, src);
}

void coll_exchange(rp_comm *c, int dst, int src)
{
    rp_pathset *one = &g_st->ps;
    setvec v = { &one, 1, NULL };
    exchange_vec(c, &v, dst, src);
}

/* The sets this member sent in the dissemination rounds (snap[b]: round
 * 2^b, its window of 2^b members), for the exact last round. */
static uint8_t *snap[32];
static uint32_t snap_len[32], snap_cap[32];

/* Keep len bytes of buf as snapshot b; 0, or -1 without memory. */
static int keep_snap(int b, const uint8_t *buf, uint32_t len)
{
    if (len > snap_cap[b]) {
        uint32_t cap = len > g_st->coll_wire ? len : g_st->coll_wire;
        uint8_t *p = realloc(snap[b], cap);
        if (!p) {
            rp_counters[RP_CNT_ALLOC_FAILURES]++;
            return -1;
        }
        snap[b] = p;
        snap_cap[b] = cap;
    }
    memcpy(snap[b], buf, len);
    snap_len[b] = len;
    return 0;
}

/* One dissemination round that also keeps what it sends as snapshot b. */
static int exchange_snap(rp_comm *c, const setvec *v, int dst, int src, int b)
{
    uint8_t *sbuf = vec_send(v);
    size_t slen = vec_encode(v, sbuf);
    int ok = keep_snap(b, sbuf, (uint32_t)slen) == 0;
    sendrecv_join(c, v, sbuf, slen, dst, src);
    return ok;
}

/* Broadcast rank 0's final sets over c->coll; members replace theirs. */
static void bcast_vec(rp_comm *c, const setvec *v)
{
    if (v->n == 1) {
        bcast_one(c, v->ps[0], 0, 1);
        return;
    }
    /* 8 bytes of length, then the sets; a first chunk, and the rest only
     * when the length says so */
    uint8_t *buf = vec_sbuf;
    uint64_t total = 0;
    size_t room = vec_cap - 8u, chunk = vec_cap < 1024u ? vec_cap : 1024u;
    if (c->rank == 0)
        total = vec_encode(v, buf + 8);
    memcpy(buf, &total, 8);
    PMPI_Bcast(buf, (int)chunk, MPI_BYTE, 0, c->coll);
    memcpy(&total, buf, 8);
    if (total > room) {          /* corrupt: everyone saw the same header */
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return;
    }
    if (8u + total > chunk)
        PMPI_Bcast(buf + chunk, (int)(8u + total - chunk), MPI_BYTE, 0, c->coll);
    if (c->rank != 0)
        vec_join(v, buf + 8, (size_t)total, 1);
}

int coll_phase_wide(const rp_comm *c)
{
    return g_st->cfg.phase_k > g_st->cfg.k && c->size > 2;
}

/* Rounds from_d, 2 from_d, ... over the sets of work, then each final set
 * out[i] chosen from work[i] (the same set when not wide) and, after
 * dissemination, rank 0's broadcast. */
static void allreduce_vec(rp_comm *c, const setvec *work, const setvec *out, int from_d,
                          const uint8_t *first, uint32_t first_len, const uint8_t *got, int got_len)
{
    int n = c->size, me = c->rank;
    if (got)   /* the overlapped first round's set */
        vec_join(work, got, (size_t)(got_len > 0 ? got_len : 0), 0);
    int disseminate = (n & (n - 1)) != 0;
    if (!disseminate) {
        /* Power of two: butterfly.  Partners join the same two sets, and a
         * join is a deterministic function of the union, so after each
         * round partners are identical, and after the last all members
         * are: no broadcast needed. */
        for (int d = from_d; d < n; d <<= 1)
            exchange_vec(c, work, me ^ d, me ^ d);
    } else {
        int top = 1, b = 0, ok = 1;
        while (top * 2 < n)
            top *= 2;          /* the last round's distance: n = top + m */
        if (from_d > 1)        /* round 1 ran overlapped: what it sent */
            ok = first && keep_snap(0, first, first_len) == 0;
        for (int d = 1; d < top; d <<= 1, b++)
            if (d >= from_d)
                ok &= exchange_snap(c, work, (me + d) % n, (me - d + n) % n, b);
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
                sendrecv_join(c, work, snap[bit], snap_len[bit], dst, src);
            else                  /* (no snapshot memory: counted) */
                exchange_vec(c, work, dst, src);
            off += 1 << bit;
        }
    }
    /* a wide set: each member chooses its k from it (after the butterfly
     * every member holds the same one) */
    for (uint32_t i = 0; i < work->n; i++)
        if (work->ps[i] != out->ps[i])
            pathset_select_from(out->ps[i], work->ps[i], (rp_select_mode)g_st->cfg.select);
    /* after dissemination the members' sets differ: rank 0's is broadcast */
    if (disseminate && g_st->cfg.select != RP_SELECT_TOPK)   /* not associative */
        bcast_vec(c, out);
    rp_counters[RP_CNT_COLL_JOINS] += work->n;
}

void coll_allreduce_paths_from(rp_comm *c, int phase_end, int from_d, const uint8_t *first,
                               uint32_t first_len, const uint8_t *got, int got_len)
{
    /* the set the rounds work on: the rank's, or a wide copy of it */
    rp_pathset *ps = &g_st->ps, *fin = &g_st->ps;
    if (phase_end && g_wide.k_cap && coll_phase_wide(c)) {
        pathset_copy(&g_wide, ps);
        ps = &g_wide;
        rp_counters[RP_CNT_PHASE_WIDE]++;
    }
    setvec work = { &ps, 1, NULL }, out = { &fin, 1, NULL };
    allreduce_vec(c, &work, &out, from_d, first, first_len, got, got_len);
}

void coll_allreduce_paths(rp_comm *c, int phase_end)
{
    coll_allreduce_paths_from(c, phase_end, 1, NULL, 0, NULL, 0);
}

int coll_batch_init(uint32_t nmax)
{
    return nmax <= 1 ? 0 : vec_buffers(nmax);
}

void coll_allreduce_batch(rp_comm *c, rp_pathset *const *work, rp_pathset *const *out, uint32_t n,
                          int64_t *max)
{
    if (n == 0)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (work[i] != out[i])
            rp_counters[RP_CNT_PHASE_WIDE]++;
    setvec w = { work, n, max }, o = { out, n, NULL };
    allreduce_vec(c, &w, &o, 1, NULL, 0, NULL, 0);
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
