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

/* Time on a path that no sample locates (SPEC section 4): a CCT pseudo-frame
 * "<unknown>" under the root (module RP_MOD_UNKNOWN, offset 0) with one
 * child per cause (module RP_MOD_UNKNOWN, offset = the cause).  Part of the
 * rank-file format since CCT section version 2. */
enum {
    RP_UNK_FRAME = 0,        /* the "<unknown>" frame itself */
    RP_UNK_NOT_SAMPLED = 1,  /* cost no sample fell on: tail after a path's last
                                sample, tasks shorter than the period, and
                                the sampling error of a finite sample */
    RP_UNK_BUFFER_FULL = 2,  /* samples whose item the full buffer refused */
    RP_UNK_SUMMARY = 3,      /* sampled, but the summary could keep no
                                interval (RP_SUMMARY too small to estimate) */
    RP_UNK_N = 4
};
/* Names shown by the tools for the causes (index: RP_UNK_*). */
#define RP_UNK_NAMES { "<unknown>", "[not sampled: shorter than RP_PERIOD or after the last sample]", \
                       "[sample buffer full]", "[summary overflow]" }

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
