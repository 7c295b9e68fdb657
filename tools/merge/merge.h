/* merge.h - union the per-rank measurement files of a directory into one
 * symbolised profile (shared by rp-merge and rp-report). */
#ifndef RP_MERGE_H
#define RP_MERGE_H

#include "common/profile.h"

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
} rp_merge_opts;

/* Reads every DIR/rank-<digits>.rpp of one job (o->newest_job), names each
 * missing, unreadable or left-out rank file on stderr, merges the rest.  0 if at least one rank merged (out filled),
 * -1 if none (a reason printed). */
int merge_dir(const char *dir, const rp_merge_opts *o, rp_profile *out);

#include "common/rankfiles.h"

#endif
