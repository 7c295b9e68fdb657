/* text.c - rp-report's default, human-readable report:
 *   header and warnings;
 *   the path-length distribution (paper Fig. 7);
 *   hotspots of the whole program beside hotspots on the chosen path,
 *   by function and by source line;
 *   the top-down calling-context tree with each path as % of the critical
 *   path and the difference metrics 100%-0% and between the two middle
 *   paths (paper Fig. 2). */
#include "core/config.h"    /* config_phase_k_default */
#include "core/pathset.h"   /* RP_SELECT_* */
#include "report/model.h"
#include "report/warnings.h"
#include "common/names.h"
#include "report/precision.h"
#include "common/frames.h"
#include "report/ranks.h"
#include "report/sites.h"
#include "report/text.h"
#include "report/popview.h"
#include "core/show.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_W 44
#define MAX_COLS 8u
#define MAX_DEPTH_SHOWN 48u

/* prefix + text, broken at spaces so that no line passes 100 columns;
 * lines after the first start with indent. */
static void print_wrapped(FILE *f, const char *prefix, const char *indent, const char *text)
{
    const size_t width = 100;
    size_t col = strlen(prefix);
    int line_empty = 1;   /* no word on this line yet */
    fputs(prefix, f);
    for (;;) {
        while (*text == ' ')
            text++;
        size_t w = strcspn(text, " ");
        if (w == 0)
            break;
        if (!line_empty && col + 1 + w > width) {
            fprintf(f, "\n%s", indent);
            col = strlen(indent);
            line_empty = 1;
        }
        if (!line_empty) {
            fputc(' ', f);
            col++;
        }
        fwrite(text, 1, w, f);
        col += w;
        text += w;
        line_empty = 0;
    }
    fputc('\n', f);
}

static double secs(int64_t ns) { return (double)ns / 1e9; }
static double pct(int64_t a, int64_t b) { return b > 0 ? 100.0 * (double)a / (double)b : 0.0; }

/* "function (file.c:12)": templates elided, shortened in the middle to
 * width w (0: whole), the location never cut. */
static void label(char *buf, size_t n, const rp_profile *p, uint32_t func, uint32_t file,
                  uint32_t line, size_t w)
{
    names_label(buf, n, p->strs[func], p->strs[file], line, w);
}

/* a hotspot row's name: grouped rows (rpprof, no symbols) by frames.c */
static void hot_label(char *buf, size_t n, const rp_profile *p, const rp_hot *h, int by_func,
                      size_t w)
{
    if (h->kind != FRAMES_CODE) {
        report_hot_name(p, h, buf, n);
        return;
    }
    label(buf, n, p, h->func, by_func ? 0 : h->file, by_func ? 0 : h->line, w);
}

