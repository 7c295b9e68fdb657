/* pop.h - the POP parallel-efficiency factors (doc/report.md, "POP
 * factors") from per-rank computation, the run's wall time and the
 * critical path's cost.  Pure: no files, no printing. */
#ifndef RP_REPORT_POP_H
#define RP_REPORT_POP_H

#include <stdint.h>

/* With comp_r the computation (task time) of rank r, runtime the job's wall
 * time and ideal the critical path's cost (the 100 % path, summed over
 * phases: the runtime on an infinitely fast network):
 *   LB    = mean(comp) / max(comp)      load balance
 *   CommE = max(comp) / runtime         communication efficiency = SerE x TE
 *   SerE  = max(comp) / ideal           serialisation efficiency
 *   TE    = ideal / runtime             transfer efficiency
 *   PE    = LB x CommE                  parallel efficiency
 * The same definitions as OTF-CPT's (critical-core.cpp). */
typedef struct rp_pop {
    uint32_t nranks;        /* ranks whose computation went in */
    uint32_t busiest;       /* rank number of the largest computation */
    int64_t  mean_comp_ns;  /* mean over ranks (rounded to ns) */
    int64_t  max_comp_ns;
    int64_t  runtime_ns;
    int64_t  ideal_ns;      /* 0: unknown (no phase completed) */
    double   pe, lb, comme; /* computable when max_comp_ns and runtime_ns > 0 */
    double   sere, te;      /* -1 when ideal_ns is 0 */
} rp_pop;

/* comp_ns[i] is the computation of rank rank[i] (rank may be NULL: i).
 * 0 with out filled; -1 when nothing can be computed (n = 0, no
 * computation or no runtime), out then zeroed. */
int pop_compute(const int64_t *comp_ns, const uint32_t *rank, uint32_t n, int64_t runtime_ns,
                int64_t ideal_ns, rp_pop *out);

/* Seconds each factor loses, as the time its ratio leaves out:
 * lb: max - mean computation; comme: runtime - max computation; sere:
 * ideal - max computation; te: runtime - ideal (so comme = sere + te).
 * Negative values are kept (a SerE above 1 means the critical path is
 * shorter than the busiest rank's computation: the two were measured
 * differently, e.g. a partial file). */
typedef struct rp_pop_loss {
    int64_t lb_ns, comme_ns, sere_ns, te_ns;
} rp_pop_loss;
void pop_losses(const rp_pop *p, rp_pop_loss *out);

/* Predicted runtimes (estimates, doc/report.md):
 * network: a perfect network (messages and waiting for them free, TE = 1):
 *   the critical path's cost; 0 when unknown;
 * balance: perfect load balance (every rank computes the mean), the time
 *   not spent computing unchanged: runtime - (max - mean computation). */
typedef struct rp_pop_whatif {
    int64_t network_ns, balance_ns;
} rp_pop_whatif;
void pop_whatif(const rp_pop *p, rp_pop_whatif *out);

#endif
