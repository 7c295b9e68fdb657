/* join_loop.c - the receiver's and sender's path-set work of a ping-pong,
 * alone: two sets take turns, each adds a task's cost, encodes itself, and
 * the other joins it straight from the bytes (what the runtime does per
 * point-to-point message, lib/core only, no MPI).  Unlike pathset_cost's
 * fixed pair, the two sets evolve as a real ping-pong's do (near costs,
 * duplicates, sketch points).  bench/join_profile.sh runs it under
 * callgrind to say where a message's instructions go.
 *
 * usage: join_loop [iters [repr|paper]]   prints the minimum and median
 * ns a message over 15 repetitions (timing: quiet machine only). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/pathset.h"
#include "core/wire.h"

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 200000;
    rp_select_mode sel = argc > 2 && !strcmp(argv[2], "paper") ? RP_SELECT_PAPER : RP_SELECT_REPR;
    const uint32_t k = 5, iv = 32;
    static rp_pathset a, b, t, a0, b0;
    size_t cap = pathset_max_wire_bytes(k, iv);
    uint8_t *buf = malloc(cap);
    if (!buf || pathset_init(&a, k, iv) || pathset_init(&b, k, iv) || pathset_init(&t, k, iv) ||
        pathset_init(&a0, k, iv) || pathset_init(&b0, k, iv))
        return 2;
    pathset_reset(&a);
    pathset_reset(&b);
    /* k distinct paths a side to start from */
    for (uint32_t i = 1; i < k; i++) {
        pathset_reset(&t);
        pathset_add_cost(&t, 1000000 + 1000 * (int64_t)i);
        pathset_join(&a, &t, sel);
        pathset_reset(&t);
        pathset_add_cost(&t, 1000500 + 1000 * (int64_t)i);
        pathset_join(&b, &t, sel);
    }
    pathset_copy(&a0, &a);
    pathset_copy(&b0, &b);
    enum { NR = 15 };
    double ns[NR];
    uint64_t sink = 0;
    for (int rep = 0; rep < NR; rep++) {
        struct timespec t0, t1;
        pathset_copy(&a, &a0);
        pathset_copy(&b, &b0);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (long i = 0; i < iters; i++) {
            rp_pathset *s = (i & 1) ? &b : &a, *r = (i & 1) ? &a : &b;
            pathset_add_cost(s, 100 + (i & 63));
            size_t n = pathset_encode(s, buf, cap);
            pathset_add_cost(r, 90 + (i & 31));
            sink += (uint64_t)pathset_join_wire(r, buf, n, sel);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ns[rep] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
                  (double)iters;
    }
    for (int i = 1; i < NR; i++)
        for (int j = i; j > 0 && ns[j] < ns[j - 1]; j--) {
            double x = ns[j];
            ns[j] = ns[j - 1];
            ns[j - 1] = x;
        }
    printf("join_loop %s k=%u: min %.1f median %.1f ns a message\n", sel == RP_SELECT_PAPER ? "paper" : "repr",
           k, ns[0], ns[NR / 2]);
    return sink != 0;   /* every join succeeded */
}
