/* chain.h - path mode's chains: full paths past a summary's capacity
 * (chain.c; doc/design.md "Full paths on long phases").  Pure C, no MPI;
 * main thread only (path mode extends summaries outside the signal
 * handler). */
#ifndef RP_CHAIN_H
#define RP_CHAIN_H

#include <stddef.h>
#include <stdint.h>
#include "core/pathset.h"

/* A rank's segments: what summaries held when they filled on this rank. */
typedef struct rp_chain {
    uint32_t     me;        /* this rank: the owner its links name */
    uint64_t     max_iv;    /* bound: intervals kept a phase (0: no chains) */
    rp_interval *iv;        /* the segments' intervals back to back */
    uint64_t     n_iv, cap_iv;
    uint64_t    *off;       /* segment base + s starts at iv[off[s]]; off[n_seg] = n_iv */
    uint32_t     n_seg, cap_seg;
    uint32_t     base;      /* the phase's first segment number: numbers never
                             * repeat within a run, so a link from an earlier
                             * phase (a late message) names no segment */
    uint64_t     refused;   /* spills refused: bound reached or no memory */
} rp_chain;

/* An empty chain for rank me keeping at most max_iv intervals a phase
 * (storage grows on demand); its segments are numbered from first (below
 * 2^31; a number drawn per process, so a link from another job's
 * process - a spawned world has its own rank numbers - is very unlikely to
 * name one of ours).  0, or -1 (me does not fit a link). */
int  chain_init(rp_chain *c, uint32_t me, uint64_t max_iv, uint32_t first);
void chain_free(rp_chain *c);
/* Phase end, after the walk: forget the phase's segments. */
void chain_reset(rp_chain *c);

/* p's summary is full (iv_cap >= 2 intervals, not overflowed): move its
 * intervals into a new segment and leave p one interval, the link to it;
 * p's name is cleared.  0, or -1 (chains off; bound reached or no memory:
 * counted in c->refused; p unchanged). */
int  chain_spill(rp_chain *c, rp_path *p);

/* Extend every path of ps with item idx of rank `rank` (path mode's
 * summary_push; rank with the epoch, pathset.h rp_iv_key); a summary that is full goes on as a chain through c
 * (NULL: no chains, MPI_THREAD_MULTIPLE).  Returns the paths that lost
 * track now (bit j: overflowed; the caller records their cost). */
uint64_t chain_extend(rp_chain *c, rp_pathset *ps, uint32_t rank, uint16_t idx, uint64_t *rng);

/* ---- the walk: every rank expands the same links, in rounds --------------
 * At a phase end every rank holds the same paths.  Each round, every rank
 * follows the links it owns as far as they stay on it (chain_walk_emit),
 * all ranks exchange what they found (any allgather: concatenate every
 * rank's bytes), and each takes in the same bytes (chain_walk_absorb), so
 * all stay identical and agree when no link is left.  A link its owner
 * cannot follow (no such segment: a late message from an earlier phase, or
 * corrupt) breaks its path: chain_walk_path says so. */
typedef struct rp_chain_walk {
    uint32_t     n;                         /* paths */
    rp_interval  front[RP_PATHSET_MAX_K];   /* link to expand next (rank 0: none) */
    rp_interval *rev[RP_PATHSET_MAX_K];     /* the intervals found, last first */
    uint64_t     n_rev[RP_PATHSET_MAX_K], cap_rev[RP_PATHSET_MAX_K];
    uint64_t     broken;                    /* bit j: path j's chain is broken */
    int          nomem;
} rp_chain_walk;

/* Start from ps's paths (at most RP_PATHSET_MAX_K).  0, or -1 (memory:
 * w->nomem; the rounds still run, so every rank takes part in them). */
int  chain_walk_begin(rp_chain_walk *w, const rp_pathset *ps);
/* Is a link left to expand? */
int  chain_walk_pending(const rp_chain_walk *w);
/* My records for this round into a malloc'ed buffer (*len bytes; NULL and
 * 0 when I own no pending link).  0, or -1 (memory). */
int  chain_walk_emit(const rp_chain *c, const rp_chain_walk *w, uint8_t **buf, size_t *len);
/* Take in every rank's records of this round, concatenated.  A pending
 * link no record answered breaks its path.  0, or -1 (malformed or
 * memory: every path still pending is broken). */
int  chain_walk_absorb(rp_chain_walk *w, const uint8_t *all, size_t len);
/* Path j's intervals, first to last, links expanded (in place: call once
 * per path, after the last round); *n of them.  The array stays w's. */
const rp_interval *chain_walk_path(rp_chain_walk *w, uint32_t j, uint64_t *n);
void chain_walk_free(rp_chain_walk *w);

#endif
