/* diffview.c - rp-report --diff: text and JSON (diffview.h). */
#include "report/json.h"
#include "report/diffview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/model.h"
#include "report/pop.h"
#include "report/popview.h"
#include "report/precision.h"
#include "report/ranks.h"
#include "report/warnings.h"

static double secs(int64_t ns) { return (double)ns / 1e9; }

/* change in % of the before value; NAN when there is none */
static double chg_pct(int64_t a, int64_t b)
{
    return a != 0 ? 100.0 * (double)(b - a) / (double)(a < 0 ? -a : a) : NAN;
}

static void pop_of(const rp_diffside *s, rp_popin *in)
{
    rp_report_opts o = {.ranks = s->ranks, .nranks_rows = s->nranks_rows,
                        .path_cost_ns = s->cost_ns};
    popview_inputs(s->p, &o, in);
}

/* Each note once: what differs and what the report does about it.  Shared
 * by text and JSON so both say the same. */
typedef struct note {
    const char *kind;
    char msg[1024];
} note;

static uint32_t notes(const rp_diffrun *a, const rp_diffrun *b, note *out)
{
    const rp_profile *x = a->s.p, *y = b->s.p;
    uint32_t m = diff_mismatch(&a->s, &b->s), n = 0;
    if (m & RP_DIFF_EXE) {
        out[n].kind = "executable";
        snprintf(out[n++].msg, sizeof out->msg, "different executables (%s, %s): calling "
                 "contexts are matched by function and source line, so code that moved or "
                 "was renamed shows as removed and added", x->exe, y->exe);
    }
    if (m & RP_DIFF_RANKS) {
        out[n].kind = "ranks";
        snprintf(out[n++].msg, sizeof out->msg, "different numbers of ranks (%u, %u): per-rank "
                 "rows are not compared; totals over ranks and the paths are", x->nranks,
                 y->nranks);
    }
    if (m & RP_DIFF_K) {
        out[n].kind = "k";
        snprintf(out[n++].msg, sizeof out->msg, "different k (%u, %u): levels are matched by "
                 "percentile, only those both runs have are compared", x->k, y->k);
    }
    if (m & RP_DIFF_MODE) {
        out[n].kind = "mode";
        snprintf(out[n++].msg, sizeof out->msg, "different modes (%s, %s): path costs are "
                 "compared", profile_mode_name(x->mode), profile_mode_name(y->mode));
    }
    if (m & RP_DIFF_NOSAMPLES) {
        out[n].kind = "samples";
        snprintf(out[n++].msg, sizeof out->msg, "a run without samples (RP_MODE=%s): calling "
                 "contexts and MPI call sites are not compared",
                 profile_mode_name(x->mode != RP_MODE_PROF ? x->mode : y->mode));
    }
    if (m & RP_DIFF_SELECT) {
        out[n].kind = "select";
        snprintf(out[n++].msg, sizeof out->msg, "different selection rules (%s, %s): the middle "
                 "levels estimate different things; only 100 %% and 0 %% compare exactly",
                 profile_select_name(x->select), profile_select_name(y->select));
    }
    return n;
}

/* per-rank rows are compared when both runs have them for the same ranks */
static const char *ranks_reason(const rp_diffrun *a, const rp_diffrun *b)
{
    if (!a->s.ranks || !b->s.ranks)
        return "per-rank rows need both measurement directories (rank files), not merged "
               "profiles";
    if (a->s.p->nranks != b->s.p->nranks)
        return "the runs have different numbers of ranks";
    return NULL;
}

static const rp_rankrow *find_rank(const rp_diffside *s, uint32_t rank)
{
    for (uint32_t i = 0; i < s->nranks_rows; i++)
        if (s->ranks[i].rank == rank)
            return &s->ranks[i];
    return NULL;
}

/* ---- text ---- */

/* Length of the longest run of whole frames ("A > B > ") that the paths of
 * c[0..n) all start with and that leaves each of them a frame of its own. */
