/* pathset_cost.c - CPU cost of the per-message path-set work, without MPI.
 *
 * Links the algorithm core (lib/core/pathset.c, select.c, summary.c) and times, in
 * a tight loop on one core, what the runtime does per point-to-point message:
 * the sender's pathset_encode, the receiver's join straight from the bytes
 * (pathset_join_wire, what the runtime calls), and for comparison
 * pathset_decode and pathset_join of the decoded set (plus the task-end
 * pathset_add_cost).  Two sets of k paths
 * with distinct costs play the two ranks of a ping-pong, so the join always
 * has 2k candidates, as in steady state.  Each path first gets `iv` summary
 * intervals (alternating ranks, as sampling in a ping-pong produces).
 *
 * A CPU-bound loop is far less sensitive to other jobs on the machine than a
 * ping-pong: the figure is the minimum over repetitions.
 *
 * In a tight loop the join's code stays in the L1 instruction cache; inside
 * an MPI job it does not (the MPI library's progress and transport code runs
 * between two joins).  joincold_ns is the join from bytes after running
 * 40 KB of straight-line code (more than a 32 KB L1i) before each join, the
 * eviction loop's own time subtracted: what a join costs when its code comes
 * from L2 (doc/performance.md, "Per message").  The eviction is x86
 * only; elsewhere joincold_ns is the hot figure.
 *
 * usage: pathset_cost [k] [iv] [iters] [repr|paper|topk]   prints one line:
 *   COST k=.. iv=.. wire_bytes=.. encode_ns=.. decode_ns=.. join_ns=.. joinwire_ns=..
 *        add_cost_ns=.. per_msg_ns=.. joincold_ns=.. sel=..
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/pathset.h"
#include "core/wire.h"

static rp_select_mode SEL = RP_SELECT_REPR;   /* argv[4] */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static rp_pathset A, B, IN, TMP, PA, PB;
static uint8_t *buf;
static size_t cap;
static volatile uint64_t sink;

/* 40 000 one-byte nops: evicts the join's code from a 32 KB L1i */
static __attribute__((noinline)) void evict_icache(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __asm__ volatile(".rept 40000\n\tnop\n\t.endr");
#endif
}

static void fill(rp_pathset *ps, uint32_t k, uint32_t iv, int64_t base, uint32_t rank)
{
    uint64_t rng = 12345 + rank;
    pathset_reset(ps);
    /* k distinct paths: join with single-path sets of other costs */
    for (uint32_t i = 1; i < k; i++) {
        pathset_reset(&TMP);
        pathset_add_cost(&TMP, base + 1000 * (int64_t)i);
        pathset_join(ps, &TMP, SEL);
    }
    for (uint32_t j = 0; j < iv; j++)   /* alternate ranks: one interval per item */
        pathset_extend(ps, (j & 1) ? rank ^ 1 : rank, (uint16_t)j, RP_SUMMARY_PROF, &rng);
}

