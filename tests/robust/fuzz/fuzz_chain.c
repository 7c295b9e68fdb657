/* fuzz_chain.c - libFuzzer harness for path mode's walk records
 * (lib/core/chain.c, chain_walk_absorb): the bytes every rank takes in at
 * a phase end.  A set of three paths, each starting with a link, takes in
 * the input as one round's records; whatever they hold, absorb must not
 * crash, leave no link pending that no record answered, and hand back
 * well-formed interval lists. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/chain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rp_pathset ps;
    if (pathset_init(&ps, 3, 4))
        abort();
    pathset_reset(&ps);
    ps.n = 3;
    for (uint32_t j = 0; j < 3; j++) {
        ps.p[j].cost_ns = 30 - (int64_t)j;
        ps.p[j].n_iv = 2;
        ps.p[j].iv[0] = (rp_interval){ RP_IV_LINK | j, (uint16_t)j, 0 };
        ps.p[j].iv[1] = (rp_interval){ j, 1, 2 };
    }
    rp_chain_walk w;
    if (chain_walk_begin(&w, &ps) != 0)
        abort();
    int rc = chain_walk_absorb(&w, data, size);
    for (uint32_t j = 0; j < w.n; j++) {
        if (rc != 0 && w.front[j].rank) {
            fprintf(stderr, "a rejected round left path %u pending\n", j);
            abort();
        }
        uint64_t n;
        const rp_interval *iv = chain_walk_path(&w, j, &n);
        for (uint64_t v = 0; v < n; v++)
            if (!rp_iv_ok(&iv[v], 1))
                abort();
    }
    chain_walk_free(&w);
    pathset_free(&ps);
    return 0;
}
