/* mailbox.c - the shared-memory mailbox for path-sets between ranks of one
 * node (mailbox.h; doc/design.md, "The mailbox").
 *
 * The paper sends every path-set as a second MPI message (Fig. 3).  Between
 * ranks that share memory that message is most of what a profiled message
 * costs (doc/performance.md): an MPI_Isend, a matching receive, request
 * bookkeeping.  A store into a ring the receiver reads costs a few cache
 * lines.
 *
 * Layout: rank r's part of the window holds one ring per sender s of its
 * group (stride RING_HDR + cap bytes).  Ring header: the receiver's `head`
 * and `side_consumed`, each on a cache line of its own, which the sender
 * reads only when they could change what it does (space short, side
 * messages outstanding).  Offsets only grow (64-bit, from cap), the
 * position in the data area is offset modulo cap.  An entry is a 32-byte
 * header and the set, padded to 32 bytes; an entry never wraps (a filler
 * entry takes the rest of the area).  An entry is published by storing its
 * own offset in its header (release) before the payload is sent, and MPI's
 * delivery of the payload orders that store before the receiver's read.
 * The receiver takes the oldest entry by moving head past it, without
 * writing to it; one taken out of order is marked consumed in place (the
 * sender never reads entries) and passed over when head reaches it.  Per
 * message that is the entry's lines and nothing else crossing cores.
 *
 * The arena (RP_MAILBOX_REFS): after each ring's data, as many bytes again
 * of path summaries the sender names instead of carrying (wire.h).  A
 * summary changes only when a sample lands on its path (prof mode), while
 * messages pass it back and forth thousands of times: the sender writes a
 * record of it once per pair, every entry that names it bumps the record's
 * last reference, and the receiver reads it only if it does not hold that
 * summary already.  Records are written in arena order and reused oldest
 * first, once the ring's head has passed their last reference (the
 * receiver takes a set's records before it consumes the entry); a record
 * that cannot be placed travels in the set. */
#include "exchange/mailbox.h"

#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#define RING_HDR   192u
#define ENT_HDR    32u
/* Automatic size: 32 MiB of rings per node (n^2 rings), 4 to 64 KiB each;
 * the window is backed by the node's shared-memory file system, which in
 * containers is often 64 MiB, and touching a page it cannot hold kills the
 * process (SIGBUS): so the set-up also checks /dev/shm's free space. */
#define AUTO_NODE  (32u << 20)
#define AUTO_MIN   (4u << 10)
#define AUTO_MAX   (64u << 10)

enum { ENT_LIVE = 0, ENT_CONSUMED = 1, ENT_FILLER = 2 };

typedef struct ring_hdr {
    uint8_t  pad0[64];               /* spare: the sender's tail is its own */
    uint64_t head;                   /* receiver: bytes it no longer needs */
    uint8_t  pad1[56];
    uint64_t side_consumed;          /* receiver: side messages consumed */
    uint8_t  pad2[56];
} ring_hdr;

/* An entry is published when its `seq` holds its own offset (stored last,
 * with release): offsets never repeat, so what an earlier lap left there
 * never passes for it, and the receiver need not read the sender's tail
 * (one cache line fewer a message). */
typedef struct ent_hdr {
    uint64_t seq;     /* the entry's offset once published */
    uint32_t len;     /* set bytes (filler: bytes to the end of the area) */
    uint32_t state;   /* ENT_* */
    uint64_t key;     /* the communicator's key (comm.h, mbkey) */
    int32_t  tag;
    uint32_t pad;
} ent_hdr;

_Static_assert(sizeof(ring_hdr) == RING_HDR, "ring header is three cache lines");
_Static_assert(sizeof(ent_hdr) == ENT_HDR, "entry header is 32 bytes");

/* An arena record (8-aligned): its name, then the summary's fields as
 * rp_path holds them, then n_iv intervals. */
typedef struct rec_hdr {
    uint64_t sid;
    uint16_t n_iv, flags;
    uint32_t n_evicted, sampled_us, dropped_us;
} rec_hdr;
_Static_assert(sizeof(rec_hdr) == 24, "arena record header is 24 bytes");

/* What a sender knows of one pair's arena: its records oldest first (pos:
 * arena offset, growing like ring offsets; last_ref: ring offset of the
 * newest entry naming it), and where the next one goes. */
