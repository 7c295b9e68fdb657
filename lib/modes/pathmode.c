/* pathmode.c - full paths and the trace baseline (doc/design.md, "Full
 * paths").  Tasks are the uncommitted items: item idx of the phase's buffer
 * is the idx-th task of the phase on this rank; path-summaries index them,
 * past 16 bits by epoch (pathset.h rp_iv_key), and the phase end writes
 * plain ranks and 32-bit indices to the rank file.  Per-task details that
 * do not fit an rp_item live in a parallel array, grown with the buffer. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/chain.h"
#include "core/clock.h"
#include "core/counters.h"
#include "core/phasecomp.h"
#include "core/select.h"
#include "core/summary.h"
#include "core/warn.h"
#include "exchange/collpaths.h"
#include "format/rpfile.h"
#include "modes/modes.h"
#include "sampler/sample.h"

/* Bytes the trace-mode prefix adds to a point-to-point path-set message:
 * the sender's world rank (u32) and event number (u64). */
#define RP_TRACE_PREFIX 12u

typedef struct task_meta {
    uint64_t event;
    uint64_t mask;       /* selected paths this task is on (commit time) */
    uint16_t start_fn, end_fn;
    uint32_t msg_src, msg_bytes;
} task_meta;

/* All owned by this file; main thread only. */
static task_meta *meta;               /* [cap_meta], cap_meta >= items.n */
static uint64_t   cap_meta;
static uint64_t   event_no;           /* event 0 = MPI_Init's return */
static uint16_t   last_fn;            /* the event that started the running task */
static uint32_t   pend_src = RP_NO_RANK, pend_bytes;
static uint64_t   cur_phase;
static rp_task   *tasks;
static uint64_t   n_tasks, cap_tasks;
static uint64_t   phase_first_task;   /* tasks[] index where this phase's begin */
static rp_pathsum *sums;
static uint32_t   n_sums, cap_sums;
static rp_edge   *edges;
static uint64_t   n_edges, cap_edges;
static uint64_t   eager_tasks, alloc_failures, paths_overflowed;
static rp_chain   chain;              /* path mode: segments of full summaries */
static uint64_t   chain_rounds, chains_broken, chain_peak, chain_segments, chain_walk_ns;
static rp_phasecomp phase_comp;       /* path mode: each phase's computation here */
static rp_state  *g_st;               /* pathmode_init */
static int        g_trace;            /* 1: trace mode, 0: path mode */
static int        g_epochs;           /* summaries name tasks past 65 535 by epoch (pathset.h) */

static void reverse_tasks(rp_task *t, uint64_t n)
{
    for (uint64_t i = 0; i < n / 2; i++) {
        rp_task x = t[i];
        t[i] = t[n - 1 - i];
        t[n - 1 - i] = x;
    }
}

/* Tasks are kept in event order (the file format requires it).  A phase
 * whose index space overflowed committed its later tasks eagerly, before
 * the lazily committed ones of its buffer, which all ended earlier: swap
 * the two runs, [first, mid) and [mid, n_tasks), in place. */
static void order_phase_tasks(uint64_t first, uint64_t mid)
{
    if (first >= mid || mid >= n_tasks)
        return;
    reverse_tasks(tasks + first, mid - first);
    reverse_tasks(tasks + mid, n_tasks - mid);
    reverse_tasks(tasks + first, n_tasks - first);
}

static int grow(void **arr, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint64_t ncap = *cap ? *cap * 2 : 1024;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(*arr, ncap * elem);
    if (!n) {
        alloc_failures++;
        return -1;
    }
    *arr = n;
    *cap = ncap;
    return 0;
}

static int pathmode_init(rp_state *st, int init_fn, int trace)
{
    g_st = st;
    g_trace = trace;
    cap_meta = st->items.cap0;
    meta = calloc(cap_meta, sizeof *meta);
    /* Epochs need ranks below 2^24 (pathset.h): a larger world keeps to
     * epoch 0, 65 536 tasks a rank a phase, its rank fields plain ranks,
     * and says so. */
    g_epochs = !trace && st->nranks <= RP_IV_MAX_RANKS;
    if (!trace && !g_epochs && st->items.max > RP_ITEMBUF_MAX) {
        itembuf_limit(&st->items, RP_ITEMBUF_MAX);
        if (st->rank == 0)
            rp_warn(0, "RP_MODE=path: %u ranks are more than the %u whose tasks can be "
                       "numbered past 65536 a phase; a phase keeps at most 65536 tasks a rank "
                       "(later ones are committed eagerly, counter tasks_committed_eagerly)",
                    st->nranks, RP_IV_MAX_RANKS);
    }
    last_fn = (uint16_t)init_fn;
    /* segment numbers from a per-process start (chain.h) */
    uint64_t h = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull ^ (uint64_t)rp_now_ns();
    if (chain_init(&chain, st->rank, trace ? 0 : st->cfg.chain, (uint32_t)(h >> 33)) != 0)
        chain.max_iv = 0;
    return meta ? 0 : -1;
}

