/* wrap_coll.c - path exchange at collectives (doc/design.md, "Collectives").
 *
 *  all-to-all  path-allreduce in ceil(log2 n) rounds: for a power of two a
 *              butterfly (partner me^2^d), after which every member holds
 *              the identical set; otherwise dissemination (send to me+2^d,
 *              receive from me-2^d, mod n) and then (repr only: selection
 *              is not associative) a broadcast of rank 0's set.  topk is
 *              associative and idempotent, so it needs no broadcast.
 *  from root   (Bcast, Scatter[v]) the root's set is broadcast; members join.
 *  to root     (Reduce, Gather[v]) every set is gathered; the root joins all.
 *  prefix      (Scan, Exscan) Hillis-Steele: rank r ends with a selection
 *              over ranks 0..r.
 * A collective over a communicator spanning MPI_COMM_WORLD ends the phase.
 * All traffic uses the communicator's second shadow (`coll`), never a user
 * tag. */
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "mpi/hooks.h"
#include "exchange/comm.h"
#include "exchange/proto.h"
#include "core/pathset.h"
#include "core/wire.h"
#include "runtime/runtime_int.h"
#include "modes/modes.h"
#include "format/rpfile.h"
#include "exchange/reqtab.h"
#include "exchange/collpaths.h"
#include "runtime/phasebatch.h"

static uint32_t wire_len(const uint8_t *buf) { return pathset_wire_len(buf); }

/* ---- the first round, overlapped with the user's collective --------------
 * The set a member contributes is final when its collective call begins
 * (the task ended at entry; samples inside MPI do not extend it), so the
 * first exchange round of an all-to-all collective is posted, non-blocking,
 * before the user's call and completed after it: its latency hides behind
 * the user's own collective (at 2 ranks that is the whole exchange).
 * Matching stays exact: in one collective each ordered pair of members
 * exchanges at most one message on the shadow with RP_TAG_COLL, and MPI
 * keeps a pair's messages in order.  Rooted collectives keep their blocking
 * exchange: MPI_Ibcast / MPI_Igather (libnbc in Open MPI 4.1) measured
 * 3-4x slower than the blocking broadcast they would replace.
 * Main thread only, one collective at a time (wrappers do not nest). */
static struct {
    rp_comm    *c;          /* NULL: nothing posted; else holds a reference */
    MPI_Request req[2];     /* receive, send */
    uint8_t    *sbuf, *rbuf;       /* max_wire bytes each */
} g_pre;

/* g_pre.c = c, holding a reference to c while set (a stale pointer is
 * never compared with a new entry at the same address). */
static void pre_set(rp_comm *c)
{
    comm_hold(c);
    comm_put(g_pre.c);
    g_pre.c = c;
}

static int pre_buffers(void)
{
    if (g_pre.sbuf)
        return 0;
    uint32_t cap = rp_rt.max_wire;
    g_pre.sbuf = malloc(cap);
    g_pre.rbuf = malloc(cap);
    if (g_pre.sbuf && g_pre.rbuf)
        return 0;
    free(g_pre.sbuf);
    free(g_pre.rbuf);
    g_pre.sbuf = g_pre.rbuf = NULL;
    return -1;                     /* the blocking exchange does it all */
}

/* A phase end whose exchange waits for the batch (runtime/phasebatch.c):
 * nothing to post before the call, nothing to exchange after it unless the
 * batch is full.  Every member decides alike (the same world collectives
 * counted, the same settings). */
static int batched(const rp_comm *c)
{
    return c->spans_world && phasebatch_on();
}

void rp_hook_coll_all_start(MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = comm_lookup(comm);
    if (!c || c->inter || c->size == 1 || batched(c) || pre_buffers() != 0)
        return;          /* rp_hook_coll_all counts and handles these */
    uint32_t cap = rp_rt.max_wire;
    int n = c->size, me = c->rank, dst, src;
    if ((n & (n - 1)) == 0) {
        dst = src = me ^ 1;
    } else {
        dst = (me + 1) % n;
        src = (me - 1 + n) % n;
    }
    size_t len = pathset_encode(&rp_rt.ps, g_pre.sbuf, cap);
    if (PMPI_Irecv(g_pre.rbuf, (int)cap, MPI_BYTE, src, RP_TAG_COLL, c->coll,
                   &g_pre.req[0]) != MPI_SUCCESS)
        return;
    if (PMPI_Isend(g_pre.sbuf, (int)len, MPI_BYTE, dst, RP_TAG_COLL, c->coll,
                   &g_pre.req[1]) != MPI_SUCCESS) {
        PMPI_Cancel(&g_pre.req[0]);
        PMPI_Wait(&g_pre.req[0], MPI_STATUS_IGNORE);
        return;
    }
    pre_set(c);
}

