/* graph.c - the trace-mode activity graph (see graph.h).
 *
 * Every rank wrote every task and, per event, what joined
 * there: a message (sender's rank and send event) or a collective instance.
 * One topological pass over the events computes, per event, the longest and
 * the shortest path value L (max-join and min-join), reset to 0 after each
 * phase-ending collective: an event is ready when the previous event of
 * its rank and every incoming sender / the collective's members it depends
 * on are done (for a message: the sender's value at its send event, which
 * does not depend on what joins there).  Blocked ranks wait in per-rank (messages) or per-collective
 * lists and are woken once, so the pass is linear in events + edges (a
 * prefix scan costs O(members^2) per instance).  The argmax source of each
 * event's longest value is kept, so the longest path can be walked back. */
#define _GNU_SOURCE
#include "common/graph.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- trace mode: the activity graph ---------------------------------------- */

struct rp_trank {
    uint64_t        n;          /* events */
    const rp_task **tk;         /* [n]: the task ending at each event (NULL: none) */
    uint64_t       *edge_first; /* [n + 1] */
    int64_t        *lpre_max, *lpre_min;   /* [n] */
    uint32_t       *from_r;     /* [n] source of the longest value */
    uint64_t       *from_e;
    int64_t        *from_edge;  /* [n] edge index or -1 */
    uint8_t        *flags;      /* [n] bit 0: phase end */
    uint64_t        cursor;     /* next event to evaluate */
    uint64_t        lpre_upto;  /* lpre_*[1 .. lpre_upto] are known */
    int64_t         base_max, base_min;
    uint64_t        phase;
    uint64_t        reg_event;  /* collective arrival registered for event reg_event - 1 */
    uint32_t       *waiters;    /* ranks blocked on a message sent by this rank */
    uint32_t        nw, cw;
    uint64_t        wait_ev;    /* the peer event whose Lpre this rank waits for */
    int             queued;
};

typedef struct coll {
    uint64_t  id;
    uint32_t  kind, size, arrived, used;
    uint32_t  phase_end;
    int64_t   agg_max, agg_min;
    uint32_t  arg_r;
    uint64_t  arg_e;
    int       root_in;
    uint32_t  root;
    int64_t   root_max, root_min;
    uint64_t  root_e;
    /* scan: by position */
    int64_t  *pmax, *pmin;
    uint32_t *pr;
    uint64_t *pe;
    uint8_t  *parr;
    uint32_t *waiters;
    uint32_t  nw, cw;
} coll;

typedef struct gstate {
    rp_graph *g;
    coll     *c;             /* open-addressing table */
    uint64_t  nc, capc;
    uint32_t *queue;         /* ring of ranks */
    uint32_t  qh, qn, qcap;
    uint64_t  dangling;
} gstate;

static uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static coll *coll_get(gstate *s, const rp_edge *e)
{
    if ((s->nc + 1) * 2 > s->capc) {
        uint64_t nc = s->capc ? s->capc * 2 : 256;
        coll *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return NULL;
        for (uint64_t i = 0; i < s->capc; i++) {
            if (!s->c[i].used)
                continue;
            uint64_t h = hash64(s->c[i].id) & (nc - 1);
            while (nt[h].used)
                h = (h + 1) & (nc - 1);
            nt[h] = s->c[i];
        }
        free(s->c);
        s->c = nt;
        s->capc = nc;
    }
    uint64_t h = hash64(e->coll_id) & (s->capc - 1);
    while (s->c[h].used && s->c[h].id != e->coll_id)
        h = (h + 1) & (s->capc - 1);
    coll *c = &s->c[h];
    if (!c->used) {
        memset(c, 0, sizeof *c);
        c->used = 1;
        c->id = e->coll_id;
        c->kind = e->coll_kind;
        c->size = e->size;
        c->root = e->root;
        c->phase_end = e->phase_end;
        c->agg_max = INT64_MIN;
        c->agg_min = INT64_MAX;
        if (c->kind == RP_COLL_SCAN) {
            c->pmax = calloc(c->size, sizeof *c->pmax);
            c->pmin = calloc(c->size, sizeof *c->pmin);
            c->pr = calloc(c->size, sizeof *c->pr);
            c->pe = calloc(c->size, sizeof *c->pe);
            c->parr = calloc(c->size, 1);
            if (!c->pmax || !c->pmin || !c->pr || !c->pe || !c->parr)
                return NULL;
        }
        s->nc++;
    }
    return c;
}

