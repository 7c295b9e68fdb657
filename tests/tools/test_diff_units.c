/* test_diff_units.c - the pure parts of rp-report --diff (tools/report/diff.c)
 * on hand-built inputs: levels matched by percentile across k, the mismatch
 * bits, and the function list built from contexts (inclusive sums, a
 * recursive function counted once per context, the functions on every
 * context marked, noise).  No files, no MPI. */
#include <stdlib.h>
#include <string.h>
#include "core/pathset.h"   /* RP_SELECT_* */
#include "report/diff.h"
#include "unit.h"

static void levels(void)
{
    rp_profile pa, pb;
    memset(&pa, 0, sizeof pa);
    memset(&pb, 0, sizeof pb);
    int64_t ca[5] = {100, 80, 60, 40, 20}, cb[5] = {90, 70, 50, 30, 10};
    rp_diffside a = {&pa, ca, NULL, 0}, b = {&pb, cb, NULL, 0};
    rp_difflevel lv[9];
    pa.k = pb.k = 5;   /* same k: every level, slot to slot */
    CHECK_EQ(diff_levels(&a, &b, lv), 5);
    for (uint32_t j = 0; j < 5; j++) {
        CHECK_EQ(lv[j].slot_a, j);
        CHECK_EQ(lv[j].slot_b, j);
        CHECK_EQ(lv[j].b_ns - lv[j].a_ns, -10);
    }
    pb.k = 3;   /* 100, 75, 50, 25, 0 against 100, 50, 0: three in common */
    CHECK_EQ(diff_levels(&a, &b, lv), 3);
    CHECK(lv[0].percentile == 100.0 && lv[1].percentile == 50.0 && lv[2].percentile == 0.0);
    CHECK_EQ(lv[1].slot_a, 2);
    CHECK_EQ(lv[1].slot_b, 1);
    CHECK_EQ(lv[2].b_ns, cb[2]);
    pb.k = 4;   /* 100, 66.7, 33.3, 0: only the ends */
    CHECK_EQ(diff_levels(&a, &b, lv), 2);
    pb.k = 1;   /* one path: the 100 % level alone */
    CHECK_EQ(diff_levels(&a, &b, lv), 1);
    CHECK_EQ(lv[0].slot_a, 0);
}

static void mismatch(void)
{
    rp_profile pa, pb;
    memset(&pa, 0, sizeof pa);
    memset(&pb, 0, sizeof pb);
    rp_diffside a = {&pa, NULL, NULL, 0}, b = {&pb, NULL, NULL, 0};
    pa.k = pb.k = 5;
    pa.nranks = pb.nranks = 4;
    strcpy(pa.exe, "/x/app");
    strcpy(pb.exe, "/x/app");
    CHECK_EQ(diff_mismatch(&a, &b), 0);
    strcpy(pb.exe, "/y/app");
    pb.nranks = 8;
    pb.k = 3;
    CHECK_EQ(diff_mismatch(&a, &b), RP_DIFF_EXE | RP_DIFF_RANKS | RP_DIFF_K);
    pb = pa;
    pb.mode = RP_MODE_TRACE;
    CHECK_EQ(diff_mismatch(&a, &b), RP_DIFF_MODE | RP_DIFF_NOSAMPLES);
    pb = pa;
    pb.select = RP_SELECT_TOPK;
    CHECK_EQ(diff_mismatch(&a, &b), RP_DIFF_SELECT);
}

static rp_diffctx ctx(const char *funcs, int64_t a, int64_t b)
{
    rp_diffctx c;
    memset(&c, 0, sizeof c);
    c.funcs = (char *)funcs;
    c.excl_a = a;
    c.excl_b = b;
    return c;
}

static const rp_difffunc *find(const rp_difffunc *d, int32_t n, const char *name)
{
    for (int32_t i = 0; i < n; i++)
        if (!strcmp(d[i].name, name))
            return &d[i];
    return NULL;
}

static void functions(void)
{
    /* main calls f (which recurses) and g; <unknown> has no function */
    rp_diffctx c[4] = {ctx("main\x1f" "f", 1000, 500),
                       ctx("main\x1f" "f\x1f" "f", 400, 200),
                       ctx("main\x1fg", 300, 300),
                       ctx("<unknown>", 50, 60)};
    rp_difffunc *d;
    /* a sample weighs 1 ns: counts are the times, large enough to tell */
    int32_t n = diff_functions(c, 4, 1.0, 1.0, &d);
    CHECK_EQ(n, 4);
    const rp_difffunc *f = find(d, n, "f"), *m = find(d, n, "main"), *g = find(d, n, "g");
    CHECK(f && m && g && find(d, n, "<unknown>"));
    if (f && m && g) {
        CHECK_EQ(f->a_ns, 1400);   /* the recursive context once, not twice */
        CHECK_EQ(f->b_ns, 700);
        CHECK_EQ(m->a_ns, 1700);
        CHECK(m->everywhere);      /* on every context of code */
        CHECK(!f->everywhere && !g->everywhere);
        CHECK(!f->noise);          /* 1400 -> 700 from that many samples */
        CHECK(g->noise);           /* unchanged */
    }
    /* largest |change| first */
    CHECK(n > 0 && (!strcmp(d[0].name, "main") || !strcmp(d[0].name, "f")));
    diff_functions_free(d, n);
    /* few samples: the same change is noise */
    n = diff_functions(c, 4, 300.0, 300.0, &d);
    f = find(d, n, "f");
    CHECK(f && f->noise);
    diff_functions_free(d, n);
    CHECK_EQ(diff_functions(c, 0, 1.0, 1.0, &d), 0);
    diff_functions_free(d, 0);
}

int main(void)
{
    levels();
    mismatch();
    functions();
    return unit_done("test_diff_units");
}
