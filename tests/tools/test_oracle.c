/* test_oracle.c - the exact-percentile oracle (tools/common/oracle.c) against
 * brute-force enumeration of every source-to-sink path of small random
 * task graphs: 1-4 ranks, point-to-point messages (any sender, any later
 * event: what wildcards produce), collectives over all ranks inside the
 * phase (blocking, and non-blocking: called at one event, completed at a
 * later one) and the phase-ending one.  Costs are small integers of ns, so the
 * oracle's grid is 1 ns and its answer must be exact: equal, not close; then
 * the same graphs with costs 10^5 times larger (and arbitrary low digits),
 * where the grid is thousands of ns and every percentile must lie within
 * the oracle's stated rounding bound of brute force.
 * The same program checks the ends against the longest/shortest path walk
 * (paths.c) it is built on, and the placement of a cost among all paths
 * (probe_ns: the percentile range its paths occupy, the rank error) against
 * the brute-force positions, and the online selection replayed over the
 * same graphs (tools/common/replay.c, on the same walk): exact ends, and exact
 * levels where k holds every path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/vocab.h"
#include "common/oracle.h"
#include "common/replay.h"
#include "common/graph.h"
#include "common/paths.h"
#include "unit.h"

#define MAXR 4
#define MAXE 9

typedef struct vec {
    int64_t *v;
    size_t   n;
} vec;

static int ncoll_at[MAXE];            /* event index of an inner collective: 1 */
static int nbc_call, nbc_done;        /* a non-blocking all-collective: called at
                                         nbc_call, completed at nbc_done (0: none) */
static uint32_t R, E;
static int64_t cost[MAXR][MAXE];
/* message into (r, e) from (src_r, src_e); src_r = -1: none (one per event) */
static int msrc_r[MAXR][MAXE], msrc_e[MAXR][MAXE];

static void push(vec *a, int64_t x)
{
    a->v = realloc(a->v, (a->n + 1) * sizeof *a->v);
    a->v[a->n++] = x;
}

static vec paths_to(uint32_t r, uint32_t e);

/* Paths ending with the task that ends at (r, e), before its joins. */
static vec pre(uint32_t r, uint32_t e)
{
    vec p = paths_to(r, e - 1), out = {0};
    for (size_t i = 0; i < p.n; i++)
        push(&out, p.v[i] + cost[r][e]);
    free(p.v);
    return out;
}

/* Every path reaching (r, e) after its joins: brute force, no sharing. */
static vec paths_to(uint32_t r, uint32_t e)
{
    vec out = {0};
    if (e == 0) {
        push(&out, 0);
        return out;
    }
    if (ncoll_at[e]) {                 /* all ranks meet: the union of their paths */
        for (uint32_t m = 0; m < R; m++) {
            vec p = pre(m, e);
            for (size_t i = 0; i < p.n; i++)
                push(&out, p.v[i]);
            free(p.v);
        }
        return out;
    }
    vec p = pre(r, e);
    for (size_t i = 0; i < p.n; i++)
        push(&out, p.v[i]);
    free(p.v);
    if (nbc_done && e == (uint32_t)nbc_done)   /* + every member's path at its call */
        for (uint32_t m = 0; m < R; m++) {
            p = pre(m, (uint32_t)nbc_call);
            for (size_t i = 0; i < p.n; i++)
                push(&out, p.v[i]);
            free(p.v);
        }
    if (msrc_r[r][e] >= 0) {
        p = pre((uint32_t)msrc_r[r][e], (uint32_t)msrc_e[r][e]);
        for (size_t i = 0; i < p.n; i++)
            push(&out, p.v[i]);
        free(p.v);
    }
    return out;
}

static int cmp_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* The online selection replayed over the same graph (tools/common/replay.c): its
 * ends are exact at any k, and where the phase has no more paths than k no
 * join drops one, so every level is the exact percentile of brute force
 * (the weights count paths exactly: equal costs add up). */
