/* oracle.h - the exact distribution of path costs of a trace (issue 14).
 *
 * The k paths of a phase stand for the costs of *all* source-to-sink paths
 * of the phase's activity graph, each distinct path counted once (SPEC §2
 * "Selection").  From a trace-mode run's task graph (TASK and EDGE
 * sections) this computes, per phase, how many paths there are and the
 * cost at each of the k evenly spaced percentiles, by path counting over
 * the graph: every vertex carries the histogram of the costs of the paths
 * reaching it (a task shifts it, a join adds them).  Costs are kept on a
 * grid of g ns per phase (g = the phase's longest - shortest path / 16 384
 * to 65 536 bins, at least 1 ns: every vertex's paths reach the phase's
 * end, so their costs spread over at most that range).  A histogram keeps
 * the exact cost of its first bin, so a task shifts it exactly; a join of
 * two histograms whose first bins are not a whole number of bins apart
 * moves one side's paths to the bin below or above, by less than g.  Every
 * histogram carries the exact range of (recorded - true cost) over its
 * paths, and each join moves in the direction that keeps that range
 * smallest, so the moves along a path offset each other.  The result is
 * within `bound_ns` = the largest |recorded - true| of the phase's paths;
 * with g = 1 ns it is exact.  (The simpler bound, the most
 * moves on one path x g/2, is 3-4 times wider on the accuracy corpus, 42 % of
 * the range on NAS CG class B at 16 ranks.)
 *
 * Percentile q of N paths, sorted by cost descending: the cost at 0-based
 * position (1 - q/100) (N - 1), rounded to the nearest position (100 % is
 * the longest path, 0 % the shortest).  The online selection targets the
 * same positions.
 *
 * A cost can also be placed in the distribution (probe_ns): the range of
 * percentiles [lo_pct, hi_pct] that the paths of that cost occupy, in the
 * same convention (position p of N is percentile 100 (1 - p/(N-1))).  That
 * is where an online path really sits: its error in percentile points
 * (rank_error) is 0 when the level lies inside the range, else the
 * distance to it.  Unlike the cost error it does not blow up where a
 * phase's costs have a gap (two groups of paths, a level between them). */
#ifndef RP_ORACLE_H
#define RP_ORACLE_H

#include <stdint.h>
#include "common/graph.h"
#include "common/paths.h"

/* Bins across a phase's range: as many as RP_ORACLE_WORK / (the phase's
 * tasks) allows (each task moves a histogram of up to that many bins),
 * between RP_ORACLE_BINS_MIN and RP_ORACLE_BINS_MAX. */
#define RP_ORACLE_BINS_MIN 16384u
#define RP_ORACLE_BINS_MAX 65536u
#define RP_ORACLE_WORK     (1ull << 31)
/* What a caller may ask for instead (rp-report --check-bins): every phase
 * on that many bins, whatever its size (the time grows in proportion). */
#define RP_ORACLE_BINS_ASK_MIN 1024u
#define RP_ORACLE_BINS_ASK_MAX (1u << 20)

typedef struct rp_pctphase {
    int      ok;              /* computed (else why[]) */
    uint32_t k;
    double   exact_ns[64];    /* [j]: percentile 100 (k-1-j)/(k-1) */
    double   longest_ns, shortest_ns;
    double   log2_paths;      /* log2 of the number of source-to-sink paths */
    double   grid_ns;         /* g */
    double   bound_ns;        /* rounding bound on exact_ns[] */
    double   probe_lo_pct[64], probe_hi_pct[64];   /* [j]: where probe j sits (NAN: no probe) */
} rp_pctphase;

/* Per phase of g's graph (built by graph_build, not stuck): out[q] for
 * q < g->nphases (caller frees *out).  probe_ns, if not NULL, holds
 * [nphases * k] costs (NAN: none) placed in phase q's distribution as
 * probe_lo_pct/probe_hi_pct[j]: a cost is put in the nearest grid bin that
 * holds a path (with a grid of 1 ns, the exact set of paths of that cost),
 * or, within the rounding bound and a bin of the longest or shortest, in
 * that end's bin (the online ends are exact; the grid moved the oracle's).
 * bins: the bins across every phase's range (RP_ORACLE_BINS_ASK_MIN ..
 * _MAX), or 0 for the default (RP_ORACLE_BINS_MIN .. _MAX by the phase's
 * tasks).  0, -1 on ENOMEM (errno set), 1 if the graph has a part the
 * oracle cannot evaluate (message printed in why[], out untouched). */
int oracle_percentiles(const rp_graph *g, uint32_t k, uint32_t bins, const double *probe_ns,
                       rp_pctphase **out, char *why, size_t nwhy);

/* Percentile points between level pct and the range [lo, hi] (0 inside,
 * NAN if the range is NAN). */
double oracle_rank_error(double pct, double lo, double hi);

/* Percentile fraction from the top for slot j of k (0 for j = 0, 1 for k-1). */
double oracle_slot_fraction(uint32_t j, uint32_t k);

#endif
