/* graph.h - the trace-mode program activity graph (RP_MODE=trace): tasks,
 * messages and collectives from the rank files, evaluated per phase for the
 * longest and the shortest path in one topological pass (graph.c). */
#ifndef RP_GRAPH_H
#define RP_GRAPH_H

#include <stdint.h>
#include <stdio.h>
#include "common/paths.h"

typedef struct rp_tphase {
    int64_t  longest_ns, shortest_ns;
    uint32_t end_rank;        /* where the longest path ends */
    uint64_t end_event;
    int      complete;        /* every rank reached this phase's end */
} rp_tphase;

typedef struct rp_trank rp_trank;   /* per-rank arrays (paths.c) */

typedef struct rp_graph {
    const rp_run *run;
    rp_trank     *r;          /* [nranks] */
    uint64_t      nphases;
    rp_tphase    *ph;         /* [nphases] */
    int           stuck;      /* the pass could not finish (missing data/cycle) */
    char          why[256];   /* what stuck */
} rp_graph;

/* Build and evaluate the graph.  0 (check g->stuck), or -1 on ENOMEM. */
int  graph_build(const rp_run *run, rp_graph *g);
void graph_free(rp_graph *g);
/* The task that ends at event e of rank r (NULL: none, or no such event). */
const rp_task *graph_task(const rp_graph *g, uint32_t r, uint64_t e);
/* The longest path of phase q as steps (trace mode). */
int  graph_critpath(const rp_graph *g, uint64_t q, rp_fullpath *out);
/* Mark the steps of a path for graph_dot; then write the whole graph. */
int  graph_dot(FILE *f, const rp_graph *g, rp_fullpath *crit, uint64_t ncrit);

#endif