#define AREC_N 64u   /* records remembered per pair (power of two) */
typedef struct arec {
    uint64_t sid, pos, last_ref;
    uint32_t len;
} arec;
typedef struct arena_tx {
    arec     q[AREC_N];
    uint32_t first, n;
    uint64_t tail;
} arena_tx;

/* All owned by this file; main thread only. */
static int       g_on;
static uint32_t  g_acap;        /* arena bytes per pair, 0: no arena */
static arena_tx *s_arena;       /* sender side, per receiver */
static MPI_Comm  g_group = MPI_COMM_NULL;
static MPI_Win   g_win = MPI_WIN_NULL;
static uint32_t  g_n, g_me, g_cap, g_nworld;
static int32_t  *g_peer;        /* world rank -> index in the group, or -1 */
static uint8_t **g_seg;         /* each member's part of the window */
/* sender side, per receiver: next offset, side messages sent, the entry
 * being filled, and the receiver's head and side count as last read (read
 * again only when they could have changed what the sender does) */
static uint64_t *s_tail, *s_side_sent, *s_pending, *s_head_seen, *s_side_seen;
/* receiver side, per sender: head, and entries consumed out of order
 * (marked in place; head moves past them once it reaches them) */
static uint64_t *r_head;
static uint32_t *r_ooo;

static inline ring_hdr *ring_of(uint32_t receiver, uint32_t sender)
{
    return (ring_hdr *)(g_seg[receiver] + (size_t)sender * (RING_HDR + g_cap + g_acap));
}
static inline uint8_t *data_of(ring_hdr *r) { return (uint8_t *)r + RING_HDR; }
static inline uint8_t *arena_of(ring_hdr *r) { return (uint8_t *)r + RING_HDR + g_cap; }
static inline uint32_t round32(uint32_t n) { return (n + 31u) & ~31u; }

int mbox_on(void) { return g_on; }

int mbox_peer(uint32_t w)
{
    return (g_on && w < g_nworld) ? g_peer[w] : -1;
}

