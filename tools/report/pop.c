/* pop.c - the POP factors (pop.h). */
#include "report/pop.h"

#include <string.h>

int pop_compute(const int64_t *comp_ns, const uint32_t *rank, uint32_t n, int64_t runtime_ns,
                int64_t ideal_ns, rp_pop *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0 || runtime_ns <= 0)
        return -1;
    /* a long double sum: a million ranks of hours each stay exact to the ns */
    long double sum = 0;
    uint32_t best = 0;
    for (uint32_t i = 0; i < n; i++) {
        sum += comp_ns[i];
        /* ties go to the lowest rank number: the same rank every time */
        if (comp_ns[i] > comp_ns[best] ||
            (comp_ns[i] == comp_ns[best] && rank && rank[i] < rank[best]))
            best = i;
    }
    if (comp_ns[best] <= 0)
        return -1;
    out->nranks = n;
    out->busiest = rank ? rank[best] : best;
    out->mean_comp_ns = (int64_t)(sum / n + 0.5L);
    out->max_comp_ns = comp_ns[best];
    out->runtime_ns = runtime_ns;
    out->ideal_ns = ideal_ns > 0 ? ideal_ns : 0;
    double mx = (double)comp_ns[best], rt = (double)runtime_ns;
    out->lb = (double)(sum / n) / mx;
    out->comme = mx / rt;
    out->pe = out->lb * out->comme;
    if (ideal_ns > 0) {
        out->sere = mx / (double)ideal_ns;
        out->te = (double)ideal_ns / rt;
    } else {
        out->sere = out->te = -1;
    }
    return 0;
}

void pop_losses(const rp_pop *p, rp_pop_loss *out)
{
    out->lb_ns = p->max_comp_ns - p->mean_comp_ns;
    out->comme_ns = p->runtime_ns - p->max_comp_ns;
    out->sere_ns = p->ideal_ns ? p->ideal_ns - p->max_comp_ns : 0;
    out->te_ns = p->ideal_ns ? p->runtime_ns - p->ideal_ns : 0;
}

void pop_whatif(const rp_pop *p, rp_pop_whatif *out)
{
    out->network_ns = p->ideal_ns;
    out->balance_ns = p->runtime_ns - (p->max_comp_ns - p->mean_comp_ns);
}
