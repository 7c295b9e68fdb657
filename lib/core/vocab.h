/* vocab.h - the project's vocabulary: the names every layer shares (modes,
 * clocks, metric columns of a CCT node, special module ids, collective and
 * edge kinds).  Values are part of the rank-file format (doc/formats.md):
 * changing one is a format change.  Header only, no code. */
#ifndef RP_VOCAB_H
#define RP_VOCAB_H

#include <stdint.h>

/* RP_MODE */
enum { RP_MODE_PROF = 0, RP_MODE_PATH = 1, RP_MODE_TRACE = 2 };
/* RP_CLOCK */
enum { RP_CLOCK_WALL = 0, RP_CLOCK_CPU = 1 };

/* Special module ids of CCT nodes (real modules are 0..n_modules-1). */
#define RP_MOD_ROOT    0xFFFFFFFFu /* the tree's root (node 0) */
#define RP_MOD_UNKNOWN 0xFFFFFFFEu /* "unknown location": time on a path that no sample locates */
#define RP_MOD_MPI     0xFFFFFFFDu /* pseudo-frame: offset indexes mpi_names[] */

/* Metric columns of every CCT node: whole-rank, MPI, then one per path. */
#define RP_MET_RANK  0u   /* every task-time sample of the rank (ordinary profile) */
#define RP_MET_MPI   1u   /* samples taken inside MPI / rpprof */
#define RP_MET_PATH0 2u   /* path j (0 = 100 %) is column RP_MET_PATH0 + j */

/* A rank's world rank that is none (no message brought the path). */
#define RP_NO_RANK UINT32_MAX

/* Trace mode: what joins at an event of this rank. */
enum { RP_EDGE_MSG = 1, RP_EDGE_COLL = 2 };
/* Collective kinds: all-to-all, towards a root, away from a root, prefix. */
enum { RP_COLL_ALL = 1, RP_COLL_IN = 2, RP_COLL_OUT = 3, RP_COLL_SCAN = 4 };
/* A blocking collective contributes my set and joins everyone's at one
 * event.  A non-blocking one contributes at its call and joins at the
 * Wait/Test that completes it: two records with the same coll_id. */
enum { RP_PART_BOTH = 0, RP_PART_CONTRIB = 1, RP_PART_JOIN = 2 };

#endif