static int add_u32(uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t x)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 4;
        uint32_t *nv = realloc(*v, nc * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = x;
    return 0;
}

static int enqueue(gstate *s, uint32_t r)
{
    rp_trank *t = &s->g->r[r];
    if (t->queued)
        return 0;
    if (s->qn == s->qcap) {
        uint32_t nc = s->qcap * 2;
        uint32_t *nq = malloc(nc * sizeof *nq);
        if (!nq)
            return -1;
        for (uint32_t i = 0; i < s->qn; i++)
            nq[i] = s->queue[(s->qh + i) % s->qcap];
        free(s->queue);
        s->queue = nq;
        s->qh = 0;
        s->qcap = nc;
    }
    s->queue[(s->qh + s->qn) % s->qcap] = r;
    s->qn++;
    t->queued = 1;
    return 0;
}

static int wake_coll(gstate *s, coll *c)
{
    for (uint32_t i = 0; i < c->nw; i++)
        if (enqueue(s, c->waiters[i]) != 0)
            return -1;
    c->nw = 0;
    return 0;
}

static int grow_phases(rp_graph *g, uint64_t q)
{
    if (q < g->nphases)
        return 0;
    rp_tphase *np = realloc(g->ph, (q + 1) * sizeof *np);
    if (!np)
        return -1;
    for (uint64_t i = g->nphases; i <= q; i++) {
        np[i].longest_ns = INT64_MIN;
        np[i].shortest_ns = INT64_MAX;
        np[i].end_rank = RP_NO_RANK;
        np[i].end_event = 0;
        np[i].complete = 0;
    }
    g->ph = np;
    g->nphases = q + 1;
    return 0;
}

