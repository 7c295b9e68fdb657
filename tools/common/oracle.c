/* oracle.c - exact percentiles of all path costs of a trace (oracle.h).
 *
 * Path counting with costs (the offline baseline the paper's §7 compares
 * against computes only the longest path): a vertex's histogram of path
 * costs is its predecessor's shifted by the task that ends at it, plus the
 * histograms brought by the messages and collectives that join there.
 * The walk over the graph (its order, the collectives' rules, which values
 * are still needed) is walk.c's; the histogram is this file's value. */
#include "common/oracle.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/walk.h"

/* ---- histograms: bin i of d stands for cost base + i * g ns; count h[i] * 2^ex.
 * base is exact: a task adds its cost to it, without rounding.  Only a join
 * of two histograms whose bases differ by other than a multiple of g puts
 * the shifted side's costs on the other's grid, moving each by e, the
 * distance to the bin below or the bin above (|e| < g).  [dlo, dhi] holds
 * every path's recorded cost minus its true cost: exact bounds over the
 * paths a histogram holds (a join unions them, the moved side's shifted by
 * e), so the percentiles' error is at most max(-dlo, dhi).  Each join picks
 * the direction that keeps that smallest: the moves then offset each other
 * instead of piling up along a long path (NAS CG at 16 ranks: the sum of
 * the moves on the worst path was 42 % of the phase's range). */

typedef struct dist {
    int64_t  base;
    uint32_t n;
    int32_t  ex;
    double  *h;
    int64_t  dlo, dhi;   /* recorded - true cost of its paths: min, max (ns) */
} dist;

static void dist_free(dist *d)
{
    free(d->h);
    memset(d, 0, sizeof *d);
}

static int dist_unit(dist *d)
{
    dist_free(d);
    d->h = malloc(sizeof *d->h);
    if (!d->h)
        return -1;
    d->h[0] = 1.0;
    d->n = 1;
    return 0;
}

static int dist_copy(dist *dst, const dist *src)
{
    double *h = malloc((src->n ? src->n : 1) * sizeof *h);
    if (!h)
        return -1;
    memcpy(h, src->h, src->n * sizeof *h);
    free(dst->h);
    *dst = *src;
    dst->h = h;
    return 0;
}

/* The largest |recorded - true| of a range: the rounding bound. */
static int64_t disp_bound(int64_t lo, int64_t hi)
{
    return -lo > hi ? -lo : hi;
}

/* The displacement range after a join that moves side mv by e and leaves
 * side st: the union of theirs, mv's shifted. */
static void joined_range(const dist *st, const dist *mv, int64_t e, int64_t *lo, int64_t *hi)
{
    *lo = mv->dlo + e < st->dlo ? mv->dlo + e : st->dlo;
    *hi = mv->dhi + e > st->dhi ? mv->dhi + e : st->dhi;
}

/* dst += src (any ranges, any scales), on a grid of g ns: the result's
 * base is the lower one; the other side's bins move to the bin below or
 * above, whichever leaves the smaller displacement bound (ties: the
 * nearer, then below). */
static int dist_add(dist *dst, const dist *src, int64_t g)
{
    if (!src->n)
        return 0;
    if (!dst->n)
        return dist_copy(dst, src);
    int64_t base = dst->base < src->base ? dst->base : src->base;
    int dst_moves = dst->base != base;
    const dist *mv = dst_moves ? dst : src, *st = dst_moves ? src : dst;
    int64_t d = mv->base - base, o = d / g, r = d % g;   /* d >= 0: mv moves by -r or g - r */
    int64_t lo, hi;
    joined_range(st, mv, -r, &lo, &hi);
    if (r != 0) {
        int64_t ulo, uhi;
        joined_range(st, mv, g - r, &ulo, &uhi);
        int64_t down = disp_bound(lo, hi), up = disp_bound(ulo, uhi);
        if (up < down || (up == down && g - r < r)) {
            o++;
            lo = ulo;
            hi = uhi;
        }
    }
    int64_t od = dst_moves ? o : 0, os = dst_moves ? 0 : o;    /* in bins */
    int64_t hi_bin = od + dst->n > os + src->n ? od + dst->n : os + src->n;
    int32_t ex = dst->ex > src->ex ? dst->ex : src->ex;
    if (od != 0 || hi_bin != dst->n) {
        double *h = calloc((size_t)hi_bin, sizeof *h);
        if (!h)
            return -1;
        memcpy(h + od, dst->h, dst->n * sizeof *h);
        free(dst->h);
        dst->h = h;
        dst->n = (uint32_t)hi_bin;
    }
    dst->base = base;
    if (dst->ex != ex) {
        for (uint32_t i = 0; i < dst->n; i++)
            dst->h[i] = ldexp(dst->h[i], dst->ex - ex);
        dst->ex = ex;
    }
    double *out = dst->h + os;
    for (uint32_t i = 0; i < src->n; i++)
        out[i] += ldexp(src->h[i], src->ex - ex);
    double mx = 0;
    for (uint32_t i = 0; i < dst->n; i++)
        mx = dst->h[i] > mx ? dst->h[i] : mx;
    if (mx > 0x1p512) {   /* path counts outgrow any float: keep a scale */
        for (uint32_t i = 0; i < dst->n; i++)
            dst->h[i] = ldexp(dst->h[i], -512);
        dst->ex += 512;
    }
    dst->dlo = lo;
    dst->dhi = hi;
    return 0;
}