static size_t common_prefix(const rp_diffctx *c, int32_t n)
{
    size_t best = 0;
    const char *p0 = c[0].path;
    for (const char *s = strstr(p0, " > "); s; s = strstr(s + 3, " > ")) {
        size_t len = (size_t)(s - p0) + 3;
        for (int32_t i = 1; i < n; i++)
            if (strncmp(c[i].path, p0, len) != 0 || strlen(c[i].path) <= len)
                return best;
        best = len;
    }
    return best;
}

static int text_funcs(FILE *f, const rp_diffctx *c, int32_t n, const rp_diffrun *a,
                      const rp_diffrun *b, uint32_t top)
{
    rp_difffunc *d;
    int32_t m = diff_functions(c, n, precision_weight_ns(a->s.p), precision_weight_ns(b->s.p),
                               &d);
    if (m < 0)
        return -1;
    fprintf(f, "  by function (inclusive: every context the function is on; those on every "
               "context, such as main, left out):\n");
    for (int32_t i = 0, shown = 0; i < m && (uint32_t)shown < top; i++)
        if (!d[i].everywhere && ++shown)
            fprintf(f, "  %10.4f %10.4f %+10.4f%c %8.0f %8.0f  %s\n", secs(d[i].a_ns), secs(d[i].b_ns),
                secs(d[i].b_ns - d[i].a_ns), d[i].noise ? '~' : ' ', d[i].samples_a,
                d[i].samples_b, d[i].name);
    diff_functions_free(d, m);
    return 0;
}

static void text_ctx(FILE *f, const char *what, const rp_diffctx *c, int32_t n, uint32_t top)
{
    int32_t beyond = 0;
    int64_t sa = 0, sb = 0;
    for (int32_t i = 0; i < n; i++) {
        beyond += !c[i].noise;
        sa += c[i].excl_a;
        sb += c[i].excl_b;
    }
    fprintf(f, "\nContexts whose time changed most: %s (sampled exclusive time, %.3f s -> "
               "%.3f s located;\n  %d contexts, %d changed beyond noise; ~: change within 2 "
               "sigma; samples estimated)\n", what, secs(sa), secs(sb), n, beyond);
    if (n == 0) {
        fputs("  (no samples)\n", f);
        return;
    }
    /* the frames every shown context starts with (_start > main ...) once,
     * above the table, so the rows show where they differ */
    int32_t shown = n < (int32_t)top ? n : (int32_t)top;
    size_t pre = shown > 1 ? common_prefix(c, shown) : 0;
    if (pre)
        fprintf(f, "  every context below starts with: %.*s\n", (int)(pre - 3), c[0].path);
    fprintf(f, "  %10s %10s %11s %8s %8s  %s\n", "before [s]", "after [s]", "change [s]",
            "smp bef", "smp aft", pre ? "context (... > innermost)"
                                      : "context (outermost > ... > innermost)");
    for (int32_t i = 0; i < shown; i++)
        fprintf(f, "  %10.4f %10.4f %+10.4f%c %8.0f %8.0f  %s%s\n", secs(c[i].excl_a),
                secs(c[i].excl_b), secs(c[i].excl_b - c[i].excl_a), c[i].noise ? '~' : ' ',
                c[i].samples_a, c[i].samples_b, pre ? "... > " : "", c[i].path + pre);
}

