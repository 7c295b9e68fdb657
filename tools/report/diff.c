/* diff.c - matching two runs for rp-report --diff (diff.h). */
#include "report/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/frames.h"
#include "common/names.h"
#include "report/model.h"
#include "report/precision.h"
#include "report/ranks.h"
#include "report/sites.h"

uint32_t diff_levels(const rp_diffside *a, const rp_diffside *b, rp_difflevel *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->p->k; i++) {
        double q = report_percentile(i, a->p->k);
        for (uint32_t j = 0; j < b->p->k; j++) {
            /* percentiles are 100 (k-1-j)/(k-1): equal ones compare exactly
             * up to rounding; 1e-9 points apart is the same level */
            double d = q - report_percentile(j, b->p->k);
            if (d > -1e-9 && d < 1e-9) {
                out[n++] = (rp_difflevel){q, i, j, a->cost_ns ? a->cost_ns[i] : 0,
                                          b->cost_ns ? b->cost_ns[j] : 0};
                break;
            }
        }
    }
    return n;
}

uint32_t diff_mismatch(const rp_diffside *a, const rp_diffside *b)
{
    const rp_profile *x = a->p, *y = b->p;
    uint32_t m = 0;
    if (strcmp(x->exe, y->exe) != 0)
        m |= RP_DIFF_EXE;
    if (x->nranks != y->nranks)
        m |= RP_DIFF_RANKS;
    if (x->k != y->k)
        m |= RP_DIFF_K;
    if (x->mode != y->mode)
        m |= RP_DIFF_MODE;
    if (x->mode != RP_MODE_PROF || y->mode != RP_MODE_PROF)
        m |= RP_DIFF_NOSAMPLES;
    if (x->select != y->select)
        m |= RP_DIFF_SELECT;
    return m;
}

/* ---- contexts ---- */

/* separates the function names of a context's frames (never in a name) */
#define FSEP "\x1f"

/* One side's context before matching. */
typedef struct ctxrow {
    char   *path, *leaf, *funcs;
    int     side;         /* 0: a, 1: b */
    int64_t excl, incl;
} ctxrow;

/* The printed name of view node `node`'s frames, outermost first: every
 * inlined frame "func (file:line)"; rpprof's wrapper and modules without
 * symbols as the views show them.  leaf: the innermost alone. */
static void node_label(const rp_profile *p, const rp_view *v, uint32_t node, char *buf, size_t n,
                       char *leaf, size_t ln, char *funcs, size_t fn)
{
    uint32_t sym = v->nodes[node].sym;
    const rp_psym *y = &p->syms[sym];
    uint32_t kind = frames_kind(p, sym);
    if (kind != FRAMES_CODE) {
        frames_display(buf, n, kind, p->strs[p->frames[y->first].func], p->strs[y->module]);
        snprintf(leaf, ln, "%s", buf);
        snprintf(funcs, fn, "%s", buf);
        return;
    }
    size_t used = 0, fused = 0;
    buf[0] = funcs[0] = 0;
    for (uint32_t i = 0; i < y->n && used + 1 < n && fused + 1 < fn; i++) {
        const rp_pframe *fr = &p->frames[y->first + i];
        names_label(leaf, ln, p->strs[fr->func], p->strs[fr->file], fr->line, 0);
        int w = snprintf(buf + used, n - used, "%s%s", i ? " > " : "", leaf);
        if (w < 0)
            break;
        used += (size_t)w;
        /* the function alone (templates elided, as the labels show it) */
        char fname[512];
        names_elide_templates(fname, sizeof fname, p->strs[fr->func]);
        w = snprintf(funcs + fused, fn - fused, "%s%s", i ? FSEP : "", fname);
        if (w < 0)
            break;
        fused += (size_t)w;
    }
}

/* A growing string: append sep (when not empty) and then t. */
typedef struct dstr {
    char  *s;
    size_t len, cap;
} dstr;

static int dstr_add(dstr *d, const char *sep, const char *t)
{
    size_t ls = d->len ? strlen(sep) : 0, lt = strlen(t);
    if (d->len + ls + lt + 1 > d->cap) {
        size_t nc = (d->len + ls + lt + 1) * 2;
        char *n = realloc(d->s, nc);
        if (!n)
            return -1;
        d->s = n;
        d->cap = nc;
    }
    memcpy(d->s + d->len, sep, ls);
    memcpy(d->s + d->len + ls, t, lt + 1);
    d->len += ls + lt;
    return 0;
}

