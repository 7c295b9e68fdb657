/* proto.c - sending and receiving path-sets (doc/design.md, "Protocol").
 *
 * Send pool: a ring of slots in send order.  Completions are roughly FIFO,
 * so reaping tests the oldest slots until one is still in flight; when the
 * ring is full it grows (counted) rather than waiting, because waiting for a
 * path-set could block a non-blocking call.  Only at a hard cap do we wait. */
#include "exchange/proto.h"

#include <stdlib.h>
#include <string.h>
#include "core/clock.h"
#include "core/counters.h"
#include "core/pathset.h"
#include "core/wire.h"
#include "exchange/mailbox.h"

#define POOL_INIT 64u
#define POOL_MAX  65536u

typedef struct send_slot {
    MPI_Request req;
    uint8_t    *buf;
} send_slot;

/* All owned by this file; main thread only. */
static send_slot  *ring;
static uint32_t    ring_cap, ring_head, ring_n;  /* oldest at head */
static uint32_t    wire_cap;
static uint8_t    *recv_scratch, *send_scratch;
static rp_pathset  in_ps;       /* decoded incoming set (replace, unaligned bytes) */
static rp_prepost *pp_free, *pp_orphans;
static rp_state   *g_st;        /* proto_init: the path-set, settings, flags */
static uint64_t    g_next_sid;  /* the next summary name (pathset_name): rank + 1 above bit 40 */
static const rp_msg_observer *g_obs;   /* NULL: no mode watches messages (prof) */

int proto_init(rp_state *st, uint32_t max_wire, const rp_msg_observer *obs)
{
    g_st = st;
    g_obs = obs;
    wire_cap = max_wire + (obs ? obs->prefix_bytes : 0);
    g_next_sid = ((uint64_t)st->rank + 1) << 40 | 1;
    ring_cap = POOL_INIT;
    ring = calloc(ring_cap, sizeof *ring);
    uint32_t scratch = wire_cap > st->coll_wire ? wire_cap : st->coll_wire;
    recv_scratch = malloc(scratch);
    send_scratch = malloc(scratch);
    if (!ring || !recv_scratch || !send_scratch)
        return -1;
    for (uint32_t i = 0; i < ring_cap; i++) {
        ring[i].req = MPI_REQUEST_NULL;
        if (!(ring[i].buf = malloc(wire_cap)))
            return -1;
    }
    return pathset_init(&in_ps, g_st->cfg.k, g_st->cfg.summary);
}

uint8_t *proto_sendbuf(void) { return send_scratch; }
uint8_t *proto_recvbuf(void) { return recv_scratch; }

/* Release completed sends from the oldest end. */
static void reap(void)
{
    while (ring_n) {
        send_slot *s = &ring[ring_head];
        int done = 0;
        PMPI_Test(&s->req, &done, MPI_STATUS_IGNORE);
        if (!done)
            return;
        ring_head = (ring_head + 1) & (ring_cap - 1);
        ring_n--;
    }
}

static int grow(void)
{
    if (ring_cap >= POOL_MAX)
        return -1;
    uint32_t ncap = ring_cap * 2;
    send_slot *nr = calloc(ncap, sizeof *nr);
    if (!nr)
        return -1;
    for (uint32_t i = 0; i < ring_n; i++)       /* unwrap, oldest first */
        nr[i] = ring[(ring_head + i) & (ring_cap - 1)];
    for (uint32_t i = ring_n; i < ring_cap; i++)  /* idle slots keep their buffers */
        nr[i] = ring[(ring_head + i) & (ring_cap - 1)];
    for (uint32_t i = ring_cap; i < ncap; i++) {
        nr[i].req = MPI_REQUEST_NULL;
        if (!(nr[i].buf = malloc(wire_cap))) {
            for (uint32_t j = ring_cap; j < i; j++)
                free(nr[j].buf);
            free(nr);
            return -1;
        }
    }
    free(ring);
    ring = nr;
    ring_cap = ncap;
    ring_head = 0;
    rp_counters[RP_CNT_POOL_GROW]++;
    return 0;
}

static send_slot *slot_get(void)
{
    if (ring_n * 2 >= ring_cap)
        reap();
    if (ring_n == ring_cap && grow() != 0) {
        /* Hard cap: wait for the oldest.  Path-sets fit the eager limit, so
         * this completes once the receiver next makes progress. */
        send_slot *s = &ring[ring_head];
        PMPI_Wait(&s->req, MPI_STATUS_IGNORE);
        ring_head = (ring_head + 1) & (ring_cap - 1);
        ring_n--;
        rp_counters[RP_CNT_POOL_WAIT]++;
    }
    send_slot *s = &ring[(ring_head + ring_n) & (ring_cap - 1)];
    ring_n++;
    return s;
}