void rp_hook_coll_abort(void)
{
    /* The user's collective failed: withdraw our receive; the send is left
     * to complete on its own (freed; counted at Finalize if never matched). */
    if (!g_pre.c)
        return;
    int cancelled = 0;
    MPI_Status st;
    PMPI_Cancel(&g_pre.req[0]);
    PMPI_Wait(&g_pre.req[0], &st);
    PMPI_Test_cancelled(&st, &cancelled);
    if (!cancelled)
        rp_counters[RP_CNT_UNMATCHED_PS]++;
    PMPI_Request_free(&g_pre.req[1]);
    pre_set(NULL);
}

/* 1 if the first round was posted on c and is now completed (*len: the
 * bytes received into g_pre.rbuf, joined by the rounds that follow); else
 * anything stale is withdrawn, and 0 tells the caller to run all rounds
 * itself. */
static int pre_complete(rp_comm *c, int *len)
{
    if (!g_pre.c || g_pre.c != c) {
        rp_hook_coll_abort();
        return 0;
    }
    MPI_Status st[2];
    *len = 0;
    PMPI_Waitall(2, g_pre.req, st);
    PMPI_Get_count(&st[0], MPI_BYTE, len);
    pre_set(NULL);   /* (the caller holds c: it is the user's communicator's) */
    return 1;
}

/* What this member sent in the overlapped first round (pre_complete). */
static uint32_t pre_sent_len(void) { return pathset_wire_len(g_pre.sbuf); }

static rp_comm *coll_comm(MPI_Comm comm)
{
    rp_comm *c = comm_lookup(comm);
    if (!c || (c->inter && !(c->merged && c->merged->live))) {
        rp_counters[RP_CNT_UNSUPPORTED]++;   /* not seen created, or no merge */
        return NULL;
    }
    return c;
}

/* Intercommunicator collectives: every process of both groups calls them,
 * so an all-join on the merged intracommunicator cannot wait for anyone
 * who does not come.  Rooted ones (data from one group to the other) are
 * over-approximated: both groups join both.  No phase end, no trace. */
static int inter_join(rp_comm *c)
{
    if (!c->inter)
        return 0;
    coll_allreduce_paths(c->merged, 0);
    return 1;
}

/* After the all-to-all exchange on c: the mode's record, and over the whole
 * world the phase end. */
static void all_joined(rp_comm *c)
{
    rp_mode->coll(c, RP_COLL_ALL, -1, c->spans_world);
    if (c->spans_world)
        rp_phase_end();
}

void rp_hook_coll_all(MPI_Comm comm)
{
    if (rp_rt.local_paths) {       /* MPI_THREAD_MULTIPLE: no exchange */
        rp_comm *lc = comm_lookup(comm);
        if (lc && !lc->inter && lc->spans_world)
            rp_phase_end();
        return;
    }
    rp_comm *c = coll_comm(comm);
    int got = 0;
    if (c && !c->inter && c->size > 1 && batched(c)) {
        rp_mode->coll(c, RP_COLL_ALL, -1, 1);
        phasebatch_end(c, 0);
        return;
    }
    if (pre_complete(c, &got))
        coll_allreduce_paths_from(c, c->spans_world, 2, g_pre.sbuf, pre_sent_len(), g_pre.rbuf, got);
    else if (!c || inter_join(c))
        return;
    else
        coll_allreduce_paths(c, c->spans_world);
    all_joined(c);
}