static void text_pop(FILE *f, const rp_diffrun *a, const rp_diffrun *b)
{
    rp_popin pa, pb;
    pop_of(&a->s, &pa);
    pop_of(&b->s, &pb);
    if (!pa.ok || !pb.ok) {
        fprintf(f, "\nPOP efficiency factors: not compared (%s has no per-rank task time; "
                   "give rp-report measurement directories)\n",
                !pa.ok ? "before" : "after");
        return;
    }
    fprintf(f, "\nPOP efficiency factors (computation %s / %s; runtime and critical path "
               "exact)\n", pa.exact ? "exact" : "SAMPLED", pb.exact ? "exact" : "SAMPLED");
    fprintf(f, "  %-30s %8s %8s %8s\n", "factor", "before", "after", "change");
    const char *nm[] = {"Parallel efficiency", "  Load balance", "  Communication efficiency",
                        "    Serialisation efficiency", "    Transfer efficiency"};
    double va[] = {pa.pop.pe, pa.pop.lb, pa.pop.comme, pa.pop.sere, pa.pop.te};
    double vb[] = {pb.pop.pe, pb.pop.lb, pb.pop.comme, pb.pop.sere, pb.pop.te};
    for (int i = 0; i < 5; i++) {
        if (va[i] < 0 || vb[i] < 0)
            fprintf(f, "  %-30s %8s %8s %8s  (no critical path in one run)\n", nm[i], "-", "-",
                    "-");
        else
            fprintf(f, "  %-30s %8.3f %8.3f %+8.3f\n", nm[i], va[i], vb[i], vb[i] - va[i]);
    }
    const char *in[] = {"runtime [s]", "max computation [s]", "mean computation [s]",
                        "critical path [s]"};
    int64_t ia[] = {pa.pop.runtime_ns, pa.pop.max_comp_ns, pa.pop.mean_comp_ns, pa.pop.ideal_ns};
    int64_t ib[] = {pb.pop.runtime_ns, pb.pop.max_comp_ns, pb.pop.mean_comp_ns, pb.pop.ideal_ns};
    for (int i = 0; i < 4; i++)
        fprintf(f, "  %-30s %8.3f %8.3f %+8.3f\n", in[i], secs(ia[i]), secs(ib[i]),
                secs(ib[i] - ia[i]));
}

/* a rank's row in the text: |task-time change| orders them (a rank
 * missing after first) */
typedef struct rankord {
    uint32_t i;
    int64_t  key;
} rankord;

static int cmp_rankord(const void *x, const void *y)
{
    const rankord *a = x, *b = y;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static int text_ranks(FILE *f, const rp_diffrun *a, const rp_diffrun *b, uint32_t top)
{
    const char *why = ranks_reason(a, b);
    if (why) {
        fprintf(f, "\nPer rank: not compared (%s)\n", why);
        return 0;
    }
    uint32_t n = a->s.nranks_rows;
    rankord *o = malloc((n ? n : 1) * sizeof *o);
    if (!o)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const rp_rankrow *x = &a->s.ranks[i], *y = find_rank(&b->s, x->rank);
        int64_t d = y ? y->task_ns - x->task_ns : INT64_MAX;
        o[i] = (rankord){i, d < 0 ? -d : d};
    }
    qsort(o, n, sizeof *o, cmp_rankord);
    int exact = 1;
    for (uint32_t i = 0; i < a->s.nranks_rows; i++)
        exact &= a->s.ranks[i].exact;
    for (uint32_t i = 0; i < b->s.nranks_rows; i++)
        exact &= b->s.ranks[i].exact;
    fprintf(f, "\nPer rank (%s: task = time outside MPI calls, MPI = inside them, waiting "
               "included;\n  the largest task-time changes first)\n",
            exact ? "exact" : "partly SAMPLED");
    fprintf(f, "  %6s %10s %10s %11s %10s %10s %11s\n", "rank", "task bef", "task aft",
            "change [s]", "MPI bef", "MPI aft", "change [s]");
    for (uint32_t r = 0; r < n && r < top; r++) {
        const rp_rankrow *x = &a->s.ranks[o[r].i], *y = find_rank(&b->s, x->rank);
        if (!y) {
            fprintf(f, "  %6u %10.4f %10s %11s %10.4f %10s  (no rank file after)\n", x->rank,
                    secs(x->task_ns), "-", "", secs(x->mpi_ns), "-");
            continue;
        }
        fprintf(f, "  %6u %10.4f %10.4f %+11.4f %10.4f %10.4f %+11.4f\n", x->rank,
                secs(x->task_ns), secs(y->task_ns), secs(y->task_ns - x->task_ns),
                secs(x->mpi_ns), secs(y->mpi_ns), secs(y->mpi_ns - x->mpi_ns));
    }
    if (n > top)
        fprintf(f, "  (%u more ranks with smaller changes; --top shows more, JSON has every "
                   "rank)\n", n - top);
    free(o);
    return 0;
}

