/* pctcmp.h - per-level costs of a run's phases against the exact
 * percentiles of all their paths (issue 14): the comparison behind
 * `rp-report --check` (check.c, the run's own online paths) and
 * bench/accuracy/replay (a selection rule replayed over the same graph,
 * replay.c), so both measure the error the same way.
 *
 * The ends are measured against the walk's exact longest and shortest path
 * (graph.c), the middle levels against the oracle's (oracle.c); the error
 * of a level is its cost minus the exact one, in % of the phase's longest
 * - shortest, and its rank error the percentile points between the level
 * and where the probe sits among all paths (oracle_rank_error). */
#ifndef RP_PCTCMP_H
#define RP_PCTCMP_H

#include <stddef.h>
#include <stdint.h>
#include "common/graph.h"
#include "common/oracle.h"

typedef struct rp_pctcmp {
    int          run;       /* the oracle ran */
    char         why[200];  /* else why not */
    uint32_t     k;
    uint64_t     n;         /* phases compared: complete, every level probed */
    uint64_t    *qs;        /* [n]: their phase numbers */
    rp_pctphase *ph;        /* [nphases] */
    double      *online;    /* [n * k]: the probe cost of level j in compared phase i */
    double      *med, *worst;   /* [k]: |cost error| % of the range */
    double      *rmed, *rworst; /* [k]: rank error, percentile points */
    double       bound_pct, mean_log2;
    uint64_t     incons;    /* phases whose oracle ends disagree with the walk */
} rp_pctcmp;

/* Compare probe_ns[q * k + j] (level j of k in phase q < g->nphases, NaN:
 * none; k 1..64) with g's exact percentiles (g built, not stuck; bins as
 * oracle_percentiles').  0 (t->run
 * says whether the oracle ran, t->why why not), or -1 on ENOMEM.  t is
 * freed by pctcmp_free in every case. */
int pctcmp_run(const rp_graph *g, uint32_t k, uint32_t bins, const double *probe_ns,
               rp_pctcmp *t);
void pctcmp_free(rp_pctcmp *t);
/* Compared phase i, level j: signed cost error, % of the phase's range (+:
 * the probe is longer); rank error in percentile points (NaN: not known). */
double pctcmp_cost_err(const rp_pctcmp *t, uint64_t i, uint32_t j);
double pctcmp_rank_err(const rp_pctcmp *t, uint64_t i, uint32_t j);

#endif
