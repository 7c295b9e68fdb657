/* unit_cct.c - the calling-context tree arena (lib/core/cct.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cct.h"

static int failures;
#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                       \
        }                                                                     \
    } while (0)

static void check_tree_invariants(const rp_cct *t)
{
    CHECK(t->n >= 1);
    CHECK(t->nodes[0].parent == CCT_NONE);
    for (uint32_t i = 1; i < t->n; i++) {
        CHECK(t->nodes[i].parent < i);
        CHECK(t->nodes[i].depth == t->nodes[t->nodes[i].parent].depth + 1);
        /* every node is findable under its parent, and unique */
        CHECK(cct_find(t, t->nodes[i].parent, t->nodes[i].pc) == i);
    }
}

static void test_basic(void)
{
    rp_cct t;
    CHECK(cct_init(&t, 64, 4) == 0);
    CHECK(cct_count(&t) == 1);
    uint32_t a = cct_child(&t, CCT_ROOT, 0x1000);
    uint32_t b = cct_child(&t, a, 0x2000);
    uint32_t a2 = cct_child(&t, CCT_ROOT, 0x1000);
    uint32_t c = cct_child(&t, CCT_ROOT, 0x2000);   /* same pc, other parent */
    CHECK(a == 1 && b == 2 && a2 == a && c == 3);
    CHECK(cct_find(&t, a, 0x2000) == b);
    CHECK(cct_find(&t, b, 0x2000) == CCT_NONE);
    CHECK(cct_child(&t, 99, 0x1) == CCT_NONE);      /* parent out of range */

    /* leaf-first path: main(0x10) -> f(0x20) -> g(0x30) */
    uintptr_t p1[] = { 0x30, 0x20, 0x10 };
    uint32_t g = cct_insert_path(&t, p1, 3, 0);
    CHECK(t.nodes[g].pc == 0x30 && t.nodes[g].depth == 3);
    uint32_t g2 = cct_insert_path(&t, p1, 3, 0);
    CHECK(g2 == g);
    uint32_t n_before = cct_count(&t);
    uintptr_t pseudo = CCT_PSEUDO_BIT | 7;
    uint32_t m = cct_insert_path(&t, p1, 3, pseudo);
    CHECK(cct_count(&t) == n_before + 1);
    CHECK(t.nodes[m].parent == g && t.nodes[m].pc == pseudo);
    /* empty path with a pseudo leaf hangs under the root */
    uint32_t r = cct_insert_path(&t, NULL, 0, pseudo);
    CHECK(t.nodes[r].parent == CCT_ROOT);
    CHECK(cct_insert_path(&t, NULL, 0, 0) == CCT_ROOT);

    cct_add(&t, g, 0, 5);
    cct_add(&t, g, 3, 7);
    cct_add(&t, g, 4, 1000);          /* column out of range: ignored */
    cct_add(&t, 1000, 0, 1000);       /* node out of range: ignored */
    CHECK(cct_metrics(&t, g)[0] == 5 && cct_metrics(&t, g)[3] == 7);
    CHECK(cct_metrics(&t, m)[0] == 0);
    CHECK(t.full == 0);
    check_tree_invariants(&t);
    cct_free(&t);
    CHECK(t.map == NULL);
}

static void test_full(void)
{
    rp_cct t;
    CHECK(cct_init(&t, 8, 2) == 0);   /* root + 7 nodes */
    uintptr_t p[10];
    for (int i = 0; i < 10; i++)
        p[i] = 0x100 + (uintptr_t)(10 - i);  /* leaf first */
    uint32_t leaf = cct_insert_path(&t, p, 10, 0);
    CHECK(cct_count(&t) == 8);
    CHECK(t.full == 1);               /* one count per refused path */
    CHECK(t.nodes[leaf].depth == 7);  /* deepest existing prefix */
    /* a path entirely present still works when full */
    uint32_t again = cct_insert_path(&t, p + 3, 7, 0);
    CHECK(again == leaf && t.full == 1);
    /* an absent top-level frame: attached to the root */
    uintptr_t q[] = { 0x999 };
    CHECK(cct_insert_path(&t, q, 1, 0) == CCT_ROOT);
    CHECK(t.full == 2);
    CHECK(cct_child(&t, CCT_ROOT, 0x998) == CCT_NONE && t.full == 3);
    check_tree_invariants(&t);
    cct_free(&t);
}

