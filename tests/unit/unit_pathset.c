/* unit_pathset.c - path-set maintenance, wire format, join, and a
 * randomized multi-rank property test. */
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "core/pathset.h"
#include "core/wire.h"
#include "core/select.h"
#include "core/summary.h"
#include "unit.h"

static uint64_t trng = 0x1234567;
static uint32_t rnd(uint32_t n)
{
    return (uint32_t)(summary_rand(&trng) % n);
}

/* Set path i of ps explicitly (n must already cover it). */
static void put_path(rp_pathset *ps, uint32_t i, int64_t cost, uint32_t n_iv,
                     const rp_interval *iv)
{
    rp_path *p = &ps->p[i];
    p->cost_ns = cost;
    p->flags = 0;
    p->n_evicted = 0;
    p->n_iv = (uint16_t)n_iv;
    p->sampled_us = p->dropped_us = 0;
    if (n_iv)
        memcpy(p->iv, iv, n_iv * sizeof *iv);
}

/* Invariants every set must satisfy after any operation. */
static int set_ok(const rp_pathset *ps)
{
    int ok = ps->n >= 1 && ps->n <= ps->k_cap;
    for (uint32_t i = 0; i < ps->n; i++) {
        const rp_path *p = &ps->p[i];
        ok &= p->n_iv <= ps->iv_cap;
        if (i > 0)
            ok &= ps->p[i - 1].cost_ns >= p->cost_ns;
        for (uint32_t j = 0; j < p->n_iv; j++)
            ok &= rp_iv_ok(&p->iv[j], j);
    }
    /* every slot owns a distinct iv_cap region of the set's store */
    for (uint32_t i = 0; i < ps->k_cap; i++) {
        ptrdiff_t off = ps->p[i].iv - ps->store;
        ok &= off >= 0 && (size_t)off <= (size_t)(ps->k_cap - 1) * ps->iv_cap;
        if (ps->iv_cap > 0)
            ok &= off % ps->iv_cap == 0;
        for (uint32_t j = 0; j < i && ps->iv_cap > 0; j++)
            ok &= ps->p[i].iv != ps->p[j].iv;
    }
    return ok;
}

static int sets_equal(const rp_pathset *a, const rp_pathset *b)
{
    if (a->n != b->n || a->n_sk != b->n_sk)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (select_path_cmp(&a->p[i], &b->p[i]) != 0)
            return 0;
    for (uint32_t i = 0; i < a->n_sk; i++)
        if (a->sk_cost[i] != b->sk_cost[i] || a->sk_w[i] != b->sk_w[i])
            return 0;
    return 1;
}

static void test_basic(void)
{
    rp_pathset ps;
    uint64_t rng = 7;
    CHECK_EQ(pathset_init(&ps, 0, 4), -1);
    CHECK_EQ(pathset_init(&ps, RP_PATHSET_MAX_K + 1, 4), -1);
    CHECK_EQ(pathset_init(&ps, 3, 4), 0);
    pathset_reset(&ps);
    CHECK_EQ(ps.n, 1);
    CHECK_EQ(ps.p[0].cost_ns, 0);
    CHECK_EQ(ps.p[0].n_iv, 0);
    pathset_add_cost(&ps, 25);
    pathset_extend(&ps, 2, 0, RP_SUMMARY_PATH, &rng);
    pathset_extend(&ps, 2, 1, RP_SUMMARY_PATH, &rng);
    CHECK_EQ(ps.p[0].cost_ns, 25);
    CHECK_EQ(ps.p[0].n_iv, 1);
    CHECK_EQ(ps.p[0].iv[0].high, 1);
    /* a second and third path: add_cost and extend reach all of them */
    ps.n = 3;
    rp_interval a = { 1, 4, 4 };
    put_path(&ps, 1, 20, 1, &a);
    put_path(&ps, 2, 5, 0, NULL);
    pathset_add_cost(&ps, 10);
    CHECK_EQ(ps.p[0].cost_ns, 35);
    CHECK_EQ(ps.p[1].cost_ns, 30);
    CHECK_EQ(ps.p[2].cost_ns, 15);
    pathset_extend(&ps, 1, 5, RP_SUMMARY_PATH, &rng);
    CHECK_EQ(ps.p[0].n_iv, 2);
    CHECK_EQ(ps.p[1].n_iv, 1);          /* extended 1:[4,4] to [4,5] */
    CHECK_EQ(ps.p[1].iv[0].high, 5);
    CHECK_EQ(ps.p[2].n_iv, 1);
    CHECK(set_ok(&ps));
    /* copy */
    rp_pathset cp;
    CHECK_EQ(pathset_init(&cp, 5, 8), 0);
    pathset_copy(&cp, &ps);
    CHECK(sets_equal(&cp, &ps));
    CHECK(cp.p[0].iv != ps.p[0].iv);    /* deep copy */
    /* reset throws away everything */
    pathset_reset(&ps);
    CHECK(ps.n == 1 && ps.p[0].cost_ns == 0 && ps.p[0].n_iv == 0 &&
          ps.p[0].flags == 0 && ps.p[0].n_evicted == 0);
    /* percentile costs: held 35, 30, 15 for k = 5 slots (100,75,50,25,0) */
    int64_t out[5];
    pathset_percentile_costs(&cp, 5, RP_SELECT_PAPER, out);
    CHECK(out[0] == 35 && out[1] == 35 && out[2] == 30 && out[3] == 30 &&
          out[4] == 15);
    pathset_percentile_costs(&ps, 5, RP_SELECT_PAPER, out);
    for (int j = 0; j < 5; j++)
        CHECK_EQ(out[j], 0);
    pathset_free(&cp);
    pathset_free(&ps);
}

