/* walk.c - every vertex of a trace's task graph in dependency order, with a
 * value carried along the paths (walk.h).
 *
 * Vertices are evaluated in a dependency order found by sweeping over the
 * ranks (a rank advances while what its next event joins is known), the
 * same order the longest-path walk (paths.c) uses.  A value is kept only
 * while a later vertex still needs it: each rank's current one, and the
 * message and collective sources not yet joined.  Values are opaque blobs
 * of ops->size bytes; moving one is a copy of its bytes. */
#include "common/walk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/idtab.h"

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

/* ---- sources: a vertex whose value a later vertex joins ------------------- */

typedef struct src {
    uint32_t rank;
    uint64_t event;
    int32_t  uses;       /* joins still to come */
    int      have;       /* its value holds the vertex's value before its own joins */
    void    *v;
} src;

typedef struct member {
    uint32_t rank, pos;
    uint32_t crank;      /* its rank in the communicator; UINT32_MAX: not recorded */
    uint32_t src;        /* its contribution's source id */
} member;

typedef struct wcoll {
    uint64_t  id;
    uint32_t  kind, size, root, phase_end;
    member   *m;
    uint32_t  nm, cm;
    int       summed;    /* sum holds every member's contribution (ALL, IN) */
    int32_t   uses;      /* joins of sum still to come */
    void     *sum;
    /* A blocking scan in a sequential walk (scan_value): member i's set
     * after t rounds at hs[i * (rounds + 1) + t]; freed when the last
     * member took its value (hs_left). */
    void    **hs;
    uint32_t  rounds, hs_left;
} wcoll;

typedef struct wstate {
    const rp_graph    *g;
    const rp_run      *run;
    const rp_walk_ops *ops;
    void              *ctx;
    src               *s;
    uint32_t           ns, cs;
    rp_idtab           sidx;
    wcoll             *c;
    uint32_t           nc, cc;
    rp_idtab           cidx;
    uint64_t           key;     /* lookups */
    uint32_t           key_rank;
    uint8_t           *sunk;    /* [nphases]: sink called */
} wstate;

/* A new empty value; NULL on ENOMEM. */
static void *val_new(const wstate *o)
{
    return calloc(1, o->ops->size);
}

static void val_free(const wstate *o, void *v)
{
    if (!v)
        return;
    o->ops->clear(o->ctx, v);
    free(v);
}

/* dst <- src's value, src left empty (a move: the bytes change hands) */
static void val_move(const wstate *o, void *dst, void *src)
{
    o->ops->clear(o->ctx, dst);
    memcpy(dst, src, o->ops->size);
    memset(src, 0, o->ops->size);
}

static int src_eq(const void *ctx, uint32_t id)
{
    const wstate *o = ctx;
    return o->s[id].rank == o->key_rank && o->s[id].event == o->key;
}

static uint64_t src_hash_of(uint32_t r, uint64_t e)
{
    uint64_t k[2] = {r, e};
    return rp_hash_bytes(k, sizeof k, 11);
}

static uint64_t src_rehash(const void *ctx, uint32_t id)
{
    const wstate *o = ctx;
    return src_hash_of(o->s[id].rank, o->s[id].event);
}

static uint32_t src_find(wstate *o, uint32_t r, uint64_t e)
{
    o->key_rank = r;
    o->key = e;
    return idtab_find(&o->sidx, src_hash_of(r, e), src_eq, o);
}

/* The source (r, e), created if new; UINT32_MAX on ENOMEM. */
static uint32_t src_get(wstate *o, uint32_t r, uint64_t e)
{
    uint32_t id = src_find(o, r, e);
    if (id != UINT32_MAX)
        return id;
    if (idtab_reserve(&o->sidx, src_rehash, o) != 0)
        return UINT32_MAX;
    if (grow1(&o->s, o->ns, &o->cs, sizeof *o->s, 256) != 0)
        return UINT32_MAX;
    void *v = val_new(o);
    if (!v)
        return UINT32_MAX;
    o->s[o->ns] = (src){r, e, 0, 0, v};
    o->key_rank = r;
    o->key = e;
    return idtab_intern(&o->sidx, src_hash_of(r, e), src_eq, o, o->ns++);
}