/* Node i's path from the root (printed frames and function names), built
 * by walking up its parents: only nodes with exclusive time need one, so
 * no path is kept for the rest of the tree.  chain: scratch of v->n. */
static int node_path(const rp_profile *p, const rp_view *v, uint32_t i, uint32_t *chain,
                     dstr *path, dstr *funcs, char *leaf, size_t ln)
{
    uint32_t n = 0;
    for (uint32_t x = i; x != 0 && x != UINT32_MAX; x = v->nodes[x].parent) {
        /* view nodes are created parent first (model.c): a parent at or
         * after its child would be a loop, refused rather than followed */
        if (n > 0 && x >= chain[n - 1])
            return -1;
        chain[n++] = x;
    }
    path->len = funcs->len = 0;
    char buf[4096], fb[4096], lf[1024];
    while (n-- > 0) {
        node_label(p, v, chain[n], buf, sizeof buf, lf, sizeof lf, fb, sizeof fb);
        if (dstr_add(path, " > ", buf) != 0 || dstr_add(funcs, FSEP, fb) != 0)
            return -1;
    }
    snprintf(leaf, ln, "%s", lf);
    return path->s && funcs->s ? 0 : -1;
}

/* Append one row per view node with exclusive time in col. */
static int collect(const rp_profile *p, uint32_t col, int side, ctxrow **rows, uint32_t *nrow,
                   uint32_t *cap)
{
    rp_view v;
    if (report_view(p, &v) != 0)
        return -1;
    uint32_t *chain = malloc((v.n ? v.n : 1) * sizeof *chain);
    dstr path = {0}, funcs = {0};
    int rc = chain ? 0 : -1;
    char leaf[1024];
    for (uint32_t i = 1; rc == 0 && i < v.n; i++) {
        int64_t ex = v.excl[(size_t)i * v.nm + col], in = v.incl[(size_t)i * v.nm + col];
        if (ex == 0)   /* time only below it: its descendants' rows carry it */
            continue;
        if (node_path(p, &v, i, chain, &path, &funcs, leaf, sizeof leaf) != 0) {
            rc = -1;
            break;
        }
        if (*nrow == *cap) {
            uint32_t nc = *cap ? *cap * 2 : 256;
            ctxrow *r = realloc(*rows, nc * sizeof *r);
            if (!r) {
                rc = -1;
                break;
            }
            *rows = r;
            *cap = nc;
        }
        ctxrow *r = &(*rows)[*nrow];
        r->path = strdup(path.s);
        r->leaf = strdup(leaf);
        r->funcs = strdup(funcs.s);
        r->side = side;
        r->excl = ex;
        r->incl = in;
        if (!r->path || !r->leaf || !r->funcs) {
            free(r->path);
            free(r->leaf);
            free(r->funcs);
            rc = -1;
            break;
        }
        (*nrow)++;
    }
    free(chain);
    free(path.s);
    free(funcs.s);
    report_view_free(&v);
    return rc;
}

static int cmp_row(const void *x, const void *y)
{
    const ctxrow *a = x, *b = y;
    return strcmp(a->path, b->path);
}

static int64_t absd(int64_t a, int64_t b) { return a > b ? a - b : b - a; }

static int cmp_ctx(const void *x, const void *y)
{
    const rp_diffctx *a = x, *b = y;
    int64_t da = absd(a->excl_a, a->excl_b), db = absd(b->excl_a, b->excl_b);
    if (da != db)
        return da > db ? -1 : 1;
    return strcmp(a->path, b->path);
}

