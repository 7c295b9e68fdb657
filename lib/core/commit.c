/* commit.c - lazy commit at phase end (paper Fig. 3 line 34, §5).
 *
 * After the phase-end path-allreduce every rank holds the same set; each
 * rank walks the selected summaries and hands its own items to fn.  Items
 * outside every selected summary are simply forgotten (that is the point
 * of committing lazily).
 */
#include "core/commit.h"

static void commit_interval(const rp_interval *iv, uint32_t path,
                            const rp_itembuf *buf, rp_commit_fn fn, void *ctx,
                            uint64_t *visits, uint64_t *clipped)
{
    /* uint32_t loop: high may be 65535, a uint16_t counter would wrap. */
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