static void test_join_hand(void)
{
    rp_pathset mine, in, orig;
    pathset_init(&mine, 3, 4);
    pathset_init(&in, 3, 4);
    pathset_init(&orig, 3, 4);
    rp_interval ia[2] = { { 0, 0, 2 }, { 1, 3, 3 } }, ib = { 0, 5, 6 },
                ic = { 2, 9, 9 }, id = { 1, 1, 1 };
    mine.n = 3;
    put_path(&mine, 0, 100, 2, ia);
    put_path(&mine, 1, 50, 1, &ib);
    put_path(&mine, 2, 10, 0, NULL);
    in.n = 3;
    put_path(&in, 0, 80, 1, &ic);
    put_path(&in, 1, 50, 1, &ib);       /* exact duplicate of mine[1] */
    put_path(&in, 2, 5, 1, &id);
    pathset_copy(&orig, &mine);

    /* repr over 100, 80, 50, 10, 5 (n = 5, k = 3) -> indices 0, 2, 4 */
    pathset_join(&mine, &in, RP_SELECT_PAPER);
    CHECK(set_ok(&mine));
    CHECK_EQ(mine.n, 3);
    CHECK(select_path_cmp(&mine.p[0], &orig.p[0]) == 0);
    CHECK(select_path_cmp(&mine.p[1], &orig.p[1]) == 0);
    CHECK(select_path_cmp(&mine.p[2], &in.p[2]) == 0);
    CHECK(mine.p[2].iv != in.p[2].iv);  /* copied into mine's storage */
    CHECK(mine.p[2].iv[0].rank == 1 && mine.p[2].iv[0].low == 1);

    /* topk over the same union -> 100, 80 | 5 */
    pathset_copy(&mine, &orig);
    pathset_join(&mine, &in, RP_SELECT_TOPK);
    CHECK(set_ok(&mine));
    CHECK(mine.n == 3 && mine.p[0].cost_ns == 100 && mine.p[1].cost_ns == 80 &&
          mine.p[2].cost_ns == 5);
    CHECK(mine.p[1].iv[0].rank == 2 && mine.p[1].iv[0].low == 9);
    CHECK(mine.p[0].n_iv == 2 && mine.p[0].iv[1].rank == 1);

    /* fewer than k distinct: keep all; join with itself is a no-op */
    pathset_reset(&mine);
    pathset_add_cost(&mine, 7);
    in.n = 1;
    put_path(&in, 0, 9, 1, &ic);
    pathset_join(&mine, &in, RP_SELECT_PAPER);
    CHECK(mine.n == 2 && mine.p[0].cost_ns == 9 && mine.p[1].cost_ns == 7);
    pathset_join(&mine, &mine, RP_SELECT_PAPER);
    CHECK(mine.n == 2 && set_ok(&mine));
    pathset_join(&mine, &in, RP_SELECT_PAPER);   /* in again: duplicate */
    CHECK(mine.n == 2 && set_ok(&mine));
    pathset_free(&mine);
    pathset_free(&in);
    pathset_free(&orig);
}

/* ps <- n plain paths of the given costs (descending), one path each */
static void plain_paths(rp_pathset *ps, const int64_t *cost, uint32_t n)
{
    pathset_reset(ps);
    ps->n = n;
    for (uint32_t i = 0; i < n; i++) {
        put_path(ps, i, cost[i], 0, NULL);
        ps->p[i].w = 1.0f;
    }
}

/* ps <- paths 100 and 0, and between them 8 paths dropped earlier with
 * mean cost 30: their box is [0, 60] */
static void gap_set(rp_pathset *ps)
{
    static const int64_t c[2] = { 100, 0 };
    plain_paths(ps, c, 2);
    ps->n_sk = 1;
    ps->sk_cost[0] = 30;
    ps->sk_w[0] = 8.0f;
}

/* The weighted join (RP_SELECT=repr) by hand: a sketch point's weight is
 * spread evenly over the widest interval centred on its mean inside its
 * gap, and a path from the other side splits it at its cost. */
static void test_join_weighted_hand(void)
{
    static const int64_t c45[1] = { 45 }, c60_45[2] = { 60, 45 };
    rp_pathset mine, in, sym;
    pathset_init(&mine, 3, 0);
    pathset_init(&in, 3, 0);
    pathset_init(&sym, 3, 0);
    gap_set(&mine);
    plain_paths(&in, c45, 1);
    pathset_copy(&sym, &in);
    pathset_join(&mine, &in, RP_SELECT_REPR);
    /* three paths fit k = 3: all kept; the box above 45 ([45, 60]: a
     * quarter, 2 paths, mean 52.5) and below it (6 paths, mean 22.5) */
    CHECK(set_ok(&mine));
    CHECK(mine.n == 3 && mine.p[0].cost_ns == 100 && mine.p[1].cost_ns == 45 &&
          mine.p[2].cost_ns == 0);
    CHECK_EQ(mine.n_sk, 2);
    CHECK(mine.sk_cost[0] == 53 && mine.sk_cost[1] == 23);
    double u = ldexp(1.0, mine.wexp);
    CHECK(fabs(mine.sk_w[0] * u - 2.0) < 1e-6 && fabs(mine.sk_w[1] * u - 6.0) < 1e-6);
    CHECK(fabs(mine.p[1].w * u - 1.0) < 1e-6);
    /* the other way round: the same bits */
    gap_set(&in);
    pathset_join(&sym, &in, RP_SELECT_REPR);
    CHECK(sets_equal(&sym, &mine));

    /* k = 3 must drop one of 100, 60, 45, 0 (weights 1, 1, 1, 1 and 8 in
     * [0, 60]): the middle level is the path nearest in cost to the
     * median of the 12 paths, 6 down from the top: past 100, 60, the 2 of
     * the box in [45, 60] and 45 (5), 1 into the 6 between 45 and 0, at
     * 45 - 45 / 6 = 37.5: the path at 45; what lies between 100 and 45
     * (the path at 60 and 2 of the 8: 3 paths, mean (60 + 105) / 3 = 55)
     * becomes one sketch point */
    gap_set(&mine);
    plain_paths(&in, c60_45, 2);
    pathset_join(&mine, &in, RP_SELECT_REPR);
    CHECK(set_ok(&mine));
    CHECK(mine.n == 3 && mine.p[0].cost_ns == 100 && mine.p[1].cost_ns == 45 &&
          mine.p[2].cost_ns == 0);
    u = ldexp(1.0, mine.wexp);
    CHECK_EQ(mine.n_sk, 2);
    CHECK(mine.sk_cost[0] == 55 && fabs(mine.sk_w[0] * u - 3.0) < 1e-6);
    CHECK(mine.sk_cost[1] == 23 && fabs(mine.sk_w[1] * u - 6.0) < 1e-6);
    pathset_free(&mine);
    pathset_free(&in);
    pathset_free(&sym);
}

/* ---- wire format ---------------------------------------------------- */

static void make_sample(rp_pathset *ps)
{
    rp_interval a[3] = { { 0, 0, 9 }, { 3, 2, 2 }, { 70000, 65534, 65535 } };
    ps->n = 3;
    put_path(ps, 0, 123456789012LL, 3, a);
    put_path(ps, 1, 1000, 0, NULL);
    ps->p[1].n_evicted = 77;
    put_path(ps, 2, 1000, 1, a + 1);
    ps->p[2].flags = RP_PATH_OVERFLOW;
    ps->n_sk = 1;   /* one sketch point between the paths */
    ps->sk_cost[0] = 5000;
    ps->sk_w[0] = 2.5f;
}

/* ---- REF entries (wire v7) ---- */
static int place_42(void *ctx, const rp_path *p, uint32_t *ref)
{
    (void)ctx, (void)p;
    *ref = 42;
    return 0;
}

/* the summary from the set in ctx (the sample), at locator 42 only */
static int resolve_42(void *ctx, uint64_t sid, uint32_t ref, rp_path *hdr)
{
    const rp_pathset *src = ctx;
    int i = pathset_find_sid(src, sid);
    if (ref != 42 || i < 0)
        return -1;
    const rp_path *p = &src->p[i];
    pathset_summary_of(hdr, p);
    return 0;
}

