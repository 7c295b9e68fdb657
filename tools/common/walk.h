/* walk.h - every vertex of a trace's task graph in dependency order, with a
 * value carried along the paths (tools/common/walk.c).
 *
 * A vertex's value is its predecessor's shifted by the task that ends at
 * it, joined with the values the messages and collectives that end there
 * bring.  What a value is belongs to the caller, behind rp_walk_ops: the
 * oracle's histogram of all path costs (oracle.c), or the online
 * selection's path-set replayed over the same graph (replay.c).  The walk
 * owns the order (a rank advances while what its next event joins is
 * known, the order of the longest-path walk in paths.c), the collectives'
 * membership rules, and keeps a value only while a later vertex needs it. */
#ifndef RP_WALK_H
#define RP_WALK_H

#include <stddef.h>
#include <stdint.h>
#include "common/graph.h"

/* A value is `size` bytes; all zero is the empty value.  ctx is the
 * caller's; phase is the phase the vertex belongs to.  0, or -1 on ENOMEM. */
typedef struct rp_walk_ops {
    size_t size;
    /* v (empty or not) <- one path of cost 0: a phase's source */
    int  (*unit)(void *ctx, void *v);
    /* every path of v (not empty) gains a task's cost */
    void (*shift)(void *ctx, void *v, int64_t cost_ns);
    /* dst <- dst joined with src (src not empty; dst empty: a copy) */
    int  (*add)(void *ctx, void *dst, const void *src, uint64_t phase);
    /* free v's storage; v is empty after */
    void (*clear)(void *ctx, void *v);
    int  (*empty)(const void *v);
    /* optional (NULL: add them in member order): dst (empty) <- the join of
     * an all-to-all collective's n member values, phase_end: the
     * collective ends its phase */
    int  (*coll)(void *ctx, void *dst, const void *const *mv, uint32_t n, int phase_end,
                 uint64_t phase);
    /* 1: an event joins its inputs into its predecessor's value one by one,
     * in edge order (the runtime's join order: completion order), for a
     * value whose join is not associative (replay.c's path sets); 0: its
     * messages are joined together first (the oracle's histograms do not
     * care) */
    int  sequential;
    /* the value at phase q's end, once a phase (v is the walk's: copy it) */
    int  (*sink)(void *ctx, uint64_t q, const void *v);
} rp_walk_ops;

/* Walk g (built by graph_build, not stuck).  0; -1 on ENOMEM (errno set);
 * 1 if the graph has a part the walk cannot order (message in why[]). */
int walk_graph(const rp_graph *g, const rp_walk_ops *ops, void *ctx, char *why, size_t nwhy);

#endif