static uint32_t pow2_floor(uint32_t v)
{
    uint32_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

/* Has the node's shared-memory file system (if it has one where Linux
 * puts it) room for `bytes`?  Without /dev/shm MPI decides alone. */
static int shm_room(uint64_t bytes)
{
    struct statvfs v;
    if (statvfs("/dev/shm", &v) != 0)
        return 1;
    return (uint64_t)v.f_bavail * v.f_frsize >= bytes;
}

/* Undo a partial set-up on this rank (the window, if made, is left to
 * MPI_Finalize: freeing it is collective, and a member may have failed). */
static void release_local(void)
{
    free(g_peer);
    free(g_seg);
    free(s_tail);
    free(s_side_sent);
    free(s_pending);
    free(r_head);
    free(s_head_seen);
    free(s_side_seen);
    free(r_ooo);
    free(s_arena);
    s_arena = NULL;
    g_peer = NULL;
    g_seg = NULL;
    r_ooo = NULL;
    s_tail = s_side_sent = s_pending = r_head = s_head_seen = s_side_seen = NULL;
}

/* The group's window; 0 on success. */
static int make_window(void)
{
    size_t stride = RING_HDR + g_cap + g_acap, mine = (size_t)g_n * stride;
    MPI_Info info;
    uint8_t *base = NULL;
    PMPI_Info_create(&info);
    /* each member's rings in its own pages (NUMA-local to the receiver) */
    PMPI_Info_set(info, "alloc_shared_noncontig", "true");
    int rc = PMPI_Win_allocate_shared((MPI_Aint)mine, 1, info, g_group, &base, &g_win);
    PMPI_Info_free(&info);
    if (rc != MPI_SUCCESS) {
        g_win = MPI_WIN_NULL;
        return -1;
    }
    /* Offsets start at cap, so the zeroed memory (seq 0) is no entry. */
    memset(base, 0, mine);
    for (uint32_t s = 0; s < g_n; s++)
        ((ring_hdr *)(base + (size_t)s * stride))->head = g_cap;
    for (uint32_t i = 0; i < g_n; i++) {
        MPI_Aint sz = 0;
        int du = 0;
        void *p = NULL;
        if (PMPI_Win_shared_query(g_win, (int)i, &sz, &du, &p) != MPI_SUCCESS || !p ||
            (size_t)sz < mine)
            return -1;
        g_seg[i] = p;
    }
    return 0;
}

int mbox_init(const rp_mbox_opts *o, MPI_Comm world, uint32_t world_rank, uint32_t nranks)
{
    /* Everyone must take the same road: collectives follow. */
    int want = o->enable != 0, all = 0;
    if (PMPI_Allreduce(&want, &all, 1, MPI_INT, MPI_MIN, world) != MPI_SUCCESS || !all)
        return 0;
    int ok = 1, n = 1, me = 0;
    MPI_Comm node = MPI_COMM_NULL;
    if (PMPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, (int)world_rank, MPI_INFO_NULL,
                             &node) != MPI_SUCCESS)
        node = MPI_COMM_NULL;
    if (node != MPI_COMM_NULL && o->node_split) {
        /* tests: pretend the node is several, of node_split ranks each */
        int lr = 0;
        PMPI_Comm_rank(node, &lr);
        MPI_Comm sub = MPI_COMM_NULL;
        if (PMPI_Comm_split(node, lr / (int)o->node_split, lr, &sub) != MPI_SUCCESS)
            sub = MPI_COMM_NULL;
        PMPI_Comm_free(&node);
        node = sub;
    }
    if (node == MPI_COMM_NULL) {
        ok = 0;
    } else {
        g_group = node;
        PMPI_Comm_size(node, &n);
        PMPI_Comm_rank(node, &me);
        g_n = (uint32_t)n;
        g_me = (uint32_t)me;
        g_nworld = nranks;
        uint32_t cap = o->ring_bytes;
        if (!cap) {
            uint64_t c = AUTO_NODE / ((uint64_t)g_n * g_n);
            cap = c < AUTO_MIN ? AUTO_MIN : c > AUTO_MAX ? AUTO_MAX : (uint32_t)c;
        }
        g_cap = pow2_floor(cap < 1024 ? 1024 : cap);
        g_acap = o->arena ? g_cap : 0;
        /* every member's rings, twice over: room for MPI's own segments */
        int room = shm_room(2 * (uint64_t)g_n * g_n * (RING_HDR + g_cap + g_acap));
        g_peer = malloc((size_t)nranks * sizeof *g_peer);
        g_seg = calloc(g_n, sizeof *g_seg);
        s_tail = calloc(g_n, sizeof *s_tail);
        s_side_sent = calloc(g_n, sizeof *s_side_sent);
        s_pending = calloc(g_n, sizeof *s_pending);
        r_head = calloc(g_n, sizeof *r_head);
        s_head_seen = calloc(g_n, sizeof *s_head_seen);
        s_side_seen = calloc(g_n, sizeof *s_side_seen);
        r_ooo = calloc(g_n, sizeof *r_ooo);
        s_arena = g_acap ? calloc(g_n, sizeof *s_arena) : NULL;
        int *members = malloc((size_t)g_n * sizeof *members);
        int wr = (int)world_rank;
        ok = room && g_peer && g_seg && s_tail && s_side_sent && s_pending && r_head &&
             s_head_seen && s_side_seen && r_ooo && members && (s_arena || !g_acap);
        /* collectives on the group run whatever ok is: members agree later */
        if (PMPI_Allgather(&wr, 1, MPI_INT, members ? members : &wr, members ? 1 : 0, MPI_INT,
                           node) != MPI_SUCCESS)
            ok = 0;
        if (ok) {
            for (uint32_t w = 0; w < nranks; w++)
                g_peer[w] = -1;
            for (uint32_t i = 0; i < g_n; i++)
                if (members[i] >= 0 && (uint32_t)members[i] < nranks)
                    g_peer[members[i]] = (int32_t)i;
        }
        free(members);
        int wok = ok, gok = 0;
        PMPI_Allreduce(&wok, &gok, 1, MPI_INT, MPI_MIN, node);
        if (!gok || make_window() != 0)
            ok = 0;
        for (uint32_t i = 0; ok && i < g_n; i++) {
            s_tail[i] = r_head[i] = s_head_seen[i] = g_cap;
            if (s_arena)
                s_arena[i].tail = g_acap;
        }
        PMPI_Barrier(node);   /* every ring zeroed before anyone writes */
    }
    int allok = 0;
    PMPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, world);
    if (!allok) {
        release_local();
        g_on = 0;
        return 0;
    }
    g_on = 1;
    return 1;
}