/* Bytes in front of the encoded set on point-to-point messages. */
static uint32_t p2p_prefix(void)
{
    return g_obs ? g_obs->prefix_bytes : 0;
}

/* Isend slot s's first len bytes; on failure the newest slot goes back.
 * p2p: count it as a point-to-point path-set message. */
static int slot_send(send_slot *s, size_t len, MPI_Comm comm, int dest, int tag, int p2p)
{
    if (PMPI_Isend(s->buf, (int)len, MPI_BYTE, dest, tag, comm, &s->req) != MPI_SUCCESS) {
        /* A set can go before its payload (wrappers), so a bad
         * destination or tag may reach us first; the shadows return
         * errors, and the user's own call will report it. */
        s->req = MPI_REQUEST_NULL;
        ring_n--;
        return -1;
    }
    if (p2p) {
        rp_counters[RP_CNT_MSGS_SENT]++;
        rp_counters[RP_CNT_PS_BYTES_SENT] += len;
    }
    return 0;
}

/* Summaries by name to mailbox peer dst (wire.h rp_wire_refs.place). */
static int place_cb(void *ctx, const rp_path *p, uint32_t *ref)
{
    int wrote = 0;
    if (mbox_place(*(const int *)ctx, p, ref, &wrote) != 0)
        return -1;
    rp_counters[RP_CNT_MBOX_REFS]++;
    rp_counters[RP_CNT_MBOX_RECORDS] += (uint64_t)wrote;
    return 0;
}

/* A summary named in a mailbox set from peer src: the receiver's own path
 * of that name if it holds one (nothing crosses cores), else the record in
 * src's arena (wire.h rp_wire_refs.resolve). */
typedef struct resolve_ctx {
    const rp_pathset *mine;
    int src;
} resolve_ctx;

static int resolve_cb(void *ctx, uint64_t sid, uint32_t ref, rp_path *hdr)
{
    const resolve_ctx *rc = ctx;
    int i = pathset_find_sid(rc->mine, sid);
    if (i < 0)
        return mbox_record(rc->src, sid, ref, hdr, rc->mine->iv_cap);
    pathset_summary_of(hdr, &rc->mine->p[i]);
    rp_counters[RP_CNT_MBOX_HELD]++;
    return 0;
}

/* The prefix (trace: who sent it, at which event) and my set into buf;
 * returns the bytes written.  refs: name summaries through it (the
 * mailbox), or NULL. */
static size_t fill_set(uint8_t *buf, const rp_wire_refs *refs)
{
    uint32_t pre = p2p_prefix();
    if (pre) {
        uint32_t me = g_st->rank;
        uint64_t ev = g_obs->event();
        memcpy(buf, &me, 4);
        memcpy(buf + 4, &ev, 8);
    }
    return pre + pathset_encode_refs(&g_st->ps, buf + pre, wire_cap - pre, refs);
}

/* The mailbox peer of rank r of c, or -1: its sets go as side messages
 * (another node, an intercommunicator, the mailbox off). */
static int mbox_of(rp_comm *c, int r)
{
    if (!c->mbkey_ok || !mbox_on())
        return -1;
    return mbox_peer(comm_world_rank(c, r));
}

void proto_branch(rp_comm *c, int dest, int tag, int early)
{
    if (dest == MPI_PROC_NULL || g_st->local_paths)
        return;
    int peer = mbox_of(c, dest);
    if (peer >= 0) {
        /* Only a set stored before its payload is sent may go by the
         * mailbox: the receiver looks for it once the payload is in. */
        uint8_t *b = early ? mbox_reserve(peer, wire_cap) : NULL;
        if (b) {
            /* encoded here, then copied in one stream: the ring's lines
             * are the receiver's, and a piecemeal encode into them stalls
             * on each one (doc/performance.md, "The mailbox") */
            rp_wire_refs refs = { place_cb, NULL, &peer, g_st->cfg.mailbox_refs == 2 };
            const rp_wire_refs *rf = NULL;
            if (mbox_arena_on()) {
                pathset_name(&g_st->ps, &g_next_sid);
                rf = &refs;
            }
            size_t len = fill_set(send_scratch, rf);
            memcpy(b, send_scratch, len);
            mbox_commit(peer, c->mbkey, tag, (uint32_t)len);
            rp_counters[RP_CNT_MSGS_SENT]++;
            rp_counters[RP_CNT_MBOX_SETS]++;
            rp_counters[RP_CNT_PS_BYTES_SENT] += len;
            return;
        }
    }
    send_slot *s = slot_get();
    size_t len = fill_set(s->buf, NULL);
    if (slot_send(s, len, c->p2p, dest, tag, 1) == 0 && peer >= 0) {
        mbox_side_sent(peer);
        rp_counters[RP_CNT_MBOX_SIDE]++;
    }
}