static int coll_eq(const void *ctx, uint32_t id)
{
    const wstate *o = ctx;
    return o->c[id].id == o->key;
}

static uint64_t coll_rehash(const void *ctx, uint32_t id)
{
    const wstate *o = ctx;
    return rp_hash_bytes(&o->c[id].id, sizeof o->c[id].id, 13);
}

/* Does rank r's event take collective c's sum (the join of every member's
 * contribution)?  An all-to-all's members do, and a reduce's root. */
static int takes_sum(const wcoll *c, uint32_t r)
{
    return c->kind == RP_COLL_ALL || (c->kind == RP_COLL_IN && r == c->root);
}

static wcoll *coll_get(wstate *o, const rp_edge *ed, int create)
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
    wcoll *c = &o->c[o->nc];
    memset(c, 0, sizeof *c);
    if (!(c->sum = val_new(o)))
        return NULL;
    c->id = ed->coll_id;
    c->kind = ed->coll_kind;
    c->size = ed->size;
    c->root = ed->root;
    c->phase_end = ed->phase_end;
    o->key = ed->coll_id;
    idtab_intern(&o->cidx, h, coll_eq, o, o->nc++);
    return c;
}

/* Members in the order the runtime's exchange takes them: by rank in the
 * communicator (the dissemination's positions, a reduce root's join order;
 * lib/mpi/wrap_coll.c), as the rank files record it.
 * Older files do not: world order then, which is the same wherever the
 * communicator keeps the world's order. */
static int cmp_member(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->crank != y->crank)
        return x->crank < y->crank ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static void order_members(wcoll *c)
{
    int sorted = 1;
    for (uint32_t i = 0; i < c->nm; i++) {
        if (c->m[i].crank == UINT32_MAX)
            return;
        if (i && c->m[i].crank < c->m[i - 1].crank)
            sorted = 0;
    }
    if (!sorted)   /* members arrive in world order: most communicators keep it */
        qsort(c->m, c->nm, sizeof *c->m, cmp_member);
}

/* Does the walk join a non-blocking collective's contributions one by one
 * at each member's completion, as the runtime does (lib/mpi/wrap_coll.c
 * rp_nbc_complete: every member's set as of its call, in communicator
 * order, into the member's own)?  The sequential walk does; otherwise an
 * all-to-all's contributions are summed once. */
static int joins_each(const wstate *o, const rp_edge *ed)
{
    return o->ops->sequential && ed->part != RP_PART_BOTH;
}

/* The scan: register every source and collective member with its number of
 * joins, so a value is freed after its last one. */
static int scan_edges(wstate *o)
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
            wcoll *c = coll_get(o, ed, 1);
            if (!c)
                return -1;
            if (ed->part == RP_PART_JOIN) {
                if (takes_sum(c, r))
                    c->uses++;
                continue;
            }
            if (ed->part == RP_PART_BOTH && takes_sum(c, r))
                c->uses++;
            /* a contribution: who joins it? */
            int32_t uses = 0;
            uint32_t pos = c->kind == RP_COLL_SCAN ? ed->root : r;
            if (c->kind == RP_COLL_ALL && joins_each(o, ed))
                uses = (int32_t)c->size;           /* every member joins it */
            else if (c->kind == RP_COLL_ALL || c->kind == RP_COLL_IN)
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
            /* a scan's position is its rank in the communicator, in every
             * file version */
            uint32_t crank = ed->bytes ? ed->bytes - 1
                           : c->kind == RP_COLL_SCAN ? pos : UINT32_MAX;
            c->m[c->nm++] = (member){r, pos, crank, s};
        }
    }
    for (uint32_t i = 0; i < o->nc; i++)
        order_members(&o->c[i]);
    return 0;
}

static void src_used(wstate *o, uint32_t s)
{
    if (--o->s[s].uses <= 0)
        o->ops->clear(o->ctx, o->s[s].v);
}

