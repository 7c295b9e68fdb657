/* popview.c - the POP factor table (popview.h). */
#include "report/popview.h"
#include "report/ranks.h"
#include "report/poploss.h"
#include "report/popphase.h"

#include <math.h>
#include <stdlib.h>

static double secs(int64_t ns) { return (double)ns / 1e9; }

void popview_inputs(const rp_profile *p, const rp_report_opts *o, rp_popin *in)
{
    *in = (rp_popin){0};
    if (!o->ranks || o->nranks_rows == 0)
        return;
    uint32_t n = o->nranks_rows;
    int64_t *comp = malloc(n * sizeof *comp);
    uint32_t *rank = malloc(n * sizeof *rank);
    if (!comp || !rank) {
        free(comp);
        free(rank);
        return;
    }
    int64_t runtime = 0;
    in->exact = 1;
    for (uint32_t i = 0; i < n; i++) {
        comp[i] = o->ranks[i].task_ns;
        rank[i] = o->ranks[i].rank;
        in->exact &= o->ranks[i].exact;
        if (o->ranks[i].wall_ns > runtime)
            runtime = o->ranks[i].wall_ns;
    }
    /* the job's runtime: its longest rank, as OTF-CPT's (max over ranks of
     * the time from MPI_Init to MPI_Finalize) */
    int64_t ideal = o->path_cost_ns ? o->path_cost_ns[0]
                    : p->stats.k > 0 && p->stats.nphases > 0 ? p->stats.sum_ns[0] : 0;
    in->ok = pop_compute(comp, rank, n, runtime, ideal, &in->pop) == 0;
    in->missing = p->nranks > n ? p->nranks - n : 0;
    in->partial = report_counter(p, "tail_lost") > 0;
    free(comp);
    free(rank);
}

static void row(FILE *f, const char *name, double v, const char *how, int64_t loss_ns, int loss)
{
    if (v < 0)
        fprintf(f, "  %-30s %7s  %-50s\n", name, "-", "no phase completed: no critical path");
    else if (loss)
        fprintf(f, "  %-30s %7.3f  %-50s %9.3f\n", name, v, how, secs(loss_ns));
    else
        fprintf(f, "  %-30s %7.3f  %s\n", name, v, how);
}

static double pct(int64_t a, int64_t b) { return b > 0 ? 100.0 * (double)a / (double)b : 0.0; }

/* one list; share of `of` (the factor's loss, or the total it is part of) */
static void loss_list(FILE *f, const rp_lossrow *r, uint32_t n, int64_t of, const char *acol,
                      const char *bcol)
{
    if (n == 0) {
        fputs("      (no line; too few samples, or nothing to explain)\n", f);
        return;
    }
    if (bcol)
        fprintf(f, "      %9s %7s %10s %7s %10s %7s  %s\n", "diff [s]", "share", acol, "samples",
                bcol, "samples", "line   (~: difference within sampling noise, 2 sigma)");
    else
        fprintf(f, "      %9s %7s %7s  %s\n", "[s]", "share", "samples", "MPI call at call site");
    for (uint32_t i = 0; i < n; i++) {
        if (bcol)
            fprintf(f, "      %9.3f %6.1f%% %10.3f %7.0f %10.3f %7.0f %c%s\n", secs(r[i].diff_ns),
                    pct(r[i].diff_ns, of), secs(r[i].a_ns), r[i].a_samples, secs(r[i].b_ns),
                    r[i].b_samples, r[i].noise ? '~' : ' ', r[i].name);
        else
            fprintf(f, "      %9.3f %6.1f%% %7.0f  %s\n", secs(r[i].a_ns), pct(r[i].a_ns, of),
                    r[i].a_samples, r[i].name);
    }
}

static void loss_text(FILE *f, const rp_poploss *L, const rp_pop *q, const rp_pop_loss *l)
{
    char a[32];
    snprintf(a, sizeof a, "rank %u", q->busiest);
    fprintf(f, "  The code behind each loss (sampled time by source line; share: of the factor's "
               "loss [s]):\n    Load balance: lines the busiest rank (%u) computes longer than "
               "the mean rank\n", q->busiest);
    loss_list(f, L->lb, L->n_lb, l->lb_ns, a, "mean rank");
    fprintf(f, "    Serialisation: lines that make the critical path longer than rank %u's "
               "computation\n", q->busiest);
    loss_list(f, L->ser, L->n_ser, l->sere_ns, "crit. path", a);
    fprintf(f, "    Transfer: MPI time by call site on the %u rank%s the critical path runs "
               "through\n      (share: of their sampled MPI time, %.3f s)\n", L->te_ranks,
            L->te_ranks == 1 ? "" : "s", secs(L->te_mpi_ns));
    loss_list(f, L->te, L->n_te, L->te_mpi_ns, NULL, NULL);
}