static void header(FILE *f, const rp_profile *p, const rp_report_opts *o)
{
    const rp_phasestats *st = &p->stats;
    char exe[RP_SHOW_LEN];   /* odd characters escaped (core/show.h) */
    fprintf(f, "rpprof report: %s\n", p->exe[0] ? rp_show(exe, sizeof exe, p->exe)
                                                : "(unknown program)");
    fprintf(f, "  ranks %u of %u, k=%u paths (%s), mode %s, %llu phase%s, wall %.3f s",
            p->ranks_present, p->nranks, p->k, profile_select_name(p->select),
            profile_mode_name(p->mode), (unsigned long long)st->nphases,
            st->nphases == 1 ? "" : "s", secs(p->wall_ns));
    if (p->phase_k > p->k)
        fprintf(f, ", phase-end exchange of %u paths", p->phase_k);
    char sampling[256];
    report_sampling_line(p, sampling, sizeof sampling);
    fprintf(f, ", %s\n", sampling);
    char over[1024];
    if (report_oversubscribed(o->ranks, o->nranks_rows, over, sizeof over))
        print_wrapped(f, "  OVERSUBSCRIBED: ", "    ", over);
    if (p->n_missing) {
        fprintf(f, "  warning: %u rank%s missing or unreadable:", p->n_missing,
                p->n_missing == 1 ? "" : "s");
        for (uint32_t i = 0; i < p->n_missing && i < 16; i++)
            fprintf(f, " %u", p->missing[i]);
        fputs(p->n_missing > 16 ? " ...\n" : "\n", f);
        fputs("           profiles below cover the other ranks only\n", f);
    }
    if (p->n_left_out) {
        /* rank files of other jobs in the directory (tools/common/rankfiles.h) */
        fprintf(f, "  warning: the directory holds rank files of %u jobs; this report is the "
                   "newest,\n           %s;\n           left out, of another job:\n",
                p->n_jobs, p->job);
        for (uint32_t i = 0; i < p->n_left_out; i++)
            fprintf(f, "             %s\n", p->left_out[i]);
    }
    if (p->last_job[0])
        fprintf(f, "  warning: the last job to use this directory, %s,\n           left no rank "
                   "file (it died before writing one); this report is of an OLDER job,\n"
                   "           %s\n", p->last_job, p->job);
    /* every loss counter of lib/core/counters.def, with meaning and remedy */
    report_warnings_print(f, "  ", p->counters, p->n_counters);
    if (st->nphases == 0)
        fputs("  warning: no phase completed; path costs are 0\n", f);
    uint64_t tail = report_counter(p, "tail_lost"), open = report_counter(p, "open_phase_ns");
    if (tail)
        fprintf(f, "  PARTIAL profile: %llu rank file(s) written before MPI_Finalize (checkpoint, "
                   "abort or kill);\n  a phase in progress for %.3f s (mean over ranks) is not in "
                   "the path costs;\n  its samples are in the whole-program profile only\n",
                (unsigned long long)tail, p->nranks ? (double)open / 1e9 / p->nranks : 0.0);
    if (p->n_folded)
        fprintf(f, "  note: %u calling context%s under %g %% of every column folded into "
                   "\"<contexts under %g %%>\"\n        (no time lost; `rp-merge --min-share 0` "
                   "keeps them)\n", p->n_folded, p->n_folded == 1 ? "" : "s", p->min_share_pct,
                p->min_share_pct);
}

/* Issue 13: how much of each path's cost its profile locates; the rest is
 * under "<unknown>" by cause.  Below 80 % a path is flagged with the cause
 * that lost most and the setting that would help. */
static void coverage(FILE *f, const rp_profile *p)
{
    const rp_phasestats *st = &p->stats;
    if (p->mode != RP_MODE_PROF || report_total(p, RP_MET_PATH0) == 0)
        return;
    static const char *const help[RP_UNK_N] = {
        "", "lower RP_PERIOD (more samples per task)", "raise RP_BUFFER (sample buffer)",
        "raise RP_SUMMARY (intervals per path)" };
    fprintf(f, "  %10s %12s %10s   (sampled, estimated: located on the path / under <unknown>)\n",
            "percentile", "located", "<unknown>");
    for (uint32_t j = 0; j < p->k && j < st->k; j++) {
        int64_t cost = st->sum_ns[j], unk[RP_UNK_N];
        report_unknown(p, RP_MET_PATH0 + j, unk);
        int64_t loc = report_total(p, RP_MET_PATH0 + j) - unk[RP_UNK_FRAME];
        fprintf(f, "  %9.1f%% %11.1f%% %9.1f%%", report_percentile(j, p->k), pct(loc, cost),
                pct(unk[RP_UNK_FRAME], cost));
        uint32_t worst = 1;
        for (uint32_t c = 2; c < RP_UNK_N; c++)
            if (unk[c] > unk[worst])
                worst = c;
        /* below ten periods a path is too short to be sampled: not flagged */
        /* time paused by MPI_Pcontrol(0) is "not sampled" too: say so */
        int paused = worst == RP_UNK_NOT_SAMPLED && report_counter(p, "samples_paused") > 0;
        /* advice that can help: not RP_PERIOD when the program kept SIGPROF
         * from the sampler, not RP_SUMMARY when it is at its largest */
        const char *why = help[worst];
        if (paused)
            why = "MPI_Pcontrol(0) paused sampling (samples_paused)";
        else if (worst == RP_UNK_NOT_SAMPLED && report_counter(p, "sigprof_blocked_us") > 0)
            why = "the program blocked or ignored SIGPROF (sigprof_blocked_us); lowering "
                  "RP_PERIOD cannot help";
        else if (worst == RP_UNK_NOT_SAMPLED && report_counter(p, "sampling_lost_app_sigprof") > 0)
            why = "the program took SIGPROF over (sampling_lost_app_sigprof); lowering "
                  "RP_PERIOD cannot help";
        else if (worst == RP_UNK_SUMMARY && p->summary_cap >= RP_MAX_SUMMARY)
            why = "RP_SUMMARY is at its largest; a larger RP_PERIOD gives fewer, longer intervals";
        if (cost > 10 * (int64_t)p->period_us * 1000 && pct(loc, cost) < 80.0 && unk[worst] > 0)
            fprintf(f, "   LOW: mostly %s; %s", (const char *[]){ "", "not sampled",
                    "sample buffer full", "summary overflow" }[worst], why);
        fputc('\n', f);
    }
}

