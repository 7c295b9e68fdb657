/* model.c - aggregation for rp-report: totals, hotspots, the view tree. */
#include "report/model.h"
#include "core/config.h"    /* config_phase_k_default */
#include "core/pathset.h"   /* RP_SELECT_* */
#include "common/idtab.h"
#include "common/frames.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

double report_percentile(uint32_t j, uint32_t k)
{
    if (k <= 1)
        return 100.0;
    return 100.0 * (double)(k - 1 - j) / (double)(k - 1);
}

const char *report_level_label(const rp_profile *p, uint32_t j, char *buf, size_t n)
{
    uint32_t k = p->k;
    if (j == 0)
        return "longest, exact";
    if (j + 1 == k)
        return "shortest, exact";
    if (p->select == RP_SELECT_TOPK) {
        uint32_t top = (k + 1) / 2, r = j < top ? j + 1 : k - j;
        /* English ordinals: 2nd, 3rd, 4th, 11th-13th, 21st, 22nd, ... */
        const char *suf = r % 100 >= 11 && r % 100 <= 13 ? "th"
                        : r % 10 == 1 ? "st" : r % 10 == 2 ? "nd" : r % 10 == 3 ? "rd" : "th";
        snprintf(buf, n, "%u%s %s kept", r, suf, j < top ? "longest" : "shortest");
        return buf;
    }
    return "estimated percentile";
}

/* The accuracy benchmark's measured errors (doc/accuracy.md "Measured",
 * `ACC_RUNS=8 bench/accuracy/run.sh`: 1-D halo, 2-D stencil and
 * master-worker at 8 and 16 ranks, 21 phases each, seeds 1-8 pooled): per
 * rule, k, middle level and phase-end exchange (wide: RP_PHASE_K's;
 * not: every exchange before it, and RP_PHASE_K=1; both
 * rules from the same runs, 2026-11-26), the largest per-program median
 * and the worst phase, % of a phase's longest - shortest, then the same of
 * the rank error in percentile points (pool.py's last column).  Update
 * both together. */
typedef struct lerr { uint8_t sel, k, j, wide; float med, worst, rmed, rworst; } lerr;
static const lerr level_errors[] = {
    { RP_SELECT_REPR, 3, 1, 1, 1.3f, 7.6f, 5.4f, 22.2f },
    { RP_SELECT_REPR, 5, 1, 1, 0.8f, 7.6f, 2.4f, 11.2f },
    { RP_SELECT_REPR, 5, 2, 1, 0.6f, 3.9f, 2.5f, 11.5f },
    { RP_SELECT_REPR, 5, 3, 1, 1.0f, 4.0f, 3.2f, 11.7f },
    { RP_SELECT_REPR, 9, 1, 1, 0.8f, 3.7f, 1.0f, 4.0f },
    { RP_SELECT_REPR, 9, 2, 1, 0.4f, 3.7f, 1.2f, 10.7f },
    { RP_SELECT_REPR, 9, 3, 1, 0.3f, 1.7f, 0.9f, 5.5f },
    { RP_SELECT_REPR, 9, 4, 1, 0.3f, 1.6f, 1.1f, 7.1f },
    { RP_SELECT_REPR, 9, 5, 1, 0.3f, 1.6f, 1.1f, 5.4f },
    { RP_SELECT_REPR, 9, 6, 1, 0.3f, 2.0f, 1.2f, 5.1f },
    { RP_SELECT_REPR, 9, 7, 1, 0.7f, 3.5f, 1.5f, 5.8f },
    { RP_SELECT_REPR, 3, 1, 0, 1.6f, 9.1f, 5.6f, 24.6f },
    { RP_SELECT_REPR, 5, 1, 0, 1.7f, 11.1f, 3.8f, 15.3f },
    { RP_SELECT_REPR, 5, 2, 0, 1.3f, 6.7f, 3.7f, 17.8f },
    { RP_SELECT_REPR, 5, 3, 0, 1.2f, 6.4f, 4.0f, 13.9f },
    { RP_SELECT_REPR, 9, 1, 0, 1.6f, 9.9f, 2.0f, 8.0f },
    { RP_SELECT_REPR, 9, 2, 0, 1.0f, 4.2f, 2.0f, 7.7f },
    { RP_SELECT_REPR, 9, 3, 0, 0.9f, 3.3f, 2.3f, 8.2f },
    { RP_SELECT_REPR, 9, 4, 0, 0.8f, 3.0f, 2.3f, 9.3f },
    { RP_SELECT_REPR, 9, 5, 0, 0.6f, 3.5f, 2.0f, 8.5f },
    { RP_SELECT_REPR, 9, 6, 0, 0.7f, 3.2f, 2.1f, 8.4f },
    { RP_SELECT_REPR, 9, 7, 0, 0.9f, 4.7f, 2.0f, 7.1f },
    { RP_SELECT_PAPER, 3, 1, 0, 28.3f, 40.1f, 49.9f, 50.0f },
    { RP_SELECT_PAPER, 5, 1, 0, 41.4f, 51.1f, 25.0f, 25.0f },
    { RP_SELECT_PAPER, 5, 2, 0, 22.0f, 29.9f, 48.9f, 49.9f },
    { RP_SELECT_PAPER, 5, 3, 0, 21.5f, 34.3f, 25.0f, 25.0f },
    { RP_SELECT_PAPER, 9, 1, 0, 35.6f, 47.5f, 12.5f, 12.5f },
    { RP_SELECT_PAPER, 9, 2, 0, 29.6f, 47.9f, 25.0f, 25.0f },
    { RP_SELECT_PAPER, 9, 3, 0, 28.3f, 48.7f, 37.4f, 37.5f },
    { RP_SELECT_PAPER, 9, 4, 0, 13.9f, 24.1f, 44.7f, 49.7f },
    { RP_SELECT_PAPER, 9, 5, 0, 13.8f, 27.8f, 37.6f, 57.0f },
    { RP_SELECT_PAPER, 9, 6, 0, 14.7f, 29.5f, 24.3f, 41.4f },
    { RP_SELECT_PAPER, 9, 7, 0, 17.6f, 35.2f, 12.5f, 12.5f },
};

