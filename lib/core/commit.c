/* commit.c - lazy commit at phase end (paper Fig. 3 line 34, §5).
 *
 * After the phase-end path-allreduce every rank holds the same set; each
 * rank walks the selected summaries and hands its own items to fn.  Items
 * outside every selected summary are simply forgotten (that is the point
 * of committing lazily).
 */
#include <string.h>

#include "core/commit.h"

static void commit_interval(const rp_interval *iv, uint32_t path,
                            const rp_itembuf *buf, rp_commit_fn fn, void *ctx,
                            uint64_t *visits, uint64_t *clipped)
{
    /* uint32_t loop: high may be 65535, a uint16_t counter would wrap.
     * (Prof mode's items are below 65 536: its intervals carry no epoch,
     * pathset.h, and the rank field is the plain rank.) */
    for (uint32_t idx = iv->low; idx <= iv->high; idx++) {
        if (idx < buf->n) {
            fn(ctx, path, &buf->items[idx], idx);
            (*visits)++;
        } else {
            /* Points past the fill: the push was refused (buffer full) or
             * the set is corrupt.  Count it rather than read garbage. */
            (*clipped)++;
        }
    }
}

static uint64_t sat32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : v;
}

uint64_t commit_phase(const rp_pathset *ps, uint32_t me, const rp_itembuf *buf,
                      rp_commit_fn fn, void *ctx)
{
    uint64_t visits = 0, clipped = 0;
    for (uint32_t i = 0; i < ps->n; i++) {
        const rp_path *p = &ps->p[i];
        for (uint32_t j = 0; j < p->n_iv; j++)
            if (p->iv[j].rank == me)
                commit_interval(&p->iv[j], i, buf, fn, ctx, &visits, &clipped);
    }
    return (sat32(clipped) << 32) | sat32(visits);
}

void commit_path_attr(const rp_path *p, rp_path_attr *out)
{
    memset(out, 0, sizeof *out);
    int64_t cost = p->cost_ns > 0 ? p->cost_ns : 0;
    int64_t sampled = (int64_t)p->sampled_us * 1000;
    int64_t dropped = (int64_t)p->dropped_us * 1000;
    if (dropped > sampled)
        dropped = sampled;
    if (dropped > cost)
        dropped = cost;
    int64_t located = sampled - (int64_t)p->dropped_us * 1000;
    if (located < 0)
        located = 0;
    /* Sample weights are whole timer intervals, an unbiased estimate of the
     * time they stand for; a finite sample can overshoot the cost, so the
     * located part is capped at what the cost leaves. */
    int64_t shown = located < cost - dropped ? located : cost - dropped;
    out->unk_ns[RP_UNK_BUFFER_FULL] = dropped;
    out->unk_ns[RP_UNK_NOT_SAMPLED] = cost > sampled ? cost - sampled : 0;
    if (p->n_iv == 0) {
        /* Nothing kept to put the located time at. */
        out->unk_ns[RP_UNK_SUMMARY] = shown;
        out->scale = 0;
        return;
    }
    /* Reservoir: an item is kept with probability n_iv / opened. */
    double keep = (double)p->n_iv / ((double)p->n_iv + (double)p->n_evicted);
    out->scale = located > 0 ? ((double)shown / (double)located) / keep : 0;
}
