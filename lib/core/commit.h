/* commit.h - lazy commit at phase end (paper Fig. 3 line 34, §5).  Pure C.
 * After the phase-end path-allreduce every rank holds the identical set; each
 * rank commits only its own items that lie inside the selected summaries. */
#ifndef RP_COMMIT_H
#define RP_COMMIT_H

#include <stdint.h>
#include "core/pathset.h"
#include "core/itembuf.h"
#include "core/vocab.h"

/* Called once per (path, item) pair: path index 0..ps->n-1 (0 = most
 * critical), the item and its buffer index.  An item on several paths is
 * reported once for each. */
typedef void (*rp_commit_fn)(void *ctx, uint32_t path, const rp_item *item,
                             uint32_t idx);

/* Visit every item of rank `me` inside the summaries of ps.  Intervals that
 * point past the buffer's fill are clipped (counted in the return value's
 * high 32 bits); the low 32 bits count visits.  */
uint64_t commit_phase(const rp_pathset *ps, uint32_t me, const rp_itembuf *buf,
                      rp_commit_fn fn, void *ctx);

/* How a selected path's cost is shown (prof mode, doc/design.md
 * "Attribution"): every rank multiplies the weight of its items on the path
 * by `scale`, and one rank adds unk_ns[c] under "<unknown>" / cause c
 * (RP_UNK_*).  Chosen so that, in expectation over the summary reservoir,
 * the committed time plus the unknown time is exactly the path's cost, and
 * the committed time never exceeds cost minus the unknown parts. */
typedef struct rp_path_attr {
    double  scale;
    int64_t unk_ns[RP_UNK_N];
} rp_path_attr;
void commit_path_attr(const rp_path *p, rp_path_attr *out);

#endif
