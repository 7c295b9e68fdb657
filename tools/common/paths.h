/* paths.h - full paths (RP_MODE=path) and the trace baseline (RP_MODE=trace)
 * read back from the rank files of a measurement directory:
 *
 *  - path mode: reassemble the k selected paths of every phase from the
 *    path summaries (intervals rank:[low, high] of task-buffer indices) and
 *    the tasks each rank committed;
 *  - trace mode: build the program activity graph (tasks, messages,
 *    collectives) and compute, per phase, the longest and the shortest path
 *    offline in one topological pass, plus the longest path itself.
 *
 * Both give a path as a sequence of steps (one task each), which the
 * critpath, dot and text views print. */
#ifndef RP_PATHS_H
#define RP_PATHS_H

#include <stdint.h>
#include <stdio.h>
#include "core/pathset.h"   /* RP_PATH_OVERFLOW */
#include "format/rpfile.h"

/* How a step's task was reached from the previous step. */
enum {
    RP_VIA_START = 0,  /* first step of a phase */
    RP_VIA_SEQ = 1,    /* next task on the same rank */
    RP_VIA_MSG = 2,    /* a message from the previous step's rank (bytes) */
    RP_VIA_COLL = 3,   /* a collective joined the two ranks */
    RP_VIA_GAP = 4,    /* unknown: data missing between the two */
    RP_VIA_JOIN = 5    /* joined at the step's first event, by a collective or a
                          message the file does not name (paths.c set_via) */
};

typedef struct rp_step {
    uint32_t       rank;
    uint64_t       event;     /* the event that ends the task */
    const rp_task *task;      /* NULL if the rank file lacks it */
    uint32_t       via;       /* RP_VIA_* */
    uint32_t       bytes;     /* RP_VIA_MSG: payload bytes */
} rp_step;

/* A growing sequence of steps (paths.c, graph.c build paths with it). */
typedef struct stepvec {
    rp_step *v;
    size_t   n, cap;
} stepvec;
/* Append st; 0, or -1 on ENOMEM (s unchanged). */
int push_step(stepvec *s, rp_step st);

typedef struct rp_fullpath {
    uint64_t phase;
    uint32_t path;            /* index in the phase's selection, 0 = most critical */
    uint32_t flags;           /* RP_PATH_OVERFLOW ... */
    int64_t  cost_ns;         /* as the online algorithm computed it */
    int64_t  task_ns;         /* sum of the steps' task costs */
    uint32_t n_missing;       /* interval members not found in the rank files */
    /* RP_PATH_OVERFLOW: the steps are the prefix the summary holds; the
     * online cost of that prefix (-1: unknown, a file without PCOV) and the
     * tail that could not be rebuilt, cost_ns - covered_ns (doc/paths.md). */
    int64_t  covered_ns;
    int64_t  tail_ns;
    size_t   n;
    rp_step *steps;
} rp_fullpath;

typedef struct rp_run {
    const char  *prog;        /* message prefix */
    uint32_t     nranks, k, mode;
    uint32_t     n_present;
    uint8_t     *present;     /* [nranks] */
    rp_rankdata *rd;          /* [nranks]; zeroed where absent */
    const rp_rankdata *first; /* whose path summaries are used: the lowest
                                 present rank with the most intervals */
    uint64_t     nphases;     /* from the path summaries */
    uint32_t    *ps_first;    /* [nphases + 1]: pathsums of phase q are
                                 first->pathsums[ps_first[q] .. ps_first[q+1]) */
    int64_t      wall_ns;     /* max over ranks */
    int          failed;      /* run_add ran out of memory */
} rp_run;

/* Read every rank file of DIR (all must agree on nranks, k, mode).  Missing
 * or unreadable ranks are reported on stderr and left out.  0, or -1 with a
 * message printed. */
int  run_load(const char *dir, const char *prog, rp_run *run);
void run_free(rp_run *run);

/* run_load in steps, for a caller that reads each rank file once for
 * several uses (report/rankscan.h): begin, then for every listed file in
 * list order run_add (or run_bad if it could not be read), then finish
 * with the number of files listed. */
void run_begin(rp_run *run, const char *prog);
/* A file that could not be read, named with its reason. */
void run_bad(const rp_run *run, const char *path, const char *why);
/* d, read from path whose name says rank: kept (the run owns it; *d is
 * zeroed) or named with its reason and freed.  0, or -1 on ENOMEM. */
int  run_add(rp_run *run, const char *path, uint32_t rank, rp_rankdata *d);
/* Checks what was added (as run_load); 0, or -1 with a message printed
 * (the run then freed). */
int  run_finish(rp_run *run, const char *dir, uint32_t nfiles);

/* Number of paths held in phase q and the cost of path j (-1 if absent). */
uint32_t run_npaths(const rp_run *run, uint64_t q);
const rp_pathsum *run_pathsum(const rp_run *run, uint64_t q, uint32_t j);

/* Which held path of phase q report level j shows: by weighted quantile
 * under RP_SELECT=repr, else the nearest position (core/select.h). */
uint32_t run_level_path(const rp_run *run, uint64_t q, uint32_t j);

/* Per report slot j of k (percentile 100*(k-1-j)/(k-1)): the online cost
 * summed over phases, taking in each phase the held path nearest to the
 * slot's percentile (run_level_path, as the runtime's phase statistics do). */
void run_slot_costs(const rp_run *run, int64_t *sum_ns /* [k] */);

/* Path mode: reassemble path j of phase q.  0, or -1 (ENOMEM / no such path). */
int  run_fullpath(const rp_run *run, uint64_t q, uint32_t j, rp_fullpath *out);
void fullpath_free(rp_fullpath *p);

/* Name of an MPI function id of rank r ("MPI_?" if unknown). */
const char *run_fn_name(const rp_run *run, uint32_t r, uint32_t fn);
/* 1 if the vertex of this MPI function is shared by all ranks in the
 * assignment's graph: rank -1.  MPI_Init, MPI_Finalize and every collective
 * of the signature table (blocking, non-blocking, neighbourhood,
 * MPI_Win_fence). */
int  run_fn_global(const char *name);


#endif