static int path_init(rp_state *st, int init_fn) { return pathmode_init(st, init_fn, 0); }
static int trace_init(rp_state *st, int init_fn) { return pathmode_init(st, init_fn, 1); }

static uint64_t pathmode_event(void) { return event_no; }

static rp_task *task_append(void)
{
    if (grow((void **)&tasks, &cap_tasks, n_tasks + 1, sizeof *tasks) != 0)
        return NULL;
    rp_task *t = &tasks[n_tasks++];
    memset(t, 0, sizeof *t);
    return t;
}

/* Commit the task that ends now directly (trace mode, or an overflowing
 * path-mode buffer). */
static void task_commit_now(int fn, int64_t cost_ns, uint32_t site, uint64_t mask)
{
    rp_task *t = task_append();
    if (!t)
        return;
    t->phase = cur_phase;
    t->event = event_no;
    t->start_fn = last_fn;
    t->end_fn = (uint16_t)fn;
    t->cost_ns = cost_ns;
    t->callsite = site;
    t->msg_src = pend_src;
    t->msg_bytes = pend_bytes;
    t->path_mask = mask;
}

/* The path's cost when its summary filled up, kept in the two prof-mode
 * sample fields (unused in path mode; they travel with the path). */
static void covered_set(rp_path *p, int64_t ns)
{
    uint64_t v = ns > 0 ? (uint64_t)ns : 0;
    p->sid = 0;
    p->sampled_us = (uint32_t)v;
    p->dropped_us = (uint32_t)(v >> 32);
}

static int64_t covered_get(const rp_path *p)
{
    return (int64_t)((uint64_t)p->dropped_us << 32 | p->sampled_us);
}

/* Extend every path with task idx.  A summary that is full goes on as a
 * chain (chain.c): its intervals move to a segment of this rank, a link
 * to it takes their place.  Where that cannot be (RP_CHAIN reached, or
 * MPI_THREAD_MULTIPLE: no phase-end walk), the path records its cost
 * before this task: exactly the tasks its intervals hold (pathset_add_cost
 * ran before task_end), which the tools check. */
static void extend_paths(rp_pathset *ps, uint32_t rank, uint32_t idx, int64_t cost_ns,
                         uint64_t *rng)
{
    uint32_t key = g_epochs ? rp_iv_key(rank, idx) : rank;   /* else idx < 65536 */
    uint64_t lost = chain_extend(g_st->local_paths ? NULL : &chain, ps, key, (uint16_t)idx, rng);
    for (uint32_t j = 0; lost >> j; j++)
        if (lost >> j & 1)
            covered_set(&ps->p[j], ps->p[j].cost_ns - cost_ns);
}

/* A task no summary can hold (index space full): mark every path not yet
 * overflowed, with its cost before this task as what its summary covers. */
static void untrack_paths(rp_pathset *ps, int64_t cost_ns)
{
    for (uint32_t j = 0; j < ps->n; j++)
        if (!(ps->p[j].flags & RP_PATH_OVERFLOW)) {
            ps->p[j].flags |= RP_PATH_OVERFLOW;   /* (covered_set clears the name) */
            covered_set(&ps->p[j], ps->p[j].cost_ns - cost_ns);
        }
}

static void pathmode_task_end(int fn, int64_t cost_ns)
{
    event_no++;
    if (!g_trace)   /* trace mode has every task: the tools sum them */
        phasecomp_add(&phase_comp, cost_ns);
    uint32_t site = sample_callsite_node();
    if (g_trace) {
        task_commit_now(fn, cost_ns, site, 0);
    } else {
        /* the task's details first: a push that fails there is refused */
        int32_t idx = -1;
        rp_itembuf *b = &g_st->items;
        if (b->n < b->max && grow((void **)&meta, &cap_meta, (uint64_t)b->n + 1, sizeof *meta) == 0)
            idx = itembuf_push_grow(b, site, 0, cost_ns);
        else if (b->n < b->max)
            b->dropped++;   /* (grow counted the failure) */
        else
            idx = itembuf_push(b, site, 0, cost_ns);   /* full: counts the refusal */
        if (idx >= 0) {
            task_meta *m = &meta[idx];
            m->event = event_no;
            m->mask = 0;
            m->start_fn = last_fn;
            m->end_fn = (uint16_t)fn;
            m->msg_src = pend_src;
            m->msg_bytes = pend_bytes;
            extend_paths(&g_st->ps, g_st->rank, (uint32_t)idx, cost_ns, &g_st->rng);
        } else {
            /* Buffer full (RP_BUFFER, or no memory for more): commit
             * eagerly, visibly (counted).  No
             * summary can name this task, so every path here loses track
             * from now on, exactly as if its summary were full. */
            task_commit_now(fn, cost_ns, site, RP_TASK_EAGER);
            eager_tasks++;
            untrack_paths(&g_st->ps, cost_ns);
        }
    }
    last_fn = (uint16_t)fn;
    pend_src = RP_NO_RANK;
    pend_bytes = 0;
}

