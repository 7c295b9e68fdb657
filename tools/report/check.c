/* check.c - rp-report --check: the online paths against what the
 * rank files prove, as a table or (--format json) one JSON object.
 *
 * Trace mode: per phase, the offline longest and shortest path of the task
 * graph (graph.c) against the online 100 % and 0 % paths (exact by
 * construction, paper §5), then the exact percentiles of all paths
 * (oracle.c, issue 14) against the online middle paths: per level the
 * median and worst error, and per phase each level's online cost, exact
 * cost and signed error.  Path mode: every reassembled path's tasks against
 * its online cost.  The results are gathered first and printed by one of
 * two printers, so the text and the JSON always say the same thing. */
#include "core/select.h"
#include "common/oracle.h"
#include "common/pctcmp.h"
#include "common/graph.h"
#include "common/paths.h"
#include "report/check.h"
#include "report/model.h"
#include "report/json.h"
#include "report/pop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double ms(int64_t ns) { return (double)ns / 1e6; }

/* A JSON number in seconds from ns (NaN: null). */
static void jsec(FILE *f, double ns)
{
    if (isnan(ns))
        fputs("null", f);
    else
        fprintf(f, "%.9f", ns / 1e9);
}

static void jnum(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

/* ---- trace mode ------------------------------------------------------------ */

/* The POP factors the oracle implies (doc/report.md, "POP factors"): each
 * rank's computation summed from its recorded tasks, the critical path as
 * the offline longest paths summed over phases, the runtime as rp-report's
 * (the largest wall time of a rank).  0 with *out filled; -1 when the graph
 * is incomplete or nothing can be computed. */
static int oracle_pop(const rp_graph *g, const rp_run *run, rp_pop *out)
{
    memset(out, 0, sizeof *out);
    if (g->stuck || run->n_present == 0)
        return -1;
    int64_t *comp = calloc(run->n_present, sizeof *comp);
    uint32_t *rank = calloc(run->n_present, sizeof *rank);
    if (!comp || !rank) {
        free(comp);
        free(rank);
        return -1;
    }
    uint32_t n = 0;
    int64_t runtime = 0, ideal = 0;
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        const rp_rankdata *d = &run->rd[r];
        for (uint64_t t = 0; t < d->n_tasks; t++)
            comp[n] += d->tasks[t].cost_ns;
        if (d->wall_ns > runtime)
            runtime = d->wall_ns;
        rank[n++] = r;
    }
    for (uint64_t q = 0; q < g->nphases; q++)
        if (g->ph[q].end_rank != RP_NO_RANK)
            ideal += g->ph[q].longest_ns;
    int rc = pop_compute(comp, rank, n, runtime, ideal, out);
    free(comp);
    free(rank);
    return rc;
}

static void text_oracle_pop(FILE *f, const rp_pop *p)
{
    fprintf(f, "oracle-implied POP factors (computation: the recorded tasks; critical path: "
               "the offline longest paths, %.6f s; runtime %.6f s):\n  PE %.3f  LB %.3f  "
               "CommE %.3f  SerE %.3f  TE %.3f  (max computation %.6f s on rank %u, mean "
               "%.6f s)\n", (double)p->ideal_ns / 1e9, (double)p->runtime_ns / 1e9, p->pe,
            p->lb, p->comme, p->sere < 0 ? 0.0 : p->sere, p->te < 0 ? 0.0 : p->te,
            (double)p->max_comp_ns / 1e9, p->busiest, (double)p->mean_comp_ns / 1e9);
}

static void json_oracle_pop(FILE *f, const rp_pop *p, int ok)
{
    if (!ok) {
        fputs(",\"pop\":null", f);
        return;
    }
    fputs(",\"pop\":{\"parallel_efficiency\":", f);
    jnum(f, p->pe);
    fputs(",\"load_balance\":", f);
    jnum(f, p->lb);
    fputs(",\"communication_efficiency\":", f);
    jnum(f, p->comme);
    fputs(",\"serialisation_efficiency\":", f);
    jnum(f, p->sere < 0 ? NAN : p->sere);
    fputs(",\"transfer_efficiency\":", f);
    jnum(f, p->te < 0 ? NAN : p->te);
    fprintf(f, ",\"ranks\":%u,\"busiest_rank\":%u,\"mean_computation_seconds\":", p->nranks,
            p->busiest);
    jsec(f, (double)p->mean_comp_ns);
    fputs(",\"max_computation_seconds\":", f);
    jsec(f, (double)p->max_comp_ns);
    fputs(",\"runtime_seconds\":", f);
    jsec(f, (double)p->runtime_ns);
    fputs(",\"critical_path_seconds\":", f);
    jsec(f, p->ideal_ns ? (double)p->ideal_ns : NAN);
    fputc('}', f);
}

