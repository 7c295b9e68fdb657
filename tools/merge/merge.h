/* merge.h - union the per-rank measurement files of a directory into one
 * symbolised profile (shared by rp-merge and rp-report). */
#ifndef RP_MERGE_H
#define RP_MERGE_H

#include <stdio.h>
#include "common/profile.h"
#include "common/rankfiles.h"

typedef struct rp_merge_opts {
    const char *prog;   /* prefix of messages on stderr */
    int quiet;          /* 1: no "missing rank" lines, only a summary */
    double min_share_pct; /* contexts under this share of every column fold
                           * together (prune.h; RP_PRUNE_DEFAULT_PCT; 0: none) */
    int newest_job;     /* rank files of several jobs (rankfiles.h): 1 merge the
                         * newest job's and leave the others out, naming them;
                         * 0 refuse (name them, merge nothing) */
    const uint8_t *only; /* bit r (only[r / 8] >> r % 8) set: merge rank r; NULL:
                          * every rank.  A subset's profile (rp-report's POP loss
                          * lists: one rank, the critical path's ranks) says
                          * nothing of the ranks left out on stderr */
    uint32_t only_n;     /* bits in only: ranks from only_n up are left out */
    FILE *log;           /* where the messages go; NULL: stderr */
} rp_merge_opts;

/* Reads every DIR/rank-<digits>.rpp of one job (o->newest_job), names each
 * missing, unreadable or left-out rank file on stderr, merges the rest.  0 if at least one rank merged (out filled),
 * -1 if none (a reason printed). */
int merge_dir(const char *dir, const rp_merge_opts *o, rp_profile *out);

/* The same on files already listed and a job already chosen
 * (rankfiles_list_job): franks[i], fpaths[i] for i < nfiles, sorted by
 * rank.  A subset's merge (o->only) does not repeat the pick's account of
 * other jobs: the whole run's report has given it. */
int merge_list(const char *dir, const rp_merge_opts *o, const rp_jobpick *pick,
               const uint32_t *franks, char *const *fpaths, uint32_t nfiles, rp_profile *out);

/* A merge fed one rank file at a time, for a caller that reads each file
 * once for several uses (report/rankscan.h): offer every listed file in
 * list order, then finish.  merge_list is this over its own reads. */
typedef struct rp_merger rp_merger;
/* NULL on ENOMEM.  o must outlive the merger. */
rp_merger *merger_new(const rp_merge_opts *o);
/* Is rank (the rank a file's name says) in o->only's subset? */
int  merger_wants(const rp_merger *m, uint32_t rank);
/* A file that could not be read: its reason, said as the merge says it. */
void merger_bad(rp_merger *m, const char *path, const char *why);
/* Merge d, read from path whose name says rank; a file that does not fit
 * (another rank, another run's header, a second file of a rank) is named
 * with its reason and skipped.  d stays the caller's.  0, or -1 on ENOMEM
 * (then finish fails). */
int  merger_add(rp_merger *m, const char *path, uint32_t rank, const rp_rankdata *d);
/* The profile of what was merged (as merge_list); frees m.  franks[0..nfiles)
 * and pick: the listing the files came from. */
int  merger_finish(rp_merger *m, const char *dir, const rp_jobpick *pick,
                   const uint32_t *franks, uint32_t nfiles, rp_profile *out);
/* Drop an unfinished merge. */
void merger_free(rp_merger *m);

#endif
