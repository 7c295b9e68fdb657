/* test_whatif.c - rp-report --what-if's estimate (tools/report/whatif.c) on a
 * profile built by hand, where the answer is worked out below:
 *
 *   k = 2 paths, 2 phases.  Exclusive time per path (whole run):
 *                 path 0 (100 %)   path 1 (0 %)
 *     hot()           8 s              1 s
 *     cold()          2 s              8 s
 *   per-phase path costs: phase 0: 6 s, 5 s; phase 1: 4 s, 4 s
 *   (slot sums 10 s and 9 s = the columns' totals).
 *
 * "hot=50": shares f0 = 8/10, f1 = 1/9; s = 0.5.
 *   phase 0: 6 (1 - 0.4) = 3.6,  5 (1 - 0.5/9) = 4.7222...  -> 4.7222
 *   phase 1: 4 (1 - 0.4) = 2.4,  4 (1 - 0.5/9) = 3.7777...  -> 3.7778
 *   estimate 8.5 s (not the 6 s that scaling the critical path alone
 *   gives: the 0 % path becomes the longest in both phases).
 * Prof mode (sums only): [max(10 * 0.6, 9 (1 - 0.5/9)), 10 (1 - 0.5/9)]
 *   = [8.5, 9.4444] s. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/vocab.h"
#include "report/whatif.h"
#include "unit.h"

#define S(x) ((int64_t)((x) * 1e9 + 0.5))

static char *strs[] = {"", "/opt/app/bin/app", "hot", "cold", "src/app.c",
                       "ns::Vec<int>::dot(double)"};
static rp_pframe frames[] = {{2, 4, 10}, {3, 4, 20}, {5, 4, 30}};
static rp_psym syms[] = {{RP_SYM_FRAME, RP_SYMF_LINES, 1, 0x10, 0, 1},
                         {RP_SYM_FRAME, RP_SYMF_LINES, 1, 0x20, 1, 1},
                         {RP_SYM_FRAME, RP_SYMF_LINES, 1, 0x30, 2, 1}};
static rp_pnode nodes[] = {{UINT32_MAX, UINT32_MAX}, {0, 0}, {0, 1}, {0, 2}};
/* columns: rank, mpi, path 0, path 1 */
static int64_t metrics[4 * 4];
static int64_t sum_ns[2], min_ns[2], max_ns[2];

static void build(rp_profile *p)
{
    memset(p, 0, sizeof *p);
    p->k = 2;
    p->nranks = p->ranks_present = 2;
    p->strs = strs;
    p->n_strs = 6;
    p->frames = frames;
    p->n_frames = 3;
    p->syms = syms;
    p->n_syms = 3;
    p->nodes = nodes;
    p->n_nodes = 4;
    p->n_metrics = 4;
    p->metrics = metrics;
    memset(metrics, 0, sizeof metrics);
    metrics[1 * 4 + RP_MET_PATH0] = S(8);
    metrics[1 * 4 + RP_MET_PATH0 + 1] = S(1);
    metrics[2 * 4 + RP_MET_PATH0] = S(2);
    metrics[2 * 4 + RP_MET_PATH0 + 1] = S(7.5);
    metrics[3 * 4 + RP_MET_PATH0 + 1] = S(0.5);   /* the template function */
    metrics[1 * 4 + RP_MET_RANK] = S(9);
    sum_ns[0] = S(10);
    sum_ns[1] = S(9);
    p->stats = (rp_phasestats){2, 2, sum_ns, min_ns, max_ns, NULL};
}

static void parse_ok(const char *a, const char *target, uint32_t line, double pc)
{
    rp_whatif w;
    char err[300] = "";
    int rc = whatif_parse(a, &w, err, sizeof err);
    if (rc != 0 || strcmp(w.target, target) || w.line != line || w.percent != pc)
        fprintf(stderr, "parse(%s): rc %d target '%s' line %u pc %g (%s)\n", a, rc, w.target,
                w.line, w.percent, err);
    CHECK(rc == 0 && !strcmp(w.target, target) && w.line == line && w.percent == pc);
}

static void parse_bad(const char *a)
{
    rp_whatif w;
    char err[300] = "";
    CHECK(whatif_parse(a, &w, err, sizeof err) == -1 && err[0]);
}

static int near(int64_t a, double b) { return fabs((double)a / 1e9 - b) < 1e-6; }