static int parse_refs(const uint8_t *b, size_t len, const rp_pathset *src, rp_path *hdr)
{
    int64_t skc[4];
    float skw[4];
    rp_wire_refs r = { place_42, resolve_42, (void *)(uintptr_t)src, 0 };
    rp_wire_set ws = { hdr, skc, skw, 0, 0, 0, &r };
    return pathset_wire_parse(b, len, 4, 3, &ws) == 0 ? (int)ws.n : -1;
}

static void test_wire_refs(void)
{
    rp_pathset ps, dec, cp;
    pathset_init(&ps, 4, 3);
    pathset_init(&dec, 4, 3);
    pathset_init(&cp, 4, 3);
    make_sample(&ps);
    uint64_t next = 7;
    pathset_name(&ps, &next);
    /* every path with a summary gets a name; a plain one would not */
    CHECK(ps.p[0].sid == 7 && ps.p[1].sid == 8 && ps.p[2].sid == 9 && next == 10);
    CHECK_EQ(pathset_find_sid(&ps, 8), 1);
    CHECK_EQ(pathset_find_sid(&ps, 10), -1);
    _Alignas(8) uint8_t enc[512], rb[512], t[512];
    size_t len = pathset_encode(&ps, enc, sizeof enc);
    rp_wire_refs r = { place_42, resolve_42, &ps, 0 };
    size_t rlen = pathset_encode_refs(&ps, rb, sizeof rb, &r);
    /* only p0 (3 intervals) is worth a reference: header 12; p0 a REF entry
     * at 12 (mask WIDE|REF, 8-byte cost, sid, ref, w: 25 B); p1 at 37, p2 at
     * 54 as before; the sketch point at 67; 1 pad byte; p2's interval */
    CHECK_EQ(len, 104);
    CHECK_EQ(rlen, 88);
    CHECK_EQ(rb[12], 0x41);
    uint64_t sid;
    uint32_t ref;
    memcpy(&sid, rb + 21, 8);
    memcpy(&ref, rb + 29, 4);
    CHECK(sid == 7 && ref == 42);
    CHECK_EQ(rb[37], 0x09);
    CHECK_EQ(rb[54], 0x06);
    /* read back through the resolver: the same paths, p0 named */
    rp_path hdr[4];
    CHECK_EQ(parse_refs(rb, rlen, &ps, hdr), 3);
    CHECK(hdr[0].sid == 7 && hdr[0].iv == ps.p[0].iv && hdr[1].sid == 0 && hdr[2].sid == 0);
    for (int i = 0; i < 3; i++)
        CHECK(select_path_cmp(&hdr[i], &ps.p[i]) == 0 && hdr[i].w == ps.p[i].w);
    /* refused: without a resolver (files, MPI messages), a zero name, bits
     * beside WIDE, 0x80, a locator the resolver does not know */
    CHECK_EQ(pathset_decode(&dec, rb, rlen), -1);
    CHECK_EQ(pathset_join_wire(&dec, rb, rlen, RP_SELECT_REPR), -1);
    static const struct { size_t off; uint8_t v; } mut[] = {
        { 21, 0 }, { 12, 0x43 }, { 12, 0x51 }, { 12, 0xc1 }, { 12, 0x40 }, { 29, 43 },
    };
    for (unsigned i = 0; i < sizeof mut / sizeof mut[0]; i++) {
        memcpy(t, rb, rlen);
        if (mut[i].off == 21)
            memset(t + 21, 0, 8);
        else
            t[mut[i].off] = mut[i].v;
        CHECK_EQ(parse_refs(t, rlen, &ps, hdr), -1);
    }
    /* a name the receiver's resolver cannot find: refused */
    ps.p[0].sid = 70;
    CHECK_EQ(parse_refs(rb, rlen, &ps, hdr), -1);
    ps.p[0].sid = 7;
    /* copies keep names; whatever changes a summary clears them */
    pathset_copy(&cp, &ps);
    CHECK(cp.p[0].sid == 7 && cp.p[2].sid == 9);
    pathset_add_sample(&cp, 999, 0);   /* under 1 us: nothing changes */
    CHECK(cp.p[0].sid == 7);
    pathset_add_sample(&cp, 5000, 0);
    CHECK(cp.p[0].sid == 0 && cp.p[1].sid == 0 && cp.p[2].sid == 0);
    pathset_copy(&cp, &ps);
    uint64_t rng = 1;
    pathset_extend(&cp, 3, 40, RP_SUMMARY_PROF, &rng);
    CHECK(cp.p[0].sid == 0 && cp.p[1].sid == 0 && cp.p[2].sid == 0);
    pathset_reset(&cp);
    CHECK(cp.p[0].sid == 0);
    pathset_free(&ps);
    pathset_free(&dec);
    pathset_free(&cp);
}

static void wr16(uint8_t *b, size_t off, uint16_t v) { memcpy(b + off, &v, 2); }
static void wr32(uint8_t *b, size_t off, uint32_t v) { memcpy(b + off, &v, 4); }

/* Decode a mutated copy of enc; expect rejection and an emptied set. */
static void expect_reject(rp_pathset *ps, const uint8_t *enc, size_t len,
                          size_t off, const void *v, size_t vlen, int line)
{
    _Alignas(8) uint8_t buf[512];
    memcpy(buf, enc, len);
    memcpy(buf + off, v, vlen);
    ps->n = 5;
    int rc = pathset_decode(ps, buf, len);
    if (rc != -1 || ps->n != 0)
        fprintf(stderr, "  (mutation at line %d accepted)\n", line);
    CHECK(rc == -1 && ps->n == 0);
    /* the join straight from the wire rejects it too, leaving mine alone */
    rp_pathset mine, ref;
    pathset_init(&mine, ps->k_cap, ps->iv_cap);
    pathset_init(&ref, ps->k_cap, ps->iv_cap);
    pathset_reset(&mine);
    pathset_add_cost(&mine, 77);
    pathset_copy(&ref, &mine);
    rc = pathset_join_wire(&mine, buf, len, RP_SELECT_PAPER);
    if (rc != -1)
        fprintf(stderr, "  (mutation at line %d accepted by pathset_join_wire)\n", line);
    CHECK(rc == -1 && sets_equal(&mine, &ref));
    pathset_free(&mine);
    pathset_free(&ref);
}
#define REJECT(off, T, val)                                                \
    do {                                                                   \
        T v_ = (T)(val);                                                   \
        expect_reject(&dec, enc, len, (off), &v_, sizeof v_, __LINE__);    \
    } while (0)

/* A set whose equal-cost paths are out of the full order (prof-mode
 * eviction can do that) takes the join's general path and still gives
 * the reference selection. */
