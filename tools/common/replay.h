/* replay.h - the online selection replayed over a trace's task graph
 * (tools/common/replay.c; issue 14).
 *
 * The same joins as the runtime's (lib/core/pathset.c), in the runtime's
 * order: at an event, its predecessor's set joins what the event receives
 * one by one in the trace's edge order (the order the runtime joined them:
 * completion order); an all-to-all collective's members join in the
 * runtime's exchange (lib/exchange/collpaths.c: a butterfly at a power of
 * two, else dissemination with its exact last round and rank 0's set
 * broadcast; a reduce's root joins the others' in rank order into its
 * own), the phase-end one on sets of phase_k paths from which the k
 * are chosen after its last round.  So any selection rule, k or phase_k can
 * be measured on one trace, against the oracle's exact percentiles of the
 * same graph, without running the program again
 * (bench/accuracy/replay.c), and with the run's own settings the replay
 * gives the run's levels: all 5 535 middle levels of 70 traces (accuracy
 * programs, LULESH, NAS; doc/accuracy.md), asserted by
 * tests/mpi/test_accuracy.sh. */
#ifndef RP_REPLAY_H
#define RP_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include "common/graph.h"
#include "core/pathset.h"

/* Per phase q < g->nphases, the cost of report level j of k (out[q * k + j];
 * -1 where the phase never ended): the rule sel with phase-end sets of
 * phase_k paths (phase_k <= k: k).  k and phase_k 1..64.  0; -1 on ENOMEM
 * (errno set) or a bad k; 1 if the graph has a part the walk cannot order
 * (message in why[]). */
int replay_levels(const rp_graph *g, uint32_t k, uint32_t phase_k, rp_select_mode sel,
                  int64_t *out, char *why, size_t nwhy);

#endif