/* MPI_Barrier's only effect is that no member leaves before every member
 * entered.  The path exchange on an intracommunicator already has it: the
 * butterfly and the dissemination rounds (collpaths.c) bring every member's
 * set, sent after that member entered, to every member, through a chain of
 * messages, before it leaves; a message chain is also a synchronisation
 * under MPI's memory model (shared-memory windows, files).  So where the
 * exchange runs, it is the barrier, and the library's own barrier would only
 * add a second synchronisation and its wake-ups (doc/design.md,
 * "Collectives").  Every member decides by the same facts (the
 * communicator's shadow, its size, the thread rule), so all take the same
 * branch. */
int rp_hook_barrier(MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return 0;
    rp_comm *c = comm_lookup(comm);
    if (!c || c->inter || c->size == 1)
        return 0;
    if (batched(c)) {
        /* the library's barrier, unless this one runs the batch's exchange */
        if (!phasebatch_exchanges_next())
            return 0;
        rp_counters[RP_CNT_BARRIERS_BY_EXCHANGE]++;
        rp_mode->coll(c, RP_COLL_ALL, -1, 1);
        phasebatch_end(c, 0);
        return 1;
    }
    coll_allreduce_paths(c, c->spans_world);
    rp_counters[RP_CNT_BARRIERS_BY_EXCHANGE]++;
    all_joined(c);
    return 1;
}

/* MPI_Bcast: a small broadcast carries the root's set in its own data
 * (coll_bcast_carry); under RP_MULTIPLE=local, on intercommunicators, on
 * communicators never seen created and for larger data the caller brackets
 * PMPI_Bcast with the rooted hooks.  Every member decides by the same facts. */
int rp_hook_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, int *rc)
{
    if (rp_rt.local_paths)
        return 0;
    rp_comm *c = comm_lookup(comm);
    if (!c || c->inter || c->size == 1 || !coll_bcast_carry(c, buf, count, dt, root, comm, rc))
        return 0;
    if (*rc == MPI_SUCCESS) {
        rp_mode->coll(c, RP_COLL_OUT, root, 0);
        rp_counters[RP_CNT_COLL_JOINS]++;
    }
    return 1;
}

/* All members of shadow c join all, after a synchronisation of theirs that
 * is not a communicator's collective (a window's fence, a file's
 * collective operation): the path-allreduce on c.  Never a phase end. */
void rp_join_all_on(rp_comm *c)
{
    coll_allreduce_paths(c, 0);
    rp_mode->coll(c, RP_COLL_ALL, -1, 0);
}

/* ---- rooted collectives on small communicators: point to point ----------
 * With at most RP_SMALL_MAX members, the sets of a rooted collective go
 * as messages of their own on the shadow, posted before the user's call:
 * from root (Bcast, Scatter[v]) the root sends its set to each member
 * (tag RP_TAG_OUT); to root (Reduce, Gather[v]) each member sends its set
 * to the root (RP_TAG_IN).  Sends come from the pool, so no sender waits;
 * receivers post their receives before the call and join after it, in
 * rank order as the gather did.  The sets then travel while the user's
 * collective runs, where a broadcast or gather after the call adds a whole
 * collective latency (and the gather moves max_wire bytes per member);
 * n - 1 messages at the root cost less than that only for small n.  Every
 * member decides by the communicator's size alone, so all use the same
 * protocol; a receiver that could not post its receives receives after the
 * call (the senders sent before their calls, so that cannot wait for
 * long).  Matching is exact: one message per pair per collective, in
 * collective order.  Main thread only, one collective at a time. */
#define RP_SMALL_MAX 4
#define RP_TAG_OUT 2
#define RP_TAG_IN 3
static struct {
    rp_comm    *c;                  /* NULL: no receives posted; else held */
    int         root, kind;
    MPI_Request req[RP_SMALL_MAX];  /* by peer rank; MPI_REQUEST_NULL unused */
    uint8_t    *buf;                /* RP_SMALL_MAX slots of max_wire bytes */
} g_rt;

/* g_rt.c = c, holding a reference while set (as pre_set). */
static void rt_set(rp_comm *c)
{
    comm_hold(c);
    comm_put(g_rt.c);
    g_rt.c = c;
}

static int rooted_p2p(const rp_comm *c)
{
    return !c->inter && c->size > 1 && c->size <= RP_SMALL_MAX;
}