int diffview_text(FILE *f, const rp_diffrun *a, const rp_diffrun *b, uint32_t top)
{
    const rp_profile *x = a->s.p, *y = b->s.p;
    fprintf(f, "rp-report --diff\n  before: %s (%s, %u ranks, k=%u, %s mode, wall %.3f s)\n"
               "  after:  %s (%s, %u ranks, k=%u, %s mode, wall %.3f s)\n",
            a->name, x->exe, x->nranks, x->k, profile_mode_name(x->mode), secs(x->wall_ns),
            b->name, y->exe, y->nranks, y->k, profile_mode_name(y->mode), secs(y->wall_ns));
    note nt[8];
    uint32_t nn = notes(a, b, nt);
    for (uint32_t i = 0; i < nn; i++)
        fprintf(f, "  note: %s\n", nt[i].msg);
    /* each run's losses (warnings.h), as its own report would warn */
    report_warnings_print(f, "  before: ", x->counters, x->n_counters);
    report_warnings_print(f, "  after: ", y->counters, y->n_counters);

    rp_difflevel *lv = malloc((x->k ? x->k : 1) * sizeof *lv);
    if (!lv)
        return -1;
    uint32_t nl = diff_levels(&a->s, &b->s, lv);
    fprintf(f, "\nPath-length distribution (cost = task time along the path, summed over "
               "phases; 100 %% and 0 %% exact, the others estimated)\n");
    fprintf(f, "  %10s %12s %12s %12s %9s\n", "percentile", "before [s]", "after [s]",
            "change [s]", "change");
    for (uint32_t i = 0; i < nl; i++)
        fprintf(f, "  %9.1f%% %12.6f %12.6f %+12.6f %+8.1f%%\n", lv[i].percentile,
                secs(lv[i].a_ns), secs(lv[i].b_ns), secs(lv[i].b_ns - lv[i].a_ns),
                chg_pct(lv[i].a_ns, lv[i].b_ns));
    if (nl >= 2) {
        int64_t sa = lv[0].a_ns - lv[nl - 1].a_ns, sb = lv[0].b_ns - lv[nl - 1].b_ns;
        fprintf(f, "  %10s %12.6f %12.6f %+12.6f %+8.1f%%\n", "100%-0%", secs(sa), secs(sb),
                secs(sb - sa), chg_pct(sa, sb));
    }
    free(lv);
    text_pop(f, a, b);

    if (!(diff_mismatch(&a->s, &b->s) & RP_DIFF_NOSAMPLES)) {
        static const struct {
            uint32_t col;
            const char *what;
        } cols[] = {{RP_MET_PATH0, "on the critical (100 %) path"},
                    {RP_MET_RANK, "whole program (every sample of every rank)"}};
        for (int c = 0; c < 2; c++) {
            rp_diffctx *ctx;
            int32_t n = diff_contexts(x, cols[c].col, y, cols[c].col, &ctx);
            if (n < 0)
                return -1;
            text_ctx(f, cols[c].what, ctx, n, top);
            if (n > 0 && text_funcs(f, ctx, n, a, b, top) != 0) {
                diff_contexts_free(ctx, n);
                return -1;
            }
            if (c == 0 && lv)
                fprintf(f, "  the critical path's cost changed by %+.4f s (exact)\n",
                        secs((b->s.cost_ns ? b->s.cost_ns[0] : 0) -
                             (a->s.cost_ns ? a->s.cost_ns[0] : 0)));
            diff_contexts_free(ctx, n);
        }
    }
    if (text_ranks(f, a, b, top) != 0)
        return -1;
    if (!(diff_mismatch(&a->s, &b->s) & RP_DIFF_NOSAMPLES)) {
        rp_diffsite *s;
        int32_t n = diff_sites(x, y, &s);
        if (n < 0)
            return -1;
        fprintf(f, "\nMPI time by call site (sampled; ~: change within 2 sigma)\n");
        fprintf(f, "  %10s %10s %11s %8s %8s  %s\n", "before [s]", "after [s]", "change [s]",
                "smp bef", "smp aft", "call from site");
        for (int32_t i = 0; i < n && (uint32_t)i < top; i++)
            fprintf(f, "  %10.4f %10.4f %+10.4f%c %8.0f %8.0f  %s\n", secs(s[i].a_ns),
                    secs(s[i].b_ns), secs(s[i].b_ns - s[i].a_ns), s[i].noise ? '~' : ' ',
                    s[i].samples_a, s[i].samples_b, s[i].name);
        if (n == 0)
            fputs("  (no samples inside MPI)\n", f);
        diff_sites_free(s, n);
    }
    return ferror(f) ? -1 : 0;
}