static void distribution(FILE *f, const rp_profile *p)
{
    const rp_phasestats *st = &p->stats;
    fprintf(f, "\nPath-length distribution (cost = task time along the path, summed over %llu "
               "phases)\n",
            (unsigned long long)st->nphases);
    double w = precision_weight_ns(p);
    fprintf(f, "  %10s %12s %8s %13s %13s %13s %9s  %s\n", "percentile", "cost [s]", "% wall",
            "phase min [s]", "median [s]", "max [s]", "samples", "what it is");
    for (uint32_t j = 0; j < p->k; j++) {
        int have = st->nphases > 0 && j < st->k;
        int64_t cost = j < st->k ? st->sum_ns[j] : 0;
        char lb[48];
        fprintf(f, "  %9.1f%% %12.6f %7.1f%% %13.6f %13.6f %13.6f %9.0f  %s\n",
                report_percentile(j, p->k), secs(cost), pct(cost, p->wall_ns),
                have ? secs(st->min_ns[j]) : 0.0, have ? secs(phasestats_median(st, j)) : 0.0,
                have ? secs(st->max_ns[j]) : 0.0,
                precision_samples(w, report_total(p, RP_MET_PATH0 + j)),
                report_level_label(p, j, lb, sizeof lb));
    }
    if (p->k > 2) {
        fprintf(f, "  a row's cost is the sum over phases of each phase's path at that level;"
                   " %s\n", p->select == RP_SELECT_TOPK
                       ? "RP_SELECT=topk keeps the longest and shortest paths, not percentiles"
                       : "the middle levels estimate\n  percentiles of all paths of each "
                         "phase (`rp-report --check` on a trace-mode run measures their error\n"
                         "  for your program)");
        rp_level_error le, mx = {0, 0, 0, 0};
        int have = 0;
        for (uint32_t j = 1; j + 1 < p->k; j++)
            if (report_level_error(p, j, &le)) {
                have = 1;
                mx.median = fmax(mx.median, le.median);
                mx.worst = fmax(mx.worst, le.worst);
                mx.rank_median = fmax(mx.rank_median, le.rank_median);
                mx.rank_worst = fmax(mx.rank_worst, le.rank_worst);
            }
        if (have)
            fprintf(f, "  measured error of the estimates at k=%u (doc/accuracy.md, benchmark "
                       "programs): median <= %.1f %% of a\n  phase's longest - shortest, worst "
                       "phase %.1f %%; as a rank, a path sits within %.1f percentile points of\n"
                       "  its level (median), %.1f in the worst phase\n", p->k, mx.median,
                    mx.worst, mx.rank_median, mx.rank_worst);
        else if (report_phase_k_unmeasured(p))
            fprintf(f, "  the estimates' error has not been measured with RP_PHASE_K=%u "
                       "(doc/accuracy.md has the default, %u, and 1)\n", p->phase_k,
                    config_phase_k_default(p->k));
        else if (p->select != RP_SELECT_TOPK)
            fprintf(f, "  the estimates' error has not been measured at k=%u (doc/accuracy.md "
                       "has k = 3, 5, 9)\n", p->k);
    }
    if (p->k > 1 && st->k == p->k && st->sum_ns[0] > 0)
        fprintf(f, "  the 0%% path is %.1f%% shorter than the critical path: the ranks on it "
                   "compute that much less\n  (they wait for the others, or the work is "
                   "uneven; it is not a measure of MPI time)\n",
                100.0 - pct(st->sum_ns[p->k - 1], st->sum_ns[0]));
    if (w > 0)
        fprintf(f, "  samples: estimated as sampled time / mean sample weight (%.3f ms); a "
                   "value from n samples\n  is good to about +-2*sqrt(n) samples (2 sigma)\n",
                w / 1e6);
    coverage(f, p);
}

