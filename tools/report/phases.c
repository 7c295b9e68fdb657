/* phases.c - top phases by spread (phases.h). */
#include "report/phases.h"

#include <stdlib.h>

typedef struct prow {
    uint64_t q;
    int64_t  hi, lo;     /* 100 % and 0 % path costs */
    int64_t  start;      /* sum of the critical path's costs of earlier phases */
} prow;

static int by_spread(const void *a, const void *b)
{
    const prow *x = a, *y = b;
    int64_t sx = x->hi - x->lo, sy = y->hi - y->lo;
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return x->q < y->q ? -1 : x->q > y->q;
}

static int64_t collect(const rp_run *run, prow **out)
{
    *out = NULL;
    prow *v = malloc((run->nphases ? run->nphases : 1) * sizeof *v);
    if (!v)
        return -1;
    int64_t t = 0;
    for (uint64_t q = 0; q < run->nphases; q++) {
        uint32_t np = run_npaths(run, q);
        const rp_pathsum *a = np ? run_pathsum(run, q, 0) : NULL;
        const rp_pathsum *b = np ? run_pathsum(run, q, np - 1) : NULL;
        v[q] = (prow){q, a ? a->cost_ns : 0, b ? b->cost_ns : 0, t};
        t += v[q].hi;
    }
    qsort(v, run->nphases, sizeof *v, by_spread);
    *out = v;
    return (int64_t)run->nphases;
}

int phases_text(FILE *f, const rp_run *run, uint32_t top)
{
    prow *v;
    int64_t n = collect(run, &v);
    if (n < 0)
        return -1;
    if (n > 0) {
        fprintf(f, "\nPhases with the largest spread (100%% path - 0%% path; %lld phase%s in "
                   "all)\n  %8s %12s %12s %12s %14s\n",
                (long long)n, n == 1 ? "" : "s", "phase", "100% [s]", "0% [s]", "spread [s]",
                "starts at [s]");
        for (int64_t i = 0; i < n && i < (int64_t)top; i++)
            fprintf(f, "  %8llu %12.6f %12.6f %12.6f %14.6f\n", (unsigned long long)v[i].q,
                    (double)v[i].hi / 1e9, (double)v[i].lo / 1e9,
                    (double)(v[i].hi - v[i].lo) / 1e9, (double)v[i].start / 1e9);
        fputs("  (starts at: the critical path's cost of the phases before it)\n", f);
    }
    free(v);
    return 0;
}

int phases_json(FILE *f, const rp_run *run, uint32_t top)
{
    prow *v;
    int64_t n = collect(run, &v);
    if (n < 0)
        return -1;
    fputc('[', f);
    for (int64_t i = 0; i < n && i < (int64_t)top; i++)
        fprintf(f, "%s{\"phase\": %llu, \"cost100_seconds\": %.9g, \"cost0_seconds\": %.9g, "
                   "\"spread_seconds\": %.9g, \"start_seconds\": %.9g}",
                i ? ", " : "", (unsigned long long)v[i].q, (double)v[i].hi / 1e9,
                (double)v[i].lo / 1e9, (double)(v[i].hi - v[i].lo) / 1e9,
                (double)v[i].start / 1e9);
    fputc(']', f);
    free(v);
    return 0;
}
