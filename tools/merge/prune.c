/* prune.c - fold the contexts too small to matter into one node (issue 16:
 * the merged profile bounded by the program, not the run).
 *
 * fold.c merges what prints the same, so the tree holds the program's
 * distinct source contexts; but a longer run still samples more of the
 * rare ones - a line reached through one more rare chain of callers (the
 * levels of a recursive multigrid), an error path, an MPI call made twice
 * - and each is a node, a symbol, frames and strings.  On the HPCG-shaped
 * proxy (doc/performance.md "Profile size") the tree had 175 nodes at 1x
 * the iterations and 279 at 10x, of which those with 0.1 % of some column
 * were about 100 both times.  So a context under a share of every column's
 * total is folded, with its subtree, into one "<contexts under 0.1 %>"
 * child of the root.  No time is lost, and what a hotspot list can show
 * keeps its name: a folded context whose symbol (a source line, an MPI
 * call) holds the share of some column over the whole tree hangs, without
 * its callers, under that node; the rest adds to the node's own time.  The
 * share is relative, so the kept contexts number at most the columns over
 * the share whatever the run's length.  pprof's graph views drop nodes
 * under 0.5 % by default; 0.1 % of every column, the paths included,
 * keeps anything a user would act on.  rp-merge --min-share 0 keeps all. */
#define _GNU_SOURCE   /* qsort_r */
#include "merge/prune.h"
#include "core/vocab.h"
#include "merge/fold.h"
#include "common/frames.h"   /* frames_leaf: the line hotspot lists show */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t sat_add(int64_t a, int64_t b)
{
    return b > INT64_MAX - a ? INT64_MAX : a + b;
}

/* Append the pseudo-symbol of folded contexts: a frame symbol of no module
 * whose one frame's function is the label, so every view prints the label
 * where it prints a function.  Its index, or UINT32_MAX when out of memory
 * (the counts are then unchanged; arrays may have grown). */
static uint32_t add_symbol(rp_profile *p, double pct)
{
    char label[64];
    snprintf(label, sizeof label, "<contexts under %g %%>", pct);
    char *s = strdup(label);
    char **strs = realloc(p->strs, (size_t)(p->n_strs + 1) * sizeof *strs);
    if (strs)
        p->strs = strs;
    rp_pframe *fr = strs ? realloc(p->frames, (size_t)(p->n_frames + 1) * sizeof *fr) : NULL;
    if (fr)
        p->frames = fr;
    rp_psym *sy = fr ? realloc(p->syms, (size_t)(p->n_syms + 1) * sizeof *sy) : NULL;
    if (sy)
        p->syms = sy;
    if (!s || !sy) {
        free(s);
        return UINT32_MAX;
    }
    p->strs[p->n_strs] = s;
    p->frames[p->n_frames] = (rp_pframe){p->n_strs, 0, 0};   /* strs[0] is "" */
    p->syms[p->n_syms] = (rp_psym){RP_SYM_FRAME, 0, 0, 0, p->n_frames, 1};
    p->n_strs++;
    p->n_frames++;
    return p->n_syms++;
}

/* The line a symbol's time is reported under: its innermost frame's
 * function, file and line (and kind: an MPI call is its own line). */
static int cmp_line(const void *a, const void *b, void *ctx)
{
    const rp_profile *p = ctx;
    uint32_t sa = *(const uint32_t *)a, sb = *(const uint32_t *)b;
    const rp_psym *x = &p->syms[sa], *y = &p->syms[sb];
    const rp_pframe *f = frames_leaf(p, sa), *g = frames_leaf(p, sb);
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (f->func != g->func)
        return f->func < g->func ? -1 : 1;
    if (f->file != g->file)
        return f->file < g->file ? -1 : 1;
    if (f->line != g->line)
        return f->line < g->line ? -1 : 1;
    return 0;
}

/* sig[y] = 1 for the symbols whose line (cmp_line) holds min_pct % of
 * some column's own total over the whole tree, from bysym (each symbol's
 * exclusive totals); tot = the columns' totals.  So a line reached
 * through several inlining chains (several symbols) counts once, whole.
 * 0, or -1 when out of memory. */