/* Does rank me receive peer's set in this collective? */
static int rooted_from(int kind, int root, int me, int peer)
{
    return peer != me && (kind == RP_COLL_IN ? me == root : peer == root);
}

static void rooted_start(int kind, int root, MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = comm_lookup(comm);
    /* an invalid root fails the user's call: then nothing follows */
    if (!c || !rooted_p2p(c) || root < 0 || root >= c->size)
        return;
    int me = c->rank, n = c->size, tag = kind == RP_COLL_IN ? RP_TAG_IN : RP_TAG_OUT;
    uint32_t cap = rp_rt.max_wire;
    if (kind == RP_COLL_IN && me != root) {
        proto_send_set(c->coll, root, tag);
        return;
    }
    if (kind == RP_COLL_OUT && me == root) {
        for (int r = 0; r < n; r++)
            if (r != root)
                proto_send_set(c->coll, r, tag);
        return;
    }
    if (!g_rt.buf && !(g_rt.buf = malloc((size_t)cap * RP_SMALL_MAX)))
        return;
    for (int p = 0; p < RP_SMALL_MAX; p++)
        g_rt.req[p] = MPI_REQUEST_NULL;
    for (int p = 0; p < n; p++) {
        if (rooted_from(kind, root, me, p) &&
            PMPI_Irecv(g_rt.buf + (size_t)p * cap, (int)cap, MPI_BYTE, p, tag, c->coll,
                       &g_rt.req[p]) != MPI_SUCCESS) {
            g_rt.req[p] = MPI_REQUEST_NULL;
            rt_set(c);
            rp_hook_coll_rooted_abort();   /* withdraw what was posted */
            return;
        }
    }
    rt_set(c);
    g_rt.root = root;
    g_rt.kind = kind;
}

void rp_hook_coll_out_start(int root, MPI_Comm comm)
{
    rooted_start(RP_COLL_OUT, root, comm);
}

void rp_hook_coll_in_start(int root, MPI_Comm comm)
{
    rooted_start(RP_COLL_IN, root, comm);
}

void rp_hook_coll_rooted_abort(void)
{
    /* The user's collective failed: withdraw our receives (a set already
     * matched is counted); sends complete or are counted at Finalize. */
    if (!g_rt.c)
        return;
    for (int p = 0; p < RP_SMALL_MAX && p < g_rt.c->size; p++) {
        if (g_rt.req[p] == MPI_REQUEST_NULL)
            continue;
        int cancelled = 0;
        MPI_Status st;
        PMPI_Cancel(&g_rt.req[p]);
        PMPI_Wait(&g_rt.req[p], &st);
        PMPI_Test_cancelled(&st, &cancelled);
        if (!cancelled)
            rp_counters[RP_CNT_UNMATCHED_PS]++;
    }
    rt_set(NULL);
}

/* After the call, on a small communicator: the receivers complete the
 * posted receives (or receive now) and join, in rank order. */
static void rooted_join(rp_comm *c, int kind, int root)
{
    int me = c->rank, n = c->size, tag = kind == RP_COLL_IN ? RP_TAG_IN : RP_TAG_OUT;
    uint32_t cap = rp_rt.max_wire;
    int posted = g_rt.c == c && g_rt.root == root && g_rt.kind == kind;
    if (!posted)
        rp_hook_coll_rooted_abort();   /* stale: cannot happen with paired hooks */
    rt_set(NULL);
    for (int p = 0; p < n; p++) {
        if (!rooted_from(kind, root, me, p))
            continue;
        MPI_Status st;
        int len = 0;
        uint8_t *buf = g_rt.buf ? g_rt.buf + (size_t)p * cap : proto_recvbuf();
        int rc = posted ? PMPI_Wait(&g_rt.req[p], &st)
                        : PMPI_Recv(buf, (int)cap, MPI_BYTE, p, tag, c->coll, &st);
        if (rc != MPI_SUCCESS)
            continue;
        PMPI_Get_count(&st, MPI_BYTE, &len);
        proto_join_buffer(buf, len, 0);
    }
}

void rp_hook_coll_out(int root, MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = coll_comm(comm);
    if (!c || inter_join(c) || c->size == 1)
        return;
    if (rooted_p2p(c))
        rooted_join(c, RP_COLL_OUT, root);
    else
        coll_bcast_set(c, root, 0);
    rp_mode->coll(c, RP_COLL_OUT, root, 0);
    rp_counters[RP_CNT_COLL_JOINS]++;
}

