/* replay.h - the online selection replayed over a trace's task graph
 * (tools/replay.c; issue 14).
 *
 * The same joins as the runtime's (lib/core/pathset.c), in the graph's
 * order (walk.c): a message's set joins at its receive, an all-to-all
 * collective's members join in butterfly order (member i with i + 2^d, as
 * the runtime's exchange pairs them at a power of two), the phase-end one
 * on sets of phase_k paths from which the k are chosen after its last
 * round.  Any selection rule, k or phase_k can so be measured on one
 * trace, against the oracle's exact percentiles of the same graph, without
 * running the program again (bench/accuracy/replay.c).  It is not the run
 * itself: the runtime joins the receives completed by one call in
 * completion order and, at a member count that is not a power of two,
 * disseminates instead, so the two differ phase by phase; their error
 * statistics agree (doc/accuracy.md, "The phase-end exchange"). */
#ifndef RP_REPLAY_H
#define RP_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include "graph.h"
#include "core/pathset.h"

/* Per phase q < g->nphases, the cost of report level j of k (out[q * k + j];
 * -1 where the phase never ended): the rule sel with phase-end sets of
 * phase_k paths (phase_k <= k: k).  k and phase_k 1..64.  0; -1 on ENOMEM
 * (errno set) or a bad k; 1 if the graph has a part the walk cannot order
 * (message in why[]). */
int replay_levels(const rp_graph *g, uint32_t k, uint32_t phase_k, rp_select_mode sel,
                  int64_t *out, char *why, size_t nwhy);

#endif
