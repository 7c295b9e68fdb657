/* unit_phasecomp.c - path mode's per-phase computation (core/phasecomp.c):
 * task costs go to the running phase, a phase end books it, skipped phases
 * book 0, and growth past the first allocation keeps what was booked. */
#include "core/phasecomp.h"
#include "unit.h"

static void test_book(void)
{
    rp_phasecomp p = {0};
    uint64_t n = 9;
    CHECK(phasecomp_get(&p, &n) == NULL && n == 0);
    phasecomp_add(&p, 10);
    phasecomp_add(&p, 5);
    phasecomp_add(&p, -3);   /* a negative cost counts 0 */
    CHECK_EQ(phasecomp_close(&p, 0), 0);
    CHECK_EQ(phasecomp_close(&p, 1), 0);   /* no task here: 0 */
    phasecomp_add(&p, 7);
    CHECK_EQ(phasecomp_close(&p, 4), 0);   /* phases 2, 3 skipped: 0 */
    const int64_t *v = phasecomp_get(&p, &n);
    CHECK_EQ(n, 5);
    CHECK(v && v[0] == 15 && v[1] == 0 && v[2] == 0 && v[3] == 0 && v[4] == 7);
    /* an earlier phase number changes nothing booked */
    phasecomp_add(&p, 99);
    CHECK_EQ(phasecomp_close(&p, 2), 0);
    v = phasecomp_get(&p, &n);
    CHECK(n == 5 && v[2] == 0 && p.open_ns == 0);
    phasecomp_free(&p);
}

static void test_many(void)
{
    rp_phasecomp p = {0};
    for (uint64_t q = 0; q < 100000; q++) {
        phasecomp_add(&p, (int64_t)q);
        CHECK_EQ(phasecomp_close(&p, q), 0);
    }
    uint64_t n;
    const int64_t *v = phasecomp_get(&p, &n);
    CHECK_EQ(n, 100000);
    int ok = v != NULL;
    for (uint64_t q = 0; ok && q < n; q++)
        ok = v[q] == (int64_t)q;
    CHECK(ok);
    /* a failed record hands out nothing, and stays failed */
    p.failed = 1;
    CHECK(phasecomp_get(&p, &n) == NULL && n == 0);
    CHECK_EQ(phasecomp_close(&p, n + 100000), -1);
    phasecomp_free(&p);
    /* a phase number no memory can hold fails visibly, no crash */
    CHECK_EQ(phasecomp_close(&p, UINT64_MAX - 1), -1);
    CHECK(p.failed && phasecomp_get(&p, &n) == NULL);
    phasecomp_free(&p);
    CHECK_EQ(phasecomp_close(&p, UINT64_MAX), -1);
    CHECK(p.failed);
    phasecomp_free(&p);
}

int main(void)
{
    test_book();
    test_many();
    return unit_done("unit_phasecomp");
}