void rp_hook_coll_in(int root, MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = coll_comm(comm);
    if (!c || inter_join(c) || c->size == 1)
        return;
    if (rooted_p2p(c)) {
        rooted_join(c, RP_COLL_IN, root);
        rp_mode->coll(c, RP_COLL_IN, root, 0);
        rp_counters[RP_CNT_COLL_JOINS]++;
        return;
    }
    uint32_t cap = rp_rt.max_wire;
    uint8_t *sbuf = proto_sendbuf();
    uint8_t *all = NULL;
    memset(sbuf, 0, cap);
    pathset_encode(&rp_rt.ps, sbuf, cap);
    if (c->rank == root && !(all = malloc((size_t)cap * (size_t)c->size))) {
        /* Cannot gather: still take part so nobody hangs, and count it. */
        rp_counters[RP_CNT_UNSUPPORTED]++;
        uint8_t one;
        PMPI_Gather(sbuf, (int)cap, MPI_BYTE, &one, 0, MPI_BYTE, root, c->coll);
        return;
    }
    PMPI_Gather(sbuf, (int)cap, MPI_BYTE, all, (int)cap, MPI_BYTE, root, c->coll);
    if (c->rank == root) {
        for (int i = 0; i < c->size; i++) {
            if (i == root)
                continue;
            const uint8_t *b = all + (size_t)i * cap;
            uint32_t len = wire_len(b);
            proto_join_buffer(b, len <= cap ? (int)len : 0, 0);
        }
        free(all);
    }
    rp_mode->coll(c, RP_COLL_IN, root, 0);
    rp_counters[RP_CNT_COLL_JOINS]++;
}

void rp_hook_coll_scan(MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = coll_comm(comm);
    if (!c || inter_join(c))      /* (no scan on intercommunicators) */
        return;
    int n = c->size, me = c->rank;
    for (int d = 1; d < n; d <<= 1)
        coll_exchange(c, me + d < n ? me + d : MPI_PROC_NULL, me - d >= 0 ? me - d : MPI_PROC_NULL);
    rp_mode->coll(c, RP_COLL_SCAN, -1, 0);
    rp_counters[RP_CNT_COLL_JOINS]++;
}

/* ---- neighbourhood collectives -----------------------------------------
 * Data flows from each process's sources to its destinations, so each
 * process joins its in-neighbours' sets: a neighbourhood allgather of
 * fixed-size slots on the collective shadow, which MPI_Comm_dup gave the
 * user communicator's topology.  Slots of MPI_PROC_NULL neighbours (a
 * non-periodic cartesian border) are never written: zeroed, skipped.
 * Trace mode has no neighbourhood edge in its format, so there they are
 * not joined (counted), and the offline check stays consistent. */

/* Receive slots of a neighbourhood collective on comm (in-degree), or -1. */
static int in_degree(MPI_Comm comm)
{
    int topo = MPI_UNDEFINED, n = -1;
    if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return -1;
    if (topo == MPI_CART) {
        int nd = 0;
        if (PMPI_Cartdim_get(comm, &nd) == MPI_SUCCESS)
            n = 2 * nd;
    } else if (topo == MPI_GRAPH) {
        int r = 0;
        PMPI_Comm_rank(comm, &r);
        if (PMPI_Graph_neighbors_count(comm, r, &n) != MPI_SUCCESS)
            n = -1;
    } else if (topo == MPI_DIST_GRAPH) {
        int out = 0, w = 0;
        if (PMPI_Dist_graph_neighbors_count(comm, &n, &out, &w) != MPI_SUCCESS)
            n = -1;
    }
    return n;
}

static rp_comm *neighbor_comm(MPI_Comm comm)
{
    rp_comm *c = coll_comm(comm);
    if (c && !rp_mode->neighbors) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return NULL;
    }
    return c;
}

/* Join the n slots of buf that hold a set (written slots). */
static void join_slots(const uint8_t *buf, int n)
{
    uint32_t cap = rp_rt.max_wire;
    for (int i = 0; i < n; i++) {
        const uint8_t *b = buf + (size_t)i * cap;
        uint32_t len = wire_len(b);
        if (len)
            proto_join_buffer(b, len <= cap ? (int)len : 0, 0);
    }
}