typedef struct tphase {
    int         ok;
    const char *status;
    double      longest, on_hi, shortest, on_lo;   /* ns; NaN: not known */
} tphase;

/* The online cost of every level of every phase (NaN: the phase has no
 * paths), compared with the exact percentiles (pctcmp.h).  0, or -1 on
 * ENOMEM (t->run = 0 and why[] say whether it ran). */
static int compare_percentiles(const rp_graph *g, const rp_run *run, uint32_t bins,
                               rp_pctcmp *t)
{
    uint32_t k = run->k > 64 ? 64 : run->k;
    uint64_t nq = g->nphases;
    double *probe = malloc((nq ? nq : 1) * k * sizeof *probe);
    if (!probe) {
        memset(t, 0, sizeof *t);
        snprintf(t->why, sizeof t->why, "out of memory");
        return -1;
    }
    for (uint64_t q = 0; q < nq; q++)
        for (uint32_t j = 0; j < k; j++) {
            const rp_pathsum *s =
                q < run->nphases && run_npaths(run, q)
                    ? run_pathsum(run, q, run_level_path(run, q, j)) : NULL;
            probe[q * k + j] = s ? (double)s->cost_ns : NAN;
        }
    int rc = pctcmp_run(g, k, bins, probe, t);
    free(probe);
    return rc;
}

/* Long runs show the first 20 phases, the last 5 and every failure. */
static int shown(uint64_t q, uint64_t nq, int ok)
{
    return !ok || q < 20 || q + 5 >= nq || nq <= 40;
}

static void text_percentiles(FILE *f, const rp_pctcmp *t)
{
    if (!t->run) {
        fprintf(f, "percentiles not checked: %s\n", t->why);
        return;
    }
    uint32_t k = t->k;
    fprintf(f, "percentiles of all paths (exact, by path counting over the task graph; %llu "
               "phase(s), median 2^%.1f paths a phase, rounding bound %.3g %% of a phase's "
               "range):\n", (unsigned long long)t->n, t->mean_log2, t->bound_pct);
    if (t->bound_pct > 1.0)
        fprintf(f, "  (a bound above 1 %%: rp-report --check --check-bins N, with N above the\n"
                   "   default %u-%u bins, narrows it roughly in proportion to N and\n"
                   "   takes time in proportion to N)\n", RP_ORACLE_BINS_MIN, RP_ORACLE_BINS_MAX);
    fputs("  (online path vs exact percentile. error: the cost difference, % of the phase's "
          "longest - shortest;\n   rank: percentile points between the level and where the "
          "online path sits among all paths)\n", f);
    fprintf(f, "%10s %15s %15s %15s %15s\n", "percentile", "median_error_%", "worst_error_%",
            "median_rank_pts", "worst_rank_pts");
    for (uint32_t j = 0; j < k && t->n; j++)
        fprintf(f, "%10.1f %15.2f %15.2f %15.2f %15.2f   %s\n", select_percentile(j, k),
                t->med[j], t->worst[j], t->rmed[j], t->rworst[j],
                j == 0 || j + 1 == k ? "exact by construction" : "estimate");
    if (k < 3 || !t->n)
        return;
    fprintf(f, "per phase, each estimated level: online ms / exact ms / error (%% of the "
               "phase's range; + = the online path is longer) / rank error (percentile "
               "points)\n%6s %10s", "phase", "paths");
    for (uint32_t j = 1; j + 1 < k; j++)
        fprintf(f, " %34.1f%%", select_percentile(j, k));
    fputc('\n', f);
    for (uint64_t i = 0; i < t->n; i++) {
        if (!shown(i, t->n, 1))
            continue;
        const rp_pctphase *p = &t->ph[t->qs[i]];
        fprintf(f, "%6llu   2^%-6.1f", (unsigned long long)t->qs[i], p->log2_paths);
        for (uint32_t j = 1; j + 1 < k; j++)
            fprintf(f, " %9.3f / %7.3f / %+6.1f / %5.1f", ms((int64_t)t->online[i * k + j]),
                    p->exact_ns[j] / 1e6, pctcmp_cost_err(t, i, j), pctcmp_rank_err(t, i, j));
        fputc('\n', f);
    }
}