static void test_join_unsorted(void)
{
    rp_pathset a, b;
    pathset_init(&a, 4, 2);
    pathset_init(&b, 4, 2);
    a.n = 3;
    for (uint32_t i = 0; i < 3; i++) {
        a.p[i].cost_ns = 50;
        a.p[i].n_iv = 1;
        a.p[i].iv[0] = (rp_interval){ 3 - i, 0, 0 };  /* ranks 3,2,1: descending */
    }
    b.n = 2;
    b.p[0].cost_ns = 50;
    b.p[0].n_iv = 1;
    b.p[0].iv[0] = (rp_interval){ 2, 0, 0 };          /* duplicate of a.p[1] */
    b.p[1].cost_ns = 10;
    b.p[1].n_iv = 0;
    /* the same sets through the wire, the unsorted one as the message */
    rp_pathset b2;
    _Alignas(8) uint8_t enc[256];
    pathset_init(&b2, 4, 2);
    pathset_copy(&b2, &b);
    size_t elen = pathset_encode(&a, enc, sizeof enc);
    CHECK(elen > 0);
    CHECK_EQ(pathset_join_wire(&b2, enc, elen, RP_SELECT_PAPER), 0);
    pathset_join(&a, &b, RP_SELECT_PAPER);
    CHECK(sets_equal(&a, &b2));
    CHECK(set_ok(&b2));
    pathset_free(&b2);
    CHECK_EQ(a.n, 4);
    CHECK_EQ(a.p[0].iv[0].rank, 1);
    CHECK_EQ(a.p[1].iv[0].rank, 2);
    CHECK_EQ(a.p[2].iv[0].rank, 3);
    CHECK_EQ(a.p[3].cost_ns, 10);
    pathset_free(&a);
    pathset_free(&b);
}

static void test_wire(void)
{
    rp_pathset ps, dec, small_k, small_iv;
    pathset_init(&ps, 4, 3);
    pathset_init(&dec, 4, 3);
    pathset_init(&small_k, 2, 3);
    pathset_init(&small_iv, 4, 2);
    make_sample(&ps);
    _Alignas(8) uint8_t enc[512];
    size_t len = pathset_encode(&ps, enc, sizeof enc);
    /* version 9 (version 5 layout, no REF entry, no link) of the sample (wire.c): header 12; p0 at 12 (mask
     * WIDE|IV, 8-byte cost, n_iv, w: 15 B); p1 at 27 (WIDE|EVICT: 17 B); p2
     * at 44 (IV|FLAGS, 4-byte difference 0: 13 B); the sketch point at 57
     * (SK_WIDE: 12 B); 3 zero bytes; the 4 intervals at 72 (p0's 3, p2's 1) */
    CHECK_EQ(len, 104);
    CHECK(len <= pathset_max_wire_bytes(4, 3));
    CHECK_EQ(pathset_max_wire_bytes(4, 3), 12 + 4 * 29 + 3 * 12 + 3 + 8 * 4 * 3);
    CHECK_EQ(pathset_encode(&ps, enc, len - 1), 0);   /* too small */
    CHECK_EQ(pathset_encode(&ps, enc, len), len);     /* exact fit */
    /* header fields at their documented offsets */
    CHECK_EQ(enc[0], RP_PATHSET_WIRE_VERSION);
    CHECK_EQ(enc[1], 3);   /* n_paths */
    CHECK_EQ(enc[2], 1);   /* n_sketch */
    CHECK_EQ(enc[3], 1);   /* SK_WIDE: the point lies 123 s below the top */
    uint32_t tot;
    memcpy(&tot, enc + 4, 4);
    CHECK_EQ(tot, len);
    CHECK_EQ(enc[12], 0x03);
    CHECK_EQ(enc[27], 0x09);
    CHECK_EQ(enc[44], 0x06);
    CHECK(enc[69] == 0 && enc[70] == 0 && enc[71] == 0);
    /* a set of plain paths: 9 bytes a path (mask, 4-byte cost, weight) */
    {
        rp_pathset plain;
        pathset_init(&plain, 4, 3);
        plain.n = 3;
        put_path(&plain, 0, 3000, 0, NULL);
        put_path(&plain, 1, 2000, 0, NULL);
        put_path(&plain, 2, 1000, 0, NULL);
        plain.n_sk = 2;
        plain.sk_cost[0] = 2500;
        plain.sk_cost[1] = 1500;
        plain.sk_w[0] = plain.sk_w[1] = 1.0f;
        _Alignas(8) uint8_t pe[128];
        CHECK_EQ(pathset_encode(&plain, pe, sizeof pe), 12 + 3 * 9 + 2 * 8);
        CHECK_EQ(pathset_decode(&dec, pe, 12 + 3 * 9 + 2 * 8), 0);
        CHECK(sets_equal(&dec, &plain));
        pathset_free(&plain);
    }

    CHECK_EQ(pathset_decode(&dec, enc, len), 0);
    CHECK(sets_equal(&dec, &ps));
    CHECK(set_ok(&dec));
    CHECK_EQ(dec.p[0].iv[2].rank, 70000);
    CHECK_EQ(dec.p[1].n_evicted, 77);
    CHECK_EQ(dec.p[2].flags, RP_PATH_OVERFLOW);
    CHECK(dec.n_sk == 1 && dec.sk_cost[0] == 5000 && dec.sk_w[0] == 2.5f);
    /* unaligned source buffer */
    _Alignas(8) uint8_t odd[520];
    memcpy(odd + 1, enc, len);
    CHECK_EQ(pathset_decode(&dec, odd + 1, len), 0);
    CHECK(sets_equal(&dec, &ps));
    /* ... which the wire join refuses (its intervals are read in place) */
    rp_pathset wj;
    pathset_init(&wj, 4, 3);
    pathset_reset(&wj);
    CHECK_EQ(pathset_join_wire(&wj, odd + 1, len, RP_SELECT_PAPER), -1);
    CHECK_EQ(wj.n, 1);
    pathset_free(&wj);

    /* every truncation is rejected */
    for (size_t cut = 0; cut < len; cut++) {
        dec.n = 5;
        CHECK_EQ(pathset_decode(&dec, enc, cut), -1);
        CHECK_EQ(pathset_join_wire(&small_iv, enc, cut, RP_SELECT_PAPER), -1);
        CHECK_EQ(dec.n, 0);
    }
    /* truncation with total_length patched to match still fails */
    for (size_t cut = 8; cut < len; cut++) {
        uint8_t t[512];
        memcpy(t, enc, cut);
        wr32(t, 4, (uint32_t)cut);
        CHECK_EQ(pathset_decode(&dec, t, cut), -1);
    }
    /* trailing bytes, with and without a patched total_length */
    {
        uint8_t t[512];
        memcpy(t, enc, len);
        t[len] = 0;
        CHECK_EQ(pathset_decode(&dec, t, len + 1), -1);
        wr32(t, 4, (uint32_t)len + 1);
        CHECK_EQ(pathset_decode(&dec, t, len + 1), -1);
    }
    CHECK_EQ(pathset_decode(&dec, NULL, 0), -1);

    /* path entries at 12, 27, 44; the sketch point at 57; pad at 69;
     * intervals at 72 (above) */
    const size_t p0 = 12, p1 = 27, p2 = 44, sk0 = 57, pad0 = 69, iv0 = 72;
    REJECT(0, uint8_t, 4);                       /* version (4: fixed-size fields) */
    REJECT(0, uint8_t, 3);                       /* (3: before the sketch) */
    REJECT(0, uint8_t, 5);                       /* (5: the same layout, odd-quantile sketch) */
    REJECT(0, uint8_t, 6);                       /* (6: before REF entries) */
    REJECT(0, uint8_t, 7);                       /* (7: before links) */
    REJECT(0, uint8_t, 8);                       /* (8: before task-index epochs) */
    REJECT(0, uint8_t, 10);
    REJECT(0, uint8_t, 0);
    REJECT(3, uint8_t, 3);                       /* unknown set flag */
    REJECT(3, uint8_t, 0);                       /* SK_WIDE cleared: misparse */
    REJECT(2, uint8_t, 0);                       /* n_sketch: fewer (trailing) */
    REJECT(2, uint8_t, 2);                       /* more (runs past) */
    REJECT(2, uint8_t, 4);                       /* >= k */
    REJECT(sk0, int64_t, 123456789012LL - 999);  /* sketch below the shortest */
    REJECT(sk0, int64_t, -1);                    /* above 2^63 */
    REJECT(sk0, int64_t, 5);                     /* wide but < 2^32: not canonical */
    REJECT(sk0 + 8, uint32_t, 0x7FC00000);       /* sketch weight: NaN */
    REJECT(sk0 + 8, uint32_t, 0xBF800000);       /* -1 */
    REJECT(1, uint8_t, 0);                       /* n_paths == 0 */
    REJECT(1, uint8_t, 2);                       /* fewer paths: misparse */
    REJECT(1, uint8_t, 4);                       /* more paths: runs past */
    REJECT(1, uint8_t, 255);
    REJECT(4, uint32_t, len - 1);                /* total_length */
    REJECT(4, uint32_t, len + 1);
    REJECT(4, uint32_t, 0);
    REJECT(p0 + 1, int64_t, -1);                 /* cost above INT64_MAX */
    REJECT(p0 + 1, int64_t, 7);                  /* wide but < 2^32 */
    REJECT(p1 + 1, int64_t, 123456789013LL);     /* difference below 0 */
    REJECT(p2 + 1, uint32_t, 1001);
    REJECT(p0, uint8_t, 0x43);                   /* unknown mask bits */
    REJECT(p0, uint8_t, 0x83);
    REJECT(p1, uint8_t, 0x01);                   /* n_evicted dropped: misparse */
    REJECT(p0 + 9, uint16_t, 0);                 /* present, but 0 */
    REJECT(p1 + 9, uint32_t, 0);
    REJECT(p2 + 7, uint16_t, 0);
    REJECT(p0 + 9, uint16_t, 4);                 /* n_iv > iv_cap */
    REJECT(p0 + 9, uint16_t, 2);                 /* n_iv off: misparse */
    REJECT(p2 + 5, uint16_t, 2);
    REJECT(p2 + 7, uint16_t, 0x8000);            /* unknown flag */
    REJECT(p1 + 13, uint32_t, 0x7FC00000);       /* weight: NaN */
    REJECT(p2 + 9, uint32_t, 0x7F800000);        /* weight: infinity */
    REJECT(p0 + 11, uint32_t, 0xBF800000);       /* weight: -1 */
    REJECT(pad0 + 1, uint8_t, 1);                /* padding not zero */
    REJECT(8, int32_t, (1 << 30) + 1);           /* wexp out of range */
    REJECT(8, int32_t, -(1 << 30) - 1);
    REJECT(iv0 + 4, uint16_t, 10);               /* low > high (high 9) */
    /* high lowered to low (0 <= 0) is still valid: accepted */
    {
        uint8_t t[512];
        memcpy(t, enc, len);
        wr16(t, iv0 + 6, 0);
        CHECK_EQ(pathset_decode(&dec, t, len), 0);
        CHECK_EQ(dec.p[0].iv[0].high, 0);
    }
    /* capacities of the receiving set bound what is accepted */
    CHECK_EQ(pathset_decode(&small_k, enc, len), -1);
    CHECK_EQ(small_k.n, 0);
    CHECK_EQ(pathset_decode(&small_iv, enc, len), -1);
    /* a difference moves the cost, nothing else */
    {
        uint8_t t[512];
        memcpy(t, enc, len);
        wr32(t, p2 + 1, 1);
        CHECK_EQ(pathset_decode(&dec, t, len), 0);
        CHECK(dec.p[2].cost_ns == 999 && dec.p[1].cost_ns == 1000 && dec.p[2].n_iv == 1);
    }
    /* random corruption: never crashes; what is accepted is well formed */
    int accepted = 0;
    for (int r = 0; r < 20000; r++) {
        uint8_t t[512];
        memcpy(t, enc, len);
        int flips = 1 + (int)rnd(3);
        for (int f = 0; f < flips; f++)
            t[rnd((uint32_t)len)] ^= (uint8_t)(1u << rnd(8));
        if (pathset_decode(&dec, t, len) == 0) {
            accepted++;
            CHECK(set_ok(&dec));
        } else {
            CHECK_EQ(dec.n, 0);
        }
    }
    CHECK(accepted > 0 && accepted < 20000);
    pathset_free(&ps);
    pathset_free(&dec);
    pathset_free(&small_k);
    pathset_free(&small_iv);
}