void rp_hook_neighbor(MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = neighbor_comm(comm);
    if (!c)
        return;
    /* Every member does the same degree query on the same topology; a
     * communicator without one made the user's call fail already. */
    int nin = in_degree(c->coll);
    if (nin < 0) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    uint32_t cap = rp_rt.max_wire;
    uint8_t *sbuf = proto_sendbuf();
    memset(sbuf, 0, cap);
    pathset_encode(&rp_rt.ps, sbuf, cap);
    uint8_t *all = calloc((size_t)(nin ? nin : 1), cap);
    if (!all) {
        /* Our out-neighbours still send to us: receive every slot into one
         * buffer (a zero-extent type) so nobody waits, join nothing. */
        MPI_Datatype t0, t;
        rp_counters[RP_CNT_ALLOC_FAILURES]++;
        PMPI_Type_contiguous((int)cap, MPI_BYTE, &t0);
        PMPI_Type_create_resized(t0, 0, 0, &t);
        PMPI_Type_commit(&t);
        PMPI_Neighbor_allgather(sbuf, (int)cap, MPI_BYTE, proto_recvbuf(), 1, t, c->coll);
        PMPI_Type_free(&t);
        PMPI_Type_free(&t0);
        return;
    }
    if (PMPI_Neighbor_allgather(sbuf, (int)cap, MPI_BYTE, all, (int)cap, MPI_BYTE,
                                c->coll) == MPI_SUCCESS) {
        join_slots(all, nin);
        rp_counters[RP_CNT_COLL_JOINS]++;
    }
    free(all);
}

/* ---- non-blocking collectives ------------------------------------------
 * The exchange must not block either: every member's set travels with one
 * non-blocking collective on the shadow, started together with the user's.
 * All-to-all and prefix shapes use MPI_Iallgather of fixed-size slots (each
 * rank then selects over the same inputs in the same order, so all-to-all
 * members agree); from-root uses MPI_Ibcast, to-root MPI_Igather. */
typedef struct rp_nbc {
    MPI_Request    req;
    int            kind, root;
    int            slots;      /* RP_NBC_NEIGHBOR: in-degree */
    uint64_t       no;         /* instance number on the communicator (trace) */
    rp_comm       *c;          /* holds a reference until completed */
    uint8_t       *buf;        /* slots: size (or 1) x max_wire bytes */
    struct rp_nbc *next;       /* orphan list */
} rp_nbc;

/* Exchanges whose user request was freed: finished at Finalize. */
static rp_nbc *nbc_orphans;

static void nbc_start(rp_comm *c, int kind, int root, MPI_Request req);

void rp_hook_nbc(int kind, int root, MPI_Comm comm, MPI_Request req)
{
    if (rp_rt.local_paths)
        return;
    int neigh = kind == RP_NBC_NEIGHBOR;
    rp_comm *c = neigh ? neighbor_comm(comm) : coll_comm(comm);
    if (c && c->inter && !neigh) {
        /* Both groups take part: an all-join on the merged shadow. */
        c = c->merged;
        kind = RP_COLL_ALL;
        root = -1;
    }
    nbc_start(c, kind, root, req);
}

/* A non-blocking collective over all members of a shadow of our own (a
 * file's: wrap_io.c). */
void rp_hook_nbc_on(rp_comm *c, MPI_Request req)
{
    if (!rp_rt.local_paths)
        nbc_start(c, RP_COLL_ALL, -1, req);
}

/* Start the exchange of a non-blocking collective of shape kind on c,
 * completed with the user's request req. */
