/* popphase.c - the POP factors of each phase (popphase.h). */
#include "report/popphase.h"

#include <stdlib.h>
#include <string.h>

/* Phases whose computation every present rank's file holds: trace mode,
 * all of them (every task); path mode, those its PCMP section has on every
 * rank (a rank file written before the end, a checkpoint, has fewer).  0
 * when a path-mode file has none: a writer that predates the section. */
static uint64_t phases_known(const rp_run *run)
{
    uint64_t nph = run->nphases;
    if (run->mode == RP_MODE_TRACE)
        return nph;
    for (uint32_t r = 0; r < run->nranks; r++)
        if (run->present[r] && run->rd[r].n_phase_comp < nph)
            nph = run->rd[r].n_phase_comp;
    return nph;
}

int popphase_compute(const rp_run *run, rp_popphase **out, uint64_t *n)
{
    *out = NULL;
    *n = 0;
    if ((run->mode != RP_MODE_TRACE && run->mode != RP_MODE_PATH) || run->nphases == 0 ||
        run->n_present == 0)
        return RP_POPPHASE_NONE;
    uint64_t nph = phases_known(run);
    if (nph == 0)
        return RP_POPPHASE_UNRECORDED;
    /* comp[q * np + i]: the computation of the i-th present rank in phase q */
    uint32_t np = run->n_present;
    int64_t *comp = calloc((size_t)nph * np, sizeof *comp);
    uint32_t *rank = malloc(np * sizeof *rank);
    rp_popphase *v = calloc(nph, sizeof *v);
    if (!comp || !rank || !v) {
        free(comp);
        free(rank);
        free(v);
        return -1;
    }
    uint32_t i = 0;
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        const rp_rankdata *d = &run->rd[r];
        if (run->mode == RP_MODE_PATH) {
            /* path mode commits only the selected paths' tasks: the sums
             * the runtime kept of all of them */
            for (uint64_t q = 0; q < nph; q++)
                comp[q * np + i] = d->phase_comp[q];
        } else {
            for (uint64_t t = 0; t < d->n_tasks; t++)
                if (d->tasks[t].phase < nph)
                    comp[d->tasks[t].phase * np + i] += d->tasks[t].cost_ns;
        }
        rank[i++] = r;
    }
    uint64_t m = 0;
    for (uint64_t q = 0; q < nph; q++) {
        const rp_pathsum *ps = run_pathsum(run, q, 0);
        int64_t ideal = ps ? ps->cost_ns : 0;
        /* the runtime argument: the phase's critical path (no per-phase wall
         * time is recorded); a phase with no path gets the largest computation */
        int64_t mx = 0;
        for (uint32_t j = 0; j < np; j++)
            if (comp[q * np + j] > mx)
                mx = comp[q * np + j];
        if (pop_compute(comp + q * np, rank, np, ideal > mx ? ideal : mx, ideal, &v[m].pop) != 0)
            continue;
        v[m++].phase = q;
    }
    free(comp);
    free(rank);
    *out = v;
    *n = m;
    return 0;
}

static int64_t lost(const rp_popphase *x)
{
    return (x->pop.ideal_ns > x->pop.max_comp_ns ? x->pop.ideal_ns : x->pop.max_comp_ns) -
           x->pop.mean_comp_ns;
}

static int by_lost(const void *a, const void *b)
{
    const rp_popphase *x = a, *y = b;
    int64_t lx = lost(x), ly = lost(y);
    if (lx != ly)
        return lx > ly ? -1 : 1;
    return x->phase < y->phase ? -1 : x->phase > y->phase;
}

/* the top phases, sorted (a copy; NULL on ENOMEM) */
static rp_popphase *worst(const rp_popphase *v, uint64_t n, uint32_t top, uint64_t *m)
{
    rp_popphase *w = malloc((size_t)(n ? n : 1) * sizeof *w);
    if (!w)
        return NULL;
    memcpy(w, v, (size_t)n * sizeof *w);
    qsort(w, n, sizeof *w, by_lost);
    *m = n < top ? n : top;
    return w;
}

void popphase_text(FILE *f, const rp_popphase *v, uint64_t n, uint32_t top, uint32_t mode)
{
    uint64_t m;
    rp_popphase *w = worst(v, n, top, &m);
    if (!w || n == 0) {
        free(w);
        return;
    }
    fprintf(f, "  Per phase (%s; exact): the %llu of %llu phases\n  that lose most (critical "
               "path - mean computation); no per-phase runtime is recorded, so no CommE/TE\n",
            mode == RP_MODE_PATH ? "path mode: each rank's computation in each phase"
                                 : "trace mode: every task recorded",
            (unsigned long long)m, (unsigned long long)n);
    fprintf(f, "  %8s %7s %7s %10s %10s %10s %7s\n", "phase", "LB", "SerE", "mean [s]",
            "max [s]", "crit. [s]", "busiest");
    for (uint64_t i = 0; i < m; i++) {
        const rp_pop *q = &w[i].pop;
        fprintf(f, "  %8llu %7.3f %7.3f %10.6f %10.6f %10.6f %7u\n",
                (unsigned long long)w[i].phase, q->lb, q->sere < 0 ? 0.0 : q->sere,
                (double)q->mean_comp_ns / 1e9, (double)q->max_comp_ns / 1e9,
                (double)q->ideal_ns / 1e9, q->busiest);
    }
    free(w);
}

void popphase_json(FILE *f, const rp_popphase *v, uint64_t n, uint32_t top)
{
    uint64_t m = 0;
    rp_popphase *w = worst(v, n, top, &m);
    fputc('[', f);
    for (uint64_t i = 0; w && i < m; i++) {
        const rp_pop *q = &w[i].pop;
        fprintf(f, "%s{\"phase\": %llu, \"load_balance\": %.9g, \"serialisation_efficiency\": ",
                i ? ", " : "", (unsigned long long)w[i].phase, q->lb);
        if (q->sere < 0)
            fputs("null", f);
        else
            fprintf(f, "%.9g", q->sere);
        fprintf(f, ", \"mean_computation_seconds\": %.9g, \"max_computation_seconds\": %.9g, "
                   "\"critical_path_seconds\": %.9g, \"busiest_rank\": %u}",
                (double)q->mean_comp_ns / 1e9, (double)q->max_comp_ns / 1e9,
                (double)q->ideal_ns / 1e9, q->busiest);
    }
    fputc(']', f);
    free(w);
}
