/* oracle.c - exact percentiles of all path costs of a trace (oracle.h).
 *
 * Path counting with costs (the offline baseline the paper's §7 compares
 * against computes only the longest path): a vertex's histogram of path
 * costs is its predecessor's shifted by the task that ends at it, plus the
 * histograms brought by the messages and collectives that join there.
 * Vertices are evaluated in a dependency order found by sweeping over the
 * ranks (a rank advances while what its next event joins is known), the
 * same order the longest-path walk (paths.c) uses.  A histogram is kept
 * only while a later vertex still needs it: each rank's current one, and
 * the message and collective sources not yet joined. */
#include "oracle.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "idtab.h"

/* ---- histograms: bin i of d stands for cost base + i * g ns; count h[i] * 2^ex.
 * base is exact: a task adds its cost to it, without rounding.  Only a join
 * of two histograms whose bases differ by other than a multiple of g puts
 * the shifted side's costs on the other's grid, each moved by at most g/2;
 * `rounds` counts those moves along the worst path (the rounding bound). */

typedef struct dist {
    int64_t  base;
    uint32_t n;
    int32_t  ex;
    double  *h;
    int64_t  rounds;     /* most grid roundings on one path reaching here */
} dist;

static void dist_free(dist *d)
{
    free(d->h);
    memset(d, 0, sizeof *d);
}

static int dist_unit(dist *d)
{
    dist_free(d);
    d->h = malloc(sizeof *d->h);
    if (!d->h)
        return -1;
    d->h[0] = 1.0;
    d->n = 1;
    return 0;
}

static int dist_copy(dist *dst, const dist *src)
{
    double *h = malloc((src->n ? src->n : 1) * sizeof *h);
    if (!h)
        return -1;
    memcpy(h, src->h, src->n * sizeof *h);
    free(dst->h);
    *dst = *src;
    dst->h = h;
    return 0;
}

/* dst += src (any ranges, any scales), on a grid of g ns: the result's
 * base is the lower one; the other side's bins move to the nearest bin. */
static int dist_add(dist *dst, const dist *src, int64_t g)
{
    if (!src->n)
        return 0;
    if (!dst->n)
        return dist_copy(dst, src);
    int64_t base = dst->base < src->base ? dst->base : src->base;
    int64_t dd = dst->base - base, ds = src->base - base;   /* >= 0 */
    int64_t od = (dd + g / 2) / g, os = (ds + g / 2) / g;    /* in bins */
    int64_t hi = od + dst->n > os + src->n ? od + dst->n : os + src->n;
    int32_t ex = dst->ex > src->ex ? dst->ex : src->ex;
    if (od != 0 || hi != dst->n) {
        double *h = calloc((size_t)hi, sizeof *h);
        if (!h)
            return -1;
        memcpy(h + od, dst->h, dst->n * sizeof *h);
        free(dst->h);
        dst->h = h;
        dst->n = (uint32_t)hi;
    }
    dst->base = base;
    if (dst->ex != ex) {
        for (uint32_t i = 0; i < dst->n; i++)
            dst->h[i] = ldexp(dst->h[i], dst->ex - ex);
        dst->ex = ex;
    }
    double *o = dst->h + os;
    for (uint32_t i = 0; i < src->n; i++)
        o[i] += ldexp(src->h[i], src->ex - ex);
    double mx = 0;
    for (uint32_t i = 0; i < dst->n; i++)
        mx = dst->h[i] > mx ? dst->h[i] : mx;
    if (mx > 0x1p512) {   /* path counts outgrow any float: keep a scale */
        for (uint32_t i = 0; i < dst->n; i++)
            dst->h[i] = ldexp(dst->h[i], -512);
        dst->ex += 512;
    }
    int64_t rd = dst->rounds + (dd % g != 0), rs = src->rounds + (ds % g != 0);
    dst->rounds = rd > rs ? rd : rs;
    return 0;
}