int report_phase_k_unmeasured(const rp_profile *p)
{
    return p->select == RP_SELECT_REPR && p->phase_k > p->k &&
           p->phase_k != config_phase_k_default(p->k);
}

int report_level_error(const rp_profile *p, uint32_t j, rp_level_error *out)
{
    /* the phase-end exchange was wide (lib/exchange/collpaths.c) if the
     * rank files say so (phase_k); older ones only by the
     * counter, and at 2 ranks it is skipped as picking the same, and 1 has
     * none */
    int wide = p->phase_k ? p->phase_k > p->k
                          : report_counter(p, "phase_exchanges_wide") > 0 || p->nranks <= 2;
    if (p->select != RP_SELECT_REPR)
        wide = 0;   /* only the weighted rule widens */
    /* the figures are the default width's: another was not measured */
    if (report_phase_k_unmeasured(p))
        return 0;
    for (size_t i = 0; i < sizeof level_errors / sizeof *level_errors; i++) {
        const lerr *e = &level_errors[i];
        if (e->sel == p->select && e->k == p->k && e->j == j && e->wide == wide) {
            out->median = e->med;
            out->worst = e->worst;
            out->rank_median = e->rmed;
            out->rank_worst = e->rworst;
            return 1;
        }
    }
    return 0;
}

int64_t report_total(const rp_profile *p, uint32_t col)
{
    int64_t t = 0;
    if (col >= p->n_metrics)
        return 0;
    for (uint32_t i = 0; i < p->n_nodes; i++) {
        int64_t v = p->metrics[(size_t)i * p->n_metrics + col];
        t = (v > INT64_MAX - t) ? INT64_MAX : t + v;
    }
    return t;
}

uint64_t report_counter(const rp_profile *p, const char *name)
{
    for (uint32_t i = 0; i < p->n_counters; i++)
        if (strcmp(p->counters[i].name, name) == 0)
            return p->counters[i].value;
    return 0;
}

void report_unknown(const rp_profile *p, uint32_t col, int64_t out[RP_UNK_N])
{
    memset(out, 0, RP_UNK_N * sizeof *out);
    if (col >= p->n_metrics)
        return;
    for (uint32_t i = 1; i < p->n_nodes; i++) {
        const rp_psym *y = &p->syms[p->nodes[i].sym];
        if (y->kind != RP_SYM_UNKNOWN)
            continue;
        int64_t v = p->metrics[(size_t)i * p->n_metrics + col];
        out[RP_UNK_FRAME] += v;     /* every node under "<unknown>" */
        if (y->offset > 0 && y->offset < RP_UNK_N)
            out[y->offset] += v;
    }
}

/* ---- hotspots: hash (func, file, line) -> sum ------------------------------ */

static int cmp_hot(const void *a, const void *b)
{
    const rp_hot *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->func != y->func)
        return x->func < y->func ? -1 : 1;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

typedef struct {
    const rp_hot *v;
    rp_hot        key;
    int           by_func;
} hot_key;