uint8_t *mbox_reserve(int dst, uint32_t max_len)
{
    ring_hdr *r = ring_of((uint32_t)dst, g_me);
    /* A pair that sent side messages stays on them until the receiver has
     * consumed them all (mailbox.h: the order per key stays ring, then side). */
    if (s_side_sent[dst] != s_side_seen[dst]) {
        s_side_seen[dst] = __atomic_load_n(&r->side_consumed, __ATOMIC_ACQUIRE);
        if (s_side_sent[dst] != s_side_seen[dst])
            return NULL;
    }
    uint32_t need = ENT_HDR + round32(max_len);
    if (need > g_cap / 2)
        return NULL;
    uint64_t tail = s_tail[dst];
    uint32_t off = (uint32_t)(tail & (g_cap - 1));
    uint32_t fill = off + need > g_cap ? g_cap - off : 0;
    /* room for the entry and the next one's header (mbox_commit clears it) */
    if (tail + fill + need + ENT_HDR - s_head_seen[dst] > g_cap) {
        s_head_seen[dst] = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
        if (tail + fill + need + ENT_HDR - s_head_seen[dst] > g_cap)
            return NULL;
    }
    if (fill) {   /* the rest of the area is a filler; the entry starts at 0 */
        ent_hdr *f = (ent_hdr *)(data_of(r) + off);
        f->len = fill;
        f->state = ENT_FILLER;
        __atomic_store_n(&f->seq, tail, __ATOMIC_RELEASE);
        tail += fill;
        off = 0;
    }
    s_pending[dst] = tail;
    return data_of(r) + off + ENT_HDR;
}

void mbox_commit(int dst, uint64_t key, int32_t tag, uint32_t len)
{
    ring_hdr *r = ring_of((uint32_t)dst, g_me);
    uint64_t tail = s_pending[dst];
    ent_hdr *e = (ent_hdr *)(data_of(r) + (tail & (g_cap - 1)));
    e->len = len;
    e->state = ENT_LIVE;
    e->tag = tag;
    e->key = key;
    uint64_t next = tail + ENT_HDR + round32(len);
    /* the next header's place gets a seq no offset has, first: what an
     * earlier lap left there may hold anything, even this offset */
    ((ent_hdr *)(data_of(r) + (next & (g_cap - 1))))->seq = 0;
    __atomic_store_n(&e->seq, tail, __ATOMIC_RELEASE);
    s_tail[dst] = next;
}

int mbox_arena_on(void) { return g_on && g_acap != 0; }

int mbox_place(int dst, const rp_path *p, uint32_t *ref, int *wrote)
{
    arena_tx *a = &s_arena[dst];
    uint64_t entry = s_pending[dst];
    *wrote = 0;
    /* newest first: a set names mostly what the last sets named */
    for (uint32_t i = a->n; i-- > 0;) {
        arec *x = &a->q[(a->first + i) & (AREC_N - 1)];
        if (x->sid == p->sid) {
            x->last_ref = entry;
            *ref = (uint32_t)(x->pos & (g_acap - 1));
            return 0;
        }
    }
    uint32_t len = (uint32_t)sizeof(rec_hdr) + 8u * p->n_iv;
    if (len > g_acap / 4)
        return -1;
    uint64_t pos = a->tail;
    uint32_t off = (uint32_t)(pos & (g_acap - 1));
    if (off + len > g_acap)   /* a record never wraps: the rest stays unused */
        pos += g_acap - off;
    /* the records it would overwrite, and the oldest if the table is full,
     * must be past the receiver's head */
    ring_hdr *r = ring_of((uint32_t)dst, g_me);
    while (a->n && (a->q[a->first].pos + g_acap < pos + len || a->n == AREC_N)) {
        const arec *o = &a->q[a->first];
        if (o->last_ref >= s_head_seen[dst]) {
            s_head_seen[dst] = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
            if (o->last_ref >= s_head_seen[dst])
                return -1;
        }
        a->first = (a->first + 1) & (AREC_N - 1);
        a->n--;
    }
    uint8_t *d = arena_of(r) + (pos & (g_acap - 1));
    rec_hdr h = { p->sid, p->n_iv, p->flags, p->n_evicted, p->sampled_us, p->dropped_us };
    memcpy(d, &h, sizeof h);
    memcpy(d + sizeof h, p->iv, 8u * p->n_iv);
    arec *x = &a->q[(a->first + a->n++) & (AREC_N - 1)];
    x->sid = p->sid;
    x->pos = pos;
    x->last_ref = entry;
    x->len = len;
    a->tail = pos + len;
    *ref = (uint32_t)(pos & (g_acap - 1));
    *wrote = 1;
    return 0;
}

