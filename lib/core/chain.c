/* chain.c - full paths past a summary's capacity (path mode; doc/design.md
 * "Full paths on long phases").
 *
 * The paper's path mode (Representative Paths Analysis, SC17, §4.4) keeps
 * a path's tasks as intervals in its summary and, once the summary is full,
 * commits every later task eagerly: on a phase whose critical path crosses
 * ranks thousands of times that is most of a trace, and the tail of each
 * path is still not known.  Here a full summary moves its intervals into a
 * segment kept by the rank where it filled, and goes on with one interval,
 * a link naming that segment (pathset.h RP_IV_LINK).  A segment may begin
 * with a link itself, so a path is a chain of segments across ranks; the
 * summary on the wire stays bounded.  At the phase end every rank holds the
 * same k paths, and the ranks expand their links in rounds (the walk
 * below): each round one allgather of what the owners of the pending links
 * found by following them as far as they stay on the owner.  Then every
 * rank knows every path's whole interval list, commits its own tasks on
 * them, and the rank file holds the whole path, as without chains.
 *
 * Memory: segments live until the phase ends (a path held anywhere may
 * still name one; no rank can tell that none does before then); at most
 * max_iv intervals (RP_CHAIN) a phase.  A spill refused there falls back
 * to the paper's rule, visibly (RP_PATH_OVERFLOW, pathmode.c).
 *
 * Record of the walk (host order; every rank of a job shares one
 * architecture; 8-byte multiples so concatenations stay aligned):
 *   u32 path, u32 status (0, or 1: a link names no segment here; the
 *   path is broken, what was found before it comes all the same),
 *   u64 n, rp_interval next (the link after them, or all zero), then n
 *   intervals, the path's intervals met walking backwards, last first.
 */
#include <stdlib.h>
#include <string.h>
#include "core/chain.h"
#include "core/summary.h"

#define REC_HDR 24u

int chain_init(rp_chain *c, uint32_t me, uint64_t max_iv, uint32_t first)
{
    memset(c, 0, sizeof *c);
    if (me & RP_IV_LINK)
        return -1;
    c->me = me;
    c->max_iv = max_iv;
    c->base = first & 0x7fffffffu;   /* 2^31 numbers left above it */
    return 0;
}

void chain_free(rp_chain *c)
{
    free(c->iv);
    free(c->off);
    c->iv = NULL;
    c->off = NULL;
    c->n_iv = c->cap_iv = 0;
    c->n_seg = c->cap_seg = 0;
}

void chain_reset(rp_chain *c)
{
    c->base += c->n_seg;
    c->n_seg = 0;
    c->n_iv = 0;
}

static int grow(void **a, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint64_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    void *x = realloc(*a, n * elem);
    if (!x)
        return -1;
    *a = x;
    *cap = n;
    return 0;
}

int chain_spill(rp_chain *c, rp_path *p)
{
    uint64_t cap_seg = c->cap_seg;
    if (!c->max_iv)
        return -1;   /* chains off (RP_CHAIN=0): the paper's rule, not a loss of ours */
    if (!p->n_iv || c->n_iv + p->n_iv > c->max_iv || c->n_seg >= UINT32_MAX - 1 ||
        (uint64_t)c->base + c->n_seg > UINT32_MAX ||
        grow((void **)&c->iv, &c->cap_iv, c->n_iv + p->n_iv, sizeof *c->iv) != 0 ||
        grow((void **)&c->off, &cap_seg, (uint64_t)c->n_seg + 2, sizeof *c->off) != 0) {
        c->cap_seg = (uint32_t)(cap_seg < UINT32_MAX ? cap_seg : UINT32_MAX);
        c->refused++;
        return -1;
    }
    c->cap_seg = (uint32_t)(cap_seg < UINT32_MAX ? cap_seg : UINT32_MAX);
    c->off[c->n_seg] = c->n_iv;
    memcpy(c->iv + c->n_iv, p->iv, p->n_iv * sizeof *p->iv);
    c->n_iv += p->n_iv;
    uint32_t s = c->base + c->n_seg++;
    c->off[c->n_seg] = c->n_iv;
    p->iv[0].rank = RP_IV_LINK | c->me;
    p->iv[0].low = (uint16_t)s;
    p->iv[0].high = (uint16_t)(s >> 16);
    p->n_iv = 1;
    p->sid = 0;   /* the summary changed: its name no longer holds */
    return 0;
}