static void replay_case(int trial, const rp_graph *g)
{
    vec all = paths_to(0, E - 1);
    qsort(all.v, all.n, sizeof *all.v, cmp_desc);
    char why[200];
    int64_t lv[64];
    for (uint32_t k = 1; k <= 9; k += 4) {
        CHECK(replay_levels(g, k, 4 * (k - 1) + 1, RP_SELECT_REPR, lv, why, sizeof why) == 0);
        CHECK(lv[0] == g->ph[0].longest_ns);   /* k = 1 keeps the longest */
        if (k > 1)
            CHECK(lv[k - 1] == g->ph[0].shortest_ns);
        for (uint32_t j = 1; k > 1 && j + 1 < k; j++)
            CHECK(lv[j] <= lv[j - 1]);
    }
    if (all.n <= 64) {
        CHECK(replay_levels(g, 64, 64, RP_SELECT_REPR, lv, why, sizeof why) == 0);
        for (uint32_t j = 0; j < 64; j++) {
            size_t pos = (size_t)nearbyint(oracle_slot_fraction(j, 64) * (double)(all.n - 1));
            if (lv[j] != all.v[pos])
                fprintf(stderr, "trial %d: replay level %u of 64: %lld, brute force %lld (%zu "
                        "paths)\n", trial, j, (long long)lv[j], (long long)all.v[pos], all.n);
            CHECK(lv[j] == all.v[pos]);
        }
    }
    free(all.v);
}

/* scale 1: costs of 1-50 ns, a grid of 1 ns, exact answers.  Else costs
 * of about scale x 1-50 ns with arbitrary low digits: a grid of many ns,
 * and every percentile within the stated rounding bound of brute force. */