static int hot_eq(const void *ctx, uint32_t id)
{
    const hot_key *k = ctx;
    const rp_hot *h = &k->v[id];
    return h->func == k->key.func && h->kind == k->key.kind &&
           (k->by_func || (h->file == k->key.file && h->line == k->key.line));
}

static int32_t hot(const rp_profile *p, uint32_t col, int by_func, rp_hot **out)
{
    *out = NULL;
    if (col >= p->n_metrics)
        return 0;
    rp_idtab idx;
    rp_hot *v = malloc((size_t)p->n_nodes * sizeof *v);
    if (idtab_init(&idx, p->n_nodes) != 0 || !v) {
        idtab_free(&idx);
        free(v);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t i = 1; i < p->n_nodes; i++) {
        int64_t ns = p->metrics[(size_t)i * p->n_metrics + col];
        if (ns == 0)
            continue;
        const rp_pframe *f = frames_leaf(p, p->nodes[i].sym);
        uint32_t kind = p->nodes[i].sym < p->n_syms ? frames_kind(p, p->nodes[i].sym) : 0;
        rp_pframe g = *f;
        if (kind == FRAMES_PROFILER) {
            /* the outermost rpprof frame above: the wrapper the time was in */
            uint32_t top = i;
            while (p->nodes[top].parent != 0 && p->nodes[top].parent != UINT32_MAX &&
                   frames_kind(p, p->nodes[p->nodes[top].parent].sym) == FRAMES_PROFILER)
                top = p->nodes[top].parent;
            g = (rp_pframe){p->frames[p->syms[p->nodes[top].sym].first].func, 0, 0};
        } else if (kind == FRAMES_NOSYM) {
            g = (rp_pframe){p->syms[p->nodes[i].sym].module, 0, 0};
        }
        f = &g;
        uint32_t key[4] = {f->func, by_func ? 0 : f->file, by_func ? 0 : f->line, kind};
        /* by function: keep the file of the first line seen, line 0 */
        hot_key k = {v, {f->func, f->file, by_func ? 0 : f->line, ns, kind}, by_func};
        uint32_t id = idtab_intern(&idx, rp_hash_bytes(key, sizeof key, 7), hot_eq, &k, n);
        if (id == n) {
            v[n++] = k.key;
        } else {
            rp_hot *h = &v[id];
            h->ns = ns > INT64_MAX - h->ns ? INT64_MAX : h->ns + ns;
        }
    }
    idtab_free(&idx);
    qsort(v, n, sizeof *v, cmp_hot);
    *out = v;
    return (int32_t)n;
}

void report_hot_name(const rp_profile *p, const rp_hot *h, char *out, size_t n)
{
    frames_display(out, n, h->kind, p->strs[h->func], p->strs[h->func]);
}

int32_t report_hot_lines(const rp_profile *p, uint32_t col, rp_hot **out)
{
    return hot(p, col, 0, out);
}

int32_t report_hot_funcs(const rp_profile *p, uint32_t col, rp_hot **out)
{
    return hot(p, col, 1, out);
}

/* ---- the view tree ------------------------------------------------------------ */

/* Two symbols display the same if their frame lists are equal: canon[]
 * maps each symbol to the first one with its frames. */
static uint64_t sym_hash(const rp_profile *p, uint32_t s)
{
    const rp_psym *y = &p->syms[s];
    uint64_t h = y->kind;
    for (uint32_t i = 0; i < y->n; i++) {
        const rp_pframe *f = &p->frames[y->first + i];
        uint32_t k[3] = {f->func, f->file, f->line};
        h = rp_hash_bytes(k, sizeof k, h);
    }
    return h;
}

typedef struct {
    const rp_profile *p;
    uint32_t          s;
} sym_key;

static int sym_same(const rp_profile *p, uint32_t a, uint32_t b)
{
    const rp_psym *x = &p->syms[a], *y = &p->syms[b];
    if (x->kind != y->kind || x->n != y->n)
        return 0;
    for (uint32_t i = 0; i < x->n; i++) {
        const rp_pframe *f = &p->frames[x->first + i], *g = &p->frames[y->first + i];
        if (f->func != g->func || f->file != g->file || f->line != g->line)
            return 0;
    }
    return 1;
}

static int sym_eq(const void *ctx, uint32_t id)
{
    const sym_key *k = ctx;
    return sym_same(k->p, id, k->s);
}

typedef struct {
    const rp_view *v;
    uint32_t       parent, sym;
} vnode_key;

static int vnode_eq(const void *ctx, uint32_t id)
{
    const vnode_key *k = ctx;
    return k->v->nodes[id].parent == k->parent && k->v->nodes[id].sym == k->sym;
}

