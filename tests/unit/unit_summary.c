/* unit_summary.c - path-summary intervals and their overflow rules. */
#include <string.h>

#include "core/summary.h"
#include "unit.h"

#define CAP 4

typedef struct tpath {
    rp_path p;
    rp_interval iv[CAP + 1];  /* +1 canary: never written */
} tpath;

static void tp_init(tpath *t)
{
    memset(t, 0, sizeof *t);
    t->p.iv = t->iv;
    t->iv[CAP] = (rp_interval){ 0xdeadbeef, 7, 7 };
}

static int canary_ok(const tpath *t)
{
    return t->iv[CAP].rank == 0xdeadbeef && t->iv[CAP].low == 7;
}

/* Interval extension (path mode: profile mode keeps one item per interval). */
static void test_merge(void)
{
    tpath t;
    uint64_t rng = 1;
    tp_init(&t);
    CHECK_EQ(summary_push(&t.p, CAP, 3, 0, RP_SUMMARY_PATH, &rng), RP_SUM_OPENED);
    CHECK_EQ(summary_push(&t.p, CAP, 3, 1, RP_SUMMARY_PATH, &rng), RP_SUM_EXTENDED);
    CHECK_EQ(summary_push(&t.p, CAP, 3, 2, RP_SUMMARY_PATH, &rng), RP_SUM_EXTENDED);
    CHECK_EQ(t.p.n_iv, 1);
    CHECK(t.p.iv[0].rank == 3 && t.p.iv[0].low == 0 && t.p.iv[0].high == 2);
    /* gap on the same rank opens a new interval */
    CHECK_EQ(summary_push(&t.p, CAP, 3, 5, RP_SUMMARY_PATH, &rng), RP_SUM_OPENED);
    /* another rank's next index never extends rank 3's interval */
    CHECK_EQ(summary_push(&t.p, CAP, 4, 6, RP_SUMMARY_PATH, &rng), RP_SUM_OPENED);
    /* back on rank 3: last interval is rank 4's, so a new one opens */
    CHECK_EQ(summary_push(&t.p, CAP, 3, 6, RP_SUMMARY_PATH, &rng), RP_SUM_OPENED);
    CHECK_EQ(t.p.n_iv, 4);
    CHECK(t.p.iv[1].low == 5 && t.p.iv[1].high == 5);
    CHECK(t.p.iv[2].rank == 4 && t.p.iv[3].rank == 3 && t.p.iv[3].low == 6);
    /* already recorded: no duplicate, no change */
    CHECK_EQ(summary_push(&t.p, CAP, 3, 1, RP_SUMMARY_PATH, &rng), RP_SUM_EXTENDED);
    CHECK_EQ(t.p.n_iv, 4);
    CHECK_EQ(t.p.n_evicted, 0);
    CHECK(canary_ok(&t));

    /* idx 0 after a high of 65535 on the same rank must not extend */
    tp_init(&t);
    summary_push(&t.p, CAP, 1, 65535, RP_SUMMARY_PATH, &rng);
    CHECK_EQ(summary_push(&t.p, CAP, 1, 0, RP_SUMMARY_PATH, &rng), RP_SUM_OPENED);
    CHECK_EQ(t.p.iv[0].high, 65535);
    CHECK_EQ(t.p.n_iv, 2);
    /* extend up to the last index */
    tp_init(&t);
    summary_push(&t.p, CAP, 1, 65534, RP_SUMMARY_PATH, &rng);
    CHECK_EQ(summary_push(&t.p, CAP, 1, 65535, RP_SUMMARY_PATH, &rng), RP_SUM_EXTENDED);
    CHECK_EQ(t.p.iv[0].high, 65535);
}

static void test_overflow_path(void)
{
    tpath t;
    uint64_t rng = 1;
    tp_init(&t);
    for (uint16_t i = 0; i < CAP; i++)
        CHECK_EQ(summary_push(&t.p, CAP, 0, (uint16_t)(2 * i), RP_SUMMARY_PATH, &rng),
                 RP_SUM_OPENED);
    rp_interval before[CAP];
    memcpy(before, t.iv, sizeof before);
    CHECK_EQ(t.p.flags, 0);
    CHECK_EQ(summary_push(&t.p, CAP, 0, 100, RP_SUMMARY_PATH, &rng), RP_SUM_OVERFLOW);
    CHECK_EQ(t.p.flags & RP_PATH_OVERFLOW, RP_PATH_OVERFLOW);
    CHECK_EQ(t.p.n_iv, CAP);
    CHECK(memcmp(before, t.iv, sizeof before) == 0);  /* nothing recorded */
    CHECK_EQ(t.p.n_evicted, 0);
    /* once overflowed, nothing more is recorded, not even an extension of
     * the last interval (the summary is exactly the prefix it covered) */
    CHECK_EQ(summary_push(&t.p, CAP, 0, 7, RP_SUMMARY_PATH, &rng), RP_SUM_OVERFLOW);
    CHECK(memcmp(before, t.iv, sizeof before) == 0);
    /* a flagged path with room left records nothing either (pathmode.c
     * flags every path when the task index space is full) */
    tp_init(&t);
    CHECK_EQ(summary_push(&t.p, CAP, 0, 0, RP_SUMMARY_PATH, &rng), RP_SUM_OPENED);
    t.p.flags |= RP_PATH_OVERFLOW;
    CHECK_EQ(summary_push(&t.p, CAP, 0, 1, RP_SUMMARY_PATH, &rng), RP_SUM_OVERFLOW);
    CHECK_EQ(summary_push(&t.p, CAP, 1, 2, RP_SUMMARY_PATH, &rng), RP_SUM_OVERFLOW);
    CHECK(t.p.n_iv == 1 && t.p.iv[0].high == 0);
    CHECK(canary_ok(&t));
}