static void one_case(int trial, int64_t scale, uint32_t bins)
{
    R = 1 + rnd(MAXR);
    E = 4 + rnd(MAXE - 3);              /* events 0 .. E-1; E-1 ends the phase */
    memset(ncoll_at, 0, sizeof ncoll_at);
    for (uint32_t e = 1; e + 1 < E; e++)
        ncoll_at[e] = rnd(6) == 0;
    ncoll_at[E - 1] = 1;
    nbc_call = nbc_done = 0;
    if (E >= 6 && rnd(2)) {
        uint32_t c1 = 1 + rnd(E - 3), c2 = c1 + 1 + rnd(E - 2 - c1);
        if (c2 + 1 < E && !ncoll_at[c1] && !ncoll_at[c2]) {
            nbc_call = (int)c1;
            nbc_done = (int)c2;
        }
    }
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t e = 0; e < E; e++) {
            cost[r][e] = e ? (1 + rnd(50)) * scale + (scale > 1 ? rnd((uint32_t)scale) : 0) : 0;
            msrc_r[r][e] = -1;
            if (e > 1 && e + 1 < E && !ncoll_at[e] && R > 1 && rnd(2)) {
                uint32_t s = rnd(R), se = 1 + rnd(e - 1);
                if (s != r && !ncoll_at[se]) {
                    msrc_r[r][e] = (int)s;
                    msrc_e[r][e] = (int)se;
                }
            }
        }
    /* the run as the rank files would hold it */
    rp_rankdata rd[MAXR];
    uint8_t present[MAXR];
    memset(rd, 0, sizeof rd);
    for (uint32_t r = 0; r < R; r++) {
        present[r] = 1;
        rp_rankdata *d = &rd[r];
        d->rank = r;
        d->nranks = R;
        d->n_events = E;
        d->tasks = calloc(E, sizeof *d->tasks);
        d->edges = calloc(2 * E, sizeof *d->edges);
        for (uint32_t e = 1; e < E; e++)
            d->tasks[d->n_tasks++] = (rp_task){.phase = 0, .event = e, .cost_ns = cost[r][e]};
        for (uint32_t e = 1; e < E; e++) {
            rp_edge *ed = &d->edges[d->n_edges];
            if (ncoll_at[e]) {
                *ed = (rp_edge){.kind = RP_EDGE_COLL, .event = e, .coll_kind = RP_COLL_ALL,
                                .coll_id = 1000 + e, .size = R, .phase_end = e == E - 1,
                                .part = RP_PART_BOTH};
                d->n_edges++;
            } else if (nbc_call && (e == (uint32_t)nbc_call || e == (uint32_t)nbc_done)) {
                *ed = (rp_edge){.kind = RP_EDGE_COLL, .event = e, .coll_kind = RP_COLL_ALL,
                                .coll_id = 999, .size = R,
                                .part = e == (uint32_t)nbc_call ? RP_PART_CONTRIB : RP_PART_JOIN};
                d->n_edges++;
                if (msrc_r[r][e] >= 0) {   /* a message joined at the same event */
                    ed = &d->edges[d->n_edges++];
                    *ed = (rp_edge){.kind = RP_EDGE_MSG, .event = e,
                                    .peer = (uint32_t)msrc_r[r][e],
                                    .peer_event = (uint64_t)msrc_e[r][e], .bytes = 8};
                }
            } else if (msrc_r[r][e] >= 0) {
                *ed = (rp_edge){.kind = RP_EDGE_MSG, .event = e, .peer = (uint32_t)msrc_r[r][e],
                                .peer_event = (uint64_t)msrc_e[r][e], .bytes = 8};
                d->n_edges++;
            }
        }
    }
    rp_run run = {.prog = "test_oracle", .nranks = R, .k = 5, .mode = RP_MODE_TRACE,
                  .n_present = R, .present = present, .rd = rd};
    rp_graph g;
    CHECK(graph_build(&run, &g) == 0);
    CHECK(!g.stuck && g.nphases == 1);
    rp_pctphase *ph = NULL;
    char why[200];
    for (uint32_t k = 1; k <= 9; k += 2) {
        vec all = paths_to(0, E - 1);
        qsort(all.v, all.n, sizeof *all.v, cmp_desc);
        /* probes: costs of real paths, and costs between or beyond them */
        double probe[9];
        for (uint32_t j = 0; j < k; j++)
            probe[j] = rnd(3) ? (double)all.v[rnd((uint32_t)all.n)]
                              : (double)(all.v[all.n - 1] - 3 + (int64_t)rnd((uint32_t)(
                                    all.v[0] - all.v[all.n - 1] + 7)));
        CHECK(oracle_percentiles(&g, k, bins, probe, &ph, why, sizeof why) == 0);
        CHECK(ph[0].ok);
        if (scale > 1) {
            /* each path's cost moved by at most bound_ns, so each order
             * statistic too; the bound is a few grid steps, not the
             * number of tasks times one (the grid follows the phase's
             * range; a task shifts a histogram exactly) */
            int64_t range = all.v[0] - all.v[all.n - 1];
            double gmax = fmax((double)range / (bins ? bins : RP_ORACLE_BINS_MIN),
                               (double)all.v[0] / (1 << 24));
            CHECK(ph[0].grid_ns >= 1 && ph[0].grid_ns <= gmax + 1);
            CHECK(ph[0].bound_ns <= (double)MAXE * MAXR * ph[0].grid_ns / 2);
            for (uint32_t j = 0; j < k; j++) {
                size_t pos = (size_t)nearbyint(oracle_slot_fraction(j, k) * (double)(all.n - 1));
                if (fabs(ph[0].exact_ns[j] - (double)all.v[pos]) > ph[0].bound_ns + 1e-6)
                    fprintf(stderr, "trial %d (grid %.0f ns) k=%u j=%u: oracle %.0f, brute force "
                            "%lld, bound %.0f\n", trial, ph[0].grid_ns, k, j, ph[0].exact_ns[j],
                            (long long)all.v[pos], ph[0].bound_ns);
                CHECK(fabs(ph[0].exact_ns[j] - (double)all.v[pos]) <= ph[0].bound_ns + 1e-6);
            }
            CHECK(fabs(ph[0].longest_ns - (double)g.ph[0].longest_ns) <= ph[0].bound_ns + 1e-6);
            CHECK(fabs(ph[0].shortest_ns - (double)g.ph[0].shortest_ns) <= ph[0].bound_ns + 1e-6);
            free(all.v);
            free(ph);
            continue;
        }
        CHECK(ph[0].grid_ns == 1 && ph[0].bound_ns == 0);
        CHECK(fabs(ph[0].log2_paths - log2((double)all.n)) < 1e-9);
        CHECK(ph[0].longest_ns == (double)g.ph[0].longest_ns);
        CHECK(ph[0].shortest_ns == (double)g.ph[0].shortest_ns);
        for (uint32_t j = 0; j < k; j++) {
            size_t pos = (size_t)nearbyint(oracle_slot_fraction(j, k) * (double)(all.n - 1));
            if (ph[0].exact_ns[j] != (double)all.v[pos])
                fprintf(stderr, "trial %d R=%u E=%u k=%u j=%u: oracle %.0f, brute force %lld "
                        "(%zu paths)\n", trial, R, E, k, j, ph[0].exact_ns[j],
                        (long long)all.v[pos], all.n);
            CHECK(ph[0].exact_ns[j] == (double)all.v[pos]);
            /* brute force placement: the nearest cost that paths have (ties: the
               higher), then the first and last position of that cost */
            int64_t best = all.v[0];
            for (size_t i = 0; i < all.n; i++) {
                double d = fabs((double)all.v[i] - probe[j]), db = fabs((double)best - probe[j]);
                if (d < db || (d == db && all.v[i] > best))
                    best = all.v[i];
            }
            size_t first = 0, last;
            while (all.v[first] != best)
                first++;
            for (last = first; last + 1 < all.n && all.v[last + 1] == best; last++)
                ;
            double hi = all.n > 1 ? 100.0 * (1.0 - (double)first / (double)(all.n - 1)) : 100;
            double lo = all.n > 1 ? 100.0 * (1.0 - (double)last / (double)(all.n - 1)) : 0;
            CHECK(fabs(ph[0].probe_hi_pct[j] - hi) < 1e-9);
            CHECK(fabs(ph[0].probe_lo_pct[j] - lo) < 1e-9);
            /* the rank error: percentile points from the level's (continuous) position
               f (N-1) to the nearest position of a path of that cost; at most half a
               position's width when that range holds the level's rounded position */
            double lv = 100.0 * (1.0 - oracle_slot_fraction(j, k));
            double re = oracle_rank_error(lv, ph[0].probe_lo_pct[j], ph[0].probe_hi_pct[j]);
            double fp = oracle_slot_fraction(j, k) * (double)(all.n - 1);
            double d = fp < (double)first ? (double)first - fp
                       : fp > (double)last ? fp - (double)last : 0.0;
            double bf = all.n > 1 ? 100.0 * d / (double)(all.n - 1) : 0.0;
            CHECK(fabs(re - bf) < 1e-6);
            if (all.n > 1 && pos >= first && pos <= last)
                CHECK(re <= 50.0 / (double)(all.n - 1) + 1e-9);
            CHECK(re >= 0 && re <= 100);
        }
        free(all.v);
        free(ph);
    }
    if (scale == 1)
        replay_case(trial, &g);
    graph_free(&g);
    for (uint32_t r = 0; r < R; r++) {
        free(rd[r].tasks);
        free(rd[r].edges);
    }
}

int main(void)
{
    for (int t = 0; t < 300; t++)
        one_case(t, 1, 0);
    for (int t = 0; t < 300; t++)
        one_case(t, 100000, 0);
    /* the coarsest grid a caller may ask for (rp-report --check-bins): more
     * joins round, and the bound must still hold */
    for (int t = 0; t < 300; t++)
        one_case(t, 100000, RP_ORACLE_BINS_ASK_MIN);
    return unit_done("test_oracle");
}