/* ---- randomized property test -------------------------------------- */

#define NR 5      /* simulated ranks */

static int64_t mx_cost(const rp_pathset *a, const rp_pathset *b)
{
    return a->p[0].cost_ns > b->p[0].cost_ns ? a->p[0].cost_ns : b->p[0].cost_ns;
}

static int64_t mn_cost(const rp_pathset *a, const rp_pathset *b)
{
    int64_t x = a->p[a->n - 1].cost_ns, y = b->p[b->n - 1].cost_ns;
    return x < y ? x : y;
}

/* Reference join: copy both inputs' paths, select_k, compare. */
static void check_join(const rp_pathset *before, const rp_pathset *in,
                       const rp_pathset *after, rp_select_mode sel)
{
    uint32_t nc = before->n + in->n, m;
    rp_path *cand[nc], *out[nc];
    for (uint32_t i = 0; i < before->n; i++)
        cand[i] = &before->p[i];
    for (uint32_t i = 0; i < in->n; i++)
        cand[before->n + i] = &in->p[i];
    if (sel == RP_SELECT_REPR) {
        /* weighted: the total weight of paths and sketch points is kept,
         * the sketch stays within the paths' cost range in order, and the
         * join is symmetric to the last bit (in U mine == mine U in) */
        double w_in = 0, w_out = 0;
        for (uint32_t i = 0; i < before->n; i++)
            w_in += ldexp(before->p[i].w, before->wexp);
        for (uint32_t i = 0; i < before->n_sk; i++)
            w_in += ldexp(before->sk_w[i], before->wexp);
        for (uint32_t i = 0; i < in->n; i++)
            w_in += ldexp(in->p[i].w, in->wexp);
        for (uint32_t i = 0; i < in->n_sk; i++)
            w_in += ldexp(in->sk_w[i], in->wexp);
        for (uint32_t j = 0; j < after->n; j++)
            w_out += ldexp(after->p[j].w, after->wexp);
        for (uint32_t j = 0; j < after->n_sk; j++) {
            w_out += ldexp(after->sk_w[j], after->wexp);
            CHECK(after->sk_cost[j] <= after->p[0].cost_ns &&
                  after->sk_cost[j] >= after->p[after->n - 1].cost_ns);
            CHECK(j == 0 || after->sk_cost[j] <= after->sk_cost[j - 1]);
        }
        CHECK(fabs(w_out / w_in - 1) < 1e-5);
        /* the mean cost is kept (up to the rounding of the sketch points'
         * costs to whole ns and 1-ns boxes), and a gap of 2 ns or more
         * holds at most one sketch point, strictly inside */
        double m_in = 0, m_out = 0;
        for (uint32_t i = 0; i < before->n; i++)
            m_in += ldexp(before->p[i].w, before->wexp) * (double)before->p[i].cost_ns;
        for (uint32_t i = 0; i < before->n_sk; i++)
            m_in += ldexp(before->sk_w[i], before->wexp) * (double)before->sk_cost[i];
        for (uint32_t i = 0; i < in->n; i++)
            m_in += ldexp(in->p[i].w, in->wexp) * (double)in->p[i].cost_ns;
        for (uint32_t i = 0; i < in->n_sk; i++)
            m_in += ldexp(in->sk_w[i], in->wexp) * (double)in->sk_cost[i];
        for (uint32_t j = 0; j < after->n; j++)
            m_out += ldexp(after->p[j].w, after->wexp) * (double)after->p[j].cost_ns;
        uint32_t g = 0, last_g = UINT32_MAX;
        for (uint32_t j = 0; j < after->n_sk; j++) {
            m_out += ldexp(after->sk_w[j], after->wexp) * (double)after->sk_cost[j];
            /* its gap: the first whose bottom is not above it, but a point
             * on the bottom of a gap 2 ns wide or more is in a narrower one
             * below */
            while (g + 2 < after->n &&
                   (after->sk_cost[j] < after->p[g + 1].cost_ns ||
                    (after->sk_cost[j] == after->p[g + 1].cost_ns &&
                     after->p[g].cost_ns - after->p[g + 1].cost_ns >= 2)))
                g++;
            if (after->p[g].cost_ns - after->p[g + 1].cost_ns >= 2) {
                CHECK(after->sk_cost[j] > after->p[g + 1].cost_ns &&
                      after->sk_cost[j] < after->p[g].cost_ns);
                CHECK(g != last_g);
                last_g = g;
            }
        }
        double range = (double)(mx_cost(before, in) - mn_cost(before, in));
        if (w_in > 0 && after->k_cap > 1)   /* (k = 1: all on the longest path) */
            CHECK(fabs(m_out / w_out - m_in / w_in) <= 2.0 + 1e-5 * range);
        CHECK(after->p[0].w >= 0);
        CHECK(after->n <= after->k_cap && after->n_sk < after->k_cap);
        rp_pathset sym;
        pathset_init(&sym, in->k_cap, in->iv_cap);
        pathset_copy(&sym, in);
        pathset_join(&sym, before, sel);
        CHECK_EQ(sym.n, after->n);
        CHECK_EQ(sym.wexp, after->wexp);
        for (uint32_t j = 0; j < sym.n && j < after->n; j++) {
            CHECK_EQ(select_path_cmp(&sym.p[j], &after->p[j]), 0);
            CHECK(memcmp(&sym.p[j].w, &after->p[j].w, sizeof sym.p[j].w) == 0);
        }
        CHECK_EQ(sym.n_sk, after->n_sk);
        for (uint32_t j = 0; j < sym.n_sk && j < after->n_sk; j++)
            CHECK(sym.sk_cost[j] == after->sk_cost[j] &&
                  memcmp(&sym.sk_w[j], &after->sk_w[j], sizeof sym.sk_w[j]) == 0);
        pathset_free(&sym);
    } else {
        select_k(cand, nc, before->k_cap, sel, out, &m);
        CHECK_EQ(after->n, m);
        for (uint32_t j = 0; j < m && j < after->n; j++)
            CHECK_EQ(select_path_cmp(&after->p[j], out[j]), 0);
    }
    /* extremes survive: max of maxes, min of mins */
    CHECK_EQ(after->p[0].cost_ns, mx_cost(before, in));
    if (after->k_cap >= 2)
        CHECK_EQ(after->p[after->n - 1].cost_ns, mn_cost(before, in));
    /* no exact duplicates */
    for (uint32_t j = 1; j < after->n; j++)
        CHECK(select_path_cmp(&after->p[j - 1], &after->p[j]) < 0);
}