void popview_text(FILE *f, const rp_profile *p, const rp_report_opts *o)
{
    rp_popin in;
    popview_inputs(p, o, &in);
    if (!in.ok) {
        fputs("\nPOP efficiency factors: not computed (they need the rank files' per-rank "
              "task time;\n  give rp-report the measurement directory)\n", f);
        return;
    }
    const rp_pop *q = &in.pop;
    rp_pop_loss l;
    pop_losses(q, &l);
    fprintf(f, "\nPOP efficiency factors (whole run; computation = %s task time of %u rank%s; "
               "runtime and critical path exact)\n", in.exact ? "exact" : "SAMPLED", q->nranks,
            q->nranks == 1 ? "" : "s");
    fprintf(f, "  %-30s %7s  %-50s %9s\n", "factor", "value", "= ratio", "loss [s]");
    char how[128];
    row(f, "Parallel efficiency", q->pe, "load balance x communication efficiency", 0, 0);
    snprintf(how, sizeof how, "mean comp %.3f s / max comp %.3f s (rank %u)",
             secs(q->mean_comp_ns), secs(q->max_comp_ns), q->busiest);
    row(f, "  Load balance", q->lb, how, l.lb_ns, 1);
    snprintf(how, sizeof how, "max comp %.3f s / runtime %.3f s", secs(q->max_comp_ns),
             secs(q->runtime_ns));
    row(f, "  Communication efficiency", q->comme, how, l.comme_ns, 1);
    snprintf(how, sizeof how, "max comp / critical path %.3f s", secs(q->ideal_ns));
    row(f, "    Serialisation efficiency", q->sere, how, l.sere_ns, 1);
    snprintf(how, sizeof how, "critical path / runtime");
    row(f, "    Transfer efficiency", q->te, how, l.te_ns, 1);
    rp_pop_whatif wi;
    pop_whatif(q, &wi);
    double rt = (double)q->runtime_ns;
    if (q->ideal_ns)
        fprintf(f, "  what if (estimates): a perfect network (TE = 1): runtime %.3f s (%+.1f%%);",
                secs(wi.network_ns), 100.0 * (double)(wi.network_ns - q->runtime_ns) / rt);
    else
        fputs("  what if (estimates): a perfect network: unknown (no critical path);", f);
    fprintf(f, " perfect load\n  balance (every rank computes the mean, the rest unchanged): "
               "runtime %.3f s (%+.1f%%)\n", secs(wi.balance_ns),
            100.0 * (double)(wi.balance_ns - q->runtime_ns) / rt);
    fputs("  comp: a rank's task time (outside MPI and rpprof, MPI_Init return .. MPI_Finalize "
          "entry);\n  runtime: the longest rank's wall time; critical path: the 100 % path's "
          "cost summed over\n  phases, the runtime if messages and waiting took no time\n", f);
    if (o->poploss)
        loss_text(f, o->poploss, q, &l);
    rp_popphase *ph;
    uint64_t nph;
    int pr = o->run ? popphase_compute(o->run, &ph, &nph) : RP_POPPHASE_NONE;
    if (pr == RP_POPPHASE_OK) {
        popphase_text(f, ph, nph, o->top < 10 ? o->top : 10, o->run->mode);
        free(ph);
    } else if (pr == RP_POPPHASE_UNRECORDED) {
        fputs("  Per phase: not available for this run (a rank file holds no computation per "
              "phase, PCMP:\n  written by an older rpprof, or dropped when memory ran out, "
              "counter allocation_failures)\n", f);
    }
    if (!in.exact)
        fputs("  note: these rank files have no exact task time (task_time_ns): computation is "
              "sampled,\n  so the factors are estimates\n", f);
    if (in.missing)
        fprintf(f, "  note: %u rank%s missing: load balance covers the ranks present only\n",
                in.missing, in.missing == 1 ? "" : "s");
    /* every rank's task chain is a path: SerE > 1 cannot happen when measured alike */
    if (q->sere > 1.001)
        fputs("  note: the critical path is shorter than the busiest rank's computation (SerE > "
              "1): the two\n  were not measured alike (rank files of different runs or "
              "writers)\n", f);
    if (in.partial)
        fputs("  note: a partial profile: the open phase is not in the critical path's cost, so "
              "serialisation\n  efficiency reads high and transfer efficiency low\n", f);
}

int popview_whatif_text(FILE *f, const rp_profile *p, const rp_report_opts *o, int network,
                        int balance)
{
    rp_popin in;
    popview_inputs(p, o, &in);
    if (!in.ok) {
        fputs("What if: the POP predictions need the rank files' per-rank task time (give "
              "rp-report the\n  measurement directory)\n", f);
        return 1;
    }
    const rp_pop *q = &in.pop;
    rp_pop_whatif wi;
    pop_whatif(q, &wi);
    double rt = (double)q->runtime_ns;
    fprintf(f, "What if (POP factors; estimates): runtime now %.3f s (the longest rank's wall "
               "time, exact)\n", secs(q->runtime_ns));
    if (network && q->ideal_ns)
        fprintf(f, "  a perfect network: %.3f s (%+.1f%%): the critical path's cost (exact), "
                   "messages and waiting\n  for them free (transfer efficiency %.3f -> 1)\n",
                secs(wi.network_ns), 100.0 * (double)(wi.network_ns - q->runtime_ns) / rt, q->te);
    else if (network)
        fputs("  a perfect network: unknown (no phase completed: no critical path)\n", f);
    if (balance)
        fprintf(f, "  perfect load balance: %.3f s (%+.1f%%): every rank computes the mean "
                   "%.3f s instead of\n  rank %u's %.3f s (%s), the time not spent computing "
                   "unchanged (load balance %.3f -> 1)\n",
                secs(wi.balance_ns), 100.0 * (double)(wi.balance_ns - q->runtime_ns) / rt,
                secs(q->mean_comp_ns), q->busiest, secs(q->max_comp_ns),
                in.exact ? "exact" : "sampled", q->lb);
    return 0;
}

