/* join_identity.c - does this tree's join give bit-identical sets to another
 * revision's?  A developer's check for rewrites of lib/core/pathset.c that
 * must not change any result (bench/join_identity.sh builds it; not part of
 * make check: it needs a second copy of pathset.c).
 *
 * Random sets evolve in lockstep in two worlds, this tree's pathset.c and
 * old_* (the other revision's, its public names prefixed): task costs
 * (scales from ties to 2^34 ns), summary extensions in both summary modes
 * (prof mode's eviction reorders equal-cost paths: the join's unsorted
 * side), samples, joins of one set into another, joins from encoded bytes
 * and choices from a wider set; every rule, k 1..64.  After each join the
 * two worlds' sets must agree in every field, interval and float bit.
 *
 *   join_identity [rounds [seed]]    prints "N joins, M mismatches"; exit 1 if M > 0 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/pathset.h"
#include "core/wire.h"
#include "core/summary.h"
void old_pathset_join(rp_pathset *mine, const rp_pathset *in, rp_select_mode sel);
int old_pathset_join_wire(rp_pathset *mine, const void *buf, size_t len, rp_select_mode sel);
void old_pathset_select_from(rp_pathset *dst, const rp_pathset *src, rp_select_mode sel);
static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static uint32_t rb(uint32_t n) { return (uint32_t)(rnd() % n); }
static int same(const rp_pathset *a, const rp_pathset *b)
{
    if (a->n != b->n || a->wexp != b->wexp || a->n_sk != b->n_sk) return 0;
    for (uint32_t i = 0; i < a->n; i++) {
        const rp_path *p = &a->p[i], *q = &b->p[i];
        if (p->cost_ns != q->cost_ns || p->n_iv != q->n_iv || p->flags != q->flags ||
            p->n_evicted != q->n_evicted || p->sampled_us != q->sampled_us ||
            p->dropped_us != q->dropped_us || memcmp(&p->w, &q->w, 4)) return 0;
        if (memcmp(p->iv, q->iv, p->n_iv * sizeof *p->iv)) return 0;
    }
    if (memcmp(a->sk_cost, b->sk_cost, a->n_sk * 8) || memcmp(a->sk_w, b->sk_w, a->n_sk * 4)) return 0;
    return 1;
}
#define NS 6
int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 100000;
    if (argc > 2) rs = strtoull(argv[2], 0, 10);
    long joins = 0, bad = 0;
    uint8_t *buf = malloc(1 << 20);
    for (long it = 0; it < iters; it++) {
        uint32_t k = rb(4) ? 1 + rb(9) : 1 + rb(64);
        uint32_t ivc = rb(3) ? rb(4) : 8;
        rp_select_mode sel = rb(8) ? RP_SELECT_REPR : (rb(2) ? RP_SELECT_PAPER : RP_SELECT_TOPK);
        rp_summary_mode sm = rb(2) ? RP_SUMMARY_PROF : RP_SUMMARY_PATH;
        static rp_pathset N[NS], O[NS], W;
        for (int s = 0; s < NS; s++) { pathset_init(&N[s], k, ivc); pathset_init(&O[s], k, ivc); pathset_reset(&N[s]); pathset_reset(&O[s]); }
        uint32_t kw = k + rb(2 * k + 1);
        if (kw > RP_PATHSET_MAX_K) kw = RP_PATHSET_MAX_K;
        pathset_init(&W, kw, ivc);
        uint64_t rng1 = 7, rng2 = 7;
        int steps = 5 + rb(80);
        int scale = rb(4); /* cost scale: 0 ties galore */
        for (int st = 0; st < steps; st++) {
            int a = rb(NS), b = rb(NS), op = rb(10);
            if (op < 3) {
                int64_t c = scale == 0 ? rb(3) : scale == 1 ? rb(100) : scale == 2 ? rb(1000000) : (int64_t)(rnd() >> 30);
                pathset_add_cost(&N[a], c); pathset_add_cost(&O[a], c);
            } else if (op < 4 && ivc) {
                uint32_t rk = rb(3); uint16_t idx = (uint16_t)(st + rb(3));
                pathset_extend(&N[a], rk, idx, sm, &rng1); pathset_extend(&O[a], rk, idx, sm, &rng2);
            } else if (op < 5) {
                int64_t w = rb(5000000); int r = rb(2);
                pathset_add_sample(&N[a], w, r); pathset_add_sample(&O[a], w, r);
            } else if (op < 8) {
                if (a == b) continue;
                pathset_join(&N[a], &N[b], sel); old_pathset_join(&O[a], &O[b], sel); joins++;
                if (!same(&N[a], &O[a])) { bad++; if (bad < 5) printf("join mismatch it %ld st %d k %u sel %d\n", it, st, k, sel); pathset_copy(&N[a], &O[a]); }
                
            } else if (op < 9) {
                if (a == b) continue;
                size_t n = pathset_encode(&N[b], buf, 1 << 20);
                int r1 = pathset_join_wire(&N[a], buf, n, sel), r2 = old_pathset_join_wire(&O[a], buf, n, sel); joins++;
                if (r1 != r2 || !same(&N[a], &O[a])) { bad++; if (bad < 5) printf("wire mismatch it %ld st %d k %u\n", it, st, k); pathset_copy(&N[a], &O[a]); }
            } else {
                /* wide set: join several into W (old code both sides), select_from */
                pathset_reset(&W);
                for (int s = 0; s < NS; s++) if (rb(2)) old_pathset_join(&W, &O[s], sel);
                pathset_select_from(&N[a], &W, sel); old_pathset_select_from(&O[a], &W, sel); joins++;
                if (!same(&N[a], &O[a])) { bad++; if (bad < 5) printf("select_from mismatch it %ld st %d k %u kw %u\n", it, st, k, kw); pathset_copy(&N[a], &O[a]); }
            }
        }
        for (int s = 0; s < NS; s++) { pathset_free(&N[s]); pathset_free(&O[s]); }
        pathset_free(&W);
    }
    printf("%ld joins, %ld mismatches\n", joins, bad);
    return bad != 0;
}