/* ---- JSON ---- */

static void jnum(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.15g", v);
    else
        fputs("null", f);
}

static void json_run(FILE *f, const rp_diffrun *r, void (*jstr)(FILE *, const char *))
{
    const rp_profile *p = r->s.p;
    fputs("{\"source\": ", f);
    jstr(f, r->name);
    fputs(", \"program\": ", f);
    jstr(f, p->exe);
    fprintf(f, ", \"ranks\": %u, \"k\": %u, \"mode\": ", p->nranks, p->k);
    jstr(f, profile_mode_name(p->mode));
    fputs(", \"select\": ", f);
    jstr(f, profile_select_name(p->select));
    fputs(", \"wall_seconds\": ", f);
    jnum(f, secs(p->wall_ns));
    fputc('}', f);
}

/* one run's warnings: [{counter, value, message, remedy}] as report_json's */
static int json_warnings(FILE *f, const rp_profile *p)
{
    fputc('[', f);
    int rc = report_json_counter_warnings(f, p);
    fputc(']', f);
    return rc < 0 ? -1 : 0;
}

static void json_pop1(FILE *f, const rp_popin *in)
{
    if (!in->ok) {
        fputs("null", f);
        return;
    }
    const rp_pop *q = &in->pop;
    fputs("{\"parallel_efficiency\": ", f);
    jnum(f, q->pe);
    fputs(", \"load_balance\": ", f);
    jnum(f, q->lb);
    fputs(", \"communication_efficiency\": ", f);
    jnum(f, q->comme);
    fputs(", \"serialisation_efficiency\": ", f);
    jnum(f, q->sere < 0 ? NAN : q->sere);
    fputs(", \"transfer_efficiency\": ", f);
    jnum(f, q->te < 0 ? NAN : q->te);
    fputs(", \"runtime_seconds\": ", f);
    jnum(f, secs(q->runtime_ns));
    fputs(", \"max_computation_seconds\": ", f);
    jnum(f, secs(q->max_comp_ns));
    fputs(", \"mean_computation_seconds\": ", f);
    jnum(f, secs(q->mean_comp_ns));
    fputs(", \"critical_path_seconds\": ", f);
    jnum(f, secs(q->ideal_ns));
    fprintf(f, ", \"computation\": \"%s\"}", in->exact ? "exact" : "sampled");
}