static void json_percentiles(FILE *f, const rp_pctcmp *t)
{
    if (!t->run) {
        fputs(",\"percentiles\":null,\"percentiles_note\":", f);
        report_json_string(f, t->why);
        return;
    }
    uint32_t k = t->k;
    fprintf(f, ",\"percentiles\":{\"phases\":%llu,\"mean_log2_paths\":",
            (unsigned long long)t->n);
    jnum(f, t->mean_log2);
    fputs(",\"rounding_bound_pct\":", f);
    jnum(f, t->bound_pct);
    fprintf(f, ",\"consistent\":%s,\"levels\":[", t->incons ? "false" : "true");
    for (uint32_t j = 0; j < k && t->n; j++) {
        fprintf(f, "%s{\"percentile\":%.6g,\"exact\":%s,\"median_error_pct\":", j ? "," : "",
                select_percentile(j, k), j == 0 || j + 1 == k ? "true" : "false");
        jnum(f, t->med[j]);
        fputs(",\"worst_error_pct\":", f);
        jnum(f, t->worst[j]);
        fputs(",\"median_rank_error_pts\":", f);
        jnum(f, t->rmed[j]);
        fputs(",\"worst_rank_error_pts\":", f);
        jnum(f, t->rworst[j]);
        fputc('}', f);
    }
    fputs("],\"by_phase\":[", f);
    for (uint64_t i = 0; i < t->n; i++) {
        const rp_pctphase *p = &t->ph[t->qs[i]];
        fprintf(f, "%s{\"phase\":%llu,\"log2_paths\":", i ? "," : "",
                (unsigned long long)t->qs[i]);
        jnum(f, p->log2_paths);
        fputs(",\"grid_seconds\":", f);
        jsec(f, p->grid_ns);
        fputs(",\"rounding_bound_seconds\":", f);
        jsec(f, p->bound_ns);
        fputs(",\"levels\":[", f);
        for (uint32_t j = 0; j < k; j++) {
            fprintf(f, "%s{\"percentile\":%.6g,\"online_seconds\":", j ? "," : "",
                    select_percentile(j, k));
            jsec(f, t->online[i * k + j]);
            fputs(",\"exact_seconds\":", f);
            jsec(f, p->exact_ns[j]);
            fputs(",\"error_pct\":", f);
            jnum(f, pctcmp_cost_err(t, i, j));
            fputs(",\"online_percentile_low\":", f);
            jnum(f, p->probe_lo_pct[j]);
            fputs(",\"online_percentile_high\":", f);
            jnum(f, p->probe_hi_pct[j]);
            fputs(",\"rank_error_pts\":", f);
            jnum(f, pctcmp_rank_err(t, i, j));
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}", f);
}

static int check_trace(FILE *f, const rp_run *run, int64_t tol, int json, uint32_t bins)
{
    rp_graph g;
    if (graph_build(run, &g) != 0) {
        fprintf(stderr, "%s: out of memory building the task graph\n", run->prog);
        return -1;
    }
    int bad = 0;
    char fail[320] = "";
    if (g.stuck) {
        snprintf(fail, sizeof fail, "the task graph is incomplete: %s", g.why);
        bad = 1;
    } else if (g.nphases != run->nphases) {
        snprintf(fail, sizeof fail, "the graph has %llu phases, the online algorithm "
                 "recorded %llu", (unsigned long long)g.nphases,
                 (unsigned long long)run->nphases);
        bad = 1;
    }
    uint64_t nq = g.nphases > run->nphases ? g.nphases : run->nphases, nbad = 0;
    tphase *ph = calloc(nq ? nq : 1, sizeof *ph);
    rp_pctcmp pct;
    memset(&pct, 0, sizeof pct);
    if (!ph || (!g.stuck && compare_percentiles(&g, run, bins, &pct) < 0)) {
        fprintf(stderr, "%s: out of memory checking the percentiles\n", run->prog);
        free(ph);
        pctcmp_free(&pct);
        graph_free(&g);
        return -1;
    }
    if (g.stuck)
        snprintf(pct.why, sizeof pct.why, "the task graph is incomplete");
    for (uint64_t q = 0; q < nq; q++) {
        tphase *t = &ph[q];
        uint32_t np = run_npaths(run, q);
        const rp_pathsum *hi = np ? run_pathsum(run, q, 0) : NULL;
        const rp_pathsum *lo = np ? run_pathsum(run, q, np - 1) : NULL;
        int have = q < g.nphases && g.ph[q].end_rank != RP_NO_RANK;
        t->ok = have && hi && g.ph[q].complete;
        t->longest = have ? (double)g.ph[q].longest_ns : NAN;
        t->shortest = have ? (double)g.ph[q].shortest_ns : NAN;
        t->on_hi = hi ? (double)hi->cost_ns : NAN;
        t->on_lo = run->k >= 2 && lo ? (double)lo->cost_ns : NAN;
        if (t->ok) {
            t->ok = llabs(hi->cost_ns - g.ph[q].longest_ns) <= tol;
            if (run->k >= 2 && lo)
                t->ok = t->ok && llabs(lo->cost_ns - g.ph[q].shortest_ns) <= tol;
        }
        t->status = t->ok ? "ok" : !have ? "FAIL (phase missing offline)"
                  : !hi ? "FAIL (no online path)"
                  : !g.ph[q].complete ? "FAIL (not every rank reached the phase end)" : "FAIL";
        nbad += !t->ok;
    }
    bad |= nbad > 0;
    int pct_bad = pct.run && pct.incons;
    rp_pop opop;
    int opop_ok = oracle_pop(&g, run, &opop) == 0;
    if (json) {
        fprintf(f, "{\"check\":\"%s\",\"mode\":\"trace\",\"ranks\":%u,\"ranks_present\":%u,"
                "\"k\":%u,\"tolerance_seconds\":", bad || pct_bad ? "failed" : "passed",
                run->nranks, run->n_present, run->k);
        jsec(f, (double)tol);
        fputs(",\"failure\":", f);
        if (fail[0])
            report_json_string(f, fail);
        else
            fputs("null", f);
        fprintf(f, ",\"failed_phases\":%llu,\"phases\":[", (unsigned long long)nbad);
        for (uint64_t q = 0; q < nq; q++) {
            fprintf(f, "%s{\"phase\":%llu,\"status\":", q ? "," : "", (unsigned long long)q);
            report_json_string(f, ph[q].status);
            fputs(",\"longest_seconds\":", f);
            jsec(f, ph[q].longest);
            fputs(",\"online_longest_seconds\":", f);
            jsec(f, ph[q].on_hi);
            fputs(",\"shortest_seconds\":", f);
            jsec(f, ph[q].shortest);
            fputs(",\"online_shortest_seconds\":", f);
            jsec(f, ph[q].on_lo);
            fputc('}', f);
        }
        fputc(']', f);
        json_oracle_pop(f, &opop, opop_ok);
        json_percentiles(f, &pct);
        fputs("}\n", f);
    } else {
        fprintf(f, "rpprof check (trace mode): %u of %u ranks, k=%u; offline longest/shortest "
                "path per phase vs the online 100 %%/0 %% paths, tolerance %.3f ms\n",
                run->n_present, run->nranks, run->k, ms(tol));
        if (fail[0])
            fprintf(f, "FAIL: %s\n", fail);
        else if (g.why[0])
            fprintf(f, "warning: %s\n", g.why);
        fprintf(f, "%6s %14s %14s %10s %14s %14s %10s  %s\n", "phase", "longest_ms",
                "online100_ms", "diff_ms", "shortest_ms", "online0_ms", "diff_ms", "");
        for (uint64_t q = 0; q < nq; q++) {
            const tphase *t = &ph[q];
            if (!shown(q, nq, t->ok))
                continue;
            double d1 = t->ok || (!isnan(t->on_hi) && !isnan(t->longest)) ? t->on_hi - t->longest : 0;
            double d0 = !isnan(t->on_lo) && !isnan(t->shortest) ? t->on_lo - t->shortest : 0;
            fprintf(f, "%6llu %14.3f %14.3f %10.3f %14.3f %14.3f %10.3f  %s\n",
                    (unsigned long long)q, t->longest / 1e6, t->on_hi / 1e6, d1 / 1e6,
                    t->shortest / 1e6, t->on_lo / 1e6, d0 / 1e6, t->status);
        }
        if (bad)
            fprintf(f, "check FAILED: %llu of %llu phase(s) disagree\n",
                    (unsigned long long)nbad, (unsigned long long)nq);
        else
            fprintf(f, "check passed: %llu phase(s), online = offline within %.3f ms%s\n",
                    (unsigned long long)nq, ms(tol),
                    run->k >= 2 ? "" : " (k=1: 0 % path not compared)");
        if (opop_ok)
            text_oracle_pop(f, &opop);
        if (!g.stuck) {
            text_percentiles(f, &pct);
            if (pct_bad)
                fprintf(f, "FAIL: in %llu phase(s) the distribution's ends differ from the "
                        "longest/shortest path walk\ncheck FAILED: the exact path distribution "
                        "disagrees with the longest/shortest path walk\n",
                        (unsigned long long)pct.incons);
        }
    }
    free(ph);
    pctcmp_free(&pct);
    graph_free(&g);
    return bad || pct_bad;
}

/* ---- path mode ------------------------------------------------------------- */

/* One path: ok, FAIL, or PARTIAL (the summary filled up: the prefix it
 * holds is checked against the online cost at that moment; the tail is
 * reported, not checked). */
enum { CHK_OK, CHK_FAIL, CHK_PARTIAL };

static int check_one(const rp_fullpath *p, int64_t tol)
{
    if (p->n_missing)
        return CHK_FAIL;
    if (!(p->flags & RP_PATH_OVERFLOW))
        return llabs(p->cost_ns - p->task_ns) <= tol ? CHK_OK : CHK_FAIL;
    if (p->covered_ns < 0)   /* a file without PCOV: nothing to compare with */
        return CHK_PARTIAL;
    return llabs(p->covered_ns - p->task_ns) <= tol ? CHK_PARTIAL : CHK_FAIL;
}

static const char *path_status(int st, const rp_fullpath *p)
{
    if (st == CHK_OK)
        return "ok";
    if (st == CHK_FAIL)
        return p->flags & RP_PATH_OVERFLOW ? "FAIL (prefix before the summary overflow)" : "FAIL";
    return p->covered_ns < 0 ? "PARTIAL (summary overflowed; old file: prefix not comparable)"
                             : "PARTIAL (summary overflowed: prefix ok, tail not rebuilt)";
}

static int check_path(FILE *f, const rp_run *run, int64_t tol, int json)
{
    if (json) {
        fprintf(f, "{\"mode\":\"path\",\"ranks\":%u,\"ranks_present\":%u,\"k\":%u,"
                "\"tolerance_seconds\":", run->nranks, run->n_present, run->k);
        jsec(f, (double)tol);
        fputs(",\"paths\":[", f);
    } else {
        fprintf(f, "rpprof check (path mode): %u of %u ranks, k=%u; every reassembled path's "
                "tasks vs its online cost, tolerance %.3f ms\n",
                run->n_present, run->nranks, run->k, ms(tol));
        fprintf(f, "%6s %5s %14s %14s %10s %8s %8s %14s  %s\n", "phase", "path", "online_ms",
                "tasks_ms", "diff_ms", "tasks", "missing", "unchecked_ms", "");
    }
    uint64_t nbad = 0, npart = 0, nfull = 0, nshown = 0, nhidden = 0, nocov = 0, nout = 0;
    int64_t tail_ns = 0, part_cost_ns = 0;
    for (uint64_t q = 0; q < run->nphases; q++) {
        uint32_t np = run_npaths(run, q);
        if (np == 0) {
            if (json)
                fprintf(f, "%s{\"phase\":%llu,\"path\":null,\"status\":\"FAIL (no path "
                        "summaries)\"}", nout++ ? "," : "", (unsigned long long)q);
            else
                fprintf(f, "%6llu     -  FAIL (no path summaries)\n", (unsigned long long)q);
            nbad++;
            continue;
        }
        for (uint32_t j = 0; j < np; j++) {
            rp_fullpath p;
            if (run_fullpath(run, q, j, &p) != 0) {
                fprintf(stderr, "%s: cannot reassemble phase %llu path %u\n", run->prog,
                        (unsigned long long)q, j);
                return -1;
            }
            int st = check_one(&p, tol);
            /* an overflowed path is compared with its online cost at the
             * moment the summary filled up */
            int64_t online = p.flags & RP_PATH_OVERFLOW && p.covered_ns >= 0 ? p.covered_ns
                                                                              : p.cost_ns;
            int64_t unchecked = p.flags & RP_PATH_OVERFLOW ? p.tail_ns : 0;
            nbad += st == CHK_FAIL;
            nfull += st == CHK_OK;
            if (st == CHK_PARTIAL) {
                npart++;
                tail_ns += p.tail_ns;
                part_cost_ns += p.cost_ns;
                nocov += p.covered_ns < 0;
            }
            if (json) {
                fprintf(f, "%s{\"phase\":%llu,\"path\":%u,\"status\":", nout++ ? "," : "",
                        (unsigned long long)q, j);
                report_json_string(f, path_status(st, &p));
                fputs(",\"online_seconds\":", f);
                jsec(f, (double)online);
                fputs(",\"tasks_seconds\":", f);
                jsec(f, (double)p.task_ns);
                fprintf(f, ",\"tasks\":%zu,\"missing\":%u,\"unchecked_seconds\":", p.n,
                        p.n_missing);
                jsec(f, (double)unchecked);
                fputc('}', f);
            } else if (st == CHK_FAIL || nshown < 60) {
                fprintf(f, "%6llu %5u %14.3f %14.3f %10.3f %8zu %8u %14.3f  %s\n",
                        (unsigned long long)q, j, ms(online), ms(p.task_ns),
                        ms(online - p.task_ns), p.n, p.n_missing, ms(unchecked),
                        path_status(st, &p));
                nshown++;
            } else {
                nhidden++;
            }
            fullpath_free(&p);
        }
    }
    if (!json && nhidden)
        fprintf(f, "  ... %llu more path row(s) not listed, none failed (--check --format json "
                "lists every row)\n", (unsigned long long)nhidden);
    int bad = nbad > 0 || run->n_present < run->nranks;
    int rc = bad ? 1 : npart ? 3 : 0;
    /* What a PARTIAL could not check, exactly: the tails after the summaries
     * filled up (or the task index space did: eager tasks, which no summary
     * can name).  Exit status 3 (doc/paths.md). */
    uint64_t eager = 0;
    for (uint32_t r = 0; npart && r < run->nranks; r++)
        for (uint64_t i = 0; run->present[r] && i < run->rd[r].n_tasks; i++)
            eager += run->rd[r].tasks[i].path_mask == RP_TASK_EAGER;
    if (json) {
        fprintf(f, "],\"check\":\"%s\",\"failed_paths\":%llu,\"full_paths\":%llu,"
                "\"partial_paths\":%llu,\"eager_tasks\":%llu,\"unchecked_seconds\":",
                rc == 1 ? "failed" : rc == 3 ? "partial" : "passed", (unsigned long long)nbad,
                (unsigned long long)nfull, (unsigned long long)npart,
                (unsigned long long)eager);
        jsec(f, (double)tail_ns);
        fputs("}\n", f);
        return rc;
    }
    if (bad) {
        fprintf(f, "check FAILED: %llu path(s) disagree%s\n", (unsigned long long)nbad,
                run->n_present < run->nranks ? "; ranks are missing" : "");
        return 1;
    }
    if (npart) {
        char why[160] = "";
        if (eager)
            snprintf(why, sizeof why, " or, where %llu task(s) were committed eagerly, "
                     "a phase's task index space (RP_BUFFER tasks)", (unsigned long long)eager);
        fprintf(f, "check PARTIAL: %llu phase(s); %llu path(s) checked in full; %llu path(s) "
                "overflowed their summary (RP_SUMMARY=%u without a chain: RP_CHAIN reached or 0%s): the prefix each summary holds "
                "agrees with the online cost at the overflow%s, the tails after it, %.3f ms "
                "of those paths' %.3f ms, could not be rebuilt or checked\n",
                (unsigned long long)run->nphases, (unsigned long long)nfull,
                (unsigned long long)npart, run->first ? run->first->summary_cap : 0, why,
                nocov ? " (except where the file predates PCOV)" : "", ms(tail_ns),
                ms(part_cost_ns));
        return 3;
    }
    fprintf(f, "check passed: %llu phase(s), every path's tasks add up to its cost\n",
            (unsigned long long)run->nphases);
    return 0;
}

int report_check(FILE *f, const rp_run *run, int64_t tol_ns, int json, uint32_t bins)
{
    if (run->mode == RP_MODE_TRACE)
        return check_trace(f, run, tol_ns, json, bins);
    if (run->mode == RP_MODE_PATH)
        return check_path(f, run, tol_ns, json);
    fprintf(stderr, "%s: --check needs a trace-mode (or path-mode) run; this one is prof mode\n",
            run->prog);
    return -1;
}
