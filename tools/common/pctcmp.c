/* pctcmp.c - probes against the exact percentiles of every phase (pctcmp.h). */
#include "common/pctcmp.h"
#include "core/select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* e[0..n) sorted in place; the mean of the middle two of an even count */
static double median_of(double *e, uint64_t n)
{
    qsort(e, n, sizeof *e, cmp_double);
    return n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
}

void pctcmp_free(rp_pctcmp *t)
{
    free(t->qs);
    free(t->ph);
    free(t->online);
    free(t->med);
    free(t->worst);
    free(t->rmed);
    free(t->rworst);
    t->qs = NULL;
    t->ph = NULL;
    t->online = t->med = t->worst = t->rmed = t->rworst = NULL;
}

double pctcmp_cost_err(const rp_pctcmp *t, uint64_t i, uint32_t j)
{
    const rp_pctphase *p = &t->ph[t->qs[i]];
    double range = p->longest_ns - p->shortest_ns;
    return range > 0 ? 100.0 * (t->online[i * t->k + j] - p->exact_ns[j]) / range : 0.0;
}

double pctcmp_rank_err(const rp_pctcmp *t, uint64_t i, uint32_t j)
{
    const rp_pctphase *p = &t->ph[t->qs[i]];
    return oracle_rank_error(select_percentile(j, t->k), p->probe_lo_pct[j], p->probe_hi_pct[j]);
}

static int probed(const double *probe, uint32_t k)
{
    for (uint32_t j = 0; j < k; j++)
        if (isnan(probe[j]))
            return 0;
    return 1;
}

int pctcmp_run(const rp_graph *g, uint32_t k, uint32_t bins, const double *probe, rp_pctcmp *t)
{
    memset(t, 0, sizeof *t);
    t->k = k = k > 64 ? 64 : k;
    uint64_t nq = g->nphases;
    int rc = oracle_percentiles(g, k, bins, probe, &t->ph, t->why, sizeof t->why);
    if (rc != 0) {
        if (rc < 0)
            snprintf(t->why, sizeof t->why, "out of memory");
        return rc < 0 ? -1 : 0;
    }
    t->qs = malloc((nq ? nq : 1) * sizeof *t->qs);
    t->online = malloc((nq ? nq : 1) * k * sizeof *t->online);
    t->med = calloc(k, sizeof *t->med);
    t->worst = calloc(k, sizeof *t->worst);
    t->rmed = calloc(k, sizeof *t->rmed);
    t->rworst = calloc(k, sizeof *t->rworst);
    double *e = malloc((nq ? nq : 1) * sizeof *e);
    if (!t->qs || !t->online || !t->med || !t->worst || !t->rmed || !t->rworst || !e) {
        free(e);
        snprintf(t->why, sizeof t->why, "out of memory");
        return -1;
    }
    double lp = 0;
    for (uint64_t q = 0; q < nq; q++) {
        rp_pctphase *p = &t->ph[q];
        if (!p->ok || !g->ph[q].complete || !probed(&probe[q * k], k))
            continue;
        double slack = p->bound_ns + p->grid_ns;
        /* Past ~2^500 paths a histogram's scale leaves the few paths at its
         * ends below a double's range (NAS CG under MPICH: 2^1578 paths, the
         * longest 0.26 ms of 14 ms above the oracle's top bin): its ends can
         * then only move inwards.  The middle levels are unaffected (that
         * mass is under 2^-500 of the total). */
        double inward = p->log2_paths > 500 ? INFINITY : slack;
        double dl = p->longest_ns - (double)g->ph[q].longest_ns;
        double ds = p->shortest_ns - (double)g->ph[q].shortest_ns;
        if (dl > slack || -dl > inward || -ds > slack || ds > inward)
            t->incons++;
        /* the ends are known exactly (the walk): the 100 % and 0 % levels
         * and the range are measured against them, not against the
         * oracle's grid, so an exact end shows an error of 0 */
        p->longest_ns = (double)g->ph[q].longest_ns;
        p->shortest_ns = (double)g->ph[q].shortest_ns;
        p->exact_ns[0] = p->longest_ns;
        if (k > 1)
            p->exact_ns[k - 1] = p->shortest_ns;
        memcpy(&t->online[t->n * k], &probe[q * k], k * sizeof *probe);
        double range = p->longest_ns - p->shortest_ns;
        double rb = range > 0 ? 100.0 * p->bound_ns / range : 0.0;
        t->bound_pct = rb > t->bound_pct ? rb : t->bound_pct;
        lp += p->log2_paths;
        t->qs[t->n++] = q;
    }
    t->mean_log2 = t->n ? lp / (double)t->n : 0.0;
    for (uint32_t j = 0; j < k && t->n; j++) {
        for (uint64_t i = 0; i < t->n; i++)
            e[i] = fabs(pctcmp_cost_err(t, i, j));
        t->med[j] = median_of(e, t->n);
        t->worst[j] = e[t->n - 1];
        uint64_t m = 0;
        for (uint64_t i = 0; i < t->n; i++) {
            double r = pctcmp_rank_err(t, i, j);
            if (!isnan(r))
                e[m++] = r;
        }
        t->rmed[j] = m ? median_of(e, m) : NAN;
        t->rworst[j] = m ? e[m - 1] : NAN;
    }
    free(e);
    t->run = 1;
    return 0;
}
