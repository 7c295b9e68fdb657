/* summary.c - path-summary maintenance (paper Fig. 4c, §5).
 *
 * Everything here runs inside the SIGPROF handler (prof mode) or on the
 * wrapper's hot path (path mode): no allocation, no stdio, no locks, no
 * global state.  The only randomness comes from the caller-owned xorshift
 * state, so runs are reproducible for a given seed.
 */
#include "core/summary.h"

/* xorshift64* never leaves state 0, so a zeroed state is replaced by a fixed
 * odd constant (the 64-bit golden ratio) instead of getting stuck. */
#define RP_RAND_ZERO_SEED 0x9E3779B97F4A7C15ull

uint64_t summary_rand(uint64_t *state)
{
    uint64_t x = *state;
    if (x == 0)
        x = RP_RAND_ZERO_SEED;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* Uniform-enough integer in [0, n) for n >= 1: multiply-shift on the high
 * 32 bits (unbiased to within 2^-32, no division). */
static uint32_t rand_below(uint64_t *state, uint32_t n)
{
    uint64_t r = summary_rand(state) >> 32;
    return (uint32_t)((r * (uint64_t)n) >> 32);
}

/* Already recorded?  Cannot happen in normal use (indices only grow within
 * a phase), but a duplicate would make commit visit an item twice. */
static int summary_contains(const rp_path *p, uint32_t rank, uint16_t idx)
{
    for (uint32_t i = 0; i < p->n_iv; i++) {
        const rp_interval *iv = &p->iv[i];
        if (iv->rank == rank && iv->low <= idx && idx <= iv->high)
            return 1;
    }
    return 0;
}

/* Drop interval j (reservoir replacement).  The new interval is appended
 * after this, so it is the last one and later items of the same run on this
 * rank extend it. */
static void summary_evict(rp_path *p, uint32_t j)
{
    for (uint32_t i = j + 1; i < p->n_iv; i++)
        p->iv[i - 1] = p->iv[i];
    p->n_iv--;
    p->n_evicted++;
}

static void summary_append(rp_path *p, uint32_t rank, uint16_t idx)
{
    rp_interval *iv = &p->iv[p->n_iv++];
    iv->rank = rank;
    iv->low = idx;
    iv->high = idx;
}

int summary_push(rp_path *p, uint32_t iv_cap, uint32_t rank, uint16_t idx,
                 rp_summary_mode mode, uint64_t *rng)
{
    /* Profile mode: every item is an interval (a unit) of its own for the
     * reservoir below.  Items weigh one timer interval each, so units of
     * one item weigh the same and the commit's scaling estimates the path's
     * total almost exactly; only the split over contexts carries sampling
     * error.  Runs of consecutive items as units (the paper's extension)
     * weigh from 1 to hundreds of intervals, and a long run kept or turned
     * away moved a long phase's total by 20-35 % (measured on
     * mpi_wavefront). */
    int prof = mode == RP_SUMMARY_PROF;
    p->sid = 0;   /* the summary changes (or may): its name no longer holds */
    /* Path mode: once a path lost track (summary full, or a task no
     * summary could name), nothing more is recorded, not even an extension
     * of the last interval: the summary must hold exactly the prefix whose
     * cost the path recorded at that moment (pathmode.c, doc/paths.md). */
    if (!prof && (p->flags & RP_PATH_OVERFLOW))
        return RP_SUM_OVERFLOW;
    if (p->n_iv > 0 && !prof) {
        rp_interval *last = &p->iv[p->n_iv - 1];
        /* idx == 0 has no predecessor, so it always opens an interval. */
        if (last->rank == rank && idx > 0 && last->high == (uint16_t)(idx - 1)) {
            last->high = idx;
            return RP_SUM_EXTENDED;
        }
    }
    if (p->n_iv > 0 && summary_contains(p, rank, idx))
        return RP_SUM_EXTENDED;
    if (p->n_iv < iv_cap) {
        summary_append(p, rank, idx);
        return RP_SUM_OPENED;
    }
    if (mode == RP_SUMMARY_PATH) {
        /* Full-path mode: the caller commits this (and later) items
         * eagerly; the flag tells the report the summary is incomplete. */
        p->flags |= RP_PATH_OVERFLOW;
        return RP_SUM_OVERFLOW;
    }
    if (p->n_iv == 0) {
        /* iv_cap == 0: nothing can ever be located; keep the count honest. */
        p->n_evicted++;
        return RP_SUM_EVICTED;
    }
    /* Profile mode, full: reservoir sampling over the units the path opens
     * (Vitter's algorithm R).  The m-th unit is kept with probability
     * iv_cap/m, replacing a uniformly chosen one, so at the end every unit
     * is in the summary with probability n_iv / (n_iv + n_evicted).  The
     * commit scales what it finds by the inverse (commit_path_attr): an
     * unbiased estimate of where the path's sampled time went over the
     * whole phase.  The paper's rule (always replace a random one) keeps
     * mostly the newest intervals and loses the rest of the phase. */
    uint64_t opened = (uint64_t)p->n_iv + p->n_evicted + 1;
    uint64_t r = summary_rand(rng) >> 11;              /* 53 random bits */
    p->n_evicted++;                                    /* one unit more than kept */
    if ((uint64_t)(((unsigned __int128)r * opened) >> 53) >= iv_cap)
        return RP_SUM_EVICTED;                         /* turned away */
    summary_evict(p, rand_below(rng, p->n_iv));        /* replaces one: n_evicted++ */
    p->n_evicted--;
    summary_append(p, rank, idx);
    return RP_SUM_EVICTED;
}