/* Room for element n of *v (capacity doubling from `first`); -1 on ENOMEM. */
static int grow1(void *vp, uint32_t n, uint32_t *cap, size_t elem, uint32_t first)
{
    void **v = vp;
    if (n < *cap)
        return 0;
    uint32_t nc = *cap ? *cap * 2 : first;
    void *nv = realloc(*v, (size_t)nc * elem);
    if (!nv)
        return -1;
    *v = nv;
    *cap = nc;
    return 0;
}

/* ---- sources: a vertex whose histogram a later vertex joins --------------- */

typedef struct src {
    uint32_t rank;
    uint64_t event;
    int32_t  uses;       /* joins still to come */
    int      have;       /* d holds the vertex's histogram before its own joins */
    dist     d;
} src;

typedef struct member {
    uint32_t rank, pos;
    uint32_t src;        /* its contribution's source id */
} member;

typedef struct ocoll {
    uint64_t  id;
    uint32_t  kind, size, root, phase_end;
    member   *m;
    uint32_t  nm, cm;
    int       summed;    /* sum holds every member's contribution (ALL, IN) */
    int32_t   uses;      /* joins of sum still to come */
    dist      sum;
} ocoll;

typedef struct ostate {
    const rp_graph *g;
    const rp_run   *run;
    src            *s;
    uint32_t        ns, cs;
    rp_idtab        sidx;
    ocoll          *c;
    uint32_t        nc, cc;
    rp_idtab        cidx;
    uint64_t        key;     /* lookups */
    uint32_t        key_rank;
} ostate;

static int src_eq(const void *ctx, uint32_t id)
{
    const ostate *o = ctx;
    return o->s[id].rank == o->key_rank && o->s[id].event == o->key;
}

static uint64_t src_hash_of(uint32_t r, uint64_t e)
{
    uint64_t k[2] = {r, e};
    return rp_hash_bytes(k, sizeof k, 11);
}

static uint64_t src_rehash(const void *ctx, uint32_t id)
{
    const ostate *o = ctx;
    return src_hash_of(o->s[id].rank, o->s[id].event);
}

static uint32_t src_find(ostate *o, uint32_t r, uint64_t e)
{
    o->key_rank = r;
    o->key = e;
    return idtab_find(&o->sidx, src_hash_of(r, e), src_eq, o);
}

/* The source (r, e), created if new; UINT32_MAX on ENOMEM. */
static uint32_t src_get(ostate *o, uint32_t r, uint64_t e)
{
    uint32_t id = src_find(o, r, e);
    if (id != UINT32_MAX)
        return id;
    if (idtab_reserve(&o->sidx, src_rehash, o) != 0)
        return UINT32_MAX;
    if (grow1(&o->s, o->ns, &o->cs, sizeof *o->s, 256) != 0)
        return UINT32_MAX;
    o->s[o->ns] = (src){r, e, 0, 0, {0}};
    o->key_rank = r;
    o->key = e;
    return idtab_intern(&o->sidx, src_hash_of(r, e), src_eq, o, o->ns++);
}

static int coll_eq(const void *ctx, uint32_t id)
{
    const ostate *o = ctx;
    return o->c[id].id == o->key;
}

static uint64_t coll_rehash(const void *ctx, uint32_t id)
{
    const ostate *o = ctx;
    return rp_hash_bytes(&o->c[id].id, sizeof o->c[id].id, 13);
}

static ocoll *coll_get(ostate *o, const rp_edge *ed, int create)
{
    o->key = ed->coll_id;
    uint64_t h = rp_hash_bytes(&ed->coll_id, sizeof ed->coll_id, 13);
    uint32_t id = idtab_find(&o->cidx, h, coll_eq, o);
    if (id != UINT32_MAX || !create)
        return id == UINT32_MAX ? NULL : &o->c[id];
    if (idtab_reserve(&o->cidx, coll_rehash, o) != 0)
        return NULL;
    if (grow1(&o->c, o->nc, &o->cc, sizeof *o->c, 64) != 0)
        return NULL;
    ocoll *c = &o->c[o->nc];
    memset(c, 0, sizeof *c);
    c->id = ed->coll_id;
    c->kind = ed->coll_kind;
    c->size = ed->size;
    c->root = ed->root;
    c->phase_end = ed->phase_end;
    o->key = ed->coll_id;
    idtab_intern(&o->cidx, h, coll_eq, o, o->nc++);
    return c;
}