int32_t diff_contexts(const rp_profile *a, uint32_t col_a, const rp_profile *b, uint32_t col_b,
                      rp_diffctx **out)
{
    *out = NULL;
    ctxrow *rows = NULL;
    uint32_t n = 0, cap = 0;
    if ((col_a < a->n_metrics && collect(a, col_a, 0, &rows, &n, &cap) != 0) ||
        (col_b < b->n_metrics && collect(b, col_b, 1, &rows, &n, &cap) != 0)) {
        for (uint32_t i = 0; i < n; i++) {
            free(rows[i].path);
            free(rows[i].leaf);
            free(rows[i].funcs);
        }
        free(rows);
        return -1;
    }
    qsort(rows, n, sizeof *rows, cmp_row);
    rp_diffctx *c = calloc(n ? n : 1, sizeof *c);
    if (!c) {
        for (uint32_t i = 0; i < n; i++) {
            free(rows[i].path);
            free(rows[i].leaf);
            free(rows[i].funcs);
        }
        free(rows);
        return -1;
    }
    /* merge runs of equal paths: the two sides, and contexts that print the
     * same within one run (summed, as the views show them) */
    int32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m > 0 && strcmp(c[m - 1].path, rows[i].path) == 0) {
            free(rows[i].path);
            free(rows[i].leaf);
            free(rows[i].funcs);
        } else {
            c[m].path = rows[i].path;
            c[m].leaf = rows[i].leaf;
            c[m].funcs = rows[i].funcs;
            m++;
        }
        rp_diffctx *x = &c[m - 1];
        if (rows[i].side == 0) {
            x->excl_a += rows[i].excl;
            x->incl_a += rows[i].incl;
        } else {
            x->excl_b += rows[i].excl;
            x->incl_b += rows[i].incl;
        }
    }
    free(rows);
    double wa = precision_weight_ns(a), wb = precision_weight_ns(b);
    for (int32_t i = 0; i < m; i++) {
        c[i].samples_a = precision_samples(wa, c[i].excl_a);
        c[i].samples_b = precision_samples(wb, c[i].excl_b);
        c[i].noise = c[i].excl_a == c[i].excl_b ||
                     precision_within_noise((double)c[i].excl_a, c[i].samples_a,
                                            (double)c[i].excl_b, c[i].samples_b);
    }
    qsort(c, (size_t)m, sizeof *c, cmp_ctx);
    *out = c;
    return m;
}

void diff_contexts_free(rp_diffctx *c, int32_t n)
{
    for (int32_t i = 0; c && i < n; i++) {
        free(c[i].path);
        free(c[i].leaf);
        free(c[i].funcs);
    }
    free(c);
}

/* ---- functions ---- */

typedef struct fpair {
    const char *name;
    size_t      len;
    int32_t     ctx;
} fpair;

static int cmp_fpair(const void *x, const void *y)
{
    const fpair *a = x, *b = y;
    size_t l = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, l);
    if (c || a->len != b->len)
        return c ? c : a->len < b->len ? -1 : 1;
    return a->ctx < b->ctx ? -1 : a->ctx > b->ctx;
}

static int cmp_dfunc(const void *x, const void *y)
{
    const rp_difffunc *a = x, *b = y;
    int64_t da = absd(a->a_ns, a->b_ns), db = absd(b->a_ns, b->b_ns);
    if (da != db)
        return da > db ? -1 : 1;
    return strcmp(a->name, b->name);
}

int32_t diff_functions(const rp_diffctx *c, int32_t n, double wa, double wb, rp_difffunc **out)
{
    *out = NULL;
    size_t np = 0, cap = 64;
    fpair *v = malloc(cap * sizeof *v);
    if (!v)
        return -1;
    for (int32_t i = 0; i < n; i++) {
        for (const char *s = c[i].funcs; *s;) {
            const char *e = strstr(s, FSEP);
            size_t len = e ? (size_t)(e - s) : strlen(s);
            if (np == cap) {
                fpair *w = realloc(v, 2 * cap * sizeof *v);
                if (!w) {
                    free(v);
                    return -1;
                }
                v = w;
                cap *= 2;
            }
            v[np++] = (fpair){s, len, i};
            s += len + (e ? strlen(FSEP) : 0);
        }
    }
    qsort(v, np, sizeof *v, cmp_fpair);
    /* contexts of code: not "<unknown>" nor "<contexts under 0.1 %>", which
     * no function is on */
    int32_t nreal = 0;
    for (int32_t i = 0; i < n; i++)
        nreal += c[i].funcs[0] != '<';
    rp_difffunc *d = calloc(np ? np : 1, sizeof *d);
    int32_t m = 0;
    for (size_t i = 0; d && i < np; i++) {
        int same_name = m > 0 && v[i].len == v[i - 1].len &&
                        memcmp(v[i].name, v[i - 1].name, v[i].len) == 0;
        if (!same_name) {
            d[m].name = strndup(v[i].name, v[i].len);
            if (!d[m].name) {
                diff_functions_free(d, m);
                free(v);
                return -1;
            }
            m++;
        } else if (v[i].ctx == v[i - 1].ctx) {
            continue;   /* recursion: a context counts once for a function */
        }
        d[m - 1].a_ns += c[v[i].ctx].excl_a;
        d[m - 1].b_ns += c[v[i].ctx].excl_b;
        d[m - 1].everywhere++;   /* contexts counted; compared with n below */
    }
    free(v);
    if (!d)
        return -1;
    for (int32_t i = 0; i < m; i++) {
        d[i].samples_a = precision_samples(wa, d[i].a_ns);
        d[i].samples_b = precision_samples(wb, d[i].b_ns);
        d[i].noise = d[i].a_ns == d[i].b_ns ||
                     precision_within_noise((double)d[i].a_ns, d[i].samples_a,
                                            (double)d[i].b_ns, d[i].samples_b);
        d[i].everywhere = nreal > 1 && d[i].everywhere == nreal;
    }
    qsort(d, (size_t)m, sizeof *d, cmp_dfunc);
    *out = d;
    return m;
}

