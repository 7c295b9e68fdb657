/* phasestats.h - per-percentile statistics over phases, in constant space.
 * A run may have millions of phases (an allreduce per iteration); profiles
 * must stay flat in time, so each percentile keeps sum/min/max and a
 * log-scale histogram (16 bins per octave, ~2 % median error) instead of
 * the per-phase history.  Pure C. */
#ifndef RP_PHASESTATS_H
#define RP_PHASESTATS_H

#include <stdint.h>

#define RP_HIST_BINS_PER_OCTAVE 16u
#define RP_HIST_MIN_LOG2 10u   /* bin 0 holds everything below 2^10 ns (~1 us) */
#define RP_HIST_OCTAVES  36u   /* up to 2^46 ns (~19.5 h) */
#define RP_HIST_BINS (RP_HIST_BINS_PER_OCTAVE * RP_HIST_OCTAVES + 1u)

typedef struct rp_phasestats {
    uint32_t  k;
    uint64_t  nphases;
    int64_t  *sum_ns;  /* [k] */
    int64_t  *min_ns;  /* [k] */
    int64_t  *max_ns;  /* [k] */
    uint32_t *hist;    /* [k * RP_HIST_BINS] */
} rp_phasestats;

int  phasestats_init(rp_phasestats *st, uint32_t k);
void phasestats_free(rp_phasestats *st);
/* One finished phase: cost_ns[j] is report slot j's cost (100 % first). */
void phasestats_add(rp_phasestats *st, const int64_t *cost_ns);
/* Merge b into a (same k). */
void phasestats_merge(rp_phasestats *a, const rp_phasestats *b);
uint32_t phasestats_bin(int64_t ns);
int64_t  phasestats_bin_low(uint32_t bin);   /* lower edge in ns */
/* Median of slot j over phases, interpolated inside its bin. */
int64_t  phasestats_median(const rp_phasestats *st, uint32_t j);

#endif