/* The scan: register every source and collective member with its number of
 * joins, so a histogram is freed after its last one. */
static int scan_edges(ostate *o)
{
    const rp_run *run = o->run;
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        const rp_rankdata *d = &run->rd[r];
        for (uint64_t i = 0; i < d->n_edges; i++) {
            const rp_edge *ed = &d->edges[i];
            if (ed->kind == RP_EDGE_MSG) {
                if (!run->present[ed->peer] || ed->peer_event == 0)
                    continue;   /* dangling: the longest-path walk ignores it too */
                uint32_t s = src_get(o, ed->peer, ed->peer_event);
                if (s == UINT32_MAX)
                    return -1;
                o->s[s].uses++;
                continue;
            }
            ocoll *c = coll_get(o, ed, 1);
            if (!c)
                return -1;
            if (ed->part == RP_PART_JOIN) {
                if (c->kind == RP_COLL_ALL || (c->kind == RP_COLL_IN && r == c->root))
                    c->uses++;
                continue;
            }
            if (ed->part == RP_PART_BOTH &&
                (c->kind == RP_COLL_ALL || (c->kind == RP_COLL_IN && r == c->root)))
                c->uses++;
            /* a contribution: who joins it? */
            int32_t uses = 0;
            uint32_t pos = c->kind == RP_COLL_SCAN ? ed->root : r;
            if (c->kind == RP_COLL_ALL || c->kind == RP_COLL_IN)
                uses = 1;                          /* summed once */
            else if (c->kind == RP_COLL_OUT)
                uses = r == c->root ? (int32_t)c->size - 1 : 0;
            else if (c->kind == RP_COLL_SCAN)
                uses = (int32_t)(c->size > pos ? c->size - pos : 0);
            if (!uses)
                continue;
            uint32_t s = src_get(o, r, ed->event);
            if (s == UINT32_MAX)
                return -1;
            o->s[s].uses += uses;
            if (grow1(&c->m, c->nm, &c->cm, sizeof *c->m, 8) != 0)
                return -1;
            c->m[c->nm++] = (member){r, pos, s};
        }
    }
    return 0;
}

static void src_used(ostate *o, uint32_t s)
{
    if (--o->s[s].uses <= 0)
        dist_free(&o->s[s].d);
}

/* ---- the evaluation ------------------------------------------------------- */

typedef struct orank {
    uint64_t        cursor;     /* next event */
    int             arrived;    /* pre holds cursor's histogram before its joins */
    uint64_t        phase;
    dist            cur, pre;
    uint64_t        edge_first; /* first edge of cursor's event */
} orank;

static int64_t grid_of(const rp_pctphase *ph, uint64_t q, uint64_t nq)
{
    return q < nq ? (int64_t)ph[q].grid_ns : 1;
}

/* Which members' contributions the event of rank r joins, in collective
 * c at scan position pos: all (allreduce; a reduce's root), the root's
 * (a broadcast's other members), the first pos + 1 (scan).  ready and
 * finish agree through this one rule. */
static int member_joined(const ocoll *c, const member *mb, uint32_t r, uint32_t pos)
{
    switch (c->kind) {
    case RP_COLL_ALL:
        return 1;
    case RP_COLL_IN:
        return r == c->root;
    case RP_COLL_OUT:
        return r != c->root && mb->rank == c->root;
    case RP_COLL_SCAN:
        return mb->pos <= pos;
    default:
        return 0;
    }
}

