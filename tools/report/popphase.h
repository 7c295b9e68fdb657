/* popphase.h - the POP factors of each phase, where the rank files hold
 * them: trace mode records every task of every rank with its phase, path
 * mode each rank's computation in each phase (PCMP section), and both
 * every phase's critical path cost (the 100 % path), so each phase has its
 * ranks' computation and its critical path.  No per-phase runtime is
 * recorded (no time stamps), so load balance and serialisation efficiency
 * are per phase; communication and transfer efficiency are whole-run only.
 * Prof mode keeps neither (its phases may number in the millions). */
#ifndef RP_REPORT_POPPHASE_H
#define RP_REPORT_POPPHASE_H

#include <stdint.h>
#include <stdio.h>
#include "common/paths.h"
#include "report/pop.h"

typedef struct rp_popphase {
    uint64_t phase;
    rp_pop   pop;      /* runtime = the critical path's cost (so te = 1, comme = sere):
                          only lb, sere, the computations and busiest are meaningful */
} rp_popphase;

enum {
    RP_POPPHASE_OK = 0,
    RP_POPPHASE_NONE = 1,        /* prof mode, or no phase: nothing per phase */
    RP_POPPHASE_UNRECORDED = 2   /* path mode, but a present rank's file has no
                                    per-phase computation (an older writer) */
};

/* Per phase of a trace- or path-mode run (every present rank; phases where
 * no rank computed are left out; path mode: the phases every present
 * rank's file has).  *out malloc'd, *n phases; RP_POPPHASE_OK, another
 * RP_POPPHASE_* when nothing is computed (*out NULL), -1 on ENOMEM. */
int popphase_compute(const rp_run *run, rp_popphase **out, uint64_t *n);

/* The top phases that lose most to imbalance and serialisation (critical
 * path - mean computation), as a text table or a JSON array. */
void popphase_text(FILE *f, const rp_popphase *v, uint64_t n, uint32_t top, uint32_t mode);
void popphase_json(FILE *f, const rp_popphase *v, uint64_t n, uint32_t top);

#endif