static int mark_lines(const rp_profile *p, const int64_t *bysym, const int64_t *tot,
                      double min_pct, uint8_t *sig)
{
    uint32_t nsy = p->n_syms, m = p->n_metrics;
    uint32_t *ord = malloc((size_t)(nsy ? nsy : 1) * sizeof *ord);
    int64_t *sum = malloc((size_t)m * sizeof *sum);
    if (!ord || !sum) {
        free(ord);
        free(sum);
        return -1;
    }
    for (uint32_t y = 0; y < nsy; y++)
        ord[y] = y;
    qsort_r(ord, nsy, sizeof *ord, cmp_line, (void *)(uintptr_t)p);
    for (uint32_t a = 0, b; a < nsy; a = b) {
        memset(sum, 0, (size_t)m * sizeof *sum);
        for (b = a; b < nsy && (b == a || cmp_line(&ord[a], &ord[b], (void *)(uintptr_t)p) == 0);
             b++)
            for (uint32_t c = 0; c < m; c++)
                sum[c] = sat_add(sum[c], bysym[(size_t)ord[b] * m + c]);
        int s = 0;
        for (uint32_t c = 0; c < m && !s; c++)
            s = sum[c] > 0 && (double)sum[c] >= (double)tot[c] * (min_pct / 100.0);
        for (uint32_t q = a; q < b; q++)
            sig[ord[q]] = (uint8_t)s;
    }
    free(ord);
    free(sum);
    return 0;
}

/* keep[i] = 1 for the root, "<unknown>" contexts, contexts at or above
 * lim[c] in some column c, and the ancestors of all of them.  Returns how
 * many are kept. */
static uint32_t mark_kept(const rp_profile *p, const int64_t *inc, const double *lim,
                          uint8_t *keep)
{
    uint32_t n = p->n_nodes, m = p->n_metrics, kept = 1;
    keep[0] = 1;
    for (uint32_t i = n; i-- > 1;) {   /* children after their parents */
        int k = keep[i] || p->syms[p->nodes[i].sym].kind == RP_SYM_UNKNOWN;
        for (uint32_t c = 0; !k && c < m; c++)
            k = inc[(size_t)i * m + c] > 0 && (double)inc[(size_t)i * m + c] >= lim[c];
        keep[i] = (uint8_t)k;
        if (k) {
            keep[p->nodes[i].parent] = 1;
            kept++;
        }
    }
    return kept;
}

/* Drop the symbols no node uses any more, then the frames and strings no
 * symbol uses (strs[0], "", stays); ids renumbered.  0, or -1 when out of
 * memory (p then unchanged). */
static int drop_unused(rp_profile *p)
{
    uint32_t nsy = p->n_syms, nst = p->n_strs;
    uint32_t *symmap = malloc((size_t)(nsy ? nsy : 1) * sizeof *symmap);
    uint32_t *strmap = malloc((size_t)(nst ? nst : 1) * sizeof *strmap);
    rp_pframe *frames = malloc((size_t)(p->n_frames ? p->n_frames : 1) * sizeof *frames);
    if (!symmap || !strmap || !frames) {
        free(symmap);
        free(strmap);
        free(frames);
        return -1;
    }
    for (uint32_t i = 0; i < nsy; i++)
        symmap[i] = UINT32_MAX;
    for (uint32_t i = 1; i < p->n_nodes; i++)
        symmap[p->nodes[i].sym] = 0;
    uint32_t ns = 0, nf = 0;
    for (uint32_t i = 0; i < nsy; i++) {   /* kept symbols move to indices <= i */
        if (symmap[i] == UINT32_MAX)
            continue;
        rp_psym y = p->syms[i];
        memcpy(frames + nf, p->frames + y.first, (size_t)y.n * sizeof *frames);
        y.first = nf;
        nf += y.n;
        p->syms[ns] = y;
        symmap[i] = ns++;
    }
    for (uint32_t i = 1; i < p->n_nodes; i++)
        p->nodes[i].sym = symmap[p->nodes[i].sym];
    free(p->frames);
    p->frames = frames;
    p->n_frames = nf;
    p->n_syms = ns;
    /* strings: those of the kept symbols and frames */
    for (uint32_t i = 0; i < nst; i++)
        strmap[i] = UINT32_MAX;
    strmap[0] = 0;
    for (uint32_t i = 0; i < ns; i++)
        strmap[p->syms[i].module] = 0;
    for (uint32_t i = 0; i < nf; i++)
        strmap[frames[i].func] = strmap[frames[i].file] = 0;
    uint32_t nt = 0;
    for (uint32_t i = 0; i < nst; i++) {
        if (strmap[i] == UINT32_MAX) {
            free(p->strs[i]);
            continue;
        }
        p->strs[nt] = p->strs[i];
        strmap[i] = nt++;
    }
    p->n_strs = nt;
    for (uint32_t i = 0; i < ns; i++)
        p->syms[i].module = strmap[p->syms[i].module];
    for (uint32_t i = 0; i < nf; i++) {
        frames[i].func = strmap[frames[i].func];
        frames[i].file = strmap[frames[i].file];
    }
    free(symmap);
    free(strmap);
    return 0;
}