static void pathmode_msg_joined(uint32_t src, uint64_t src_event, uint32_t bytes, int from_msg)
{
    if (from_msg || pend_src == RP_NO_RANK) {
        pend_src = src;
        pend_bytes = bytes;
    }
    if (!g_trace)
        return;
    if (grow((void **)&edges, &cap_edges, n_edges + 1, sizeof *edges) != 0)
        return;
    rp_edge *e = &edges[n_edges++];
    memset(e, 0, sizeof *e);
    e->kind = RP_EDGE_MSG;
    e->event = event_no;
    e->peer = src;
    e->peer_event = src_event;
    e->bytes = bytes;
}

static void coll_record(rp_comm *c, int kind, int root, int phase_end, uint64_t no,
                        uint32_t part)
{
    if (!g_trace)
        return;
    if (grow((void **)&edges, &cap_edges, n_edges + 1, sizeof *edges) != 0)
        return;
    rp_edge *e = &edges[n_edges++];
    memset(e, 0, sizeof *e);
    e->kind = RP_EDGE_COLL;
    e->event = event_no;
    e->coll_kind = (uint32_t)kind;
    e->coll_id = ((uint64_t)c->uid << 32) | (no & 0xffffffffu);
    e->size = (uint32_t)c->size;
    e->phase_end = (uint32_t)phase_end;
    e->part = part;
    /* my rank in the communicator + 1: the tools order the members as the
     * exchange does (0 in older files: world order) */
    e->bytes = (uint32_t)c->rank + 1;
    if (kind == RP_COLL_SCAN)
        e->root = (uint32_t)c->rank;
    else if (root >= 0)
        e->root = comm_world_rank(c, root);
    else
        e->root = RP_NO_RANK;
}

static void pathmode_coll(rp_comm *c, int kind, int root, int phase_end)
{
    coll_record(c, kind, root, phase_end, c->ncoll++, RP_PART_BOTH);
}

static uint64_t pathmode_nbc_call(rp_comm *c, int kind, int root)
{
    uint64_t no = c->ncoll++;
    coll_record(c, kind, root, 0, no, RP_PART_CONTRIB);
    return no;
}

static void pathmode_nbc_done(rp_comm *c, int kind, int root, uint64_t no)
{
    coll_record(c, kind, root, 0, no, RP_PART_JOIN);
}

/* Expand every selected path's chain (chain.c): rounds of one allgather
 * over the world until no link is left.  Every rank holds the same paths
 * at a phase end, so all run the same rounds; none when no path has a
 * link (short phases, MPI_THREAD_MULTIPLE). */
static void walk_chains(const rp_pathset *ps, rp_chain_walk *w)
{
    chain_walk_begin(w, ps);   /* out of memory: w->nomem, the rounds still run */
    if (!chain_walk_pending(w))
        return;
    int64_t t0 = rp_now_ns();
    while (chain_walk_pending(w)) {
        uint8_t *mine = NULL, *all = NULL;
        size_t len = 0, all_len = 0;
        if (chain_walk_emit(&chain, w, &mine, &len) != 0)
            w->nomem = 1;   /* my links go unanswered: their paths break */
        if (coll_allgather_bytes(comm_world(), mine, len, &all, &all_len) == 0)
            chain_walk_absorb(w, all, all_len);
        else
            chain_walk_absorb(w, NULL, 0);   /* every pending path breaks */
        free(mine);
        free(all);
        chain_rounds++;
    }
    chain_walk_ns += (uint64_t)(rp_now_ns() - t0);
}

