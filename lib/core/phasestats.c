/* phasestats.c - per-percentile statistics over phases in constant space.
 *
 * Histogram bins (log-linear, 16 per octave, integer arithmetic only):
 *   bin 0                     ns < 2^RP_HIST_MIN_LOG2 (including ns <= 0)
 *   bin 1 + 16*(e - 10) + m   2^e <= ns < 2^(e+1), e = floor(log2 ns),
 *                             m = the 4 bits below the leading one
 *   capped at RP_HIST_BINS-1, which also absorbs ns >= 2^46.
 * A bin spans 1/16 of an octave, so its width is at most 1/16 of its lower
 * edge (6.25 %); interpolating inside it brings the median error to ~2 %.
 *
 * Median definition: the lower median, i.e. the value of rank
 * r = (nphases + 1) / 2 (1-based, integer division) in the sorted phase
 * costs.  Its bin is the first whose cumulative count reaches r; inside it
 * the c values are assumed evenly spread, the i-th (1-based) at
 * low + (i - 1/2) * width / c.  The result is clamped to [min, max], so it
 * is exact for one phase and whenever all phases cost the same.
 */
#include <stdlib.h>
#include <string.h>

#include "core/phasestats.h"

int phasestats_init(rp_phasestats *st, uint32_t k)
{
    memset(st, 0, sizeof *st);
    if (k == 0)
        return -1;
    st->sum_ns = calloc(k, sizeof *st->sum_ns);
    st->min_ns = calloc(k, sizeof *st->min_ns);
    st->max_ns = calloc(k, sizeof *st->max_ns);
    st->hist = calloc((size_t)k * RP_HIST_BINS, sizeof *st->hist);
    if (!st->sum_ns || !st->min_ns || !st->max_ns || !st->hist) {
        phasestats_free(st);
        return -1;
    }
    st->k = k;
    return 0;
}

void phasestats_free(rp_phasestats *st)
{
    free(st->sum_ns);
    free(st->min_ns);
    free(st->max_ns);
    free(st->hist);
    memset(st, 0, sizeof *st);
}

uint32_t phasestats_bin(int64_t ns)
{
    if (ns < ((int64_t)1 << RP_HIST_MIN_LOG2))
        return 0;
    uint32_t e = 63u - (uint32_t)__builtin_clzll((uint64_t)ns);
    uint32_t m = (uint32_t)((uint64_t)ns >> (e - 4)) & 15u;  /* e >= 10 */
    uint64_t bin = 1u + RP_HIST_BINS_PER_OCTAVE * (e - RP_HIST_MIN_LOG2) + m;
    return bin < RP_HIST_BINS ? (uint32_t)bin : RP_HIST_BINS - 1u;
}

int64_t phasestats_bin_low(uint32_t bin)
{
    if (bin == 0)
        return 0;
    if (bin >= RP_HIST_BINS)
        bin = RP_HIST_BINS - 1u;
    uint32_t octave = (bin - 1) / RP_HIST_BINS_PER_OCTAVE;
    uint32_t m = (bin - 1) % RP_HIST_BINS_PER_OCTAVE;
    return (int64_t)(16u + m) << (octave + RP_HIST_MIN_LOG2 - 4u);
}

/* Upper edge (exclusive) of a bin; the last bin nominally ends at 2^46. */
static int64_t bin_high(uint32_t bin)
{
    if (bin + 1 < RP_HIST_BINS)
        return phasestats_bin_low(bin + 1);
    return (int64_t)1 << (RP_HIST_MIN_LOG2 + RP_HIST_OCTAVES);
}

static uint32_t sat_add32(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

void phasestats_add(rp_phasestats *st, const int64_t *cost_ns)
{
    for (uint32_t j = 0; j < st->k; j++) {
        int64_t c = cost_ns[j];
        st->sum_ns[j] += c;
        if (st->nphases == 0 || c < st->min_ns[j])
            st->min_ns[j] = c;
        if (st->nphases == 0 || c > st->max_ns[j])
            st->max_ns[j] = c;
        uint32_t *h = &st->hist[(size_t)j * RP_HIST_BINS + phasestats_bin(c)];
        *h = sat_add32(*h, 1);
    }
    st->nphases++;
}

void phasestats_merge(rp_phasestats *a, const rp_phasestats *b)
{
    if (a->k != b->k || b->nphases == 0)
        return;  /* different k: incomparable slots, leave a untouched */
    for (uint32_t j = 0; j < a->k; j++) {
        a->sum_ns[j] += b->sum_ns[j];
        if (a->nphases == 0 || b->min_ns[j] < a->min_ns[j])
            a->min_ns[j] = b->min_ns[j];
        if (a->nphases == 0 || b->max_ns[j] > a->max_ns[j])
            a->max_ns[j] = b->max_ns[j];
    }
    for (size_t i = 0; i < (size_t)a->k * RP_HIST_BINS; i++)
        a->hist[i] = sat_add32(a->hist[i], b->hist[i]);
    a->nphases += b->nphases;
}

int64_t phasestats_median(const rp_phasestats *st, uint32_t j)
{
    if (j >= st->k || st->nphases == 0)
        return 0;
    int64_t lo = st->min_ns[j], hi = st->max_ns[j];
    if (st->nphases == 1 || lo == hi)
        return lo;
    uint64_t r = (st->nphases + 1) / 2, cum = 0;
    const uint32_t *h = &st->hist[(size_t)j * RP_HIST_BINS];
    uint32_t bin = 0;
    for (; bin < RP_HIST_BINS; bin++) {
        if (cum + h[bin] >= r)
            break;
        cum += h[bin];
    }
    if (bin == RP_HIST_BINS)  /* saturated counts: fall back to the middle */
        return lo + (hi - lo) / 2;
    double low = (double)phasestats_bin_low(bin);
    double width = (double)(bin_high(bin) - phasestats_bin_low(bin));
    double pos = ((double)(r - cum) - 0.5) / (double)h[bin];
    double v = low + width * pos;
    int64_t m = (int64_t)v;
    if (m < lo)
        m = lo;
    if (m > hi)
        m = hi;
    return m;
}