/* ---- the evaluation ------------------------------------------------------- */

typedef struct wrank {
    uint64_t        cursor;     /* next event */
    int             arrived;    /* pre holds cursor's value before its joins */
    uint64_t        phase;
    void           *cur, *pre;
    uint64_t        edge_first; /* first edge of cursor's event */
} wrank;

/* Which members' contributions the event of rank r joins, in collective
 * c at scan position pos: all (allreduce; a reduce's root), the root's
 * (a broadcast's other members), the first pos + 1 (scan).  ready and
 * finish agree through this one rule. */
static int member_joined(const wcoll *c, const member *mb, uint32_t r, uint32_t pos)
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

/* One input an event joins: a message (src) or a collective it takes a
 * result of (c, with the event's scan position pos). */
typedef struct wjoin {
    const rp_edge *ed;
    uint32_t       src;   /* a message's source; UINT32_MAX for a collective */
    wcoll         *c;
    uint32_t       pos;
} wjoin;

/* The next input of rank r's event among its edges [*i, e_end), in edge
 * order: 1, or 0 when there is none.  Dangling messages (the longest-path
 * walk ignores them too), sources never registered and contributions (the
 * event gives them, it does not join them) are skipped.  ready and finish
 * agree through this one filter. */
static int next_join(wstate *o, uint32_t r, uint64_t *i, uint64_t e_end, wjoin *j)
{
    const rp_rankdata *d = &o->run->rd[r];
    while (*i < e_end) {
        const rp_edge *ed = &d->edges[(*i)++];
        if (ed->kind == RP_EDGE_MSG) {
            if (!o->run->present[ed->peer] || ed->peer_event == 0)
                continue;
            uint32_t s = src_find(o, ed->peer, ed->peer_event);
            if (s == UINT32_MAX)
                continue;
            *j = (wjoin){ed, s, NULL, 0};
            return 1;
        }
        if (ed->part == RP_PART_CONTRIB)
            continue;
        wcoll *c = coll_get(o, ed, 0);
        if (!c)
            continue;
        *j = (wjoin){ed, UINT32_MAX, c, c->kind == RP_COLL_SCAN ? ed->root : r};
        return 1;
    }
    return 0;
}

/* Is everything rank r's current event joins known?  Contributions of a
 * collective are known once every member needed has arrived. */