/* Mark my tasks on path j (intervals iv[0..n) of the whole path). */
static void mark_path(uint32_t j, const rp_interval *iv, uint64_t n, int overflowed)
{
    uint32_t me = g_st->rank, items = g_st->items.n;
    int64_t last = -1;
    for (uint64_t v = 0; v < n; v++) {
        uint32_t r, lo, hi;
        rp_iv_decode(&iv[v], g_epochs, &r, &lo, &hi);
        if (rp_iv_is_link(&iv[v]) || r != me)
            continue;
        for (uint32_t i = lo; i <= hi && i < items; i++)
            meta[i].mask |= 1ull << j;
        if (hi > last)
            last = hi;
    }
    /* An overflowed summary lost track of the path's tail: keep all of my
     * tasks after my last interval on it (partial pruning). */
    if (overflowed)
        for (uint32_t i = (uint32_t)(last + 1); i < items; i++)
            meta[i].mask |= 1ull << j;
}

/* The rank file's intervals: plain ranks and 32-bit task indices
 * (pathset.h).  Where a path ran on across an epoch's end its summary
 * opened a new interval; the two are one run of tasks, so they are
 * written as one, as if indices had no epochs.  Returns the count. */
static uint64_t fileiv_decode(rp_fileiv *out, const rp_interval *iv, uint64_t n)
{
    uint64_t m = 0;
    for (uint64_t v = 0; v < n; v++) {
        uint32_t r, lo, hi;
        rp_iv_decode(&iv[v], g_epochs, &r, &lo, &hi);
        if (g_epochs && m && v && iv[v].rank != iv[v - 1].rank && out[m - 1].rank == r &&
            iv[v].low == 0 && iv[v - 1].high == 0xffffu && out[m - 1].high + 1 == lo) {
            out[m - 1].high = hi;
            continue;
        }
        out[m].rank = r;
        out[m].low = lo;
        out[m].high = hi;
        m++;
    }
    return m;
}

static void commit_marked(uint64_t phase)
{
    for (uint32_t i = 0; i < g_st->items.n; i++) {
        if (!meta[i].mask)
            continue;
        rp_task *t = task_append();
        if (!t)
            break;
        t->phase = phase;
        t->event = meta[i].event;
        t->idx = i;
        t->start_fn = meta[i].start_fn;
        t->end_fn = meta[i].end_fn;
        t->cost_ns = g_st->items.items[i].value_ns;
        t->callsite = g_st->items.items[i].node;
        t->msg_src = meta[i].msg_src;
        t->msg_bytes = meta[i].msg_bytes;
        t->path_mask = meta[i].mask;
    }
}

static void pathmode_phase_end(uint64_t phase, const uint8_t *near, const rp_pathset *ps,
                               const rp_itembuf *items)
{
    (void)near, (void)items;   /* (not batched: the rank's own, as g_st's) */
    /* path j's whole interval list (path mode: chains expanded) */
    const rp_interval *list[RP_PATHSET_MAX_K] = {0};
    uint64_t n_list[RP_PATHSET_MAX_K] = {0}, broken = 0;
    rp_chain_walk w;
    memset(&w, 0, sizeof w);
    if (!g_trace) {
        uint64_t eager_end = n_tasks;   /* eager commits of this phase end here */
        walk_chains(ps, &w);
        broken = w.broken;
        if (w.nomem) {   /* some list is incomplete here: say so, rebuild none */
            alloc_failures++;
            broken = ~0ull;
        }
        if (chain.n_iv > chain_peak)
            chain_peak = chain.n_iv;
        chain_segments += chain.n_seg;
        for (uint32_t j = 0; j < w.n; j++) {
            list[j] = chain_walk_path(&w, j, &n_list[j]);
            if (!(broken >> j & 1))
                mark_path(j, list[j], n_list[j], ps->p[j].flags & RP_PATH_OVERFLOW);
        }
        commit_marked(phase);
        order_phase_tasks(phase_first_task, eager_end);
        chain_reset(&chain);
        /* a long phase's task details go back with its items (itembuf_reset) */
        if (cap_meta > g_st->items.cap0) {
            task_meta *m = realloc(meta, g_st->items.cap0 * sizeof *meta);
            if (m) {
                meta = m;
                cap_meta = g_st->items.cap0;
            }
        }
        /* the tasks up to this phase-ending event were this phase's; a
         * failed allocation drops the record (counted, so warned) */
        if (!phase_comp.failed && phasecomp_close(&phase_comp, phase) != 0)
            alloc_failures++;
    }
    /* Both modes: the selected paths of the phase (intervals in path mode). */
    for (uint32_t j = 0; j < ps->n; j++) {
        uint64_t cap = cap_sums;
        if (grow((void **)&sums, &cap, (uint64_t)n_sums + 1, sizeof *sums) != 0)
            break;
        cap_sums = (uint32_t)cap;
        rp_pathsum *s = &sums[n_sums];
        memset(s, 0, sizeof *s);
        s->phase = phase;
        s->path = j;
        s->flags = ps->p[j].flags;
        s->cost_ns = ps->p[j].cost_ns;
        s->n_evicted = ps->p[j].n_evicted;
        s->lw = (float)(select_log2(ps->p[j].w) + ps->wexp);   /* weight 0: -1000 + wexp */
        s->covered_ns = !g_trace && (s->flags & RP_PATH_OVERFLOW) ? covered_get(&ps->p[j]) : -1;
        uint64_t n_iv = j < w.n ? n_list[j] : 0;
        if (!g_trace && j < 64 && (broken >> j & 1)) {
            /* its beginning is lost: nothing of it is rebuilt, visibly */
            s->flags |= RP_PATH_OVERFLOW;
            s->covered_ns = 0;
            n_iv = 0;
            if (g_st->rank == 0)
                chains_broken++;
        }
        /* every rank holds the same paths: rank 0 counts them (visible
         * loss: every report view warns) */
        if (!g_trace && g_st->rank == 0 && (s->flags & RP_PATH_OVERFLOW))
            paths_overflowed++;
        /* Every rank holds the same intervals; two copies (first and last
         * rank) are enough for the tools and survive one lost rank file. */
        int keep_iv = g_st->rank == 0 || g_st->rank + 1 == g_st->nranks;
        if (!g_trace && keep_iv && n_iv && n_iv <= UINT32_MAX) {
            s->iv = malloc(n_iv * sizeof *s->iv);
            if (!s->iv) {
                alloc_failures++;
                continue;
            }
            s->n_iv = (uint32_t)fileiv_decode(s->iv, list[j], n_iv);
        }
        n_sums++;
    }
    chain_walk_free(&w);
    cur_phase = phase + 1;
    phase_first_task = n_tasks;
}