int main(void)
{
    parse_ok("hot=50", "hot", 0, 50);
    parse_ok("hot=12.5%", "hot", 0, 12.5);
    parse_ok("operator===10", "operator==", 0, 10);
    parse_ok("src/app.c:10=100", "src/app.c", 10, 100);
    parse_ok("ns::Vec<>::dot=5", "ns::Vec<>::dot", 0, 5);
    parse_bad("hot");
    parse_bad("=50");
    parse_bad("hot=0");
    parse_bad("hot=101");
    parse_bad("hot=abc");
    parse_bad("app.c:0=5");

    rp_profile p;
    build(&p);
    const int64_t phase_cost[] = {S(6), S(5), S(4), S(4)};
    rp_whatif w;
    char err[300];
    rp_whatif_result r;

    /* per phase (path / trace modes) */
    CHECK(whatif_parse("hot=50", &w, err, sizeof err) == 0);
    CHECK_EQ(whatif_compute(&p, &w, phase_cost, 2, &r), 0);
    CHECK(r.per_phase == 1);
    CHECK(near(r.now_ns, 10));
    CHECK(near(r.est_ns, 8.5));
    CHECK_EQ(r.changed, 2);
    CHECK(fabs(r.frac[0] - 0.8) < 1e-9 && fabs(r.frac[1] - 1.0 / 9) < 1e-9);
    CHECK(!strcmp(r.matched, "hot"));
    whatif_free(&r);

    /* prof mode: the range */
    CHECK_EQ(whatif_compute(&p, &w, NULL, 0, &r), 0);
    CHECK(r.per_phase == 0);
    CHECK(near(r.lo_ns, 8.5));
    CHECK(fabs((double)r.hi_ns / 1e9 - 10 * (1 - 0.5 / 9)) < 1e-6);
    CHECK(r.lo_ns <= r.hi_ns);
    whatif_free(&r);

    /* a small speed-up keeps the critical path: 10 % of hot
     * phase 0: 6 (1 - 0.08) = 5.52 vs 5 (1 - 0.1/9) = 4.944 -> 5.52
     * phase 1: 4 * 0.92 = 3.68 vs 4 (1 - 0.1/9) = 3.9556 -> 3.9556 */
    CHECK(whatif_parse("hot=10", &w, err, sizeof err) == 0);
    CHECK_EQ(whatif_compute(&p, &w, phase_cost, 2, &r), 0);
    CHECK(fabs((double)r.est_ns / 1e9 - (5.52 + 4 * (1 - 0.1 / 9))) < 1e-6);
    CHECK_EQ(r.changed, 1);
    whatif_free(&r);

    /* by line: src/app.c:20 is cold; the file by its last components */
    CHECK(whatif_parse("app.c:20=100", &w, err, sizeof err) == 0);
    CHECK_EQ(whatif_compute(&p, &w, phase_cost, 2, &r), 0);
    CHECK(r.in_ns[0] == S(2) && r.in_ns[1] == S(7.5));
    /* phase 0: 6 (1 - 0.2) = 4.8 vs 5 (1 - 7.5/9) = 0.8333 -> 4.8;
     * phase 1: 4 * 0.8 = 3.2 -> 3.2 */
    CHECK(near(r.est_ns, 8.0));
    CHECK_EQ(r.changed, 0);
    whatif_free(&r);
    CHECK(whatif_parse("pp.c:20=100", &w, err, sizeof err) == 0);   /* not a path component */
    CHECK_EQ(whatif_compute(&p, &w, phase_cost, 2, &r), 1);
    whatif_free(&r);

    /* names: without parameters, with templates elided */
    CHECK(whatif_parse("ns::Vec<>::dot=100", &w, err, sizeof err) == 0);
    CHECK_EQ(whatif_compute(&p, &w, phase_cost, 2, &r), 0);
    CHECK(r.in_ns[0] == 0 && r.in_ns[1] == S(0.5));
    whatif_free(&r);
    CHECK(whatif_parse("ns::Vec<int>::dot=100", &w, err, sizeof err) == 0);
    CHECK_EQ(whatif_compute(&p, &w, phase_cost, 2, &r), 0);
    whatif_free(&r);
    /* not found */
    CHECK(whatif_parse("warm=50", &w, err, sizeof err) == 0);
    CHECK_EQ(whatif_compute(&p, &w, phase_cost, 2, &r), 1);
    whatif_free(&r);
    return unit_done("test_whatif");
}