static int hotspots(FILE *f, const rp_profile *p, const rp_report_opts *o, int by_func)
{
    uint32_t col = RP_MET_PATH0 + o->path;
    rp_hot *a, *b;
    int32_t na = by_func ? report_hot_funcs(p, RP_MET_RANK, &a) : report_hot_lines(p, RP_MET_RANK, &a);
    if (na < 0)
        return -1;
    int32_t nb = by_func ? report_hot_funcs(p, col, &b) : report_hot_lines(p, col, &b);
    if (nb < 0) {
        free(a);
        return -1;
    }
    int64_t ta = report_total(p, RP_MET_RANK), tb = report_total(p, col);
    char title[64];
    snprintf(title, sizeof title, "on the %.0f%% path%s", report_percentile(o->path, p->k),
             o->path == 0 ? " (critical)" : "");
    fprintf(f, "\nHotspots by %s: whole program (all ranks) | %s\n",
            by_func ? "function" : "source line", title);
    double w = precision_weight_ns(p);
    fprintf(f, "  %9s %6s %7s  %-*s | %9s %6s %7s  %s\n", "seconds", "%", "samples", NAME_W, "",
            "seconds", "%", "samples", "");
    uint32_t rows = (uint32_t)(na > nb ? na : nb);
    if (rows > o->top)
        rows = o->top;
    for (uint32_t i = 0; i < rows; i++) {
        char la[512] = "", lb[512] = "";
        /* function lists: name only (the file is noise); the left column is
         * fitted to NAME_W keeping file:line, the right one is whole */
        if (i < (uint32_t)na)
            hot_label(la, sizeof la, p, &a[i], by_func, NAME_W);
        if (i < (uint32_t)nb)
            hot_label(lb, sizeof lb, p, &b[i], by_func, 0);
        if (i < (uint32_t)na)
            fprintf(f, "  %9.3f %5.1f%% %7.0f  %-*s |", secs(a[i].ns), pct(a[i].ns, ta),
                    precision_samples(w, a[i].ns), NAME_W, la);
        else
            fprintf(f, "  %9s %6s %7s  %-*s |", "", "", "", NAME_W, "");
        if (i < (uint32_t)nb)
            fprintf(f, " %9.3f %5.1f%% %7.0f  %s", secs(b[i].ns), pct(b[i].ns, tb),
                    precision_samples(w, b[i].ns), lb);
        fputc('\n', f);
    }
    if (nb == 0)
        fprintf(f, "  (no samples on this path)\n");
    free(a);
    free(b);
    return 0;
}

typedef struct treectx treectx;
static double vpct(const treectx *t, uint32_t node, uint32_t slot);

struct treectx {
    FILE *f;
    const rp_profile *p;
    const rp_view *v;
    uint32_t cols[MAX_COLS], ncols;
    int has_d1, has_d2;
    uint32_t d2a, d2b;       /* the two middle slots */
    uint32_t sortcol;
    int64_t crit;            /* critical path total (denominator) */
    int64_t cut;             /* prune threshold in ns */
    uint32_t *buf;           /* children scratch, per depth: allocated per call */
    uint64_t printed, pruned;
    double w;                /* mean sample weight (precision.h) */
};

static double vpct(const treectx *t, uint32_t node, uint32_t slot)
{
    return pct(t->v->incl[(size_t)node * t->v->nm + RP_MET_PATH0 + slot], t->crit);
}

/* samples behind node's inclusive time on slot */
static double vsamples(const treectx *t, uint32_t node, uint32_t slot)
{
    return precision_samples(t->w, t->v->incl[(size_t)node * t->v->nm + RP_MET_PATH0 + slot]);
}

