/* whatif.h - rp-report --what-if TARGET=PERCENT: the job's critical path if
 * a function (or a source line) were PERCENT % faster, estimated from every
 * kept path of every phase.
 *
 * What the data allows (doc/report.md, "What-if"): the merged profile keeps
 * each path's calling contexts summed over phases, not per phase, so the
 * share f_j of path slot j's time located in the target is a whole-run
 * share.  With per-phase path costs (RP_MODE=path or trace: the rank files'
 * path summaries), phase q's path j is estimated to cost
 *     c_qj * (1 - PERCENT/100 * f_j)
 * and the phase's estimate is the max over its kept paths (a path that is
 * not critical today can become critical); the job's estimate is the sum
 * over phases.  Prof mode keeps per-slot sums over phases only, so the
 * estimate is a range:
 *     [ max_j C_j (1 - s f_j),  C_0 (1 - s min_j f_j) ]
 * (C_j = slot j's cost summed over phases, s = PERCENT/100): the sum over
 * phases of per-phase maxima is at least the max of the sums - and equal
 * to it when every phase's path costs are in the proportions of the sums
 * ("phases alike", the point estimate printed) - and at most today's
 * critical path scaled by the smallest factor any path gets.
 *
 * The runtime samples in prof mode only (path and trace modes record tasks
 * instead), so real runs get the prof-mode estimate; the per-phase method
 * applies to files that have both per-phase path costs and samples. */
#ifndef RP_WHATIF_H
#define RP_WHATIF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/profile.h"

struct rp_run;

typedef struct rp_whatif {
    char     target[512];  /* a function name, or a file when line > 0 */
    uint32_t line;         /* 0: target is a function */
    double   percent;      /* (0, 100]: how much less exclusive time */
} rp_whatif;

/* "FUNCTION=PERCENT" or "FILE:LINE=PERCENT" (PERCENT may end in '%'; the
 * last '=' splits, so operator== works).  0, or -1 with a reason in err. */
int whatif_parse(const char *arg, rp_whatif *w, char *err, size_t errlen);

typedef struct rp_whatif_result {
    uint32_t  k;
    int64_t  *in_ns;       /* [k] located time in the target on slot j */
    int64_t  *cost_ns;     /* [k] slot j's cost summed over phases */
    int64_t  *base_ns;     /* [k] the denominator of f_j: max(cost, located + <unknown>) */
    double   *frac;        /* [k] f_j = in / base */
    int64_t   unknown0_ns; /* <unknown> time on the critical path (unchanged) */
    int       per_phase;   /* 1: per-phase costs were used (est_ns); 0: a range */
    uint64_t  nphases;
    int64_t   now_ns;      /* today's critical path: sum over phases of the longest */
    int64_t   est_ns;      /* per_phase: the estimate */
    int64_t   lo_ns, hi_ns;   /* !per_phase: the range */
    uint64_t  changed;     /* per_phase: phases whose longest kept path changes */
    char      matched[1024];  /* the names that matched, "; "-separated */
} rp_whatif_result;

/* Slot j's cost in phase q, [nphases * k] (malloc'd), from the path
 * summaries, the held path nearest to the slot's percentile as
 * run_slot_costs takes it.  NULL on ENOMEM or when the run has no phase. */
int64_t *whatif_phase_costs(const struct rp_run *run, uint32_t k, uint64_t *nphases);

/* The estimate.  phase_cost: [nphases * k] or NULL (prof mode: the range,
 * from p->stats).  0; 1 if the target has no located time on any path
 * (r->matched empty); -1 on ENOMEM. */
int  whatif_compute(const rp_profile *p, const rp_whatif *w, const int64_t *phase_cost,
                    uint64_t nphases, rp_whatif_result *r);
void whatif_free(rp_whatif_result *r);

/* The estimate and its limits as text. */
int  whatif_text(FILE *f, const rp_profile *p, const rp_whatif *w, const rp_whatif_result *r);

#endif