int profile_prune(rp_profile *p, double min_pct, uint32_t *n_folded)
{
    *n_folded = 0;
    uint32_t n = p->n_nodes, m = p->n_metrics, nsy = p->n_syms;
    if (!(min_pct > 0) || n < 2 || m == 0)
        return drop_unused(p);
    int64_t *inc = malloc((size_t)n * m * sizeof *inc);
    int64_t *bysym = calloc((size_t)(nsy ? nsy : 1) * m, sizeof *bysym);
    double *lim = malloc((size_t)m * sizeof *lim);
    uint32_t *to = malloc((size_t)n * sizeof *to);
    uint8_t *keep = calloc(n, 1), *sig = calloc(nsy ? nsy : 1, 1);
    /* at most every node plus the folded one */
    rp_pnode *nodes = malloc((size_t)(n + 1) * sizeof *nodes);
    int64_t *met = calloc((size_t)(n + 1) * m, sizeof *met);
    int rc = -1;
    if (!inc || !bysym || !lim || !to || !keep || !sig || !nodes || !met)
        goto out;
    /* inclusive metrics (nodes come parent-first: one backward pass), and
     * each symbol's exclusive total */
    memcpy(inc, p->metrics, (size_t)n * m * sizeof *inc);
    for (uint32_t i = n; i-- > 1;) {
        int64_t *d = &inc[(size_t)p->nodes[i].parent * m], *s = &inc[(size_t)i * m];
        int64_t *y = &bysym[(size_t)p->nodes[i].sym * m];
        for (uint32_t c = 0; c < m; c++) {
            d[c] = sat_add(d[c], s[c]);
            y[c] = sat_add(y[c], p->metrics[(size_t)i * m + c]);
        }
    }
    /* a column's share, but never of less than a rank's mean whole-rank
     * time: a column with almost nothing in it (the MPI samples of a
     * computing code) would make every context in it significant */
    double rank_mean = (double)inc[RP_MET_RANK] / (p->ranks_present ? p->ranks_present : 1);
    for (uint32_t c = 0; c < m; c++)
        lim[c] = ((double)inc[c] > rank_mean ? (double)inc[c] : rank_mean) * (min_pct / 100.0);
    /* a line (what a hotspot list shows) by its column's own total: a call
     * holding 5 % of a computing code's little MPI time keeps its name */
    if (mark_lines(p, bysym, inc, min_pct, sig) != 0)
        goto out;
    rc = 0;
    int64_t any = 0;
    for (uint32_t c = 0; c < m; c++)
        any |= inc[c];
    if (!any || mark_kept(p, inc, lim, keep) == n) {   /* nothing measured (path,
                                                          * trace modes) or all kept */
        rc = drop_unused(p);   /* nothing to fold; strings fold.c left unused */
        goto out;
    }
    uint32_t fsym = add_symbol(p, min_pct);
    if (fsym == UINT32_MAX) {
        rc = -1;
        goto out;
    }
    /* Kept nodes are copied.  A folded node hangs, without its callers,
     * under one "<contexts under X %>" child of the root if its symbol is
     * significant over the whole tree (so every line a hotspot list can
     * show keeps all its time), and adds to that node's own time
     * otherwise.  One node, not one per caller: a line seen under ever
     * more rare callers as a run grows is then one node, not many. */
    uint32_t cnt = 0, fold_at = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t par = p->nodes[i].parent, sym = p->nodes[i].sym;
        const int64_t *row = &p->metrics[(size_t)i * m];
        if (keep[i]) {
            to[i] = cnt;
            nodes[cnt] = (rp_pnode){i ? to[par] : UINT32_MAX, sym};
            memcpy(&met[(size_t)cnt++ * m], row, (size_t)m * sizeof *row);
            continue;
        }
        if (fold_at == UINT32_MAX) {
            fold_at = cnt;
            nodes[cnt++] = (rp_pnode){0, fsym};
        }
        uint32_t dst = fold_at;
        if (sig[sym]) {
            dst = cnt;
            nodes[cnt++] = (rp_pnode){fold_at, sym};
        }
        int64_t *d = &met[(size_t)dst * m];
        for (uint32_t c = 0; c < m; c++)
            d[c] = sat_add(d[c], row[c]);
        (*n_folded)++;
    }
    free(p->nodes);
    free(p->metrics);
    p->nodes = nodes;
    p->metrics = met;
    p->n_nodes = cnt;
    nodes = NULL;
    met = NULL;
    /* siblings under a folded node with the same symbol become one; out of
     * memory, they merely stay apart (every view sums them) */
    (void)profile_fold(p);
    (void)drop_unused(p);
out:
    free(inc);
    free(bysym);
    free(lim);
    free(to);
    free(keep);
    free(sig);
    free(nodes);
    free(met);
    return rc;
}