static void test_many(void)
{
    /* random trees: compare against a brute-force model */
    rp_cct t;
    const uint32_t cap = 20000;
    CHECK(cct_init(&t, cap, 3) == 0);
    uint64_t s = 12345;
    uint32_t inserted = 0;
    for (int it = 0; it < 50000; it++) {
        uintptr_t path[40];
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        uint32_t depth = 1 + (uint32_t)(s % 40);
        for (uint32_t d = 0; d < depth; d++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            path[d] = 0x400000 + (s % 16) * 4;   /* few distinct pcs: collisions */
        }
        uint32_t before = cct_count(&t);
        uint32_t node = cct_insert_path(&t, path, depth, 0);
        inserted += cct_count(&t) - before;
        if (t.full == 0) {
            /* walk up: must reproduce the path */
            uint32_t x = node;
            for (uint32_t d = 0; d < depth; d++) {
                CHECK(t.nodes[x].pc == path[d]);
                x = t.nodes[x].parent;
            }
            CHECK(x == CCT_ROOT);
        }
        cct_add(&t, node, 1, 1);
    }
    CHECK(cct_count(&t) == cap);      /* filled up */
    CHECK(t.full > 0);
    CHECK(inserted == cap - 1);
    int64_t sum = 0;
    for (uint32_t i = 0; i < cct_count(&t); i++)
        sum += cct_metrics(&t, i)[1];
    CHECK(sum == 50000);
    check_tree_invariants(&t);
    cct_free(&t);
}

static void test_cached(void)
{
    /* the cached insertion returns exactly what the plain one does */
    rp_cct a, b;
    static rp_cct_cache c;
    CHECK(cct_init(&a, 3000, 2) == 0);
    CHECK(cct_init(&b, 3000, 2) == 0);
    uint64_t s = 777;
    uintptr_t prev[600];
    uint32_t prev_n = 0;
    for (int it = 0; it < 20000; it++) {
        uintptr_t path[600];
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        uint32_t n = (uint32_t)(s % 600);
        /* mostly share a root-side prefix with the previous path */
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        uint32_t keep = prev_n ? (uint32_t)(s % (prev_n + 1)) : 0;
        if (keep > n)
            keep = n;
        for (uint32_t d = 0; d < n; d++) {
            uint32_t from_root = n - 1 - d;   /* path is leaf first */
            if (from_root < keep) {
                path[d] = prev[prev_n - 1 - from_root];
            } else {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                path[d] = 0x1000 + (s % 8);
            }
        }
        uintptr_t extra = (it % 3 == 0) ? (CCT_PSEUDO_BIT | (uintptr_t)(it % 5)) : 0;
        uint32_t x = cct_insert_path(&a, path, n, extra);
        uint32_t y = cct_insert_path_cached(&b, &c, path, n, extra);
        CHECK(x == y);
        CHECK(a.n == b.n && a.full == b.full);
        if (x != y)
            break;
        memcpy(prev, path, n * sizeof *path);
        prev_n = n;
    }
    CHECK(a.full > 0);   /* the arena filled up along the way */
    CHECK(memcmp(a.nodes, b.nodes, a.n * sizeof *a.nodes) == 0);
    cct_free(&a);
    cct_free(&b);
}

static void test_args(void)
{
    rp_cct t;
    CHECK(cct_init(&t, 0, 0) == -1);
    CHECK(cct_init(&t, 0, 2) == 0 && t.cap == 2);
    cct_free(&t);
    CHECK(cct_init(&t, CCT_DEFAULT_CAP, 7) == 0);   /* lazily touched: cheap */
    CHECK(cct_child(&t, CCT_ROOT, 42) == 1);
    cct_free(&t);
    cct_free(&t);  /* idempotent */
}

int main(void)
{
    test_basic();
    test_full();
    test_many();
    test_cached();
    test_args();
    if (failures) {
        fprintf(stderr, "unit_cct: %d failure(s)\n", failures);
        return 1;
    }
    printf("unit_cct: ok\n");
    return 0;
}