int main(int argc, char **argv)
{
    uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 5;
    uint32_t iv = argc > 2 ? (uint32_t)atoi(argv[2]) : 0;
    long iters = argc > 3 ? atol(argv[3]) : 200000;
    if (argc > 4)
        SEL = !strcmp(argv[4], "paper") ? RP_SELECT_PAPER
            : !strcmp(argv[4], "topk")  ? RP_SELECT_TOPK : RP_SELECT_REPR;
    uint32_t iv_cap = 32;
    if (k < 1 || k > 64 || iv > iv_cap || iters < 1) {
        fprintf(stderr, "usage: pathset_cost [k 1..64] [iv 0..32] [iters] [repr|paper|topk]\n");
        return 2;
    }
    cap = pathset_max_wire_bytes(k, iv_cap);
    buf = malloc(cap);
    if (pathset_init(&A, k, iv_cap) || pathset_init(&B, k, iv_cap) ||
        pathset_init(&IN, k, iv_cap) || pathset_init(&TMP, k, iv_cap) || !buf)
        return 1;
    fill(&A, k, iv, 1000000, 0);
    fill(&B, k, iv, 1000500, 1);
    size_t wire = pathset_encode(&A, buf, cap);
    if (pathset_init(&PA, k, iv_cap) || pathset_init(&PB, k, iv_cap))
        return 1;
    pathset_copy(&PA, &A);
    pathset_copy(&PB, &B);

    double best_enc = 1e30, best_dec = 1e30, best_join = 1e30, best_add = 1e30, best_msg = 1e30;
    double best_jw = 1e30, best_ev = 1e30, best_evj = 1e30;
    for (int rep = 0; rep < 7; rep++) {
        int64_t t0 = now_ns();
        for (long i = 0; i < iters; i++)
            sink += pathset_encode(&A, buf, cap);
        int64_t t1 = now_ns();
        for (long i = 0; i < iters; i++)
            sink += (uint64_t)pathset_decode(&IN, buf, wire);
        int64_t t2 = now_ns();
        /* join: copy B to TMP first (timed separately and subtracted) */
        for (long i = 0; i < iters; i++) {
            pathset_copy(&TMP, &B);
            sink += TMP.n;
        }
        int64_t t3 = now_ns();
        for (long i = 0; i < iters; i++) {
            pathset_copy(&TMP, &B);
            pathset_join(&TMP, &IN, SEL);
            sink += TMP.n;
        }
        int64_t t4 = now_ns();
        for (long i = 0; i < iters; i++)
            pathset_add_cost(&TMP, 7);
        int64_t t5 = now_ns();
        /* the whole message, steady state: A -> B, then B -> A (on copies,
         * so every repetition's isolated loops see the same two sets) */
        for (long i = 0; i < iters; i++) {
            rp_pathset *s = (i & 1) ? &PB : &PA, *r = (i & 1) ? &PA : &PB;
            pathset_add_cost(s, 100 + (i & 63));
            size_t n = pathset_encode(s, buf, cap);
            pathset_add_cost(r, 90 + (i & 31));
            sink += (uint64_t)pathset_join_wire(r, buf, n, SEL);
        }
        int64_t t6 = now_ns();
        /* the join from the bytes of A's set (B copied to TMP first, as above) */
        size_t wa = pathset_encode(&A, buf, cap);
        int64_t t7 = now_ns();
        for (long i = 0; i < iters; i++) {
            pathset_copy(&TMP, &B);
            sink += (uint64_t)pathset_join_wire(&TMP, buf, wa, SEL);
        }
        int64_t t8 = now_ns();
        /* the same with the instruction cache evicted before each join */
        long ci = iters / 4 > 0 ? iters / 4 : 1;
        for (long i = 0; i < ci; i++) {
            evict_icache();
            pathset_copy(&TMP, &B);
            sink += TMP.n;
        }
        int64_t t9 = now_ns();
        for (long i = 0; i < ci; i++) {
            evict_icache();
            pathset_copy(&TMP, &B);
            sink += (uint64_t)pathset_join_wire(&TMP, buf, wa, SEL);
        }
        int64_t t10 = now_ns();
        double d = (double)iters;
        if ((t1 - t0) / d < best_enc) best_enc = (t1 - t0) / d;
        if ((t2 - t1) / d < best_dec) best_dec = (t2 - t1) / d;
        if ((t4 - t3 - (t3 - t2)) / d < best_join) best_join = (t4 - t3 - (t3 - t2)) / d;
        if ((t5 - t4) / d < best_add) best_add = (t5 - t4) / d;
        if ((t6 - t5) / d < best_msg) best_msg = (t6 - t5) / d;
        if ((t8 - t7 - (t3 - t2)) / d < best_jw) best_jw = (t8 - t7 - (t3 - t2)) / d;
        /* the eviction loop takes ~3 us a round: minima of each, then the difference */
        if ((t9 - t8) / (double)ci < best_ev) best_ev = (t9 - t8) / (double)ci;
        if ((t10 - t9) / (double)ci < best_evj) best_evj = (t10 - t9) / (double)ci;
    }
    printf("COST k=%u iv=%u wire_bytes=%zu encode_ns=%.1f decode_ns=%.1f join_ns=%.1f "
           "joinwire_ns=%.1f add_cost_ns=%.1f per_msg_ns=%.1f joincold_ns=%.1f sel=%s\n",
           k, iv, wire, best_enc, best_dec, best_join, best_jw, best_add, best_msg, best_evj - best_ev,
           SEL == RP_SELECT_PAPER ? "paper" : SEL == RP_SELECT_TOPK ? "topk" : "repr");
    return sink == 42;
}
