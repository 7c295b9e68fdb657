/* replay.c - the online selection replayed over a trace's task graph
 * (replay.h): walk.c's walk with a path-set (lib/core/pathset.c) as the
 * value, instead of the oracle's histogram. */
#include "common/replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/walk.h"

typedef struct rctx {
    uint32_t       k, phase_k;
    rp_select_mode sel;
    uint64_t       nq;
    int64_t       *out;     /* [nq * k] */
} rctx;

/* A value: a set of k paths (phase_k inside a phase-end exchange), no
 * summaries (the replay needs costs and weights only).  p == NULL: empty. */
typedef struct rval {
    rp_pathset ps;
} rval;

static int r_empty(const void *v)
{
    return ((const rval *)v)->ps.p == NULL;
}

static void r_clear(void *ctx, void *v)
{
    (void)ctx;
    if (!r_empty(v))
        pathset_free(&((rval *)v)->ps);
}

static int r_unit(void *ctx, void *v)
{
    const rctx *c = ctx;
    r_clear(ctx, v);
    if (pathset_init(&((rval *)v)->ps, c->k, 0) != 0)
        return -1;
    pathset_reset(&((rval *)v)->ps);
    return 0;
}

static void r_shift(void *ctx, void *v, int64_t cost_ns)
{
    (void)ctx;
    pathset_add_cost(&((rval *)v)->ps, cost_ns);
}

/* dst (empty) <- a copy of src at capacity cap */
static int r_copy(rval *dst, const rval *src, uint32_t cap)
{
    if (pathset_init(&dst->ps, cap, 0) != 0)
        return -1;
    pathset_copy(&dst->ps, &src->ps);
    return 0;
}

static int r_add(void *ctx, void *dst, const void *src, uint64_t phase)
{
    (void)phase;
    const rctx *c = ctx;
    rval *d = dst;
    if (r_empty(d))
        return r_copy(d, src, c->k);
    pathset_join(&d->ps, &((const rval *)src)->ps, c->sel);
    return 0;
}

/* The runtime's exchange (lib/exchange/collpaths.c), at cap paths a set.
 * A power of two: the butterfly, member i joining i + 2^d for d = 1, 2, ...
 * (partners hold the same union after each round, so one of each pair is
 * enough); the result is w[0].  Otherwise dissemination: in round b every
 * member joins what member i - 2^b sent (its set before the round), then
 * the exact last round joins, for each set bit 2^b of n - top (top: the
 * largest power of two below n), the set member i - top - off sent in
 * round b; members then differ, and rank 0's set is the one broadcast. */
static int r_exchange(rval *w, uint32_t n, uint32_t cap, rp_select_mode sel)
{
    if ((n & (n - 1)) == 0) {
        for (uint32_t d = 1; d < n; d *= 2)
            for (uint32_t i = 0; i + d < n; i += 2 * d)
                pathset_join(&w[i].ps, &w[i + d].ps, sel);
        return 0;
    }
    uint32_t top = 1, rounds = 0;
    while (top * 2 < n) {
        top *= 2;
        rounds++;
    }
    rval *snap = calloc((size_t)rounds * n, sizeof *snap);   /* [b * n + i] */
    int rc = snap ? 0 : -1;
    for (uint32_t b = 0, d = 1; rc == 0 && b < rounds; b++, d *= 2) {
        for (uint32_t i = 0; rc == 0 && i < n; i++)
            rc = r_copy(&snap[b * n + i], &w[i], cap);
        for (uint32_t i = 0; rc == 0 && i < n; i++)
            pathset_join(&w[i].ps, &snap[b * n + (i + n - d) % n].ps, sel);
    }
    uint32_t m = n - top;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        uint32_t off = 0;
        for (int bit = 30; bit >= 0; bit--) {
            if (!(m & (1u << bit)))
                continue;
            uint32_t src = (i + 2 * n - top - off) % n;
            pathset_join(&w[i].ps, &snap[(uint32_t)bit * n + src].ps, sel);
            off += 1u << bit;
        }
    }
    for (uint32_t i = 0; snap && i < rounds * n; i++)
        if (!r_empty(&snap[i]))
            pathset_free(&snap[i].ps);
    free(snap);
    return rc;
}

/* A collective's members mv[0..n) (in communicator rank order): the exchange at k paths
 * a set, or at phase_k for a phase end, then the k chosen from member 0's
 * set, as the runtime chooses (and, off a power of two, broadcasts). */
static int r_coll(void *ctx, void *dst, const void *const *mv, uint32_t n, int phase_end,
                  uint64_t phase)
{
    (void)phase;
    const rctx *c = ctx;
    /* the runtime widens only past two members (lib/exchange/collpaths.c) */
    uint32_t cap = phase_end && n > 2 && c->phase_k > c->k ? c->phase_k : c->k;
    rval *w = calloc(n, sizeof *w);
    int rc = -1;
    if (!w)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (r_copy(&w[i], mv[i], cap) != 0)
            goto out;
    if (r_exchange(w, n, cap, c->sel) != 0)
        goto out;
    rval *out = dst;
    if (pathset_init(&out->ps, c->k, 0) != 0)
        goto out;
    pathset_select_from(&out->ps, &w[0].ps, c->sel);
    rc = 0;
out:
    for (uint32_t i = 0; i < n; i++)
        r_clear(ctx, &w[i]);
    free(w);
    return rc;
}

static int r_sink(void *ctx, uint64_t q, const void *v)
{
    const rctx *c = ctx;
    if (q < c->nq)
        pathset_percentile_costs(&((const rval *)v)->ps, c->k, c->sel, c->out + q * c->k);
    return 0;
}

static const rp_walk_ops replay_ops = {
    .size = sizeof(rval), .unit = r_unit, .shift = r_shift, .add = r_add, .clear = r_clear,
    .empty = r_empty, .coll = r_coll, .sequential = 1, .sink = r_sink,
};

int replay_levels(const rp_graph *g, uint32_t k, uint32_t phase_k, rp_select_mode sel,
                  int64_t *out, char *why, size_t nwhy)
{
    if (k < 1 || k > RP_PATHSET_MAX_K || phase_k > RP_PATHSET_MAX_K) {
        errno = EINVAL;
        return -1;
    }
    for (uint64_t i = 0; i < g->nphases * k; i++)
        out[i] = -1;
    rctx c = { k, phase_k > k ? phase_k : k, sel, g->nphases, out };
    return walk_graph(g, &replay_ops, &c, why, nwhy);
}