static int ready(wstate *o, uint32_t r, wrank *t, uint64_t e_end)
{
    wjoin j;
    for (uint64_t i = t->edge_first; next_join(o, r, &i, e_end, &j);) {
        if (!j.c) {
            if (!o->s[j.src].have)
                return 0;
            continue;
        }
        wcoll *c = j.c;
        int need_all = takes_sum(c, r);
        if (need_all && c->summed)
            continue;
        uint32_t got = 0;
        for (uint32_t m = 0; m < c->nm; m++) {
            if (!member_joined(c, &c->m[m], r, j.pos))
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

/* c's sum <- the join of every member's contribution: an all-to-all's by
 * ops->coll when there is one; else in member order, except that a
 * sequential walk starts a reduce from its root's own set, as the
 * runtime's root joins the others' into its own (lib/mpi/wrap_coll.c). */
static int coll_sum(wstate *o, wcoll *c, uint64_t phase)
{
    const rp_walk_ops *ops = o->ops;
    int rc = 0;
    if (ops->coll && c->nm > 1 && c->kind == RP_COLL_ALL) {
        const void **mv = malloc(c->nm * sizeof *mv);
        if (!mv)
            return -1;
        for (uint32_t m = 0; m < c->nm; m++)
            mv[m] = o->s[c->m[m].src].v;
        rc = ops->coll(o->ctx, c->sum, mv, c->nm, (int)c->phase_end, phase);
        free(mv);
    } else {
        uint32_t first = c->nm;   /* a member joined before the others */
        for (uint32_t m = 0; ops->sequential && c->kind == RP_COLL_IN && m < c->nm; m++)
            if (c->m[m].rank == c->root)
                first = m;
        if (first < c->nm)
            rc = ops->add(o->ctx, c->sum, o->s[c->m[first].src].v, phase);
        for (uint32_t m = 0; m < c->nm && rc == 0; m++)
            if (m != first)
                rc = ops->add(o->ctx, c->sum, o->s[c->m[m].src].v, phase);
    }
    for (uint32_t m = 0; m < c->nm; m++)
        src_used(o, c->m[m].src);
    return rc;
}

/* The runtime's blocking scan (lib/mpi/wrap_coll.c rp_hook_coll_scan):
 * recursive doubling over the members in communicator order; in round t
 * (d = 2^(t-1)) member i >= d joins member i - d's set after round t - 1
 * into its own.  H(i, t), member i's set after t rounds, memoised in c;
 * NULL on ENOMEM. */
static void *scan_h(wstate *o, wcoll *c, uint32_t i, uint32_t t, uint64_t ph)
{
    void **slot = &c->hs[(size_t)i * (c->rounds + 1) + t];
    if (*slot)
        return *slot;
    void *v = val_new(o);
    if (!v)
        return NULL;
    int rc;
    if (t == 0) {
        rc = o->ops->add(o->ctx, v, o->s[c->m[i].src].v, ph);
    } else {
        uint32_t d = 1u << (t - 1);
        void *a = scan_h(o, c, i, t - 1, ph), *b = i >= d ? scan_h(o, c, i - d, t - 1, ph) : NULL;
        rc = !a || (i >= d && !b) ? -1 : o->ops->add(o->ctx, v, a, ph);
        if (rc == 0 && b)
            rc = o->ops->add(o->ctx, v, b, ph);
    }
    if (rc != 0) {
        val_free(o, v);
        return NULL;
    }
    return *slot = v;
}

static void scan_free(wstate *o, wcoll *c)
{
    for (size_t i = 0; c->hs && i < (size_t)c->size * (c->rounds + 1); i++)
        val_free(o, c->hs[i]);
    free(c->hs);
    c->hs = NULL;
}

/* Position pos's result of blocking scan c in a sequential walk: 1 with
 * *v set, 0 when the walk takes the members one by one instead (a member
 * missing: its rank file is absent, and the walk stops there anyway), -1
 * on ENOMEM.  Members are in position order (order_members), so member i
 * holds position i. */
static int scan_value(wstate *o, wcoll *c, uint32_t pos, uint64_t ph, void **v)
{
    if (!c->hs) {
        if (c->nm != c->size)
            return 0;
        for (uint32_t m = 0; m < c->nm; m++)
            if (c->m[m].pos != m)
                return 0;
        c->rounds = 0;
        while ((1u << c->rounds) < c->size)
            c->rounds++;
        c->hs_left = c->size;
        c->hs = calloc((size_t)c->size * (c->rounds + 1), sizeof *c->hs);
        if (!c->hs)
            return -1;
    }
    *v = scan_h(o, c, pos, c->rounds, ph);
    return *v ? 1 : -1;
}

/* Does input j of rank r's event replace the event's predecessor's value?
 * A blocking collective whose result the event takes: a sum, or a scan. */
static int join_replaces(const wjoin *j, uint32_t r)
{
    return j->c && j->ed->part == RP_PART_BOTH &&
           (takes_sum(j->c, r) || j->c->kind == RP_COLL_SCAN);
}

/* Does any input of rank r's event replace its predecessor's value? */
static int replaces(wstate *o, uint32_t r, const wrank *t, uint64_t e_end)
{
    wjoin j;
    for (uint64_t i = t->edge_first; next_join(o, r, &i, e_end, &j);)
        if (join_replaces(&j, r))
            return 1;
    return 0;
}

/* Finalise rank r's current event: its value after the joins.  base and
 * msgs: two empty scratch values. */
static int finish(wstate *o, uint32_t r, wrank *t, uint64_t e_end, void *base, void *msgs)
{
    const rp_walk_ops *ops = o->ops;
    uint64_t ph = t->phase;
    int replaced = 0, phase_end = 0;
    wcoll *pe_coll = NULL;
    /* what the event joins goes to acc: collected apart (msgs), or, for
     * ops->sequential, into the predecessor's value one by one in edge
     * order, as the runtime joins them */
    void *acc = msgs;
    int pre_in = 0;
    if (ops->sequential && !replaces(o, r, t, e_end)) {
        val_move(o, base, t->pre);
        acc = base;
        pre_in = 1;
    }
    wjoin j;
    for (uint64_t i = t->edge_first; next_join(o, r, &i, e_end, &j);) {
        if (!j.c) {
            if (ops->add(o->ctx, acc, o->s[j.src].v, ph) != 0)
                return -1;
            src_used(o, j.src);
            continue;
        }
        const rp_edge *ed = j.ed;
        wcoll *c = j.c;
        uint32_t pos = j.pos;
        int repl = join_replaces(&j, r);
        replaced |= repl;
        if (takes_sum(c, r) && joins_each(o, ed)) {
            for (uint32_t m = 0; m < c->nm; m++) {
                if (ops->add(o->ctx, acc, o->s[c->m[m].src].v, ph) != 0)
                    return -1;
                src_used(o, c->m[m].src);
            }
        } else if (takes_sum(c, r)) {
            if (!c->summed) {
                if (coll_sum(o, c, ph) != 0)
                    return -1;
                c->summed = 1;
            }
            /* blocking: the member's own path is in the sum; non-blocking
             * (a JOIN at completion): its own chain since the call is a
             * path of its own, beside the collective's */
            if (ops->add(o->ctx, repl ? base : acc, c->sum, ph) != 0)
                return -1;
            if (ed->phase_end) {
                phase_end = 1;
                pe_coll = c;
            }
            if (!ed->phase_end && --c->uses <= 0)
                ops->clear(o->ctx, c->sum);
        } else if (c->kind == RP_COLL_OUT || c->kind == RP_COLL_SCAN) {
            /* a broadcast's root joins nothing; a scan replaces the path
             * like an allreduce when blocking (a sequential walk: with the
             * runtime's recursive doubling) */
            void *h = NULL;
            int hs = ops->sequential && c->kind == RP_COLL_SCAN && ed->part == RP_PART_BOTH
                   ? scan_value(o, c, pos, ph, &h) : 0;
            if (hs < 0 || (hs && ops->add(o->ctx, repl ? base : acc, h, ph) != 0))
                return -1;
            for (uint32_t m = 0; m < c->nm; m++)
                if (member_joined(c, &c->m[m], r, pos)) {
                    if (!hs && ops->add(o->ctx, repl ? base : acc, o->s[c->m[m].src].v, ph) != 0)
                        return -1;
                    src_used(o, c->m[m].src);
                }
            if (hs && --c->hs_left == 0)
                scan_free(o, c);
        }
    }
    if (!pre_in && !replaced) {   /* (else base started as pre, or replaced it) */
        if (ops->empty(base))     /* the usual event: base is pre, moved */
            val_move(o, base, t->pre);
        else if (ops->add(o->ctx, base, t->pre, ph) != 0)
            return -1;
    }
    if (!ops->empty(msgs) && ops->add(o->ctx, base, msgs, ph) != 0)
        return -1;
    ops->clear(o->ctx, msgs);
    ops->clear(o->ctx, t->pre);
    t->arrived = 0;
    if (phase_end) {
        uint64_t q = t->phase;
        if (q < o->g->nphases && !o->sunk[q]) {
            o->sunk[q] = 1;
            if (ops->sink(o->ctx, q, pe_coll->sum) != 0)
                return -1;
        }
        if (--pe_coll->uses <= 0)
            ops->clear(o->ctx, pe_coll->sum);
        ops->clear(o->ctx, base);
        t->phase++;
        return ops->unit(o->ctx, t->cur);
    }
    val_move(o, t->cur, base);
    return 0;
}

/* Advance rank r as far as it can go; *moved set when it did. */
static int advance(wstate *o, uint32_t r, wrank *t, void *base, void *msgs, int *moved)
{
    const rp_walk_ops *ops = o->ops;
    const rp_rankdata *d = &o->run->rd[r];
    uint64_t n = d->n_events ? d->n_events : 1;
    while (t->cursor < n) {
        uint64_t e = t->cursor;
        uint64_t e_end = t->edge_first;
        while (e_end < d->n_edges && d->edges[e_end].event == e)
            e_end++;
        if (!t->arrived) {
            const rp_task *tk = graph_task(o->g, r, e);
            /* cur is not read again before finish() replaces it: moved */
            val_move(o, t->pre, t->cur);
            if (tk && !ops->empty(t->pre))
                ops->shift(o->ctx, t->pre, tk->cost_ns);
            t->arrived = 1;
            uint32_t s = src_find(o, r, e);
            if (s != UINT32_MAX && o->s[s].uses > 0) {
                ops->clear(o->ctx, o->s[s].v);
                if (ops->add(o->ctx, o->s[s].v, t->pre, t->phase) != 0)
                    return -1;
                o->s[s].have = 1;
                *moved = 1;
            }
        }
        if (!ready(o, r, t, e_end))
            return 0;
        if (finish(o, r, t, e_end, base, msgs) != 0)
            return -1;
        t->edge_first = e_end;
        t->cursor++;
        *moved = 1;
    }
    return 0;
}

int walk_graph(const rp_graph *g, const rp_walk_ops *ops, void *ctx, char *why, size_t nwhy)
{
    const rp_run *run = g->run;
    wstate o = {0};
    o.g = g;
    o.run = run;
    o.ops = ops;
    o.ctx = ctx;
    wrank *t = calloc(run->nranks ? run->nranks : 1, sizeof *t);
    void *base = val_new(&o), *msgs = val_new(&o);
    o.sunk = calloc(g->nphases ? g->nphases : 1, 1);
    int rc = -1;
    if (!t || !base || !msgs || !o.sunk || idtab_init(&o.sidx, 1024) != 0 ||
        idtab_init(&o.cidx, 256) != 0 || scan_edges(&o) != 0)
        goto out;
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        t[r].cursor = 1;   /* event 0: MPI_Init's return, the phase's source */
        if (!(t[r].cur = val_new(&o)) || !(t[r].pre = val_new(&o)) || ops->unit(ctx, t[r].cur) != 0)
            goto out;
        const rp_rankdata *d = &run->rd[r];
        while (t[r].edge_first < d->n_edges && d->edges[t[r].edge_first].event < 1)
            t[r].edge_first++;
    }
    for (int moved = 1; moved;) {
        moved = 0;
        for (uint32_t r = 0; r < run->nranks; r++)
            if (run->present[r] && advance(&o, r, &t[r], base, msgs, &moved) != 0)
                goto out;
    }
    rc = 0;
    for (uint32_t r = 0; r < run->nranks; r++) {
        const rp_rankdata *d = &run->rd[r];
        if (run->present[r] && t[r].cursor < (d->n_events ? d->n_events : 1)) {
            snprintf(why, nwhy, "rank %u's event %llu joins a path the walk cannot order", r,
                     (unsigned long long)t[r].cursor);
            rc = 1;
            break;
        }
    }
out:
    if (rc < 0)
        errno = ENOMEM;
    for (uint32_t r = 0; t && r < run->nranks; r++) {
        val_free(&o, t[r].cur);
        val_free(&o, t[r].pre);
    }
    val_free(&o, base);
    val_free(&o, msgs);
    for (uint32_t i = 0; i < o.ns; i++)
        val_free(&o, o.s[i].v);
    for (uint32_t i = 0; i < o.nc; i++) {
        val_free(&o, o.c[i].sum);
        scan_free(&o, &o.c[i]);
        free(o.c[i].m);
    }
    free(o.s);
    free(o.c);
    free(o.sunk);
    idtab_free(&o.sidx);
    idtab_free(&o.cidx);
    free(t);
    return rc;
}
