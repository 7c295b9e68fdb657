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
} rp_merge_opts;

/* Reads every DIR/rank-<digits>.rpp, names each missing or unreadable rank
 * on stderr, merges the rest.  0 if at least one rank merged (out filled),
 * -1 if none (a reason printed). */
int merge_dir(const char *dir, const rp_merge_opts *o, rp_profile *out);

#include "common/rankfiles.h"

#endif
