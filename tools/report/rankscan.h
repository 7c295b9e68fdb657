/* rankscan.h - rp-report's one pass over a measurement directory's rank
 * files.  Every view that needs something of each rank (the per-rank
 * table, the POP factors and their loss lists, the path and trace modes'
 * run) takes it from one read of each file, made here, instead of
 * listing and reading the directory again for itself: at 100 000 ranks
 * each extra pass costs seconds (doc/performance.md, "Post-processing").
 *
 * Two steps: rankscan_list chooses the job (rankfiles.h: one job header
 * walk per file, no more), and rankscan_read reads each kept file once in
 * full, keeping per rank only its row of the per-rank table; the CCT of
 * each file is merged into the critical-path ranks' profile (POP transfer
 * losses) on the way, and in path and trace modes the run (paths.h) keeps
 * the files, as it always did. */
#ifndef RP_REPORT_RANKSCAN_H
#define RP_REPORT_RANKSCAN_H

#include <stdint.h>
#include <stdio.h>
#include "common/paths.h"
#include "common/profile.h"
#include "common/rankfiles.h"
#include "merge/merge.h"
#include "report/ranks.h"

typedef struct rp_rankscan {
    const char *dir;
    /* the files of the job kept, sorted by rank (rankfiles_list_job) */
    uint32_t   *ranks;
    char      **paths;
    uint32_t    n;
    rp_jobpick  pick;
    int         dup_ranks;   /* two files name one rank (rank-1.rpp, rank-00001.rpp) */
    /* rankscan_read: the per-rank table, one row per file read that holds
     * the rank its name says and a rank below nranks (ranks_load's rows) */
    rp_rankrow *rows;
    uint32_t    nrows;
    /* The critical path's ranks (rows with path0_ns > 0), merged as
     * poploss.c asks (rank subset, no pruning) while the files are read;
     * te_log holds the merge's messages until it is asked for. */
    rp_merge_opts te_opts;
    rp_merger  *te;
    uint8_t    *te_mask;     /* [te_opts.only_n / 8 + 1] */
    char       *te_log;
    size_t      te_loglen;
    FILE       *te_logf;
} rp_rankscan;

/* List DIR's rank files and choose the job (rankfiles_list_job); nothing
 * printed.  0, or -1 (errno; s->pick.err for a bad job file). */
int  rankscan_list(const char *dir, rp_rankscan *s);
/* Read each listed file once: the rows for ranks below nranks; when run is
 * not NULL, the run too (run_begin .. run_finish: its messages as
 * run_load's; run_finish's result is *run_rc); when te, the critical
 * path's ranks' merge for rankscan_subset.  0, or -1 on ENOMEM. */
int  rankscan_read(rp_rankscan *s, uint32_t nranks, rp_run *run, int *run_rc, int te);
/* The profile of the ranks whose bit is set in mask (nranks bits), as
 * merge_dir with rp_merge_opts.only would make it: the one merged during
 * rankscan_read if mask is that one, else merged from the listed files
 * (reading only the subset's).  0, or -1.  For poploss_compute. */
int  rankscan_subset(void *scan, const uint8_t *mask, uint32_t nranks, rp_profile *sub);
void rankscan_free(rp_rankscan *s);

#endif