uint64_t chain_extend(rp_chain *c, rp_pathset *ps, uint32_t rank, uint16_t idx, uint64_t *rng)
{
    uint64_t lost = 0;
    for (uint32_t j = 0; j < ps->n; j++) {
        rp_path *p = &ps->p[j];
        int was = p->flags & RP_PATH_OVERFLOW;
        if (summary_push(p, ps->iv_cap, rank, idx, RP_SUMMARY_PATH, rng) != RP_SUM_OVERFLOW ||
            was)
            continue;
        if (c && ps->iv_cap >= 2 && chain_spill(c, p) == 0) {
            p->flags &= ~RP_PATH_OVERFLOW;
            summary_push(p, ps->iv_cap, rank, idx, RP_SUMMARY_PATH, rng);
        } else if (j < 64) {
            lost |= 1ull << j;
        }
    }
    return lost;
}

/* ---- the walk ------------------------------------------------------------ */

static uint32_t link_owner(const rp_interval *l) { return l->rank & ~RP_IV_LINK; }
static uint32_t link_seg(const rp_interval *l) { return (uint32_t)l->low | (uint32_t)l->high << 16; }

/* Append n intervals, last first, to path j's list. */
static int rev_append(rp_chain_walk *w, uint32_t j, const rp_interval *iv, uint64_t n)
{
    if (grow((void **)&w->rev[j], &w->cap_rev[j], w->n_rev[j] + n, sizeof *w->rev[j]) != 0) {
        w->nomem = 1;
        return -1;
    }
    memcpy(w->rev[j] + w->n_rev[j], iv, n * sizeof *iv);
    w->n_rev[j] += n;
    return 0;
}

int chain_walk_begin(rp_chain_walk *w, const rp_pathset *ps)
{
    memset(w, 0, sizeof *w);
    w->n = ps->n < RP_PATHSET_MAX_K ? ps->n : RP_PATHSET_MAX_K;
    /* every front first: what is pending must not depend on memory */
    for (uint32_t j = 0; j < w->n; j++)
        if (ps->p[j].n_iv && rp_iv_is_link(&ps->p[j].iv[0]))
            w->front[j] = ps->p[j].iv[0];
    for (uint32_t j = 0; j < w->n; j++) {
        const rp_path *p = &ps->p[j];
        uint32_t first = w->front[j].rank != 0;
        for (uint32_t v = p->n_iv; v > first; v--)
            if (rev_append(w, j, &p->iv[v - 1], 1) != 0)
                break;
    }
    return w->nomem ? -1 : 0;
}

int chain_walk_pending(const rp_chain_walk *w)
{
    for (uint32_t j = 0; j < w->n; j++)
        if (w->front[j].rank)
            return 1;
    return 0;
}

typedef struct obuf {
    uint8_t *b;
    uint64_t n, cap;
} obuf;

static int put(obuf *o, const void *v, size_t n)
{
    if (grow((void **)&o->b, &o->cap, o->n + n, 1) != 0)
        return -1;
    memcpy(o->b + o->n, v, n);
    o->n += n;
    return 0;
}