void diff_functions_free(rp_difffunc *d, int32_t n)
{
    for (int32_t i = 0; d && i < n; i++)
        free(d[i].name);
    free(d);
}

/* ---- MPI call sites ---- */

static int cmp_dsite_name(const void *x, const void *y)
{
    return strcmp(((const rp_diffsite *)x)->name, ((const rp_diffsite *)y)->name);
}

static int cmp_dsite(const void *x, const void *y)
{
    const rp_diffsite *a = x, *b = y;
    int64_t da = absd(a->a_ns, a->b_ns), db = absd(b->a_ns, b->b_ns);
    if (da != db)
        return da > db ? -1 : 1;
    return strcmp(a->name, b->name);
}

int32_t diff_sites(const rp_profile *a, const rp_profile *b, rp_diffsite **out)
{
    *out = NULL;
    rp_site *sa = NULL, *sb = NULL;
    int32_t na = sites_collect(a, &sa), nb = na < 0 ? -1 : sites_collect(b, &sb);
    if (na < 0 || nb < 0) {
        free(sa);
        free(sb);
        return -1;
    }
    rp_diffsite *d = calloc((size_t)(na + nb) + 1, sizeof *d);
    int32_t n = 0;
    for (int side = 0; d && side < 2; side++) {
        const rp_profile *p = side ? b : a;
        rp_site *s = side ? sb : sa;
        for (int32_t i = 0; i < (side ? nb : na); i++) {
            char where[1024], name[1200];
            names_label(where, sizeof where, p->strs[s[i].func], p->strs[s[i].file], s[i].line,
                        0);
            snprintf(name, sizeof name, "%s from %s", p->strs[s[i].mpi],
                     s[i].func ? where : "<unknown>");
            d[n].name = strdup(name);
            if (!d[n].name)
                goto fail;
            *(side ? &d[n].b_ns : &d[n].a_ns) = s[i].ns;
            n++;
        }
    }
    if (!d)
        goto fail;
    qsort(d, (size_t)n, sizeof *d, cmp_dsite_name);
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        if (m > 0 && strcmp(d[m - 1].name, d[i].name) == 0) {
            d[m - 1].a_ns += d[i].a_ns;
            d[m - 1].b_ns += d[i].b_ns;
            free(d[i].name);
        } else {
            d[m++] = d[i];
        }
    }
    double wa = precision_weight_ns(a), wb = precision_weight_ns(b);
    for (int32_t i = 0; i < m; i++) {
        d[i].samples_a = precision_samples(wa, d[i].a_ns);
        d[i].samples_b = precision_samples(wb, d[i].b_ns);
        d[i].noise = d[i].a_ns == d[i].b_ns || precision_within_noise((double)d[i].a_ns, d[i].samples_a,
                                            (double)d[i].b_ns, d[i].samples_b);
    }
    qsort(d, (size_t)m, sizeof *d, cmp_dsite);
    free(sa);
    free(sb);
    *out = d;
    return m;
fail:
    diff_sites_free(d, n);
    free(sa);
    free(sb);
    return -1;
}

void diff_sites_free(rp_diffsite *s, int32_t n)
{
    for (int32_t i = 0; s && i < n; i++)
        free(s[i].name);
    free(s);
}