/* the fields of "critical_path" and "whole_program" (doc/report.md) */
static int json_ctx(FILE *f, const rp_profile *x, const rp_profile *y, uint32_t col,
                    uint32_t top, void (*jstr)(FILE *, const char *))
{
    rp_diffctx *c;
    int32_t n = diff_contexts(x, col, y, col, &c);
    if (n < 0)
        return -1;
    int32_t beyond = 0;
    for (int32_t i = 0; i < n; i++)
        beyond += !c[i].noise;
    fprintf(f, "\"contexts_total\": %d, \"contexts_beyond_noise\": %d, \"contexts\": [", n,
            beyond);
    for (int32_t i = 0; i < n && (uint32_t)i < top; i++) {
        fputs(i ? ", {\"context\": " : "{\"context\": ", f);
        jstr(f, c[i].path);
        fputs(", \"leaf\": ", f);
        jstr(f, c[i].leaf);
        fputs(", \"before_seconds\": ", f);
        jnum(f, secs(c[i].excl_a));
        fputs(", \"after_seconds\": ", f);
        jnum(f, secs(c[i].excl_b));
        fputs(", \"change_seconds\": ", f);
        jnum(f, secs(c[i].excl_b - c[i].excl_a));
        fputs(", \"inclusive_before_seconds\": ", f);
        jnum(f, secs(c[i].incl_a));
        fputs(", \"inclusive_after_seconds\": ", f);
        jnum(f, secs(c[i].incl_b));
        fprintf(f, ", \"samples_before\": %.0f, \"samples_after\": %.0f, \"within_noise\": %s}",
                c[i].samples_a, c[i].samples_b, c[i].noise ? "true" : "false");
    }
    fputs("], \"functions\": [", f);
    rp_difffunc *d;
    int32_t m = diff_functions(c, n, precision_weight_ns(x), precision_weight_ns(y), &d);
    diff_contexts_free(c, n);
    if (m < 0)
        return -1;
    for (int32_t i = 0; i < m && (uint32_t)i < top; i++) {
        fputs(i ? ", {\"function\": " : "{\"function\": ", f);
        jstr(f, d[i].name);
        fputs(", \"before_seconds\": ", f);
        jnum(f, secs(d[i].a_ns));
        fputs(", \"after_seconds\": ", f);
        jnum(f, secs(d[i].b_ns));
        fputs(", \"change_seconds\": ", f);
        jnum(f, secs(d[i].b_ns - d[i].a_ns));
        fprintf(f, ", \"samples_before\": %.0f, \"samples_after\": %.0f, \"within_noise\": %s, "
                   "\"on_every_context\": %s}", d[i].samples_a, d[i].samples_b,
                d[i].noise ? "true" : "false", d[i].everywhere ? "true" : "false");
    }
    fputc(']', f);
    diff_functions_free(d, m);
    return 0;
}

static void json_pair(FILE *f, const char *key, int64_t a, int64_t b)
{
    fprintf(f, "\"%s_before_seconds\": ", key);
    jnum(f, secs(a));
    fprintf(f, ", \"%s_after_seconds\": ", key);
    jnum(f, secs(b));
    fprintf(f, ", \"%s_change_seconds\": ", key);
    jnum(f, secs(b - a));
}

