/* merge.h - union the per-rank measurement files of a directory into one
 * symbolised profile (shared by rp-merge and rp-report). */
#ifndef RP_MERGE_H
#define RP_MERGE_H

#include "profile.h"

typedef struct rp_merge_opts {
    const char *prog;   /* prefix of messages on stderr */
    int quiet;          /* 1: no "missing rank" lines, only a summary */
} rp_merge_opts;

/* Reads every DIR/rank-<digits>.rpp, names each missing or unreadable rank
 * on stderr, merges the rest.  0 if at least one rank merged (out filled),
 * -1 if none (a reason printed). */
int merge_dir(const char *dir, const rp_merge_opts *o, rp_profile *out);

/* The rank files of DIR (rank-<digits>.rpp), sorted by rank: ranks[i] and
 * the malloc'd path "DIR/name" paths[i] (free each and both arrays).
 * 0, or -1 with errno. */
int merge_list_rankfiles(const char *dir, uint32_t **ranks, char ***paths, uint32_t *n);

/* Newest mtime (ns) of DIR's rank files, 0 if none; -1 if DIR unreadable. */
int64_t merge_newest_rankfile(const char *dir, uint32_t *count);

#endif