static void jnum(FILE *f, double v)
{
    if (isfinite(v) && v >= 0)
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

void popview_json(FILE *f, const rp_profile *p, const rp_report_opts *o,
                  void (*jstr)(FILE *, const char *))
{
    rp_popin in;
    popview_inputs(p, o, &in);
    if (!in.ok) {
        fputs("null", f);
        return;
    }
    const rp_pop *q = &in.pop;
    rp_pop_loss l;
    pop_losses(q, &l);
    static const char *const name[] = {"parallel_efficiency", "load_balance",
                                       "communication_efficiency", "serialisation_efficiency",
                                       "transfer_efficiency"};
    const double v[] = {q->pe, q->lb, q->comme, q->sere, q->te};
    fputc('{', f);
    for (uint32_t i = 0; i < 5; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "", name[i]);
        jnum(f, v[i]);
    }
    fputs(", \"computation\": ", f);
    jstr(f, in.exact ? "exact" : "sampled");
    fprintf(f, ", \"ranks\": %u, \"ranks_missing\": %u, \"busiest_rank\": %u", q->nranks,
            in.missing, q->busiest);
    fputs(", \"mean_computation_seconds\": ", f);
    jnum(f, secs(q->mean_comp_ns));
    fputs(", \"max_computation_seconds\": ", f);
    jnum(f, secs(q->max_comp_ns));
    fputs(", \"runtime_seconds\": ", f);
    jnum(f, secs(q->runtime_ns));
    fputs(", \"critical_path_seconds\": ", f);
    jnum(f, q->ideal_ns ? secs(q->ideal_ns) : -1);
    fputs(", \"loss_seconds\": {\"load_balance\": ", f);
    fprintf(f, "%.9g", secs(l.lb_ns));
    fprintf(f, ", \"communication_efficiency\": %.9g", secs(l.comme_ns));
    fputs(", \"serialisation_efficiency\": ", f);
    if (q->ideal_ns)
        fprintf(f, "%.9g, \"transfer_efficiency\": %.9g}", secs(l.sere_ns), secs(l.te_ns));
    else
        fputs("null, \"transfer_efficiency\": null}", f);
    rp_pop_whatif wi;
    pop_whatif(q, &wi);
    fputs(", \"what_if\": {\"perfect_network_runtime_seconds\": ", f);
    jnum(f, q->ideal_ns ? secs(wi.network_ns) : -1);
    fputs(", \"perfect_balance_runtime_seconds\": ", f);
    jnum(f, secs(wi.balance_ns));
    fputc('}', f);
    fprintf(f, ", \"partial\": %s", in.partial ? "true" : "false");
    rp_popphase *ph;
    uint64_t nph;
    fputs(", \"per_phase\": ", f);
    if (o->run && popphase_compute(o->run, &ph, &nph) == 0) {
        popphase_json(f, ph, nph, o->top);
        free(ph);
    } else {
        fputs("null", f);
    }
    fputs(", \"loss_code\": ", f);
    if (o->poploss) {
        const rp_poploss *L = o->poploss;
        const rp_lossrow *v[3] = {L->lb, L->ser, L->te};
        const uint32_t c[3] = {L->n_lb, L->n_ser, L->n_te};
        static const char *const key[3] = {"load_balance", "serialisation_efficiency",
                                           "transfer_efficiency"};
        fprintf(f, "{\"busiest_rank\": %u, \"critical_path_ranks\": %u, "
                   "\"critical_path_ranks_mpi_seconds\": %.9g", L->busiest, L->te_ranks,
                secs(L->te_mpi_ns));
        for (int k = 0; k < 3; k++) {
            fprintf(f, ", \"%s\": [", key[k]);
            for (uint32_t i = 0; i < c[k]; i++) {
                fputs(i ? ", {\"name\": " : "{\"name\": ", f);
                jstr(f, v[k][i].name);
                fprintf(f, ", \"seconds\": %.9g, \"samples\": %.0f", secs(v[k][i].diff_ns),
                        v[k][i].a_samples);
                if (k < 2)
                    fprintf(f, ", \"a_seconds\": %.9g, \"b_seconds\": %.9g, "
                               "\"b_samples\": %.0f, \"within_noise\": %s",
                            secs(v[k][i].a_ns), secs(v[k][i].b_ns), v[k][i].b_samples,
                            v[k][i].noise ? "true" : "false");
                fputc('}', f);
            }
            fputc(']', f);
        }
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputc('}', f);
}