/* ---- summaries by reference (wire.h, rp_wire_refs) -----------------------
 * A stand-in carrier: place() keeps a copy of the summary under a locator
 * (and refuses one in five: that path travels in the set); resolve() takes
 * it from the receiver's own path of that name when there is one (no
 * copy: the join must then cope with an incoming path whose intervals are
 * one of its own buffers), else from the copy.  Every name is checked
 * against what it named when it was given (reg[]): a name must keep
 * naming exactly one summary. */
#define REF_SLOTS 256u
#define REG_MAX   65536u
typedef struct summ_copy {
    uint64_t sid;
    uint16_t n_iv, flags;
    uint32_t n_evicted, sampled_us, dropped_us;
    rp_interval iv[8];
} summ_copy;
static summ_copy ref_slot[REF_SLOTS], reg[REG_MAX];
static uint32_t ref_next;
static long ref_held, ref_copied;
typedef struct ref_ctx {
    const rp_pathset *mine;
} ref_ctx;

static void summ_take(summ_copy *c, const rp_path *p)
{
    c->sid = p->sid;
    c->n_iv = p->n_iv;
    c->flags = p->flags;
    c->n_evicted = p->n_evicted;
    c->sampled_us = p->sampled_us;
    c->dropped_us = p->dropped_us;
    memcpy(c->iv, p->iv, (size_t)p->n_iv * sizeof *p->iv);
}

static int summ_same(const summ_copy *c, const rp_path *p)
{
    return c->n_iv == p->n_iv && c->flags == p->flags && c->n_evicted == p->n_evicted &&
           c->sampled_us == p->sampled_us && c->dropped_us == p->dropped_us &&
           memcmp(c->iv, p->iv, (size_t)p->n_iv * sizeof *p->iv) == 0;
}

static int ref_place(void *ctx, const rp_path *p, uint32_t *ref)
{
    (void)ctx;
    if (rnd(5) == 0 || p->n_iv > 8)
        return -1;
    *ref = ref_next++ % REF_SLOTS;
    summ_take(&ref_slot[*ref], p);
    return 0;
}