/* ---- the walk's value: a histogram (walk.h) ------------------------------- */

typedef struct octx {
    const rp_pctphase *ph;   /* grids */
    uint64_t           nq;
    dist              *sinks;
} octx;

static int h_unit(void *ctx, void *v)
{
    (void)ctx;
    return dist_unit(v);
}

static void h_shift(void *ctx, void *v, int64_t cost_ns)
{
    (void)ctx;
    ((dist *)v)->base += cost_ns;   /* exact: no rounding */
}

static int h_add(void *ctx, void *dst, const void *src, uint64_t phase)
{
    const octx *o = ctx;
    return dist_add(dst, src, phase < o->nq ? (int64_t)o->ph[phase].grid_ns : 1);
}

static void h_clear(void *ctx, void *v)
{
    (void)ctx;
    dist_free(v);
}

static int h_empty(const void *v)
{
    return ((const dist *)v)->n == 0;
}

static int h_sink(void *ctx, uint64_t q, const void *v)
{
    octx *o = ctx;
    return q < o->nq && !o->sinks[q].n ? dist_copy(&o->sinks[q], v) : 0;
}

static const rp_walk_ops hist_ops = {
    .size = sizeof(dist), .unit = h_unit, .shift = h_shift, .add = h_add, .clear = h_clear,
    .empty = h_empty, .coll = NULL, .sink = h_sink,
};


double oracle_slot_fraction(uint32_t j, uint32_t k)
{
    return k <= 1 ? 0.0 : (double)j / (double)(k - 1);
}

double oracle_rank_error(double pct, double lo, double hi)
{
    if (isnan(lo) || isnan(hi))
        return NAN;
    return pct < lo ? lo - pct : pct > hi ? pct - hi : 0.0;
}

/* Where the paths of cost c sit: the nearest bin of c that holds paths
 * (ties: the higher), the count above it and its own count. */
static void place(const dist *s, uint32_t top, uint32_t bot, double c, double g, double *above,
                  double *here)
{
    double x = (c - (double)s->base) / g;
    int64_t b = (int64_t)llround(x);
    /* within the rounding bound (and a bin) of an end: that end, as --check
       takes the ends (an online end is exact; the grid moved the oracle's) */
    double slack = g > 1 ? (double)disp_bound(s->dlo, s->dhi) / g + 1 : 0;
    int near_top = x >= (double)top - slack, near_bot = x <= (double)bot + slack;
    if (near_top && (!near_bot || (double)top - x <= x - (double)bot))
        b = top;
    else if (near_bot)
        b = bot;
    else if (b > (int64_t)top)
        b = top;
    else if (b < (int64_t)bot)
        b = bot;
    for (int64_t d = 0; s->h[b] <= 0; d++) {   /* top and bot hold paths */
        if (b + d <= (int64_t)top && s->h[b + d] > 0) {
            b += d;
            break;
        }
        if (b - d >= (int64_t)bot && s->h[b - d] > 0) {
            b -= d;
            break;
        }
    }
    double a = 0;
    for (uint32_t i = top; i > (uint32_t)b; i--)
        a += s->h[i];
    *above = a;
    *here = s->h[b];
}

/* The k percentile costs of a phase's sink histogram; probe (k costs or
 * NULL) placed in it. */