int diffview_json(FILE *f, const rp_diffrun *a, const rp_diffrun *b, uint32_t top,
                  void (*jstr)(FILE *, const char *))
{
    const rp_profile *x = a->s.p, *y = b->s.p;
    fputs("{\"before\": ", f);
    json_run(f, a, jstr);
    fputs(", \"after\": ", f);
    json_run(f, b, jstr);
    note nt[8];
    uint32_t nn = notes(a, b, nt);
    fputs(", \"notes\": [", f);
    for (uint32_t i = 0; i < nn; i++) {
        fprintf(f, "%s{\"kind\": \"%s\", \"message\": ", i ? ", " : "", nt[i].kind);
        jstr(f, nt[i].msg);
        fputc('}', f);
    }
    fputs("], \"warnings\": {\"before\": ", f);
    if (json_warnings(f, x) != 0)
        return -1;
    fputs(", \"after\": ", f);
    if (json_warnings(f, y) != 0)
        return -1;
    fputs("}, \"levels\": [", f);
    rp_difflevel *lv = malloc((x->k ? x->k : 1) * sizeof *lv);
    if (!lv)
        return -1;
    uint32_t nl = diff_levels(&a->s, &b->s, lv);
    for (uint32_t i = 0; i < nl; i++) {
        fputs(i ? ", {\"percentile\": " : "{\"percentile\": ", f);
        jnum(f, lv[i].percentile);
        fprintf(f, ", \"exact\": %s, ", i == 0 || i + 1 == nl ? "true" : "false");
        json_pair(f, "cost", lv[i].a_ns, lv[i].b_ns);
        fputs(", \"change_percent\": ", f);
        jnum(f, chg_pct(lv[i].a_ns, lv[i].b_ns));
        fputc('}', f);
    }
    fputs("], \"spread\": ", f);
    if (nl >= 2) {
        int64_t sa = lv[0].a_ns - lv[nl - 1].a_ns, sb = lv[0].b_ns - lv[nl - 1].b_ns;
        fputc('{', f);
        json_pair(f, "spread", sa, sb);
        fputs(", \"change_percent\": ", f);
        jnum(f, chg_pct(sa, sb));
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    free(lv);
    rp_popin pa, pb;
    pop_of(&a->s, &pa);
    pop_of(&b->s, &pb);
    fputs(", \"pop\": {\"before\": ", f);
    json_pop1(f, &pa);
    fputs(", \"after\": ", f);
    json_pop1(f, &pb);
    fputc('}', f);
    int samples = !(diff_mismatch(&a->s, &b->s) & RP_DIFF_NOSAMPLES);
    fputs(", \"critical_path\": ", f);
    if (samples) {
        fputs("{\"cost_change_seconds\": ", f);
        jnum(f, secs((b->s.cost_ns ? b->s.cost_ns[0] : 0) - (a->s.cost_ns ? a->s.cost_ns[0] : 0)));
        fputs(", ", f);
        if (json_ctx(f, x, y, RP_MET_PATH0, top, jstr) != 0)
            return -1;
        fputs("}, \"whole_program\": {", f);
        if (json_ctx(f, x, y, RP_MET_RANK, top, jstr) != 0)
            return -1;
        fputc('}', f);
    } else {
        fputs("null, \"whole_program\": null", f);
    }
    const char *why = ranks_reason(a, b);
    fputs(", \"per_rank\": ", f);
    if (why) {
        fputs("null, \"per_rank_omitted\": ", f);
        jstr(f, why);
    } else {
        fputc('[', f);
        uint32_t w = 0;
        for (uint32_t i = 0; i < a->s.nranks_rows; i++) {
            const rp_rankrow *r = &a->s.ranks[i], *q = find_rank(&b->s, r->rank);
            if (!q)
                continue;
            fprintf(f, "%s{\"rank\": %u, ", w++ ? ", " : "", r->rank);
            json_pair(f, "task", r->task_ns, q->task_ns);
            fputs(", ", f);
            json_pair(f, "mpi", r->mpi_ns, q->mpi_ns);
            fprintf(f, ", \"times\": \"%s\"}", r->exact && q->exact ? "exact" : "sampled");
        }
        fputs("], \"per_rank_omitted\": null", f);
    }
    fputs(", \"mpi_call_sites\": ", f);
    if (samples) {
        rp_diffsite *s;
        int32_t n = diff_sites(x, y, &s);
        if (n < 0)
            return -1;
        fputc('[', f);
        for (int32_t i = 0; i < n && (uint32_t)i < top; i++) {
            fputs(i ? ", {\"site\": " : "{\"site\": ", f);
            jstr(f, s[i].name);
            fputs(", ", f);
            json_pair(f, "mpi", s[i].a_ns, s[i].b_ns);
            fprintf(f, ", \"samples_before\": %.0f, \"samples_after\": %.0f, "
                       "\"within_noise\": %s}", s[i].samples_a, s[i].samples_b,
                    s[i].noise ? "true" : "false");
        }
        fputc(']', f);
        diff_sites_free(s, n);
    } else {
        fputs("null", f);
    }
    fputs("}\n", f);
    return ferror(f) ? -1 : 0;
}