int proto_send_set(MPI_Comm comm, int dest, int tag)
{
    send_slot *s = slot_get();
    size_t len = pathset_encode(&g_st->ps, s->buf, wire_cap);
    return slot_send(s, len, comm, dest, tag, 0);
}

/* Join buf into ps: straight from the bytes when they are aligned for it
 * (always, for our buffers), else decoded first (into in_ps, whose k
 * bounds what it takes: only the rank's own set comes unaligned). */
static int join_bytes(rp_pathset *ps, const uint8_t *buf, size_t len, const rp_wire_refs *refs)
{
    rp_select_mode sel = (rp_select_mode)g_st->cfg.select;
    if (((uintptr_t)buf & 3) == 0)
        return pathset_join_wire_refs(ps, buf, len, sel, refs);
    if (pathset_decode(&in_ps, buf, len) != 0)
        return -1;
    pathset_join(ps, &in_ps, sel);
    return 0;
}

/* proto_join_into, with the resolver of a mailbox entry's named summaries */
static void join_into(rp_pathset *ps, const uint8_t *buf, int len, int replace,
                      const rp_wire_refs *refs)
{
    int bad;
    if (len <= 0)
        bad = 1;
    else if (replace)
        bad = pathset_decode(&in_ps, buf, (size_t)len) != 0;
    else
        bad = join_bytes(ps, buf, (size_t)len, refs) != 0;
    if (bad) {
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return;
    }
    if (replace)
        pathset_copy(ps, &in_ps);
}

void proto_join_into(rp_pathset *ps, const uint8_t *buf, int len, int replace)
{
    join_into(ps, buf, len, replace, NULL);
}

void proto_join_buffer(const uint8_t *buf, int len, int replace)
{
    proto_join_into(&g_st->ps, buf, len, replace);
}

/* Join a received point-to-point path-set message (refs: its named
 * summaries' resolver, mailbox entries only). */
static void join_msg(const uint8_t *buf, int len, rp_comm *c, int src, uint32_t bytes,
                     const rp_wire_refs *refs)
{
    rp_counters[RP_CNT_MSGS_RECV]++;
    if (!g_obs) {
        join_into(&g_st->ps, buf, len, 0, refs);
        return;
    }
    uint32_t pre = p2p_prefix();
    uint64_t src_event = 0;
    if (len < (int)pre) {
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return;
    }
    if (pre)
        memcpy(&src_event, buf + 4, 8);
    /* Did the most costly path come with the message?  Its cost is the
     * first path's (pathset_wire_top_cost), checked by the join. */
    int64_t mine_top = g_st->ps.p[0].cost_ns, in_top = 0;
    size_t set_len = (size_t)(len - (int)pre);
    pathset_wire_top_cost(buf + pre, set_len, &in_top);
    if (join_bytes(&g_st->ps, buf + pre, set_len, refs) != 0) {
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return;
    }
    g_obs->joined(comm_world_rank(c, src), src_event, bytes, in_top > mine_top);
}

/* Join the set of src's payload (key, tag) from mailbox peer `peer` if it
 * is in the mailbox: copied out in one stream, then joined from local
 * memory.  0 if it is not there (then it is a side message, mailbox.h). */
static int join_mailbox(rp_comm *c, int peer, int src, int tag, uint32_t bytes)
{
    uint32_t len = 0;
    const uint8_t *e = mbox_find(peer, c->mbkey, tag, &len);
    if (!e)
        return 0;
    memcpy(recv_scratch, e, len);
    /* consumed after the join: the records it names stay until then */
    resolve_ctx rc = { &g_st->ps, peer };
    rp_wire_refs refs = { NULL, resolve_cb, &rc, 0 };
    join_msg(recv_scratch, (int)len, c, src, bytes, mbox_arena_on() ? &refs : NULL);
    mbox_consume(peer, e);
    return 1;
}

void proto_join_from(rp_comm *c, int src, int tag, uint32_t bytes)
{
    if (g_st->local_paths)
        return;
    int peer = mbox_of(c, src);
    if (peer >= 0 && join_mailbox(c, peer, src, tag, bytes))
        return;
    MPI_Status st;
    int len = 0;
    PMPI_Recv(recv_scratch, (int)wire_cap, MPI_BYTE, src, tag, c->p2p, &st);
    PMPI_Get_count(&st, MPI_BYTE, &len);
    join_msg(recv_scratch, len, c, src, bytes, NULL);
    if (peer >= 0)
        mbox_side_consumed(peer);
}