static void percentiles(const dist *s, uint32_t k, double g, const double *probe,
                        rp_pctphase *out)
{
    double tot = 0;
    uint32_t top = 0, bot = 0;
    int any = 0;
    for (uint32_t j = 0; j < k; j++)
        out->probe_lo_pct[j] = out->probe_hi_pct[j] = NAN;
    for (uint32_t i = s->n; i-- > 0;)
        if (s->h[i] > 0) {
            tot += s->h[i];
            if (!any)
                top = i;
            bot = i;
            any = 1;
        }
    if (!any)
        return;
    out->log2_paths = log2(tot) + s->ex;
    out->longest_ns = (double)s->base + (double)top * g;
    out->shortest_ns = (double)s->base + (double)bot * g;
    /* exact integer counts: nearest position; else continuous */
    int exact = s->ex == 0 && tot < 0x1p52;
    for (uint32_t j = 0; j < k; j++) {
        double f = oracle_slot_fraction(j, k);
        double p = exact ? nearbyint(f * (tot - 1)) : f * tot;
        double cum = 0;
        uint32_t at = bot;
        if (j == 0) {
            at = top;
        } else if (j + 1 < k) {
            for (uint32_t i = top + 1; i-- > bot;) {
                cum += s->h[i];
                if (cum > p) {
                    at = i;
                    break;
                }
            }
        }
        out->exact_ns[j] = (double)s->base + (double)at * g;
        if (probe && !isnan(probe[j])) {
            double above, here;
            place(s, top, bot, probe[j], g, &above, &here);
            if (exact && tot <= 1) {   /* one path: it is every percentile */
                out->probe_lo_pct[j] = 0;
                out->probe_hi_pct[j] = 100;
            } else if (exact) {        /* positions above .. above + here - 1 of 0 .. tot - 1 */
                out->probe_hi_pct[j] = 100.0 * (1.0 - above / (tot - 1));
                out->probe_lo_pct[j] = 100.0 * (1.0 - (above + here - 1) / (tot - 1));
            } else {
                out->probe_hi_pct[j] = 100.0 * (1.0 - above / tot);
                out->probe_lo_pct[j] = 100.0 * (1.0 - (above + here) / tot);
            }
        }
    }
    out->bound_ns = (double)disp_bound(s->dlo, s->dhi);
    out->ok = 1;
}

int oracle_percentiles(const rp_graph *g, uint32_t k, uint32_t bins_ask, const double *probe_ns,
                       rp_pctphase **out, char *why, size_t nwhy)
{
    const rp_run *run = g->run;
    uint64_t nq = g->nphases;
    rp_pctphase *ph = calloc(nq ? nq : 1, sizeof *ph);
    dist *sinks = calloc(nq ? nq : 1, sizeof *sinks);
    uint64_t *nt = calloc(nq ? nq : 1, sizeof *nt);
    int rc = -1;
    uint32_t stride = k;   /* of probe_ns */
    if (k > 64)
        k = 64;
    if (!ph || !sinks || !nt)
        goto out;
    /* tasks per phase: the finer grid where the phase is small enough */
    for (uint32_t r = 0; r < run->nranks; r++)
        for (uint64_t i = 0; run->present[r] && i < run->rd[r].n_tasks; i++)
            if (run->rd[r].tasks[i].phase < nq)
                nt[run->rd[r].tasks[i].phase]++;
    for (uint64_t q = 0; q < nq; q++) {
        /* the grid spans the phase's range, not its longest path: every
         * vertex's paths reach the phase's end, so the costs of the paths
         * reaching it spread over at most that range, and the bound below
         * is in the unit the errors are measured in */
        int64_t L = g->ph[q].longest_ns > 0 ? g->ph[q].longest_ns : 1;
        int64_t R = g->ph[q].longest_ns - g->ph[q].shortest_ns;
        if (!g->ph[q].complete || R > L)
            R = L;   /* no trustworthy range: the longest path's */
        R = R > 0 ? R : 1;
        uint64_t bins = nt[q] ? RP_ORACLE_WORK / nt[q] : RP_ORACLE_BINS_MAX;
        bins = bins < RP_ORACLE_BINS_MIN ? RP_ORACLE_BINS_MIN
             : bins > RP_ORACLE_BINS_MAX ? RP_ORACLE_BINS_MAX : bins;
        if (bins_ask)
            bins = bins_ask < RP_ORACLE_BINS_ASK_MIN ? RP_ORACLE_BINS_ASK_MIN
                 : bins_ask > RP_ORACLE_BINS_ASK_MAX ? RP_ORACLE_BINS_ASK_MAX : bins_ask;
        /* and never finer than longest / 2^24: a histogram stays under
         * 2^24 bins (128 MB) even where the range argument failed */
        uint64_t gr = ((uint64_t)R + bins - 1) / bins, gl = ((uint64_t)L + (1u << 24) - 1) >> 24;
        ph[q].grid_ns = (double)(gr > gl ? gr : gl);
        ph[q].k = k;
    }
    octx o = { ph, nq, sinks };
    rc = walk_graph(g, &hist_ops, &o, why, nwhy);
    if (rc != 0)
        goto out;
    for (uint64_t q = 0; q < nq; q++)
        if (sinks[q].n)
            percentiles(&sinks[q], k, ph[q].grid_ns, probe_ns ? probe_ns + q * stride : NULL, &ph[q]);
    *out = ph;
    ph = NULL;
out:
    if (rc < 0)
        errno = ENOMEM;
    for (uint64_t q = 0; sinks && q < nq; q++)
        dist_free(&sinks[q]);
    free(sinks);
    free(nt);
    free(ph);
    return rc;
}
