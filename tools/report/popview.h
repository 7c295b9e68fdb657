/* popview.h - the POP factor table of the text and JSON reports: where its
 * inputs come from (the per-rank rows, the critical path's cost) and how it
 * prints.  The arithmetic is pop.c's. */
#ifndef RP_REPORT_POPVIEW_H
#define RP_REPORT_POPVIEW_H

#include <stdio.h>
#include "report/model.h"
#include "report/pop.h"

/* What went into the factors. */
typedef struct rp_popin {
    rp_pop pop;
    int    ok;        /* 0: no per-rank rows (a merged profile alone) or no computation */
    int    exact;     /* 1: every rank's computation is its exact task time
                         (counter task_time_ns); 0: sampled (older files) */
    uint32_t missing; /* ranks expected but without a row: the factors cover the others */
    int    partial;   /* a rank file was written before MPI_Finalize: the open
                         phase is missing from the critical path's cost */
} rp_popin;

/* From o->ranks (computation = task time, runtime = the largest wall time)
 * and the critical path's cost (o->path_cost_ns[0] when given, else the
 * phase statistics' 100 % sum). */
void popview_inputs(const rp_profile *p, const rp_report_opts *o, rp_popin *in);

/* The text table (the report's first); nothing but a one-line note when
 * the factors cannot be computed. */
void popview_text(FILE *f, const rp_profile *p, const rp_report_opts *o);

/* --what-if network / --what-if balance: the runtime predicted with a
 * perfect network (the critical path's cost) and with perfect load balance
 * (pop_whatif), with their inputs.  0; 1 when the factors cannot be
 * computed (said on f). */
int popview_whatif_text(FILE *f, const rp_profile *p, const rp_report_opts *o, int network,
                        int balance);

/* The value of the JSON key "pop" (an object, or null), fields in
 * doc/report.md.  jstr writes a JSON string. */
void popview_json(FILE *f, const rp_profile *p, const rp_report_opts *o,
                  void (*jstr)(FILE *, const char *));

#endif