/* Follow link l through my segments while they stay mine: one record. */
static int emit_path(const rp_chain *c, uint32_t j, rp_interval l, obuf *o)
{
    uint64_t at = o->n, n = 0;
    uint32_t status = 0;
    uint8_t hdr[REC_HDR] = {0};
    if (put(o, hdr, sizeof hdr) != 0)
        return -1;
    /* at most n_seg hops: a cycle (corrupt links) cannot loop */
    for (uint32_t hops = 0;; hops++) {
        uint32_t s = link_seg(&l) - c->base;
        if (link_seg(&l) < c->base || s >= c->n_seg || hops >= c->n_seg) {
            status = 1;
            memset(&l, 0, sizeof l);
            break;
        }
        const rp_interval *iv = c->iv + c->off[s];
        uint64_t m = c->off[s + 1] - c->off[s];
        uint32_t first = m && rp_iv_is_link(&iv[0]);
        for (uint64_t v = m; v > first; v--, n++)
            if (put(o, &iv[v - 1], sizeof *iv) != 0)
                return -1;
        if (first)
            l = iv[0];
        else
            memset(&l, 0, sizeof l);
        if (!l.rank || link_owner(&l) != c->me)
            break;
    }
    memcpy(o->b + at, &j, 4);
    memcpy(o->b + at + 4, &status, 4);
    memcpy(o->b + at + 8, &n, 8);
    memcpy(o->b + at + 16, &l, 8);
    return 0;
}

int chain_walk_emit(const rp_chain *c, const rp_chain_walk *w, uint8_t **buf, size_t *len)
{
    obuf o = {0};
    for (uint32_t j = 0; j < w->n; j++)
        if (w->front[j].rank && link_owner(&w->front[j]) == c->me &&
            emit_path(c, j, w->front[j], &o) != 0) {
            free(o.b);
            *buf = NULL;
            *len = 0;
            return -1;
        }
    *buf = o.b;
    *len = (size_t)o.n;
    return 0;
}

static void break_pending(rp_chain_walk *w, uint64_t answered)
{
    for (uint32_t j = 0; j < w->n; j++)
        if (w->front[j].rank && !(answered >> j & 1)) {
            w->broken |= 1ull << j;
            memset(&w->front[j], 0, sizeof w->front[j]);
        }
}

int chain_walk_absorb(rp_chain_walk *w, const uint8_t *all, size_t len)
{
    uint64_t answered = 0;
    rp_interval next[RP_PATHSET_MAX_K];
    size_t at = 0;
    int bad = 0;
    while (!bad && at < len) {
        uint32_t j, status;
        uint64_t n;
        rp_interval l;
        if (len - at < REC_HDR) {
            bad = 1;
            break;
        }
        memcpy(&j, all + at, 4);
        memcpy(&status, all + at + 4, 4);
        memcpy(&n, all + at + 8, 8);
        memcpy(&l, all + at + 16, 8);
        at += REC_HDR;
        /* one record a pending path a round; a next link is a link */
        if (j >= w->n || !w->front[j].rank || (answered >> j & 1) || status > 1 ||
            n > (len - at) / 8 || (l.rank && !rp_iv_is_link(&l)) ||
            (status && l.rank)) {
            bad = 1;
            break;
        }
        /* what is pending next depends on the bytes only, never on memory:
         * every rank must take the same decisions (w->nomem says the rest) */
        for (uint64_t v = 0; !bad && v < n; v++) {
            rp_interval iv;
            memcpy(&iv, all + at + 8 * v, 8);
            if (!rp_iv_ok(&iv, 1))
                bad = 1;
            else if (!w->nomem)
                rev_append(w, j, &iv, 1);
        }
        at += 8 * n;
        answered |= 1ull << j;
        next[j] = l;
        if (status)
            w->broken |= 1ull << j;
    }
    if (bad) {
        break_pending(w, 0);
        return -1;
    }
    for (uint32_t j = 0; j < w->n; j++)
        if (answered >> j & 1)
            w->front[j] = next[j];
    break_pending(w, answered);
    return 0;
}

const rp_interval *chain_walk_path(rp_chain_walk *w, uint32_t j, uint64_t *n)
{
    rp_interval *a = w->rev[j];
    uint64_t m = w->n_rev[j];
    for (uint64_t i = 0; i < m / 2; i++) {
        rp_interval x = a[i];
        a[i] = a[m - 1 - i];
        a[m - 1 - i] = x;
    }
    *n = m;
    return a;
}

void chain_walk_free(rp_chain_walk *w)
{
    for (uint32_t j = 0; j < RP_PATHSET_MAX_K; j++)
        free(w->rev[j]);
    memset(w, 0, sizeof *w);
}