/* Is everything rank r's current event joins known?  Contributions of a
 * collective are known once every member needed has arrived. */
static int ready(ostate *o, uint32_t r, orank *t, uint64_t e_end)
{
    const rp_rankdata *d = &o->run->rd[r];
    for (uint64_t i = t->edge_first; i < e_end; i++) {
        const rp_edge *ed = &d->edges[i];
        if (ed->kind == RP_EDGE_MSG) {
            if (!o->run->present[ed->peer] || ed->peer_event == 0)
                continue;
            uint32_t s = src_find(o, ed->peer, ed->peer_event);
            if (s != UINT32_MAX && !o->s[s].have)
                return 0;
            continue;
        }
        if (ed->part == RP_PART_CONTRIB)
            continue;
        ocoll *c = coll_get(o, ed, 0);
        if (!c)
            continue;
        uint32_t pos = c->kind == RP_COLL_SCAN ? ed->root : r;
        int need_all = c->kind == RP_COLL_ALL || (c->kind == RP_COLL_IN && r == c->root);
        if (need_all && c->summed)
            continue;
        uint32_t got = 0;
        for (uint32_t m = 0; m < c->nm; m++) {
            if (!member_joined(c, &c->m[m], r, pos))
                continue;
            if (!o->s[c->m[m].src].have)
                return 0;
            got++;
        }
        if (need_all && got < c->size)
            return 0;
    }
    return 1;
}

/* Finalise rank r's current event: its histogram after the joins. */
static int finish(ostate *o, uint32_t r, orank *t, uint64_t e_end, rp_pctphase *ph,
                  dist *sinks, uint64_t nq)
{
    const rp_rankdata *d = &o->run->rd[r];
    int64_t gq = grid_of(ph, t->phase, nq);
    dist base = {0}, msgs = {0};
    int replaced = 0, phase_end = 0;
    ocoll *pe_coll = NULL;
    for (uint64_t i = t->edge_first; i < e_end; i++) {
        const rp_edge *ed = &d->edges[i];
        if (ed->kind == RP_EDGE_MSG) {
            if (!o->run->present[ed->peer] || ed->peer_event == 0)
                continue;
            uint32_t s = src_find(o, ed->peer, ed->peer_event);
            if (s == UINT32_MAX)
                continue;
            if (dist_add(&msgs, &o->s[s].d, gq) != 0)
                goto oom;
            src_used(o, s);
            continue;
        }
        if (ed->part == RP_PART_CONTRIB)
            continue;
        ocoll *c = coll_get(o, ed, 0);
        if (!c)
            continue;
        uint32_t pos = c->kind == RP_COLL_SCAN ? ed->root : r;
        if (c->kind == RP_COLL_ALL || (c->kind == RP_COLL_IN && r == c->root)) {
            if (!c->summed) {
                for (uint32_t m = 0; m < c->nm; m++) {
                    if (dist_add(&c->sum, &o->s[c->m[m].src].d, gq) != 0)
                        goto oom;
                    src_used(o, c->m[m].src);
                }
                c->summed = 1;
            }
            /* blocking: the member's own path is in the sum; non-blocking
             * (a JOIN at completion): its own chain since the call is a
             * path of its own, beside the collective's */
            if (dist_add(ed->part == RP_PART_BOTH ? &base : &msgs, &c->sum, gq) != 0)
                goto oom;
            replaced |= ed->part == RP_PART_BOTH;
            if (ed->phase_end) {
                phase_end = 1;
                pe_coll = c;
            }
            if (!ed->phase_end && --c->uses <= 0)
                dist_free(&c->sum);
        } else if (c->kind == RP_COLL_OUT || c->kind == RP_COLL_SCAN) {
            /* a broadcast's root joins nothing; a scan replaces the path
             * like an allreduce when blocking */
            int scan_both = c->kind == RP_COLL_SCAN && ed->part == RP_PART_BOTH;
            for (uint32_t m = 0; m < c->nm; m++)
                if (member_joined(c, &c->m[m], r, pos)) {
                    if (dist_add(scan_both ? &base : &msgs, &o->s[c->m[m].src].d, gq) != 0)
                        goto oom;
                    src_used(o, c->m[m].src);
                }
            replaced |= scan_both;
        }
    }
    if (!replaced && !base.n) {   /* the usual event: base is pre, moved */
        base = t->pre;
        memset(&t->pre, 0, sizeof t->pre);
    } else if (!replaced && dist_add(&base, &t->pre, gq) != 0) {
        goto oom;
    }
    if (dist_add(&base, &msgs, gq) != 0)
        goto oom;
    dist_free(&msgs);
    dist_free(&t->pre);
    t->arrived = 0;
    if (phase_end) {
        uint64_t q = t->phase;
        if (q < nq && !sinks[q].n && dist_copy(&sinks[q], &pe_coll->sum) != 0)
            goto oom;
        if (--pe_coll->uses <= 0)
            dist_free(&pe_coll->sum);
        dist_free(&base);
        t->phase++;
        if (dist_unit(&t->cur) != 0)
            return -1;
    } else {
        dist_free(&t->cur);
        t->cur = base;
    }
    return 0;
oom:
    dist_free(&base);
    dist_free(&msgs);
    return -1;
}