/* Evaluate rank r's events as far as possible.  0, or -1 on ENOMEM. */
static int advance(gstate *s, uint32_t r)
{
    rp_graph *g = s->g;
    const rp_run *run = g->run;
    rp_trank *t = &g->r[r];
    const rp_rankdata *d = &run->rd[r];
    while (t->cursor < t->n) {
        uint64_t e = t->cursor;
        int64_t cost = t->tk[e] ? t->tk[e]->cost_ns : 0;
        int64_t lpmax = t->base_max + cost, lpmin = t->base_min + cost;
        t->lpre_max[e] = lpmax;
        t->lpre_min[e] = lpmin;
        if (t->lpre_upto < e) {
            /* A message sent at e carries Lpre(e), known before e's own
             * joins (MPI_Sendrecv: rank A's receive may depend on B's send
             * while B's receive depends on A's): wake its receivers now. */
            t->lpre_upto = e;
            uint32_t keep = 0;
            for (uint32_t i = 0; i < t->nw; i++) {
                uint32_t w = t->waiters[i];
                if (g->r[w].wait_ev <= e) {
                    if (enqueue(s, w) != 0)
                        return -1;
                } else {
                    t->waiters[keep++] = w;
                }
            }
            t->nw = keep;
        }
        int64_t Lmax = lpmax, Lmin = lpmin;
        uint32_t fr = r;
        uint64_t fe = e;
        int64_t fedge = -1;
        int phase_end = 0;
        for (uint64_t i = t->edge_first[e]; i < t->edge_first[e + 1]; i++) {
            const rp_edge *ed = &d->edges[i];
            if (ed->kind == RP_EDGE_MSG) {
                uint32_t p = ed->peer;
                uint64_t pe = ed->peer_event;
                if (!run->present[p] || pe == 0 || pe >= g->r[p].n) {
                    s->dangling++;
                    continue;
                }
                if (g->r[p].lpre_upto < pe) {
                    t->wait_ev = pe;
                    return add_u32(&g->r[p].waiters, &g->r[p].nw, &g->r[p].cw, r);
                }
                int64_t v = g->r[p].lpre_max[pe];
                if (v > Lmax) {
                    Lmax = v;
                    fr = p;
                    fe = pe;
                    fedge = (int64_t)i;
                }
                if (g->r[p].lpre_min[pe] < Lmin)
                    Lmin = g->r[p].lpre_min[pe];
                continue;
            }
            /* a collective */
            coll *c = coll_get(s, ed);
            if (!c)
                return -1;
            /* A non-blocking collective contributes Lpre at its call
             * (RP_PART_CONTRIB) and joins at its completion (RP_PART_JOIN). */
            if (ed->part != RP_PART_JOIN && t->reg_event != e + 1) {
                t->reg_event = e + 1;
                c->arrived++;
                if (lpmax > c->agg_max || (lpmax == c->agg_max && r < c->arg_r)) {
                    c->agg_max = lpmax;
                    c->arg_r = r;
                    c->arg_e = e;
                }
                if (lpmin < c->agg_min)
                    c->agg_min = lpmin;
                int wake = 0;
                if (c->kind == RP_COLL_SCAN) {
                    if (ed->root < c->size && !c->parr[ed->root]) {
                        c->parr[ed->root] = 1;
                        c->pmax[ed->root] = lpmax;
                        c->pmin[ed->root] = lpmin;
                        c->pr[ed->root] = r;
                        c->pe[ed->root] = e;
                    }
                    wake = 1;
                } else if (c->kind == RP_COLL_OUT && r == c->root) {
                    c->root_in = 1;
                    c->root_max = lpmax;
                    c->root_min = lpmin;
                    c->root_e = e;
                    wake = 1;
                } else {
                    wake = c->arrived >= c->size;
                }
                if (wake && wake_coll(s, c) != 0)
                    return -1;
            }
            if (ed->part == RP_PART_CONTRIB)
                continue;
            int ready = 1;
            int64_t jmax = INT64_MIN, jmin = INT64_MAX;
            uint32_t jr = r;
            uint64_t je = e;
            switch (c->kind) {
            case RP_COLL_ALL:
                ready = c->arrived >= c->size;
                jmax = c->agg_max;
                jmin = c->agg_min;
                jr = c->arg_r;
                je = c->arg_e;
                break;
            case RP_COLL_IN:
                if (r == c->root) {
                    ready = c->arrived >= c->size;
                    jmax = c->agg_max;
                    jmin = c->agg_min;
                    jr = c->arg_r;
                    je = c->arg_e;
                }
                break;
            case RP_COLL_OUT:
                if (r != c->root) {
                    ready = c->root_in;
                    jmax = c->root_max;
                    jmin = c->root_min;
                    jr = c->root;
                    je = c->root_e;
                }
                break;
            case RP_COLL_SCAN:
                for (uint32_t m = 0; ready && m <= ed->root && m < c->size; m++) {
                    if (!c->parr[m]) {
                        ready = 0;
                    } else {
                        if (c->pmax[m] > jmax) {
                            jmax = c->pmax[m];
                            jr = c->pr[m];
                            je = c->pe[m];
                        }
                        if (c->pmin[m] < jmin)
                            jmin = c->pmin[m];
                    }
                }
                break;
            }
            if (!ready)
                return add_u32(&c->waiters, &c->nw, &c->cw, r);
            if (jmax > Lmax) {
                Lmax = jmax;
                fr = jr;
                fe = je;
                fedge = (int64_t)i;
            }
            if (jmin < Lmin)
                Lmin = jmin;
            if (ed->phase_end)
                phase_end = 1;
        }
        t->from_r[e] = fr;
        t->from_e[e] = fe;
        t->from_edge[e] = fedge;
        if (phase_end) {
            if (grow_phases(g, t->phase) != 0)
                return -1;
            rp_tphase *ph = &g->ph[t->phase];
            if (Lmax > ph->longest_ns) {
                ph->longest_ns = Lmax;
                ph->end_rank = r;
                ph->end_event = e;
            }
            if (Lmin < ph->shortest_ns)
                ph->shortest_ns = Lmin;
            ph->complete++;
            t->flags[e] |= 1;
            t->phase++;
            t->base_max = t->base_min = 0;
        } else {
            t->base_max = Lmax;
            t->base_min = Lmin;
        }
        t->cursor++;
    }
    return 0;
}

/* Release the walk's collectives and queue (success and out-of-memory alike). */
static void gstate_free(gstate *s)
{
    for (uint64_t i = 0; i < s->capc; i++) {
        coll *c = &s->c[i];
        if (!c->used)
            continue;
        free(c->pmax);
        free(c->pmin);
        free(c->pr);
        free(c->pe);
        free(c->parr);
        free(c->waiters);
    }
    free(s->c);
    free(s->queue);
}