int mbox_record(int src, uint64_t sid, uint32_t ref, rp_path *hdr, uint32_t iv_cap)
{
    rec_hdr h;
    if (!g_acap || (ref & 7u) || ref > g_acap - sizeof h)
        return -1;
    const uint8_t *d = arena_of(ring_of(g_me, (uint32_t)src)) + ref;
    memcpy(&h, d, sizeof h);
    if (h.sid != sid || h.n_iv > iv_cap || ref + sizeof h + 8u * h.n_iv > g_acap)
        return -1;
    /* read in place: the record stays until the entry naming it is consumed */
    const rp_interval *iv = (const rp_interval *)(const void *)(d + sizeof h);
    for (uint32_t i = 0; i < h.n_iv; i++)
        if (!rp_iv_ok(&iv[i], i))
            return -1;
    hdr->n_iv = h.n_iv;
    hdr->flags = h.flags;
    hdr->n_evicted = h.n_evicted;
    hdr->sampled_us = h.sampled_us;
    hdr->dropped_us = h.dropped_us;
    hdr->iv = (rp_interval *)(uintptr_t)iv;
    return 0;
}

void mbox_side_sent(int dst)
{
    s_side_sent[dst]++;
}

/* Bytes the entry takes. */
static inline uint32_t ent_span(const ent_hdr *e)
{
    return e->state == ENT_FILLER ? e->len : ENT_HDR + round32(e->len);
}

/* The entry at offset p of ring r, or NULL if none is published there. */
static inline ent_hdr *ent_at(ring_hdr *r, uint64_t p)
{
    ent_hdr *e = (ent_hdr *)(data_of(r) + (p & (g_cap - 1)));
    return __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) == p ? e : NULL;
}

const uint8_t *mbox_find(int src, uint64_t key, int32_t tag, uint32_t *len)
{
    ring_hdr *r = ring_of(g_me, (uint32_t)src);
    ent_hdr *e;
    for (uint64_t p = r_head[src]; (e = ent_at(r, p)) != NULL; p += ent_span(e)) {
        if (e->state == ENT_LIVE && e->key == key && e->tag == tag) {
            *len = e->len;
            return (const uint8_t *)e + ENT_HDR;
        }
    }
    return NULL;
}

void mbox_consume(int src, const uint8_t *entry)
{
    ring_hdr *r = ring_of(g_me, (uint32_t)src);
    ent_hdr *c = (ent_hdr *)(uintptr_t)(entry - ENT_HDR);
    uint64_t p = r_head[src];
    ent_hdr *e = ent_at(r, p);
    while (e && e->state == ENT_FILLER) {
        p += e->len;
        e = ent_at(r, p);
    }
    if (e != c) {          /* out of order: marked, passed over later */
        c->state = ENT_CONSUMED;
        r_ooo[src]++;
        return;
    }
    /* the oldest: no write to the entry, head moves past it (and past the
     * ones consumed out of order behind it) */
    p += ent_span(e);
    while (r_ooo[src] && (e = ent_at(r, p)) != NULL && e->state != ENT_LIVE) {
        if (e->state == ENT_CONSUMED)
            r_ooo[src]--;
        p += ent_span(e);
    }
    r_head[src] = p;
    __atomic_store_n(&r->head, p, __ATOMIC_RELEASE);
}

void mbox_side_consumed(int src)
{
    ring_hdr *r = ring_of(g_me, (uint32_t)src);
    __atomic_store_n(&r->side_consumed, r->side_consumed + 1, __ATOMIC_RELEASE);
}

uint64_t mbox_finalize(void)
{
    if (!g_on)
        return 0;
    uint64_t left = 0;
    for (uint32_t s = 0; s < g_n; s++) {
        ring_hdr *r = ring_of(g_me, s);
        ent_hdr *e;
        for (uint64_t p = r_head[s]; (e = ent_at(r, p)) != NULL; p += ent_span(e))
            left += e->state == ENT_LIVE;
    }
    g_on = 0;
    PMPI_Win_free(&g_win);
    PMPI_Comm_free(&g_group);
    release_local();
    return left;
}