void report_view_free(rp_view *v)
{
    free(v->nodes);
    free(v->excl);
    free(v->incl);
    memset(v, 0, sizeof *v);
}

int report_view(const rp_profile *p, rp_view *v)
{
    memset(v, 0, sizeof *v);
    uint32_t n = p->n_nodes, nm = p->n_metrics;
    rp_idtab idx = {0};
    uint32_t *canon = malloc((size_t)(p->n_syms ? p->n_syms : 1) * sizeof *canon);
    uint32_t *map = malloc((size_t)n * sizeof *map);
    v->nodes = malloc((size_t)n * sizeof *v->nodes);
    v->excl = calloc((size_t)n * nm, sizeof *v->excl);
    v->incl = calloc((size_t)n * nm, sizeof *v->incl);
    int rc = -1;
    if (!canon || !map || !v->nodes || !v->excl || !v->incl ||
        idtab_init(&idx, p->n_syms) != 0)
        goto out;
    for (uint32_t s = 0; s < p->n_syms; s++) {
        sym_key k = {p, s};
        canon[s] = idtab_intern(&idx, sym_hash(p, s), sym_eq, &k, s);
    }
    idtab_free(&idx);
    /* a module without symbols: all its addresses are one symbol (the
     * first seen), found through a table indexed by the module's string */
    uint32_t *first_of = malloc((size_t)(p->n_strs ? p->n_strs : 1) * sizeof *first_of);
    if (!first_of)
        goto out;
    memset(first_of, 0xff, (size_t)(p->n_strs ? p->n_strs : 1) * sizeof *first_of);
    for (uint32_t s = 0; s < p->n_syms; s++) {
        if (frames_kind(p, s) != FRAMES_NOSYM || p->syms[s].module >= p->n_strs)
            continue;
        uint32_t *fo = &first_of[p->syms[s].module];
        if (*fo == UINT32_MAX)
            *fo = canon[s];
        canon[s] = *fo;
    }
    free(first_of);
    if (idtab_init(&idx, n) != 0)
        goto out;
    v->nm = nm;
    v->nodes[0] = (rp_vnode){UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, 0};
    v->n = 1;
    map[0] = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t par = map[p->nodes[i].parent], sym = canon[p->nodes[i].sym];
        /* inside rpprof (or a library without symbols) below a frame of
         * the same kind: fold into that frame */
        uint32_t kind = frames_kind(p, sym);
        if (par != 0 && kind != FRAMES_CODE) {
            uint32_t pk = frames_kind(p, v->nodes[par].sym);
            if (pk == kind && (kind == FRAMES_PROFILER ||
                               p->syms[v->nodes[par].sym].module == p->syms[sym].module)) {
                map[i] = par;
                continue;
            }
        }
        uint32_t key[2] = {par, sym};
        vnode_key k = {v, par, sym};
        uint32_t id = idtab_intern(&idx, rp_hash_bytes(key, sizeof key, 3), vnode_eq, &k, v->n);
        if (id == v->n) {
            v->n++;
            v->nodes[id] = (rp_vnode){par, sym, UINT32_MAX, v->nodes[par].first_child,
                                      v->nodes[par].depth + 1};
            v->nodes[par].first_child = id;
        }
        map[i] = id;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t c = 0; c < nm; c++)
            v->excl[(size_t)map[i] * nm + c] += p->metrics[(size_t)i * nm + c];
    memcpy(v->incl, v->excl, (size_t)v->n * nm * sizeof *v->incl);
    /* children have larger ids than their parents: one backward pass */
    for (uint32_t i = v->n; i-- > 1;)
        for (uint32_t c = 0; c < nm; c++)
            v->incl[(size_t)v->nodes[i].parent * nm + c] += v->incl[(size_t)i * nm + c];
    rc = 0;
out:
    idtab_free(&idx);
    free(canon);
    free(map);
    if (rc)
        report_view_free(v);
    return rc;
}

static const rp_view *sort_view;
static uint32_t sort_col;

static int cmp_child(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int64_t vx = sort_view->incl[(size_t)x * sort_view->nm + sort_col];
    int64_t vy = sort_view->incl[(size_t)y * sort_view->nm + sort_col];
    if (vx != vy)
        return vx > vy ? -1 : 1;
    return x < y ? -1 : x > y;
}

uint32_t report_children(const rp_view *v, uint32_t node, uint32_t col, uint32_t *out,
                         uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t c = v->nodes[node].first_child; c != UINT32_MAX && n < max;
         c = v->nodes[c].next_sibling)
        out[n++] = c;
    sort_view = v;
    sort_col = col;
    qsort(out, n, sizeof *out, cmp_child);
    return n;
}