int graph_build(const rp_run *run, rp_graph *g)
{
    memset(g, 0, sizeof *g);
    g->run = run;
    g->r = calloc(run->nranks, sizeof *g->r);
    gstate s = {0};
    s.g = g;
    s.qcap = 64;
    s.queue = malloc(s.qcap * sizeof *s.queue);
    if (!g->r || !s.queue)
        goto oom;
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        const rp_rankdata *d = &run->rd[r];
        rp_trank *t = &g->r[r];
        uint64_t n = d->n_events ? d->n_events : 1;
        t->n = n;
        t->tk = calloc(n, sizeof *t->tk);
        t->edge_first = calloc(n + 1, sizeof *t->edge_first);
        t->lpre_max = calloc(n, sizeof *t->lpre_max);
        t->lpre_min = calloc(n, sizeof *t->lpre_min);
        t->from_r = calloc(n, sizeof *t->from_r);
        t->from_e = calloc(n, sizeof *t->from_e);
        t->from_edge = calloc(n, sizeof *t->from_edge);
        t->flags = calloc(n, 1);
        if (!t->tk || !t->edge_first || !t->lpre_max || !t->lpre_min || !t->from_r ||
            !t->from_e || !t->from_edge || !t->flags)
            goto oom;
        for (uint64_t i = 0; i < d->n_tasks; i++)
            t->tk[d->tasks[i].event] = &d->tasks[i];
        /* edges are sorted by event (rpfile checked) */
        for (uint64_t i = 0; i < d->n_edges; i++)
            t->edge_first[d->edges[i].event + 1]++;
        for (uint64_t e = 0; e < n; e++)
            t->edge_first[e + 1] += t->edge_first[e];
        t->from_r[0] = r;
        t->cursor = 1;
        if (enqueue(&s, r) != 0)
            goto oom;
    }
    while (s.qn > 0) {
        uint32_t r = s.queue[s.qh];
        s.qh = (s.qh + 1) % s.qcap;
        s.qn--;
        g->r[r].queued = 0;
        if (advance(&s, r) != 0)
            goto oom;
    }
    for (uint32_t r = 0; r < run->nranks && !g->stuck; r++) {
        rp_trank *t = &g->r[r];
        if (!run->present[r] || t->cursor >= t->n)
            continue;
        g->stuck = 1;
        uint64_t e = t->cursor;
        const rp_rankdata *d = &run->rd[r];
        const char *fn = t->tk[e] ? run_fn_name(run, r, t->tk[e]->end_fn) : "MPI_?";
        const rp_edge *ed = t->edge_first[e] < t->edge_first[e + 1]
                                ? &d->edges[t->edge_first[e]] : NULL;
        if (ed && ed->kind == RP_EDGE_MSG)
            snprintf(g->why, sizeof g->why,
                     "rank %u stuck at event %llu (%s) waiting for rank %u's event %llu%s", r,
                     (unsigned long long)e, fn, ed->peer, (unsigned long long)ed->peer_event,
                     run->present[ed->peer] ? "" : " (rank file missing)");
        else
            snprintf(g->why, sizeof g->why,
                     "rank %u stuck at event %llu (%s): collective instance %#llx incomplete", r,
                     (unsigned long long)e, fn, ed ? (unsigned long long)ed->coll_id : 0ull);
    }
    if (!g->stuck && s.dangling)
        snprintf(g->why, sizeof g->why, "%llu message edge(s) name a missing send event; ignored",
                 (unsigned long long)s.dangling);
    for (uint64_t q = 0; q < g->nphases; q++)
        g->ph[q].complete = (uint32_t)g->ph[q].complete == run->nranks;
    gstate_free(&s);
    return 0;
oom:
    gstate_free(&s);
    graph_free(g);
    errno = ENOMEM;
    return -1;
}

const rp_task *graph_task(const rp_graph *g, uint32_t r, uint64_t e)
{
    return g->r && r < g->run->nranks && e < g->r[r].n ? g->r[r].tk[e] : NULL;
}