/* a difference column: value, and '~' when it is within sampling noise */
static void diff_cell(treectx *t, uint32_t node, uint32_t a, uint32_t b)
{
    double va = vpct(t, node, a), vb = vpct(t, node, b);
    int noise = t->w > 0 && precision_within_noise(va, vsamples(t, node, a), vb,
                                                   vsamples(t, node, b));
    fprintf(t->f, " %7.1f%c", va - vb, noise ? '~' : ' ');
}


static void tree_row(treectx *t, uint32_t node, uint32_t depth)
{
    FILE *f = t->f;
    const rp_profile *p = t->p;
    for (uint32_t c = 0; c < t->ncols; c++)
        fprintf(f, " %6.1f", vpct(t, node, t->cols[c]));
    fputs(" |", f);
    if (t->has_d1)
        diff_cell(t, node, 0, p->k - 1);
    if (t->has_d2)
        diff_cell(t, node, t->d2a, t->d2b);
    fprintf(f, "| %7.0f | ", vsamples(t, node, t->sortcol - RP_MET_PATH0));
    uint32_t shown = depth < MAX_DEPTH_SHOWN ? depth : MAX_DEPTH_SHOWN;
    for (uint32_t i = 0; i < shown; i++)
        fputs(" ", f);
    if (node == 0) {
        fputs("<program>\n", f);
        return;
    }
    uint32_t sym = t->v->nodes[node].sym;
    const rp_psym *y = &p->syms[sym];
    const rp_pframe *in = &p->frames[y->first + y->n - 1];
    char lb[1024];
    uint32_t kind = frames_kind(p, sym);
    if (kind != FRAMES_CODE) {   /* rpprof's wrapper and below; a module without symbols */
        frames_display(lb, sizeof lb, kind, p->strs[p->frames[y->first].func],
                       p->strs[y->module]);
        fprintf(f, "%s\n", lb);
        return;
    }
    label(lb, sizeof lb, p, in->func, in->file, in->line, 0);
    fputs(lb, f);
    /* "[inlined into g]" says where the code physically is; not when g is
     * the function itself (an inlined copy of its own body) */
    if (y->n > 1 && p->frames[y->first].func != in->func) {
        char outer[512];
        names_elide_templates(outer, sizeof outer, p->strs[p->frames[y->first].func]);
        fprintf(f, " [inlined into %s]", outer);
    }
    fputc('\n', f);
}

static int tree_walk(treectx *t, uint32_t node, uint32_t depth)
{
    const rp_view *v = t->v;
    tree_row(t, node, depth);
    t->printed++;
    uint32_t nch = 0;
    for (uint32_t c = v->nodes[node].first_child; c != UINT32_MAX; c = v->nodes[c].next_sibling)
        nch++;
    if (nch == 0)
        return 0;
    uint32_t *ch = malloc(nch * sizeof *ch);
    if (!ch)
        return -1;
    nch = report_children(v, node, t->sortcol, ch, nch);
    for (uint32_t i = 0; i < nch; i++) {
        int64_t best = 0;
        for (uint32_t c = 0; c < t->ncols; c++) {
            int64_t x = v->incl[(size_t)ch[i] * v->nm + RP_MET_PATH0 + t->cols[c]];
            if (x > best)
                best = x;
        }
        if (best < t->cut || best == 0) {
            t->pruned++;
            continue;
        }
        if (tree_walk(t, ch[i], depth + 1) != 0) {
            free(ch);
            return -1;
        }
    }
    free(ch);
    return 0;
}