/* Advance rank r as far as it can go; *moved set when it did. */
static int advance(ostate *o, uint32_t r, orank *t, rp_pctphase *ph, dist *sinks, uint64_t nq,
                   int *moved)
{
    const rp_graph *g = o->g;
    const rp_rankdata *d = &o->run->rd[r];
    uint64_t n = d->n_events ? d->n_events : 1;
    while (t->cursor < n) {
        uint64_t e = t->cursor;
        uint64_t e_end = t->edge_first;
        while (e_end < d->n_edges && d->edges[e_end].event == e)
            e_end++;
        if (!t->arrived) {
            const rp_task *tk = graph_task(g, r, e);
            /* cur is not read again before finish() replaces it: moved */
            dist_free(&t->pre);
            t->pre = t->cur;
            memset(&t->cur, 0, sizeof t->cur);
            t->pre.base += tk ? tk->cost_ns : 0;   /* exact: no rounding */
            t->arrived = 1;
            uint32_t s = src_find(o, r, e);
            if (s != UINT32_MAX && o->s[s].uses > 0) {
                if (dist_copy(&o->s[s].d, &t->pre) != 0)
                    return -1;
                o->s[s].have = 1;
                *moved = 1;
            }
        }
        if (!ready(o, r, t, e_end))
            return 0;
        if (finish(o, r, t, e_end, ph, sinks, nq) != 0)
            return -1;
        t->edge_first = e_end;
        t->cursor++;
        *moved = 1;
    }
    return 0;
}

double oracle_slot_fraction(uint32_t j, uint32_t k)
{
    return k <= 1 ? 0.0 : (double)j / (double)(k - 1);
}

double oracle_rank_error(double pct, double lo, double hi)
{
    if (isnan(lo) || isnan(hi))
        return NAN;
    return pct < lo ? lo - pct : pct > hi ? pct - hi : 0.0;
}

/* Where the paths of cost c sit: the nearest bin of c that holds paths
 * (ties: the higher), the count above it and its own count. */