void proto_join_freed(rp_comm *c, int src, int tag, uint32_t bytes)
{
    int peer = g_st->local_paths ? -1 : mbox_of(c, src);
    /* not in the mailbox: a side message, on a shadow that is gone */
    if (peer >= 0 && !join_mailbox(c, peer, src, tag, bytes))
        rp_counters[RP_CNT_UNMATCHED_PS]++;
}

rp_prepost *proto_prepost(rp_comm *c, int src, int tag)
{
    /* A mailbox peer's set may be in the mailbox: looked for at completion. */
    if (g_st->local_paths || mbox_of(c, src) >= 0)
        return NULL;
    rp_prepost *p = pp_free;
    if (p) {
        pp_free = p->next;
    } else {
        p = malloc(sizeof *p);
        if (!p || !(p->buf = malloc(wire_cap))) {
            free(p);
            return NULL;
        }
    }
    p->next = NULL;
    if (PMPI_Irecv(p->buf, (int)wire_cap, MPI_BYTE, src, tag, c->p2p, &p->req) != MPI_SUCCESS) {
        p->next = pp_free;
        pp_free = p;
        return NULL;
    }
    return p;
}

static void pp_release(rp_prepost *p)
{
    p->next = pp_free;
    pp_free = p;
}

void proto_join_prepost(rp_prepost *p, rp_comm *c, int src, uint32_t bytes)
{
    MPI_Status st;
    int len = 0;
    PMPI_Wait(&p->req, &st);
    PMPI_Get_count(&st, MPI_BYTE, &len);
    join_msg(p->buf, len, c, src, bytes, NULL);
    pp_release(p);
}

void proto_cancel_prepost(rp_prepost *p)
{
    MPI_Status st;
    int cancelled = 0;
    PMPI_Cancel(&p->req);
    PMPI_Wait(&p->req, &st);
    PMPI_Test_cancelled(&st, &cancelled);
    if (!cancelled)     /* it had matched a path-set meant for a later payload */
        rp_counters[RP_CNT_UNMATCHED_PS]++;
    pp_release(p);
}

void proto_orphan_prepost(rp_prepost *p)
{
    p->next = pp_orphans;
    pp_orphans = p;
}

/* Test a request for up to `budget_ns`; 1 if it completed. */
static int test_for(MPI_Request *r, int64_t budget_ns)
{
    int64_t until = rp_now_ns() + budget_ns;
    int done = 0;
    do {
        PMPI_Test(r, &done, MPI_STATUS_IGNORE);
    } while (!done && rp_now_ns() < until);
    return done;
}

/* Receive and count path-sets nobody consumed (a receive freed while
 * active, a cancel race): leaving them would be harmless to MPI but hides
 * a loss; the counter makes it visible. */
static void drain_comm(rp_comm *c)
{
    for (int guard = 0; guard < 100000; guard++) {
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c->p2p, &flag, &st);
        if (!flag)
            return;
        PMPI_Recv(recv_scratch, (int)wire_cap, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, c->p2p,
                  MPI_STATUS_IGNORE);
        rp_counters[RP_CNT_UNMATCHED_PS]++;
    }
}

void proto_finalize(void)
{
    /* Orphaned pre-posts: their path-set may still come; else withdraw. */
    while (pp_orphans) {
        rp_prepost *p = pp_orphans;
        pp_orphans = p->next;
        if (!test_for(&p->req, 10000000)) {
            PMPI_Cancel(&p->req);
            PMPI_Wait(&p->req, MPI_STATUS_IGNORE);
        }
        pp_release(p);
    }
    /* Our sends complete once the receivers make progress; everyone is in
     * MPI_Finalize's path exchange by now.  Bounded: never hang a job. */
    int64_t until = rp_now_ns() + 2000000000LL;
    while (ring_n && rp_now_ns() < until) {
        reap();
        if (ring_n)
            test_for(&ring[ring_head].req, 1000000);
    }
    comm_foreach(drain_comm);
    rp_counters[RP_CNT_UNMATCHED_PS] += mbox_finalize();
    while (ring_n) {
        send_slot *s = &ring[ring_head];
        PMPI_Cancel(&s->req);
        PMPI_Request_free(&s->req);
        rp_counters[RP_CNT_UNMATCHED_PS]++;
        ring_head = (ring_head + 1) & (ring_cap - 1);
        ring_n--;
    }
}