static int ref_resolve(void *ctx, uint64_t sid, uint32_t ref, rp_path *hdr)
{
    const ref_ctx *c = ctx;
    int i = pathset_find_sid(c->mine, sid);
    const summ_copy *sc = &ref_slot[ref % REF_SLOTS];
    if (i >= 0) {
        const rp_path *p = &c->mine->p[i];
        if (sid < REG_MAX)
            CHECK(summ_same(&reg[sid], p));   /* the name still names it */
        pathset_summary_of(hdr, p);
        ref_held++;
        return 0;
    }
    if (ref >= REF_SLOTS || sc->sid != sid)
        return -1;
    hdr->n_iv = sc->n_iv;
    hdr->flags = sc->flags;
    hdr->n_evicted = sc->n_evicted;
    hdr->sampled_us = sc->sampled_us;
    hdr->dropped_us = sc->dropped_us;
    hdr->iv = (rp_interval *)(uintptr_t)sc->iv;
    ref_copied++;
    return 0;
}

/* Name set's paths (the mailbox sender does it before encoding), writing
 * each new name's summary in the register. */
static void name_set(rp_pathset *ps, uint64_t *next)
{
    uint64_t first = *next;
    pathset_name(ps, next);
    for (uint32_t i = 0; i < ps->n; i++) {
        uint64_t sid = ps->p[i].sid;
        if (sid >= first && sid < REG_MAX && ps->p[i].n_iv <= 8)
            summ_take(&reg[sid], &ps->p[i]);
    }
}

static int weights_equal(const rp_pathset *a, const rp_pathset *b)
{
    if (a->wexp != b->wexp)
        return 0;
    for (uint32_t i = 0; i < a->n && i < b->n; i++)
        if (memcmp(&a->p[i].w, &b->p[i].w, sizeof a->p[i].w) != 0)
            return 0;
    return 1;
}

static void property_run(uint32_t k, uint32_t iv_cap, rp_select_mode sel,
                         rp_summary_mode mode, int ops)
{
    rp_pathset set[NR], before, wire_in, via_wire, plain;
    uint32_t next_idx[NR] = { 0 };
    uint64_t rng = 99, next_sid = 1;
    _Alignas(8) uint8_t buf[8192], rbuf[8192];
    ref_ctx rc = { NULL };
    rp_wire_refs refs = { ref_place, ref_resolve, &rc, 0 };
    memset(reg, 0, sizeof reg);
    CHECK(pathset_max_wire_bytes(k, iv_cap) <= sizeof buf);
    for (int r = 0; r < NR; r++) {
        pathset_init(&set[r], k, iv_cap);
        pathset_reset(&set[r]);
    }
    pathset_init(&before, k, iv_cap);
    pathset_init(&wire_in, k, iv_cap);
    pathset_init(&via_wire, k, iv_cap);
    pathset_init(&plain, k, iv_cap);
    for (int op = 0; op < ops; op++) {
        uint32_t r = rnd(NR), what = rnd(100);
        if (what < 30) {
            pathset_add_cost(&set[r], rnd(3) * 10);   /* ties are common */
        } else if (what < 65) {
            if (rnd(4) == 0)
                next_idx[r] += 1 + rnd(3);            /* a gap */
            uint16_t idx = (uint16_t)(next_idx[r]++ & 0xffff);
            pathset_extend(&set[r], r, idx, mode, &rng);
        } else if (what < 98) {
            /* a message from s to r: encode, decode, join */
            uint32_t s = rnd(NR);
            name_set(&set[s], &next_sid);
            size_t len = pathset_encode(&set[s], buf, sizeof buf);
            CHECK(len > 0);
            CHECK_EQ(pathset_decode(&wire_in, buf, len), 0);
            CHECK(sets_equal(&wire_in, &set[s]));
            pathset_copy(&before, &set[r]);
            pathset_copy(&via_wire, &set[r]);
            pathset_copy(&plain, &set[r]);
            pathset_join(&plain, &wire_in, sel);
            check_join(&before, &wire_in, &plain, sel);
            /* joining straight from the bytes gives the same set */
            CHECK_EQ(pathset_join_wire(&via_wire, buf, len, sel), 0);
            CHECK(sets_equal(&via_wire, &plain));
            CHECK(set_ok(&via_wire));
            /* and by reference, names kept by the receiver: the same set,
             * weights to the bit (REF entries are never longer) */
            uint32_t placed = ref_next;
            refs.always = rnd(3) == 0;   /* every summary with intervals, or the shorter */
            size_t rlen = pathset_encode_refs(&set[s], rbuf, sizeof rbuf, &refs);
            CHECK(rlen > 0 && (rlen <= len || refs.always));
            CHECK(rlen <= pathset_max_wire_bytes(k, iv_cap));
            if (placed != ref_next)   /* REF paths: refused without a resolver */
                CHECK_EQ(pathset_decode(&wire_in, rbuf, rlen), -1);
            else
                CHECK(rlen == len && memcmp(rbuf, buf, len) == 0);
            refs.always = 0;
            rc.mine = &set[r];
            CHECK_EQ(pathset_join_wire_refs(&set[r], rbuf, rlen, sel, &refs), 0);
            CHECK(sets_equal(&set[r], &plain));
            CHECK(weights_equal(&set[r], &plain));
            for (uint32_t i = 0; i < set[r].n; i++)
                if (set[r].p[i].sid && set[r].p[i].sid < REG_MAX)
                    CHECK(summ_same(&reg[set[r].p[i].sid], &set[r].p[i]));
        } else {
            /* a phase end on every rank */
            for (int q = 0; q < NR; q++) {
                pathset_reset(&set[q]);
                next_idx[q] = 0;
            }
        }
        CHECK(set_ok(&set[r]));
        if (mode == RP_SUMMARY_PATH)
            for (uint32_t i = 0; i < set[r].n; i++)
                CHECK_EQ(set[r].p[i].n_evicted, 0);
    }
    for (int r = 0; r < NR; r++)
        pathset_free(&set[r]);
    pathset_free(&before);
    pathset_free(&wire_in);
    pathset_free(&via_wire);
    pathset_free(&plain);
}

static void test_property(void)
{
    static const uint32_t ks[] = { 1, 2, 3, 5, 8 };
    for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        for (int sel = 0; sel < 3; sel++) {   /* repr, topk, paper */
            property_run(ks[i], 3, (rp_select_mode)sel, RP_SUMMARY_PROF, 4000);
            property_run(ks[i], 6, (rp_select_mode)sel, RP_SUMMARY_PATH, 4000);
        }
    }
    property_run(4, 0, RP_SELECT_PAPER, RP_SUMMARY_PROF, 2000);
    /* the largest k (RP_PATHSET_MAX_K): a join's 64-bit slot mask full */
    property_run(RP_PATHSET_MAX_K, 2, RP_SELECT_PAPER, RP_SUMMARY_PROF, 1500);
    property_run(RP_PATHSET_MAX_K, 2, RP_SELECT_TOPK, RP_SUMMARY_PATH, 1500);
    property_run(RP_PATHSET_MAX_K, 2, RP_SELECT_REPR, RP_SUMMARY_PROF, 1500);
    /* both roads of a REF path were taken: its summary held by the
     * receiver (joined without a copy) and copied from the carrier */
    CHECK(ref_held > 1000 && ref_copied > 1000);
}