static void pathmode_export(struct rp_rankdata *d)
{
    d->n_events = event_no + 1;
    d->n_tasks = n_tasks;
    d->tasks = tasks;
    d->n_pathsums = n_sums;
    d->pathsums = sums;
    d->n_edges = n_edges;
    d->edges = edges;
    d->phase_comp = (int64_t *)phasecomp_get(&phase_comp, &d->n_phase_comp);
    rp_counters[RP_CNT_TASKS_EAGER] = eager_tasks;
    rp_counters[RP_CNT_ALLOC_FAILURES] = alloc_failures + g_st->items.grow_failed;
    rp_counters[RP_CNT_PATHS_OVERFLOWED] = paths_overflowed;
    rp_counters[RP_CNT_CHAIN_SEGMENTS] = chain_segments;
    rp_counters[RP_CNT_CHAIN_PEAK] = chain_peak;
    rp_counters[RP_CNT_CHAIN_ROUNDS] = g_st->rank == 0 ? chain_rounds : 0;
    rp_counters[RP_CNT_CHAIN_FULL] = chain.refused;
    rp_counters[RP_CNT_CHAIN_WALK_NS] = chain_walk_ns;
    rp_counters[RP_CNT_CHAIN_BROKEN] = chains_broken;
}

static const rp_msg_observer path_msgs = { 0, pathmode_event, pathmode_msg_joined };
static const rp_msg_observer trace_msgs = { RP_TRACE_PREFIX, pathmode_event, pathmode_msg_joined };

const rp_mode_ops rp_mode_path = {
    .mode = RP_MODE_PATH, .name = "path", .summary = RP_SUMMARY_PATH,
    .comm = { .uniform_uids = 0, .merge_inter = 1 },
    .recv_overlap = 0, .msgs = &path_msgs, .wants_bytes = 1, .neighbors = 1,
    .init = path_init, .task_end = pathmode_task_end, .coll = pathmode_coll,
    .nbc_call = pathmode_nbc_call, .nbc_done = pathmode_nbc_done,
    .phase_end = pathmode_phase_end, .export = pathmode_export,
};

/* Trace mode gives every communicator the same uid on all members (the
 * checker matches collective instances by it) and cannot express the edges
 * of intercommunicator and neighbourhood collectives. */
const rp_mode_ops rp_mode_trace = {
    .mode = RP_MODE_TRACE, .name = "trace", .summary = RP_SUMMARY_PATH,
    .comm = { .uniform_uids = 1, .merge_inter = 0 },
    .recv_overlap = 0, .msgs = &trace_msgs, .wants_bytes = 1, .neighbors = 0,
    .init = trace_init, .task_end = pathmode_task_end, .coll = pathmode_coll,
    .nbc_call = pathmode_nbc_call, .nbc_done = pathmode_nbc_done,
    .phase_end = pathmode_phase_end, .export = pathmode_export,
};