static int contains(const rp_path *p, uint32_t rank, uint16_t idx)
{
    for (uint32_t i = 0; i < p->n_iv; i++)
        if (p->iv[i].rank == rank && p->iv[i].low <= idx && idx <= p->iv[i].high)
            return 1;
    return 0;
}

static void test_overflow_prof(void)
{
    tpath t;
    uint64_t rng = 42;
    tp_init(&t);
    uint32_t opened = 0, evicted = 0;
    for (uint32_t i = 0; i < 4000; i++) {
        uint16_t idx = (uint16_t)(2 * i);  /* gaps: every push opens or evicts */
        int rc = summary_push(&t.p, CAP, i % 3, idx, RP_SUMMARY_PROF, &rng);
        CHECK(rc == RP_SUM_OPENED || rc == RP_SUM_EVICTED);
        opened += rc == RP_SUM_OPENED;
        evicted += rc == RP_SUM_EVICTED;
        CHECK(t.p.n_iv <= CAP);
        /* opened = kept + not kept, always */
        CHECK_EQ(t.p.n_iv + t.p.n_evicted, i + 1);
        /* order kept: older items first */
        for (uint32_t j = 1; j < t.p.n_iv; j++)
            CHECK(t.p.iv[j - 1].low < t.p.iv[j].low);
    }
    CHECK_EQ(opened, CAP);
    CHECK_EQ(evicted, 4000 - CAP);
    CHECK_EQ(t.p.n_evicted, evicted);
    CHECK_EQ(t.p.n_iv, CAP);
    CHECK_EQ(t.p.flags, 0);
    CHECK(canary_ok(&t));

    /* Reservoir: every opened interval ends in the summary with the same
     * probability CAP/N, whether it came early or late in the phase (the
     * old rule kept the newest).  N = 200 intervals, 20000 trials: each
     * quarter of the phase expects 20000 * CAP / 4 = 20000 kept intervals;
     * binomial sd ~ 140, so +-5 % is more than 7 sd. */
    enum { N = 200, TRIALS = 20000 };
    uint32_t quarter[4] = { 0 };
    for (uint32_t tr = 0; tr < TRIALS; tr++) {
        tp_init(&t);
        for (uint32_t i = 0; i < N; i++)
            summary_push(&t.p, CAP, 0, (uint16_t)(2 * i), RP_SUMMARY_PROF, &rng);
        for (uint32_t j = 0; j < t.p.n_iv; j++)
            quarter[(t.p.iv[j].low / 2) * 4 / N]++;
    }
    for (int q = 0; q < 4; q++)
        CHECK(quarter[q] > 19000 && quarter[q] < 21000);

    /* Profile mode: consecutive items stay units of their own (equal
     * weights for the reservoir); path mode still extends. */
    tp_init(&t);
    CHECK_EQ(summary_push(&t.p, CAP, 1, 30, RP_SUMMARY_PROF, &rng), RP_SUM_OPENED);
    CHECK_EQ(summary_push(&t.p, CAP, 1, 31, RP_SUMMARY_PROF, &rng), RP_SUM_OPENED);
    CHECK_EQ(t.p.n_iv, 2);
    CHECK(contains(&t.p, 1, 31));
    tp_init(&t);
    CHECK_EQ(summary_push(&t.p, CAP, 1, 30, RP_SUMMARY_PATH, &rng), RP_SUM_OPENED);
    CHECK_EQ(summary_push(&t.p, CAP, 1, 31, RP_SUMMARY_PATH, &rng), RP_SUM_EXTENDED);
    CHECK_EQ(t.p.n_iv, 1);


    /* iv_cap == 0: nothing recorded, evictions still counted */
    tp_init(&t);
    CHECK_EQ(summary_push(&t.p, 0, 0, 0, RP_SUMMARY_PROF, &rng), RP_SUM_EVICTED);
    CHECK_EQ(t.p.n_iv, 0);
    CHECK_EQ(t.p.n_evicted, 1);
    CHECK_EQ(summary_push(&t.p, 0, 0, 1, RP_SUMMARY_PATH, &rng), RP_SUM_OVERFLOW);
}

static void test_rand(void)
{
    uint64_t s = 0, a, b;
    a = summary_rand(&s);
    CHECK(s != 0);
    b = summary_rand(&s);
    CHECK(a != b);
    uint64_t s2 = 0;
    CHECK(summary_rand(&s2) == a);   /* deterministic */
    uint64_t s3 = 99, s4 = 99;
    for (int i = 0; i < 100; i++)
        CHECK(summary_rand(&s3) == summary_rand(&s4));
    /* never sticks at zero, rough balance of the top bit */
    int top = 0;
    for (int i = 0; i < 10000; i++) {
        top += (int)(summary_rand(&s) >> 63);
        CHECK(s != 0);
    }
    CHECK(top > 4500 && top < 5500);
}

int main(void)
{
    test_merge();
    test_overflow_path();
    test_overflow_prof();
    test_rand();
    return unit_done("unit_summary");
}