void graph_free(rp_graph *g)
{
    if (g->r && g->run)
        for (uint32_t r = 0; r < g->run->nranks; r++) {
            rp_trank *t = &g->r[r];
            free(t->tk);
            free(t->edge_first);
            free(t->lpre_max);
            free(t->lpre_min);
            free(t->from_r);
            free(t->from_e);
            free(t->from_edge);
            free(t->flags);
            free(t->waiters);
        }
    free(g->r);
    free(g->ph);
    memset(g, 0, sizeof *g);
}

int graph_critpath(const rp_graph *g, uint64_t q, rp_fullpath *out)
{
    memset(out, 0, sizeof *out);
    if (q >= g->nphases || g->ph[q].end_rank == RP_NO_RANK)
        return -1;
    const rp_run *run = g->run;
    out->phase = q;
    out->cost_ns = g->ph[q].longest_ns;
    stepvec sv = {0};
    uint32_t r = g->ph[q].end_rank;
    uint64_t e = g->ph[q].end_event;
    uint64_t guard = 0, total = 0;
    for (uint32_t i = 0; i < run->nranks; i++)
        total += g->r[i].n;
    for (;;) {
        const rp_trank *t = &g->r[r];
        uint32_t s = t->from_r[e];
        uint64_t se = t->from_e[e];
        int64_t fe = t->from_edge[e];
        if (sv.n) {
            rp_step *later = &sv.v[sv.n - 1];
            if (s == r && se == e) {
                later->via = RP_VIA_SEQ;
            } else {
                const rp_edge *ed = &run->rd[r].edges[fe];
                later->via = ed->kind == RP_EDGE_MSG ? RP_VIA_MSG : RP_VIA_COLL;
                later->bytes = ed->kind == RP_EDGE_MSG ? ed->bytes : 0;
            }
        }
        if (se == 0 || ++guard > total) {   /* cannot happen in a consistent graph */
            free(sv.v);
            return -1;
        }
        const rp_trank *ts = &g->r[s];
        rp_step st = {s, se, ts->tk[se], RP_VIA_START, 0};
        if (push_step(&sv, st) != 0) {
            free(sv.v);
            return -1;
        }
        out->task_ns += st.task ? st.task->cost_ns : 0;
        if (se - 1 == 0 || (ts->flags[se - 1] & 1))
            break;
        r = s;
        e = se - 1;
    }
    /* reverse into time order */
    for (size_t i = 0; i < sv.n / 2; i++) {
        rp_step tmp = sv.v[i];
        sv.v[i] = sv.v[sv.n - 1 - i];
        sv.v[sv.n - 1 - i] = tmp;
    }
    /* the via of each step was stored on the step after it in reverse
     * order, i.e. on the right step; the first is the phase start */
    if (sv.n)
        sv.v[0].via = RP_VIA_START;
    out->steps = sv.v;
    out->n = sv.n;
    return 0;
}

/* Vertex name of (r, e) in the whole-graph DOT. */
static void vname(const rp_graph *g, uint32_t r, uint64_t e, char *buf, size_t n)
{
    const rp_trank *t = &g->r[r];
    const rp_rankdata *d = &g->run->rd[r];
    if (e == 0) {
        snprintf(buf, n, "init");
        return;
    }
    for (uint64_t i = t->edge_first[e]; i < t->edge_first[e + 1]; i++)
        if (d->edges[i].kind == RP_EDGE_COLL) {
            snprintf(buf, n, "c%llx", (unsigned long long)d->edges[i].coll_id);
            return;
        }
    snprintf(buf, n, "r%ue%llu", r, (unsigned long long)e);
}

static const char *event_fn(const rp_graph *g, uint32_t r, uint64_t e)
{
    const rp_trank *t = &g->r[r];
    if (e < t->n && t->tk[e])
        return run_fn_name(g->run, r, t->tk[e]->end_fn);
    if (e + 1 < t->n && t->tk[e + 1])
        return run_fn_name(g->run, r, t->tk[e + 1]->start_fn);
    return "MPI_?";
}

