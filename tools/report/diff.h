/* diff.h - rp-report --diff BEFORE AFTER: what two runs have in common and
 * how they differ (doc/report.md, "--diff").  Calling contexts and MPI call
 * sites are matched by what they print (function, source file and line;
 * module and "no symbols" where there is no line), never by address, so
 * two builds of a program compare.  Pure: no files, no printing. */
#ifndef RP_REPORT_DIFF_H
#define RP_REPORT_DIFF_H

#include <stdint.h>
#include "common/profile.h"

/* One run as the diff sees it. */
typedef struct rp_diffside {
    const rp_profile *p;
    const int64_t    *cost_ns;   /* per report slot (k), summed over phases */
    const struct rp_rankrow *ranks;   /* NULL: none (a merged profile alone) */
    uint32_t          nranks_rows;
} rp_diffside;

/* One level of the path-length distribution present in both runs. */
typedef struct rp_difflevel {
    double   percentile;
    uint32_t slot_a, slot_b;
    int64_t  a_ns, b_ns;
} rp_difflevel;

/* Levels matched by percentile: with the same k every slot; with another k
 * only the percentiles both runs have (always 100 % and 0 %).  out has
 * room for a->k entries; returns how many. */
uint32_t diff_levels(const rp_diffside *a, const rp_diffside *b, rp_difflevel *out);

/* One calling context, matched by its printed path from the root. */
typedef struct rp_diffctx {
    char    *path;      /* "main > heavy > sweep", inlined frames included */
    char    *leaf;      /* "sweep (imbalance.c:34)" or "libm.so.6 [no symbols]" */
    char    *funcs;     /* the frames' function names, separated by 0x1f */
    int64_t  excl_a, excl_b;   /* exclusive sampled ns in the column */
    int64_t  incl_a, incl_b;   /* inclusive */
    double   samples_a, samples_b;   /* estimated, behind the exclusive times */
    int      noise;     /* excl_b - excl_a within 2 sigma (precision.h), or 0 */
} rp_diffctx;

/* Every context with exclusive time in column col (RP_MET_PATH0 + slot,
 * RP_MET_RANK) of either run, largest |excl_b - excl_a| first.  col_a / col_b: the
 * column in each run.  *out malloc'd; the count, or -1 on ENOMEM. */
int32_t diff_contexts(const rp_profile *a, uint32_t col_a, const rp_profile *b, uint32_t col_b,
                      rp_diffctx **out);
void diff_contexts_free(rp_diffctx *c, int32_t n);

/* One function: the time of every context it is on (inclusive: its own
 * frames and all it calls; a recursive function's context counts once). */
typedef struct rp_difffunc {
    char    *name;
    int64_t  a_ns, b_ns;
    double   samples_a, samples_b;
    int      noise;
    int      everywhere;   /* on every context of the list but the pseudo-
                              frames <unknown> and <contexts under ...>
                              (main, _start): it carries the whole change */
} rp_difffunc;
/* From diff_contexts' list of one column; wa, wb: each run's mean sample
 * weight (precision_weight_ns).  Largest |b_ns - a_ns| first. */
int32_t diff_functions(const rp_diffctx *c, int32_t n, double wa, double wb, rp_difffunc **out);
void diff_functions_free(rp_difffunc *d, int32_t n);

/* One MPI call site ("MPI_Allreduce from main (x.c:12)"), sampled MPI time. */
typedef struct rp_diffsite {
    char    *name;
    int64_t  a_ns, b_ns;
    double   samples_a, samples_b;
    int      noise;
} rp_diffsite;
int32_t diff_sites(const rp_profile *a, const rp_profile *b, rp_diffsite **out);
void diff_sites_free(rp_diffsite *s, int32_t n);

/* What makes the runs incomparable in part: bits of diff_mismatch(). */
enum {
    RP_DIFF_EXE = 1u,     /* another executable (a different build): contexts
                             matched by name and line, addresses ignored */
    RP_DIFF_RANKS = 2u,   /* another number of ranks: no per-rank rows */
    RP_DIFF_K = 4u,       /* another k: levels matched by percentile */
    RP_DIFF_MODE = 8u,    /* another mode */
    RP_DIFF_NOSAMPLES = 16u,  /* a run without samples (path/trace mode):
                                 no contexts, no call sites */
    RP_DIFF_SELECT = 32u  /* another selection rule: the middle levels
                             estimate different things */
};
uint32_t diff_mismatch(const rp_diffside *a, const rp_diffside *b);

#endif