static int cct(FILE *f, const rp_profile *p, const rp_report_opts *o)
{
    rp_view v;
    if (report_view(p, &v) != 0)
        return -1;
    treectx t;
    memset(&t, 0, sizeof t);
    t.f = f;
    t.p = p;
    t.v = &v;
    /* at most MAX_COLS path columns, evenly spaced, always first and last */
    t.ncols = p->k < MAX_COLS ? p->k : MAX_COLS;
    for (uint32_t c = 0; c < t.ncols; c++)
        t.cols[c] = t.ncols == 1 ? 0 : (uint32_t)((c * (p->k - 1) + (t.ncols - 1) / 2) / (t.ncols - 1));
    t.has_d1 = p->k >= 2;
    if (p->k >= 4) {
        t.has_d2 = 1;
        if (p->k % 2 == 0) {
            t.d2a = p->k / 2 - 1;
            t.d2b = p->k / 2;
        } else {   /* odd k: the neighbours of the median path */
            t.d2a = (p->k - 1) / 2 - 1;
            t.d2b = (p->k - 1) / 2 + 1;
        }
    }
    t.sortcol = RP_MET_PATH0 + o->path;
    t.w = precision_weight_ns(p);
    /* Denominator: the critical path's cost, not its sampled total, so that
     * no path can show above 100 % (located <= cost <= critical cost, and
     * the rest is under <unknown>; issue 13). */
    t.crit = p->stats.k > 0 && p->stats.sum_ns[0] > 0 ? p->stats.sum_ns[0]
                                                      : v.incl[RP_MET_PATH0];
    t.cut = (int64_t)((double)t.crit * o->threshold / 100.0);
    fprintf(f, "\nCalling-context tree: inclusive time of each path as %% of the critical path's "
               "cost (%.3f s; %.3f s sampled);\n  contexts below %.1f%% on every shown path are "
               "pruned\n",
            secs(t.crit), secs(v.incl[RP_MET_PATH0]), o->threshold);
    for (uint32_t c = 0; c < t.ncols; c++)
        fprintf(f, " %5.0f%%", report_percentile(t.cols[c], p->k));
    fputs(" |", f);
    if (t.has_d1)
        fputs("  100-0% ", f);
    if (t.has_d2) {
        char h[32];
        snprintf(h, sizeof h, "%.0f-%.0f%%", report_percentile(t.d2a, p->k),
                 report_percentile(t.d2b, p->k));
        fprintf(f, " %7s ", h);
    }
    fprintf(f, "| samples | context   (~: difference within sampling noise, 2 sigma; "
               "samples on the %.0f%% path)\n", report_percentile(o->path, p->k));
    int rc = tree_walk(&t, 0, 0);
    if (rc == 0 && t.pruned)
        fprintf(f, "  (%llu contexts below the threshold not shown; --threshold 0 shows all)\n",
                (unsigned long long)t.pruned);
    report_view_free(&v);
    return rc;
}

int report_text(FILE *f, const rp_profile *p, const rp_report_opts *o)
{
    header(f, p, o);
    popview_text(f, p, o);   /* the first table: where the parallel efficiency goes */
    distribution(f, p);
    int64_t sampled = report_total(p, RP_MET_RANK);
    fprintf(f, "\nSamples: %.3f s of task time over all ranks, %.3f s inside MPI (%llu samples)\n",
            secs(sampled), secs(report_total(p, RP_MET_MPI)),
            (unsigned long long)profile_counter(p, "samples"));
    uint64_t thr = profile_counter(p, "thread_samples");
    if (thr)   /* doc/sampling.md, "Threads" */
        fprintf(f, "  including %llu samples of other threads (their CPU time, charged to the "
                   "main thread's tasks:\n  with threads a path's samples can exceed its cost)\n",
                (unsigned long long)thr);
    if (o->ranks)
        ranks_text(f, o->ranks, o->nranks_rows, o->top < 8 ? o->top : 8);
    int64_t exact_mpi = 0;
    for (uint32_t i = 0; o->ranks && i < o->nranks_rows; i++)
        exact_mpi = o->ranks[i].exact && exact_mpi >= 0 ? exact_mpi + o->ranks[i].mpi_ns : -1;
    if (sites_text(f, p, o->top, exact_mpi) != 0)
        return -1;
    if (sampled == 0 && report_total(p, RP_MET_PATH0) == 0) {
        fputs("  no samples (sampling off, or the run was too short for one period)\n", f);
        return ferror(f) ? -1 : 0;
    }
    if (hotspots(f, p, o, 1) != 0 || hotspots(f, p, o, 0) != 0)
        return -1;
    if (report_total(p, RP_MET_PATH0) > 0 && cct(f, p, o) != 0)
        return -1;
    return ferror(f) ? -1 : 0;
}
