/* test_pop.c - the POP factors (tools/report/pop.c) on inputs whose
 * factors are known by hand: 4 ranks computing 1, 1, 1, 2 s in a 3 s run
 * whose critical path costs 2.5 s give LB 0.625, CommE 0.667, SerE 0.8,
 * TE 0.833, PE 0.417; the identities PE = LB x CommE and CommE = SerE x TE;
 * the busiest rank by number; the losses; what cannot be computed. */
#include <math.h>
#include "report/pop.h"
#include "unit.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void known(void)
{
    const int64_t s = 1000000000;
    int64_t comp[4] = {1 * s, 1 * s, 2 * s, 1 * s};
    uint32_t rank[4] = {7, 5, 6, 4};
    rp_pop q;
    CHECK(pop_compute(comp, rank, 4, 3 * s, 2 * s + s / 2, &q) == 0);
    CHECK(NEAR(q.lb, 0.625));
    CHECK(NEAR(q.comme, 2.0 / 3.0));
    CHECK(NEAR(q.sere, 0.8));
    CHECK(NEAR(q.te, 2.5 / 3.0));
    CHECK(NEAR(q.pe, 0.625 * 2.0 / 3.0));
    CHECK(NEAR(q.comme, q.sere * q.te));
    CHECK_EQ(q.busiest, 6);
    CHECK_EQ(q.nranks, 4);
    CHECK_EQ(q.mean_comp_ns, 1250000000);
    CHECK_EQ(q.max_comp_ns, 2 * s);
    rp_pop_loss l;
    pop_losses(&q, &l);
    CHECK_EQ(l.lb_ns, 750000000);
    CHECK_EQ(l.comme_ns, 1 * s);
    CHECK_EQ(l.sere_ns, 500000000);
    CHECK_EQ(l.te_ns, 500000000);
    CHECK_EQ(l.comme_ns, l.sere_ns + l.te_ns);
    rp_pop_whatif wi;
    pop_whatif(&q, &wi);
    CHECK_EQ(wi.network_ns, 2 * s + s / 2);          /* runtime = critical path */
    CHECK_EQ(wi.balance_ns, 3 * s - 750000000);      /* runtime - (max - mean) */
}

static void ties_and_edges(void)
{
    int64_t comp[3] = {5, 5, 3};
    uint32_t rank[3] = {2, 1, 0};
    rp_pop q;
    CHECK(pop_compute(comp, rank, 3, 10, 0, &q) == 0);
    CHECK_EQ(q.busiest, 1);          /* a tie: the lower rank number */
    CHECK(q.sere < 0 && q.te < 0);   /* no critical path: unknown, not 0 */
    CHECK(NEAR(q.comme, 0.5));
    CHECK(pop_compute(comp, NULL, 3, 10, 0, &q) == 0);
    CHECK_EQ(q.busiest, 0);          /* no rank numbers: the index */
    CHECK(pop_compute(comp, rank, 0, 10, 8, &q) == -1);
    CHECK(pop_compute(comp, rank, 3, 0, 8, &q) == -1);
    int64_t zero[2] = {0, 0};
    CHECK(pop_compute(zero, NULL, 2, 10, 8, &q) == -1);
    /* a perfectly balanced run with no waiting: every factor 1 */
    int64_t even[4] = {7, 7, 7, 7};
    CHECK(pop_compute(even, NULL, 4, 7, 7, &q) == 0);
    CHECK(NEAR(q.pe, 1) && NEAR(q.lb, 1) && NEAR(q.comme, 1) && NEAR(q.sere, 1) &&
          NEAR(q.te, 1));
}

int main(void)
{
    known();
    ties_and_edges();
    return unit_done("test_pop");
}
