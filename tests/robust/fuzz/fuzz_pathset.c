/* fuzz_pathset.c - libFuzzer harness for the path-set wire decoder
 * (pathset_decode, lib/core/pathset.c): the bytes another rank sent.  The first
 * two input bytes choose the receiver's capacities (k 1..64, intervals
 * 1..1024, as RP_K / RP_SUMMARY allow); the rest is the message.  A set
 * that decodes must re-encode within pathset_max_wire_bytes, decode again
 * to the same bytes, and survive a join and the percentile costs; the
 * join straight from the bytes (pathset_join_wire) must accept exactly what
 * the decoder accepts and give the same set as decode + join. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/pathset.h"
#include "core/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint32_t k = 1 + data[0] % 64;
    uint32_t cap = 1 + (uint32_t)data[1] * 4 % 1024;
    data += 2;
    size -= 2;
    rp_pathset ps, mine, again;
    if (pathset_init(&ps, k, cap) || pathset_init(&mine, k, cap) || pathset_init(&again, k, cap))
        abort();
    pathset_reset(&mine);
    pathset_add_cost(&mine, 12345);
    if (pathset_decode(&ps, data, size) != 0) {
        /* what the decoder refuses, the wire join refuses too */
        uint8_t *al = malloc(size ? size : 1);
        if (!al)
            abort();
        memcpy(al, data, size);
        if (pathset_join_wire(&mine, al, size, RP_SELECT_REPR) != -1) {
            fprintf(stderr, "pathset_join_wire accepted a set pathset_decode refused\n");
            abort();
        }
        free(al);
    } else {
        size_t max = pathset_max_wire_bytes(k, cap);
        uint8_t *buf = malloc(max);
        size_t n = pathset_encode(&ps, buf, max);
        if (n == 0 || n > max) {
            fprintf(stderr, "decoded set does not re-encode (%zu of %zu bytes)\n", n, max);
            abort();
        }
        if (pathset_decode(&again, buf, n) != 0) {
            fprintf(stderr, "re-encoded set does not decode\n");
            abort();
        }
        uint8_t *buf2 = malloc(max);
        size_t n2 = pathset_encode(&again, buf2, max);
        if (n2 != n || memcmp(buf, buf2, n) != 0) {
            fprintf(stderr, "encode(decode(encode(x))) differs\n");
            abort();
        }
        free(buf);
        free(buf2);
        /* the join straight from the bytes equals decode + join */
        rp_pathset via;
        uint8_t *al = malloc(size ? size : 1);   /* malloc'ed: aligned */
        if (pathset_init(&via, k, cap) || !al)
            abort();
        memcpy(al, data, size);
        pathset_copy(&via, &mine);
        if (pathset_join_wire(&via, al, size, RP_SELECT_REPR) != 0) {
            fprintf(stderr, "pathset_join_wire refused a set pathset_decode accepted\n");
            abort();
        }
        pathset_join(&mine, &ps, RP_SELECT_REPR);
        if (via.n != mine.n) {
            fprintf(stderr, "pathset_join_wire and pathset_join differ\n");
            abort();
        }
        for (uint32_t i = 0; i < via.n; i++)
            if (via.p[i].cost_ns != mine.p[i].cost_ns || via.p[i].n_iv != mine.p[i].n_iv ||
                memcmp(via.p[i].iv, mine.p[i].iv, via.p[i].n_iv * sizeof *via.p[i].iv) != 0) {
                fprintf(stderr, "pathset_join_wire and pathset_join differ at path %u\n", i);
                abort();
            }
        pathset_free(&via);
        free(al);
        pathset_join(&mine, &ps, RP_SELECT_TOPK);
        int64_t costs[64];
        pathset_percentile_costs(&mine, k, RP_SELECT_REPR, costs);
    }
    pathset_free(&ps);
    pathset_free(&mine);
    pathset_free(&again);
    return 0;
}
