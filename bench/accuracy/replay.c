/* replay.c - a selection rule measured on a trace without running the
 * program again (issue 14; doc/accuracy.md, "The phase-end exchange").
 *
 *   replay DIR [K [PHASE_K [repr|paper|topk]]]
 *
 * DIR is a trace-mode run (RP_MODE=trace).  The online selection with K
 * paths (default: the run's k), phase-end sets of PHASE_K paths (default
 * 4 (K - 1) + 1, as the runtime's RP_PHASE_K; K for none wider) and the
 * rule (default repr) is replayed over the run's task graph
 * (tools/common/replay.c), and every middle level of every complete phase is
 * placed in the exact distribution of all its paths (tools/common/oracle.c), as
 * `rp-report --check` places the run's own paths.  Prints one line a
 * phase and level,
 *   phase level pct replay_ns exact_ns cost_err_pct rank_err_pts log2_paths
 * (cost error signed, % of the phase's longest - shortest; rank error in
 * percentile points), then per level the median and worst |cost error| and
 * the median rank error, on lines starting with '#'.
 * bench/accuracy/replay_pool.py pools such outputs over runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/graph.h"
#include "common/oracle.h"
#include "common/pctcmp.h"
#include "common/paths.h"
#include "common/replay.h"
#include "core/config.h"
#include "core/select.h"

static int usage(void)
{
    fprintf(stderr, "usage: replay DIR [K [PHASE_K [repr|paper|topk]]]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 5)
        return usage();
    rp_run run;
    if (run_load(argv[1], "replay", &run) != 0)
        return 1;
    uint32_t k = run.k, pk;
    if (argc > 2 && (config_parse_u32(argv[2], 1, RP_PATHSET_MAX_K, &k) != 0))
        return usage();
    pk = config_phase_k_default(k);
    if (argc > 3 && config_parse_u32(argv[3], 1, RP_PATHSET_MAX_K, &pk) != 0)
        return usage();
    rp_select_mode sel = RP_SELECT_REPR;
    if (argc > 4) {
        if (!strcmp(argv[4], "paper"))
            sel = RP_SELECT_PAPER;
        else if (!strcmp(argv[4], "topk"))
            sel = RP_SELECT_TOPK;
        else if (strcmp(argv[4], "repr"))
            return usage();
    }
    rp_graph g;
    if (graph_build(&run, &g) != 0) {
        perror("replay");
        return 1;
    }
    if (g.stuck) {
        fprintf(stderr, "replay: %s: %s\n", argv[1], g.why);
        return 1;
    }
    uint64_t nq = g.nphases;
    int64_t *c = malloc((nq ? nq : 1) * k * sizeof *c);
    double *probe = malloc((nq ? nq : 1) * k * sizeof *probe);
    char why[256] = "";
    rp_pctcmp t;
    memset(&t, 0, sizeof t);
    if (!c || !probe) {
        perror("replay");
        return 1;
    }
    int rc = replay_levels(&g, k, pk, sel, c, why, sizeof why);
    for (uint64_t i = 0; rc == 0 && i < nq * k; i++)
        probe[i] = c[i] < 0 ? NAN : (double)c[i];
    if (rc == 0) {   /* measured as rp-report --check measures the run's own */
        rc = pctcmp_run(&g, k, 0, probe, &t);
        if (rc == 0 && !t.run) {
            snprintf(why, sizeof why, "%s", t.why);
            rc = 1;
        }
    }
    if (rc != 0) {
        fprintf(stderr, "replay: %s: %s\n", argv[1], rc < 0 ? "out of memory" : why);
        return 1;
    }
    printf("# %s: k %u, phase-end sets of %u paths, RP_SELECT=%s\n", argv[1], k, pk > k ? pk : k,
           sel == RP_SELECT_REPR ? "repr" : sel == RP_SELECT_PAPER ? "paper" : "topk");
    printf("# phase level pct replay_ns exact_ns cost_err_pct rank_err_pts log2_paths\n");
    for (uint32_t j = 1; j + 1 < k; j++) {
        for (uint64_t i = 0; i < t.n; i++) {
            const rp_pctphase *p = &t.ph[t.qs[i]];
            printf("%llu %u %.1f %.0f %.0f %.4f %.4f %.1f\n", (unsigned long long)t.qs[i], j,
                   select_percentile(j, k), t.online[i * k + j], p->exact_ns[j],
                   pctcmp_cost_err(&t, i, j), pctcmp_rank_err(&t, i, j), p->log2_paths);
        }
        printf("# level %.1f %%: %llu phases, cost error median %.2f %% worst %.2f %%, rank error "
               "median %.2f points\n", select_percentile(j, k), (unsigned long long)t.n,
               t.med[j], t.worst[j], t.rmed[j]);
    }
    pctcmp_free(&t);
    free(c);
    free(probe);
    graph_free(&g);
    run_free(&run);
    return 0;
}