static void place(const dist *s, uint32_t top, uint32_t bot, double c, double g, double *above,
                  double *here)
{
    double x = (c - (double)s->base) / g;
    int64_t b = (int64_t)llround(x);
    /* within the rounding bound (and a bin) of an end: that end, as --check
       takes the ends (an online end is exact; the grid moved the oracle's) */
    double slack = g > 1 ? (double)s->rounds / 2 + 1 : 0;
    int near_top = x >= (double)top - slack, near_bot = x <= (double)bot + slack;
    if (near_top && (!near_bot || (double)top - x <= x - (double)bot))
        b = top;
    else if (near_bot)
        b = bot;
    else if (b > (int64_t)top)
        b = top;
    else if (b < (int64_t)bot)
        b = bot;
    for (int64_t d = 0; s->h[b] <= 0; d++) {   /* top and bot hold paths */
        if (b + d <= (int64_t)top && s->h[b + d] > 0) {
            b += d;
            break;
        }
        if (b - d >= (int64_t)bot && s->h[b - d] > 0) {
            b -= d;
            break;
        }
    }
    double a = 0;
    for (uint32_t i = top; i > (uint32_t)b; i--)
        a += s->h[i];
    *above = a;
    *here = s->h[b];
}

/* The k percentile costs of a phase's sink histogram; probe (k costs or
 * NULL) placed in it. */
static void percentiles(const dist *s, uint32_t k, double g, const double *probe,
                        rp_pctphase *out)
{
    double tot = 0;
    uint32_t top = 0, bot = 0;
    int any = 0;
    for (uint32_t j = 0; j < k; j++)
        out->probe_lo_pct[j] = out->probe_hi_pct[j] = NAN;
    for (uint32_t i = s->n; i-- > 0;)
        if (s->h[i] > 0) {
            tot += s->h[i];
            if (!any)
                top = i;
            bot = i;
            any = 1;
        }
    if (!any)
        return;
    out->log2_paths = log2(tot) + s->ex;
    out->longest_ns = (double)s->base + (double)top * g;
    out->shortest_ns = (double)s->base + (double)bot * g;
    /* exact integer counts: nearest position; else continuous */
    int exact = s->ex == 0 && tot < 0x1p52;
    for (uint32_t j = 0; j < k; j++) {
        double f = oracle_slot_fraction(j, k);
        double p = exact ? nearbyint(f * (tot - 1)) : f * tot;
        double cum = 0;
        uint32_t at = bot;
        if (j == 0) {
            at = top;
        } else if (j + 1 < k) {
            for (uint32_t i = top + 1; i-- > bot;) {
                cum += s->h[i];
                if (cum > p) {
                    at = i;
                    break;
                }
            }
        }
        out->exact_ns[j] = (double)s->base + (double)at * g;
        if (probe && !isnan(probe[j])) {
            double above, here;
            place(s, top, bot, probe[j], g, &above, &here);
            if (exact && tot <= 1) {   /* one path: it is every percentile */
                out->probe_lo_pct[j] = 0;
                out->probe_hi_pct[j] = 100;
            } else if (exact) {        /* positions above .. above + here - 1 of 0 .. tot - 1 */
                out->probe_hi_pct[j] = 100.0 * (1.0 - above / (tot - 1));
                out->probe_lo_pct[j] = 100.0 * (1.0 - (above + here - 1) / (tot - 1));
            } else {
                out->probe_hi_pct[j] = 100.0 * (1.0 - above / tot);
                out->probe_lo_pct[j] = 100.0 * (1.0 - (above + here) / tot);
            }
        }
    }
    out->bound_ns = g > 1 ? (double)s->rounds * g / 2 : 0;
    out->ok = 1;
}

