/* prune.h - fold the contexts too small to matter into one node per parent
 * (prune.c): the merged profile's size then stops growing with the run's
 * length (issue 16). */
#ifndef RP_PRUNE_H
#define RP_PRUNE_H

#include <stdint.h>
#include "common/profile.h"

/* The default of rp-merge --min-share, in percent. */
#define RP_PRUNE_DEFAULT_PCT 0.1

/* Every context whose inclusive time is under min_pct % of its column's
 * total in every metric column (of a rank's mean whole-rank time where the
 * column's total is less), and above no kept context, is folded into one
 * child of the root named "<contexts under X %>" (X = min_pct): a folded
 * context whose symbol holds min_pct % of some column over the whole tree
 * becomes a child of that node (siblings with the same symbol merged), the
 * rest adds to that node's own metrics.  So every column's total and every
 * significant symbol's total are unchanged; only the calls leading to the
 * folded contexts are lost.  "<unknown>" contexts are always kept (their
 * causes are counted by offset); a profile with nothing measured (path and
 * trace modes) is left as it is; min_pct <= 0 keeps every context.
 * Symbols, frames and strings no context uses any more are dropped either
 * way.  *n_folded gets the number of contexts folded away.  0, or -1 when
 * out of memory (p is then unchanged or merely not compacted). */
int profile_prune(rp_profile *p, double min_pct, uint32_t *n_folded);

#endif