/* ---- the phase-end exchange's wide set (pathset_select_from) ------------ */

static double total_weight(const rp_pathset *ps)
{
    double t = 0;
    for (uint32_t i = 0; i < ps->n; i++)
        t += ps->p[i].w;
    for (uint32_t i = 0; i < ps->n_sk; i++)
        t += ps->sk_w[i];
    return ldexp(t, ps->wexp);
}

/* A butterfly over 8 members of k exact paths each (weight 1, no sketch),
 * at width `wide` (k: the join as every message does it), then k chosen:
 * the cost of the median level.  *exact: the true median of the 8k. */
static int64_t butterfly_median(const int64_t *cost, uint32_t k, uint32_t wide, double *exact)
{
    enum { M = 8 };
    rp_pathset s[M], out;
    for (int m = 0; m < M; m++) {
        pathset_init(&s[m], wide, 0);
        plain_paths(&s[m], cost + m * k, k);
    }
    for (int d = 1; d < M; d <<= 1)
        for (int m = 0; m < M; m++)
            if (!(m & d)) {   /* partners join the same two sets */
                rp_pathset t;
                pathset_init(&t, wide, 0);
                pathset_copy(&t, &s[m]);
                pathset_join(&s[m], &s[m ^ d], RP_SELECT_REPR);
                pathset_join(&s[m ^ d], &t, RP_SELECT_REPR);
                CHECK(sets_equal(&s[m], &s[m ^ d]));
                pathset_free(&t);
            }
    pathset_init(&out, k, 0);
    pathset_select_from(&out, &s[0], RP_SELECT_REPR);
    CHECK(set_ok(&out));
    CHECK(fabs(total_weight(&out) - (double)(M * k)) < 1e-3);
    int64_t all[M * 16];
    for (uint32_t i = 0; i < M * k; i++)
        all[i] = cost[i];
    for (uint32_t i = 1; i < M * k; i++)   /* insertion sort, descending */
        for (uint32_t j = i; j > 0 && all[j] > all[j - 1]; j--) {
            int64_t t = all[j];
            all[j] = all[j - 1];
            all[j - 1] = t;
        }
    *exact = (double)all[(M * k - 1) / 2];
    int64_t got = out.p[k / 2].cost_ns;
    for (int m = 0; m < M; m++)
        pathset_free(&s[m]);
    pathset_free(&out);
    return got;
}

static void test_select_from(void)
{
    /* a wide set of 17 from random joins; its k = 5 choice keeps the ends,
     * the total weight and only paths it held, identically every time */
    rp_pathset w, in, a, b;
    pathset_init(&w, 17, 2);
    pathset_init(&in, 17, 2);
    pathset_init(&a, 5, 2);
    pathset_init(&b, 5, 2);
    for (int trial = 0; trial < 200; trial++) {
        pathset_reset(&w);
        for (int j = 0; j < 12; j++) {
            int64_t c[6];
            uint32_t n = 1 + rnd(6);
            for (uint32_t i = 0; i < n; i++)
                c[i] = 1000 + rnd(100000);
            for (uint32_t i = 1; i < n; i++)
                for (uint32_t q = i; q > 0 && c[q] > c[q - 1]; q--) {
                    int64_t t = c[q];
                    c[q] = c[q - 1];
                    c[q - 1] = t;
                }
            plain_paths(&in, c, n);
            pathset_join(&w, &in, RP_SELECT_REPR);
        }
        CHECK(set_ok(&w));
        pathset_select_from(&a, &w, RP_SELECT_REPR);
        pathset_select_from(&b, &w, RP_SELECT_REPR);
        CHECK(set_ok(&a) && sets_equal(&a, &b));
        CHECK(a.n == (w.n < 5 ? w.n : 5));
        CHECK(a.p[0].cost_ns == w.p[0].cost_ns && a.p[a.n - 1].cost_ns == w.p[w.n - 1].cost_ns);
        CHECK(fabs(total_weight(&a) / total_weight(&w) - 1) < 1e-5);
        for (uint32_t i = 0; i < a.n; i++) {
            int held = 0;
            for (uint32_t q = 0; q < w.n; q++)
                held |= select_path_cmp(&a.p[i], &w.p[q]) == 0;
            CHECK(held);
        }
        /* the unweighted rules from more than 2k candidates */
        pathset_select_from(&a, &w, RP_SELECT_PAPER);
        CHECK(set_ok(&a) && a.p[0].cost_ns == w.p[0].cost_ns &&
              a.p[a.n - 1].cost_ns == w.p[w.n - 1].cost_ns);
        pathset_select_from(&a, &w, RP_SELECT_TOPK);
        CHECK(set_ok(&a) && (w.n < 2 || a.p[1].cost_ns == w.p[1].cost_ns));
    }
    /* a set that fits is copied */
    static const int64_t c3[3] = { 30, 20, 10 };
    plain_paths(&w, c3, 3);
    pathset_select_from(&a, &w, RP_SELECT_REPR);
    CHECK(sets_equal(&a, &w));

    /* Why the phase end keeps more (lib/exchange/collpaths.c): over random
     * members, the median chosen after a wide butterfly lies nearer the
     * true median than after one that keeps k at every round. */
    double err_k = 0, err_wide = 0;
    for (int trial = 0; trial < 300; trial++) {
        int64_t cost[8 * 5];
        for (int m = 0; m < 8; m++) {
            int64_t base = rnd(4) == 0 ? 50000 : 0;   /* some members run long */
            for (int i = 0; i < 5; i++)
                cost[m * 5 + i] = base + rnd(100000);
            for (int i = 1; i < 5; i++)
                for (int q = i; q > 0 && cost[m * 5 + q] > cost[m * 5 + q - 1]; q--) {
                    int64_t t = cost[m * 5 + q];
                    cost[m * 5 + q] = cost[m * 5 + q - 1];
                    cost[m * 5 + q - 1] = t;
                }
        }
        double ex;
        err_k += fabs((double)butterfly_median(cost, 5, 5, &ex) - ex);
        err_wide += fabs((double)butterfly_median(cost, 5, 17, &ex) - ex);
    }
    CHECK(err_wide < 0.8 * err_k);
    pathset_free(&w);
    pathset_free(&in);
    pathset_free(&a);
    pathset_free(&b);
}

int main(void)
{
    test_basic();
    test_join_hand();
    test_join_unsorted();
    test_join_weighted_hand();
    test_wire();
    test_wire_refs();
    test_select_from();
    test_property();
    return unit_done("unit_pathset");
}
