/* summary.h - path-summary maintenance (paper Fig. 4c).  Pure C,
 * async-signal-safe (called from the SIGPROF handler). */
#ifndef RP_SUMMARY_H
#define RP_SUMMARY_H

#include <stdint.h>
#include "core/pathset.h"

/* Return codes of summary_push. */
#define RP_SUM_EXTENDED 0  /* merged into the last interval */
#define RP_SUM_OPENED   1  /* new interval opened */
#define RP_SUM_OVERFLOW 2  /* path mode: full, overflow flag set, item not recorded */
#define RP_SUM_EVICTED  3  /* prof mode, full: reservoir step (new interval kept or not) */

/* Record item idx of rank `rank` on path p (capacity iv_cap).  The last
 * interval is extended when it is rank's and ends at idx-1.  `rank` is
 * the interval's rank field: in path mode it carries the index's epoch
 * (pathset.h rp_iv_key), idx its low 16 bits. */
int summary_push(rp_path *p, uint32_t iv_cap, uint32_t rank, uint16_t idx,
                 rp_summary_mode mode, uint64_t *rng);

/* xorshift64*: deterministic, async-signal-safe. */
uint64_t summary_rand(uint64_t *state);

#endif
