/* model.h - what rp-report computes from a merged profile before it
 * prints anything: per-column totals, hotspot lists by function and by
 * source line, and the "view tree" (the merged tree with contexts that
 * print the same merged, i.e. aggregated by function/line). */
#ifndef RP_REPORT_H
#define RP_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "common/profile.h"
#include "core/vocab.h"

/* One hotspot: exclusive time of a source line (or a function: line 0 and
 * file of its first line seen) in one metric column. */
typedef struct rp_hot {
    uint32_t func, file, line;   /* string ids */
    int64_t  ns;
    uint32_t kind;   /* FRAMES_* (frames.h): CODE as is; PROFILER: func is the
                        outermost rpprof frame (show frames_display); NOSYM:
                        func is the module's string id, every address of the
                        module summed in one row */
} rp_hot;

/* The name a hotspot row shows (frames_display for grouped rows). */
void report_hot_name(const rp_profile *p, const rp_hot *h, char *out, size_t n);

/* Sorted largest first (ties by name), zero entries dropped.  *out is
 * malloc'd; returns the count or -1 on ENOMEM. */
int32_t report_hot_lines(const rp_profile *p, uint32_t col, rp_hot **out);
int32_t report_hot_funcs(const rp_profile *p, uint32_t col, rp_hot **out);
/* Time of column col under "<unknown>": out[RP_UNK_FRAME] in all, out[c]
 * for cause c (core/vocab.h). */
/* Value of the counter called name (summed over ranks), 0 when absent. */
uint64_t report_counter(const rp_profile *p, const char *name);
void report_unknown(const rp_profile *p, uint32_t col, int64_t out[RP_UNK_N]);
int64_t report_total(const rp_profile *p, uint32_t col);

/* View nodes: a profiler frame's whole subtree is folded into it (shown as
 * the MPI call it wraps); the addresses of a module without symbols under
 * one parent are one node. */
typedef struct rp_vnode {
    uint32_t parent;       /* UINT32_MAX for the root */
    uint32_t sym;          /* a representative symbol (display is identical) */
    uint32_t first_child, next_sibling;   /* UINT32_MAX = none */
    uint32_t depth;
} rp_vnode;

typedef struct rp_view {
    uint32_t  n, nm;
    rp_vnode *nodes;
    int64_t  *excl;        /* n * nm */
    int64_t  *incl;        /* n * nm, inclusive of descendants */
} rp_view;

int  report_view(const rp_profile *p, rp_view *v);
void report_view_free(rp_view *v);
/* Children of node in order of decreasing incl[col] (ties: view id). */
uint32_t report_children(const rp_view *v, uint32_t node, uint32_t col, uint32_t *out,
                         uint32_t max);

/* Percentile of report slot j of k: 100*(k-1-j)/(k-1); 100 for k = 1. */
double report_percentile(uint32_t j, uint32_t k);
/* What level j of the path table is: the longest and shortest paths are
 * exact; the middle ones estimate evenly spaced percentiles of all paths
 * (repr selection; their error is measured by rp-report --check on a
 * trace-mode run and in doc/accuracy.md) or, under RP_SELECT=topk, are the
 * j-th longest / shortest kept paths - not percentiles.  buf: scratch. */
const char *report_level_label(const rp_profile *p, uint32_t j, char *buf, size_t n);
/* Level j's error measured by the accuracy benchmark for this selection
 * rule and k (doc/accuracy.md): the largest per-program median and the
 * worst phase, of the cost error (% of a phase's longest - shortest) and
 * of the rank error (percentile points between the level and where the
 * path sits among all paths).  1, or 0 if not measured (the exact ends,
 * topk, other k). */
typedef struct rp_level_error {
    double median, worst;             /* cost error, % of the range */
    double rank_median, rank_worst;   /* rank error, percentile points */
} rp_level_error;
int report_level_error(const rp_profile *p, uint32_t j, rp_level_error *e);
/* Did the run's phase-end exchange keep a number of paths (RP_PHASE_K, as
 * the rank files record it) whose error was never measured: wider than k
 * (only the weighted rule widens), but not the default width? */
int report_phase_k_unmeasured(const rp_profile *p);

typedef struct rp_report_opts {
    uint32_t top;          /* entries per hotspot list */
    uint32_t path;         /* slot the text tree / folded output follows */
    int      path_col;     /* explicit column for folded (-1: use path) */
    double   threshold;    /* % of the critical path below which contexts are pruned */
    /* path and trace modes: the online path costs per report slot, summed
     * over phases, from the rank files' path summaries (tools/common/paths.c);
     * NULL: use the phase statistics */
    const int64_t *path_cost_ns;
    uint64_t       path_phases;
    /* per-rank rows (ranks.h) when the rank files were read; NULL
     * for a merged profile alone */
    const struct rp_rankrow *ranks;
    uint32_t       nranks_rows;
    /* path and trace modes: the rank files' full paths (paths.h), for the
     * per-phase view; NULL otherwise */
    const struct rp_run *run;
    /* the code behind each POP factor's loss (poploss.h), when the rank
     * files could be merged by subsets; NULL otherwise */
    const struct rp_poploss *poploss;
} rp_report_opts;


#endif
