/* phasecomp.h - one rank's computation (the sum of its task costs) in each
 * phase, kept by path mode for the per-phase POP factors (doc/report.md):
 * the rank file's PCMP section.  8 bytes a phase; path mode already keeps
 * far more a phase (its path summaries), prof mode keeps none of this.
 * Pure C. */
#ifndef RP_PHASECOMP_H
#define RP_PHASECOMP_H

#include <stdint.h>

typedef struct rp_phasecomp {
    int64_t  *v;        /* [n]: computation of phase q, ns */
    uint64_t  n, cap;
    int64_t   open_ns;  /* the running phase's computation so far */
    int       failed;   /* an allocation failed: the record is incomplete */
} rp_phasecomp;

/* A task of the running phase ended (cost >= 0; a negative one counts 0). */
static inline void phasecomp_add(rp_phasecomp *p, int64_t cost_ns)
{
    if (cost_ns > 0)
        p->open_ns += cost_ns;
}

/* The running phase ended as phase number `phase` (0-based): book it and
 * start the next from 0.  Phases skipped in between are booked as 0 (no
 * task of this rank).  0, or -1 when memory ran out: then failed is set,
 * the record stays incomplete and phasecomp_get hands out nothing. */
int phasecomp_close(rp_phasecomp *p, uint64_t phase);

/* The completed phases' record: *n entries (0 when failed or none). */
const int64_t *phasecomp_get(const rp_phasecomp *p, uint64_t *n);

void phasecomp_free(rp_phasecomp *p);

#endif