static void nbc_start(rp_comm *c, int kind, int root, MPI_Request req)
{
    int neigh = kind == RP_NBC_NEIGHBOR;
    if (!c || (c->size == 1 && !neigh) || req == MPI_REQUEST_NULL)
        return;
    uint32_t cap = rp_rt.max_wire;
    int n = c->size, me = c->rank;
    int slots = (kind == RP_COLL_OUT || (kind == RP_COLL_IN && me != root)) ? 1 : n;
    if (neigh && (slots = in_degree(c->coll)) < 0) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    rp_nbc *x = calloc(1, sizeof *x);
    uint8_t *buf = x ? calloc((size_t)slots + 1, cap) : NULL;
    rp_req *e = buf ? reqtab_add(req) : NULL;
    if (!e) {
        free(buf);
        free(x);
        rp_counters[RP_CNT_ALLOC_FAILURES]++;
        /* Out of memory for a few KB: the other members' exchange then has
         * no partner and is finished (unjoined) at their Finalize, where
         * the bounded drain gives up on it.  Counted, visible in reports. */
        return;
    }
    x->kind = kind;
    x->root = root;
    x->c = c;
    x->buf = buf;
    x->no = neigh ? 0 : rp_mode->nbc_call(c, kind, root);
    x->slots = slots;
    uint8_t *mine = buf + (size_t)slots * cap;     /* the extra slot */
    pathset_encode(&rp_rt.ps, mine, cap);
    int rc;
    if (kind == RP_COLL_OUT) {
        if (me == root)
            memcpy(buf, mine, cap);
        rc = PMPI_Ibcast(buf, (int)cap, MPI_BYTE, root, c->coll, &x->req);
    } else if (neigh) {
        rc = PMPI_Ineighbor_allgather(mine, (int)cap, MPI_BYTE, buf, (int)cap, MPI_BYTE,
                                      c->coll, &x->req);
    } else if (kind == RP_COLL_IN) {
        rc = PMPI_Igather(mine, (int)cap, MPI_BYTE, buf, (int)cap, MPI_BYTE, root, c->coll, &x->req);
    } else {
        rc = PMPI_Iallgather(mine, (int)cap, MPI_BYTE, buf, (int)cap, MPI_BYTE, c->coll, &x->req);
    }
    if (rc != MPI_SUCCESS) {
        reqtab_del(e);
        free(buf);
        free(x);
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    e->kind = RQ_NBC;
    reqtab_set_comm(e, c);
    e->nbc = x;
    comm_hold(c);   /* x's: the user may free the communicator before completing */
}

void rp_nbc_complete(rp_nbc *x, int join)
{
    if (!x)
        return;
    if (!join) {   /* (finished at Finalize without x->c) */
        comm_put(x->c);
        x->c = NULL;
        x->next = nbc_orphans;
        nbc_orphans = x;
        return;
    }
    /* Every member started its exchange when it started the collective,
     * and ours completes no later than the user's: this wait is short. */
    PMPI_Wait(&x->req, MPI_STATUS_IGNORE);
    uint32_t cap = rp_rt.max_wire;
    int me = x->c->rank, n = x->c->size;
    if (x->kind == RP_NBC_NEIGHBOR) {
        join_slots(x->buf, x->slots);
        rp_counters[RP_CNT_COLL_JOINS]++;
        comm_put(x->c);
        free(x->buf);
        free(x);
        return;
    }
    if (x->kind == RP_COLL_OUT) {
        if (me != x->root)
            proto_join_buffer(x->buf, (int)wire_len(x->buf), 0);
    } else if (x->kind != RP_COLL_IN || me == x->root) {
        /* Every member's set as of its call (a scan's up to mine), mine
         * included: the collective joins my call to my completion too, a
         * path that skips what I computed in between, as the trace's
         * graph has it (tools/common/walk.c); without it --check's shortest path
         * was shorter than the online 0 % path. */
        int upto = x->kind == RP_COLL_SCAN ? me + 1 : n;
        for (int i = 0; i < upto; i++) {
            const uint8_t *b = x->buf + (size_t)i * cap;
            uint32_t len = wire_len(b);
            proto_join_buffer(b, len <= cap ? (int)len : 0, 0);
        }
    }
    rp_mode->nbc_done(x->c, x->kind, x->root, x->no);
    rp_counters[RP_CNT_COLL_JOINS]++;
    comm_put(x->c);
    free(x->buf);
    free(x);
}

void rp_nbc_finalize(void)
{
    while (nbc_orphans) {
        rp_nbc *x = nbc_orphans;
        nbc_orphans = x->next;
        PMPI_Wait(&x->req, MPI_STATUS_IGNORE);
        free(x->buf);
        free(x);
    }
}
