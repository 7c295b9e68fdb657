/* poploss.h - the code behind each POP factor's loss (doc/report.md, "POP
 * factors"): short ranked lists of source lines, from sampled profiles of
 * subsets of the ranks (the busiest rank; the ranks the critical path runs
 * through) merged from the rank files beside the whole run's profile. */
#ifndef RP_REPORT_POPLOSS_H
#define RP_REPORT_POPLOSS_H

#include <stdint.h>
#include "common/profile.h"
#include "report/pop.h"

/* One row: a source line (or an MPI call at its call site). */
typedef struct rp_lossrow {
    char   *name;          /* "function (file.c:12)", "MPI_Wait at f (file.c:9)" */
    int64_t a_ns, b_ns;    /* load balance: busiest rank, mean rank; serialisation:
                              critical path, busiest rank; transfer: time, 0 */
    int64_t diff_ns;       /* a - b: what the row adds to the loss */
    double  a_samples, b_samples;   /* estimated samples behind a and b */
    int     noise;         /* the difference is within sampling noise (2 sigma) */
} rp_lossrow;

typedef struct rp_poploss {
    uint32_t    n_lb, n_ser, n_te;
    rp_lossrow *lb, *ser, *te;
    uint32_t    busiest;        /* the rank the lists compare with */
    uint32_t    te_ranks;       /* ranks the critical path's samples lie on */
    int64_t     te_mpi_ns;      /* their sampled MPI time */
} rp_poploss;

/* The profile of the ranks whose bit is set in mask (nranks bits), merged
 * from their rank files as merge_dir does with rp_merge_opts.only (quiet,
 * newest job, no pruning); 0, or -1.  ctx: the caller's (rankscan.h's
 * rankscan_subset takes its rp_rankscan). */
typedef int (*rp_subset_fn)(void *ctx, const uint8_t *mask, uint32_t nranks, rp_profile *sub);

/* Lists of at most top rows each, largest difference first, rows whose
 * difference is not positive left out.  merge_subset (ctx): the subsets'
 * profiles, asked for in this order: the busiest rank alone, then the
 * ranks with critical-path time (path0_ns > 0) if any;
 * p: the whole run's profile; q: the factors (q->busiest); path0_ns[i]:
 * sampled critical-path time of rank rank[i] (ranks.h), n rows.  0, or -1
 * if the subsets could not be merged (out then empty). */
int  poploss_compute(rp_subset_fn merge_subset, void *ctx, const rp_profile *p, const rp_pop *q,
                     const uint32_t *rank, const int64_t *path0_ns, uint32_t n, uint32_t top,
                     rp_poploss *out);
void poploss_free(rp_poploss *l);

#endif