int oracle_percentiles(const rp_graph *g, uint32_t k, const double *probe_ns, rp_pctphase **out,
                       char *why, size_t nwhy)
{
    const rp_run *run = g->run;
    uint64_t nq = g->nphases;
    ostate o = {0};
    o.g = g;
    o.run = run;
    orank *t = calloc(run->nranks, sizeof *t);
    rp_pctphase *ph = calloc(nq ? nq : 1, sizeof *ph);
    dist *sinks = calloc(nq ? nq : 1, sizeof *sinks);
    int rc = -1;
    uint32_t stride = k;   /* of probe_ns */
    if (k > 64)
        k = 64;
    if (!t || !ph || !sinks || idtab_init(&o.sidx, 1024) != 0 || idtab_init(&o.cidx, 256) != 0 ||
        scan_edges(&o) != 0)
        goto out;
    /* tasks per phase: the finer grid where the phase is small enough */
    uint64_t *nt = calloc(nq ? nq : 1, sizeof *nt);
    if (!nt)
        goto out;
    for (uint32_t r = 0; r < run->nranks; r++)
        for (uint64_t i = 0; run->present[r] && i < run->rd[r].n_tasks; i++)
            if (run->rd[r].tasks[i].phase < nq)
                nt[run->rd[r].tasks[i].phase]++;
    for (uint64_t q = 0; q < nq; q++) {
        /* the grid spans the phase's range, not its longest path: every
         * vertex's paths reach the phase's end, so the costs of the paths
         * reaching it spread over at most that range, and the bound below
         * is in the unit the errors are measured in */
        int64_t L = g->ph[q].longest_ns > 0 ? g->ph[q].longest_ns : 1;
        int64_t R = g->ph[q].longest_ns - g->ph[q].shortest_ns;
        if (!g->ph[q].complete || R > L)
            R = L;   /* no trustworthy range: the longest path's */
        R = R > 0 ? R : 1;
        uint64_t bins = nt[q] ? RP_ORACLE_WORK / nt[q] : RP_ORACLE_BINS_MAX;
        bins = bins < RP_ORACLE_BINS_MIN ? RP_ORACLE_BINS_MIN
             : bins > RP_ORACLE_BINS_MAX ? RP_ORACLE_BINS_MAX : bins;
        /* and never finer than longest / 2^24: a histogram stays under
         * 2^24 bins (128 MB) even where the range argument failed */
        uint64_t gr = ((uint64_t)R + bins - 1) / bins, gl = ((uint64_t)L + (1u << 24) - 1) >> 24;
        ph[q].grid_ns = (double)(gr > gl ? gr : gl);
        ph[q].k = k;
    }
    free(nt);
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        t[r].cursor = 1;   /* event 0: MPI_Init's return, the phase's source */
        if (dist_unit(&t[r].cur) != 0)
            goto out;
        const rp_rankdata *d = &run->rd[r];
        while (t[r].edge_first < d->n_edges && d->edges[t[r].edge_first].event < 1)
            t[r].edge_first++;
    }
    for (int moved = 1; moved;) {
        moved = 0;
        for (uint32_t r = 0; r < run->nranks; r++)
            if (run->present[r] && advance(&o, r, &t[r], ph, sinks, nq, &moved) != 0)
                goto out;
    }
    for (uint32_t r = 0; r < run->nranks; r++) {
        const rp_rankdata *d = &run->rd[r];
        if (run->present[r] && t[r].cursor < (d->n_events ? d->n_events : 1)) {
            snprintf(why, nwhy, "rank %u's event %llu joins a path the oracle cannot order", r,
                     (unsigned long long)t[r].cursor);
            rc = 1;
            goto out;
        }
    }
    for (uint64_t q = 0; q < nq; q++)
        if (sinks[q].n)
            percentiles(&sinks[q], k, ph[q].grid_ns, probe_ns ? probe_ns + q * stride : NULL, &ph[q]);
    *out = ph;
    ph = NULL;
    rc = 0;
out:
    if (rc < 0)
        errno = ENOMEM;
    for (uint32_t r = 0; t && r < run->nranks; r++) {
        dist_free(&t[r].cur);
        dist_free(&t[r].pre);
    }
    for (uint64_t q = 0; sinks && q < nq; q++)
        dist_free(&sinks[q]);
    for (uint32_t i = 0; i < o.ns; i++)
        dist_free(&o.s[i].d);
    for (uint32_t i = 0; i < o.nc; i++) {
        dist_free(&o.c[i].sum);
        free(o.c[i].m);
    }
    free(o.s);
    free(o.c);
    idtab_free(&o.sidx);
    idtab_free(&o.cidx);
    free(sinks);
    free(ph);
    free(t);
    return rc;
}