int graph_dot(FILE *f, const rp_graph *g, rp_fullpath *crit, uint64_t ncrit)
{
    const rp_run *run = g->run;
    /* critical marks: task (r, e) and the message into (r, e) */
    uint8_t **mark = calloc(run->nranks, sizeof *mark);
    if (!mark)
        return -1;
    int rc = -1;
    for (uint32_t r = 0; r < run->nranks; r++)
        if (run->present[r] && !(mark[r] = calloc(g->r[r].n + 1, 1)))
            goto out;
    for (uint64_t q = 0; q < ncrit; q++)
        for (size_t i = 0; i < crit[q].n; i++) {
            const rp_step *st = &crit[q].steps[i];
            mark[st->rank][st->event] |= 1;
            if (st->via == RP_VIA_MSG)
                mark[st->rank][st->event - 1] |= 2;
        }
    fputs("digraph rpprof {\n  rankdir=LR;\n  newrank=true;\n  node [shape=box, fontsize=10];\n"
          "  edge [fontsize=9];\n", f);
    fprintf(f, "  label=\"rpprof trace: task graph of %u ranks, critical path in red\";\n",
            run->nranks);
    fputs("  init [label=\"MPI_Init -1\"];\n", f);
    char a[64], b[64];
    /* shared vertices (collective instances) first, each once, then one
     * lane per rank */
    uint64_t nset = 1024, nin = 0;
    uint64_t *set = calloc(nset, sizeof *set);   /* coll id + 1, 0 empty */
    if (!set)
        goto out;
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        const rp_rankdata *d = &run->rd[r];
        for (uint64_t i = 0; i < d->n_edges; i++) {
            const rp_edge *ed = &d->edges[i];
            if (ed->kind != RP_EDGE_COLL)
                continue;
            if ((nin + 1) * 2 > nset) {
                uint64_t nn = nset * 2;
                uint64_t *ns = calloc(nn, sizeof *ns);
                if (!ns) {
                    free(set);
                    goto out;
                }
                for (uint64_t k = 0; k < nset; k++) {
                    if (!set[k])
                        continue;
                    uint64_t h = hash64(set[k]) & (nn - 1);
                    while (ns[h])
                        h = (h + 1) & (nn - 1);
                    ns[h] = set[k];
                }
                free(set);
                set = ns;
                nset = nn;
            }
            uint64_t key = ed->coll_id + 1, h = hash64(key) & (nset - 1);
            while (set[h] && set[h] != key)
                h = (h + 1) & (nset - 1);
            if (set[h])
                continue;
            set[h] = key;
            nin++;
            fprintf(f, "  c%llx [label=\"%s -1\"];\n", (unsigned long long)ed->coll_id,
                    event_fn(g, r, ed->event));
        }
    }
    free(set);
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        const rp_trank *t = &g->r[r];
        fprintf(f, "  subgraph cluster_rank%u {\n    label=\"rank %u\";\n", r, r);
        for (uint64_t e = 1; e < t->n; e++) {
            vname(g, r, e, a, sizeof a);
            if (a[0] == 'r')
                fprintf(f, "    %s [label=\"%s %u\"];\n", a, event_fn(g, r, e), r);
        }
        fputs("  }\n", f);
    }
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        const rp_trank *t = &g->r[r];
        const rp_rankdata *d = &run->rd[r];
        for (uint64_t e = 1; e < t->n; e++) {
            vname(g, r, e - 1, a, sizeof a);
            vname(g, r, e, b, sizeof b);
            double sec = t->tk[e] ? (double)t->tk[e]->cost_ns / 1e9 : 0.0;
            fprintf(f, "  %s -> %s [label=\"%.3f\", color=%s%s];\n", a, b, sec,
                    mark[r][e] & 1 ? "red" : "black", mark[r][e] & 1 ? ", penwidth=2" : "");
            for (uint64_t i = t->edge_first[e]; i < t->edge_first[e + 1]; i++) {
                const rp_edge *ed = &d->edges[i];
                if (ed->kind != RP_EDGE_MSG || !run->present[ed->peer] ||
                    ed->peer_event >= g->r[ed->peer].n)
                    continue;
                vname(g, ed->peer, ed->peer_event, a, sizeof a);
                int red = (mark[r][e] & 2) && t->from_edge[e] == (int64_t)i;
                fprintf(f, "  %s -> %s [label=\"(%u)\", style=dashed, color=%s%s];\n", a, b,
                        ed->bytes, red ? "red" : "black", red ? ", penwidth=2" : "");
            }
        }
    }
    fputs("}\n", f);
    rc = ferror(f) ? -1 : 0;
out:
    for (uint32_t r = 0; r < run->nranks; r++)
        free(mark[r]);
    free(mark);
    return rc;
}
