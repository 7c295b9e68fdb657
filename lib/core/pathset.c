/* pathset.c - a rank's set of up to k paths: maintenance and the join
 * (paper Fig. 3 and 5).  The wire format is wire.c's. */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "core/pathset.h"
#include "core/select.h"
#include "core/summary.h"
#include "core/wire.h"

/* Largest k with a REPR pick table (k*k u16: 8 KB at 64). */

int pathset_init(rp_pathset *ps, uint32_t k, uint32_t iv_cap)
{
    memset(ps, 0, sizeof *ps);
    /* n_paths and n_iv travel as u16. */
    if (k == 0 || k > RP_PATHSET_MAX_K || iv_cap > UINT16_MAX)
        return -1;
    ps->p = calloc(k, sizeof *ps->p);
    /* +1 so iv_cap == 0 still gets a valid (unused) allocation. */
    ps->store = calloc((size_t)k * iv_cap + 1, sizeof *ps->store);
    ps->sk_cost = calloc(k, sizeof *ps->sk_cost);   /* k - 1 used */
    ps->sk_w = calloc(k, sizeof *ps->sk_w);
    if (!ps->p || !ps->store || !ps->sk_cost || !ps->sk_w) {
        pathset_free(ps);
        return -1;
    }
    ps->repr_tab = malloc((size_t)k * k * sizeof *ps->repr_tab);
    if (!ps->repr_tab) {
        pathset_free(ps);
        return -1;
    }
    select_repr_table(k, ps->repr_tab);
    ps->k_cap = k;
    ps->iv_cap = iv_cap;
    for (uint32_t i = 0; i < k; i++)
        ps->p[i].iv = ps->store + (size_t)i * iv_cap;
    return 0;
}

void pathset_free(rp_pathset *ps)
{
    free(ps->p);
    free(ps->store);
    free(ps->repr_tab);
    free(ps->sk_cost);
    free(ps->sk_w);
    memset(ps, 0, sizeof *ps);
}

static void path_clear(rp_path *p)
{
    p->cost_ns = 0;
    p->sid = 0;
    p->n_iv = 0;
    p->flags = 0;
    p->n_evicted = 0;
    p->sampled_us = 0;
    p->dropped_us = 0;
    p->w = 1.0f;   /* one path: the phase's start */
}

void pathset_reset(rp_pathset *ps)
{
    path_clear(&ps->p[0]);
    ps->wexp = 0;
    ps->n = 1;
    ps->n_sk = 0;
}

void pathset_add_cost(rp_pathset *ps, int64_t cost_ns)
{
    /* Same amount on every path: the cost order is unchanged. */
    for (uint32_t i = 0; i < ps->n; i++)
        ps->p[i].cost_ns += cost_ns;
    for (uint32_t i = 0; i < ps->n_sk; i++)
        ps->sk_cost[i] += cost_ns;
}

static uint32_t sat_add_u32(uint32_t a, uint64_t b)
{
    uint64_t s = (uint64_t)a + b;
    return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

void pathset_add_sample(rp_pathset *ps, int64_t w_ns, int refused)
{
    uint64_t us = w_ns > 0 ? (uint64_t)w_ns / 1000u : 0;
    if (us == 0)
        return;
    for (uint32_t i = 0; i < ps->n; i++) {
        ps->p[i].sid = 0;
        ps->p[i].sampled_us = sat_add_u32(ps->p[i].sampled_us, us);
        if (refused)
            ps->p[i].dropped_us = sat_add_u32(ps->p[i].dropped_us, us);
    }
}

void pathset_extend(rp_pathset *ps, uint32_t rank, uint16_t idx,
                    rp_summary_mode mode, uint64_t *rng)
{
    for (uint32_t i = 0; i < ps->n; i++)
        summary_push(&ps->p[i], ps->iv_cap, rank, idx, mode, rng);
}

void pathset_name(rp_pathset *ps, uint64_t *next)
{
    for (uint32_t i = 0; i < ps->n; i++)
        if (ps->p[i].sid == 0 && pathset_has_summary(&ps->p[i]))
            ps->p[i].sid = (*next)++;
}

int pathset_find_sid(const rp_pathset *ps, uint64_t sid)
{
    for (uint32_t i = 0; i < ps->n; i++)
        if (ps->p[i].sid == sid)
            return (int)i;
    return -1;
}

/* Copy header and intervals into dst's own storage (dst->iv kept).  n_iv
 * is clamped to the destination's capacity; callers guarantee it fits. */
static inline __attribute__((always_inline)) void path_copy_into(rp_path *dst, const rp_path *src,
                                                                  uint32_t iv_cap)
{
    rp_interval *iv = dst->iv;
    uint16_t n_iv = src->n_iv <= iv_cap ? src->n_iv : (uint16_t)iv_cap;
    if (n_iv > 0 && iv != src->iv)
        memmove(iv, src->iv, (size_t)n_iv * sizeof *iv);
    *dst = *src;
    dst->iv = iv;
    if (n_iv != src->n_iv)
        dst->sid = 0;   /* cut short: no longer what the name names */
    dst->n_iv = n_iv;
}

void pathset_copy(rp_pathset *dst, const rp_pathset *src)
{
    if (dst == src)
        return;
    uint32_t n = src->n <= dst->k_cap ? src->n : dst->k_cap;
    for (uint32_t i = 0; i < n; i++)
        path_copy_into(&dst->p[i], &src->p[i], dst->iv_cap);
    dst->n = n;
    dst->wexp = src->wexp;
    uint32_t ns = src->n_sk < dst->k_cap ? src->n_sk : dst->k_cap - 1;
    memcpy(dst->sk_cost, src->sk_cost, (size_t)ns * sizeof *dst->sk_cost);
    memcpy(dst->sk_w, src->sk_w, (size_t)ns * sizeof *dst->sk_w);
    dst->n_sk = ns;
}

/* ---- join ----------------------------------------------------------- */

/* Where a path candidate of a join comes from, in one byte (k <= 64):
 * mine's slot i, or in's path j (FROM_IN | j). */
#define FROM_IN 0x80u

/* mine <- the m paths named by pick[], in order, with no allocation and no
 * interval copies for paths that stay: the interval buffers of mine's k_cap
 * slots are permuted (a buffer follows its path to its new slot), and the
 * buffers of dropped or unused slots receive the picks from `in` (whose
 * intervals may live in a received buffer).  m <= k_cap, so there are
 * always enough free buffers.  Bit masks: this runs at every message.
 * A path of `in` whose summary this rank holds (named by reference,
 * wire.h) points at one of mine's buffers: it takes that very buffer when
 * its slot is dropped, before any free buffer is written, so no copy ever
 * overwrites a buffer a later pick reads (the others read kept buffers). */
static void apply_picks(rp_pathset *mine, const rp_path *in, const uint8_t *pick, uint32_t m)
{
    uint32_t k = mine->k_cap;
    rp_path *a = mine->p;
    uint64_t kept = 0, done = 0;
    for (uint32_t q = 0; q < m; q++)
        if (!(pick[q] & FROM_IN))
            kept |= 1ull << pick[q];
    uint64_t free_slots = ~kept & (k == 64 ? ~0ull : (1ull << k) - 1);
    rp_path newp[RP_PATHSET_MAX_K];
    const rp_interval *lo = mine->store, *hi = mine->store + (size_t)k * mine->iv_cap;
    for (uint32_t q = 0; q < m; q++) {
        uint32_t c = pick[q];
        if (!(c & FROM_IN)) {
            newp[q] = a[c];
            done |= 1ull << q;
            continue;
        }
        const rp_interval *src = in[c & ~FROM_IN].iv;
        if (src < lo || src >= hi || in[c & ~FROM_IN].n_iv == 0)
            continue;
        for (uint64_t f = free_slots; f; f &= f - 1) {
            uint32_t s = (uint32_t)__builtin_ctzll(f);
            if (a[s].iv == src) {   /* its own buffer, dropped: no copy */
                free_slots &= ~(1ull << s);
                newp[q].iv = a[s].iv;
                path_copy_into(&newp[q], &in[c & ~FROM_IN], mine->iv_cap);
                done |= 1ull << q;
                break;
            }
        }
    }
    for (uint32_t q = 0; q < m; q++) {
        if (done & (1ull << q))
            continue;
        uint32_t s = (uint32_t)__builtin_ctzll(free_slots);
        free_slots &= free_slots - 1;
        newp[q].iv = a[s].iv;
        path_copy_into(&newp[q], &in[pick[q] & ~FROM_IN], mine->iv_cap);
    }
    for (uint32_t q = m; q < k; q++) {
        uint32_t s = (uint32_t)__builtin_ctzll(free_slots);
        free_slots &= free_slots - 1;
        path_clear(&newp[q]);
        newp[q].iv = a[s].iv;
    }
    memcpy(a, newp, (size_t)k * sizeof *newp);
    mine->n = m;
}

/* The code of a candidate pointer: into mine->p, or into in[]. */
static uint8_t code_of(const rp_pathset *mine, const rp_path *in, const rp_path *p)
{
    /* integer differences: p may point into either array */
    uintptr_t d = (uintptr_t)p - (uintptr_t)mine->p;
    if (d < (uintptr_t)mine->n * sizeof *p)
        return (uint8_t)(d / sizeof *p);
    return (uint8_t)(FROM_IN | (((uintptr_t)p - (uintptr_t)in) / sizeof *p));
}

/* Merge mine's paths and in[0..nb), each in select_path_cmp order without
 * duplicates, into code[] in that order.  An exact duplicate (the same path
 * on both sides) is one candidate, mine's, with twin[] naming in's copy
 * (0xff: none).  Paths of different cost are ordered by cost alone; the
 * full comparison runs only on equal costs, where duplicates can be. */
static uint32_t merge_codes(const rp_pathset *mine, const rp_path *in, uint32_t nb,
                            uint8_t *code, uint8_t *twin)
{
    const rp_path *a = mine->p;
    uint32_t i = 0, j = 0, n = 0, na = mine->n;
    while (i < na && j < nb) {
        int c = a[i].cost_ns > in[j].cost_ns ? -1
              : a[i].cost_ns < in[j].cost_ns ? 1 : select_path_cmp(&a[i], &in[j]);
        twin[n] = 0xff;
        if (c == 0)
            twin[n] = (uint8_t)j++;
        code[n++] = c <= 0 ? (uint8_t)i++ : (uint8_t)(FROM_IN | j++);
    }
    for (; i < na; i++, n++) {
        twin[n] = 0xff;
        code[n] = (uint8_t)i;
    }
    for (; j < nb; j++, n++) {
        twin[n] = 0xff;
        code[n] = (uint8_t)(FROM_IN | j);
    }
    return n;
}

/* The unweighted rules' join, general case (unsorted input: summary
 * eviction can reorder equal-cost paths): sort all candidates, select. */
static void join_paths(rp_pathset *mine, const rp_path *in, uint32_t nb, rp_select_mode sel)
{
    uint32_t k = mine->k_cap, na = mine->n, nc = 0, m;
    const rp_path *cand[2 * RP_PATHSET_MAX_K];
    const rp_path *pick[RP_PATHSET_MAX_K];
    uint8_t code[RP_PATHSET_MAX_K];
    for (uint32_t i = 0; i < na; i++)
        cand[nc++] = &mine->p[i];
    for (uint32_t j = 0; j < nb; j++)
        cand[nc++] = &in[j];
    /* select_k reorders cand and returns pointers into it; it never
     * writes through them. */
    select_k((rp_path **)cand, nc, k, sel, (rp_path **)pick, &m);
    for (uint32_t q = 0; q < m; q++)
        code[q] = code_of(mine, in, pick[q]);
    apply_picks(mine, in, code, m);
}

/* The unweighted rules' join of two sets in order (every received message,
 * as a rule): one merge pass, the paper's picks from the pre-computed
 * table, or topk's ends.  Returns 0 when mine is not in order (nothing
 * changed; join_paths then). */
static int join_fast(rp_pathset *mine, const rp_path *in, uint32_t nb, rp_select_mode sel)
{
    uint32_t k = mine->k_cap, m;
    if (!select_sorted_unique(mine->p, mine->n))
        return 0;
    uint8_t code[2 * RP_PATHSET_MAX_K], twin[2 * RP_PATHSET_MAX_K], pk[RP_PATHSET_MAX_K];
    uint32_t n = merge_codes(mine, in, nb, code, twin);
    const uint8_t *pick = code;
    m = n;
    if (n > k) {
        m = k;
        pick = pk;
        if (sel == RP_SELECT_PAPER) {
            const uint16_t *row = mine->repr_tab + (size_t)(n - k - 1) * k;
            for (uint32_t q = 0; q < k; q++)
                pk[q] = code[row[q]];
        } else {   /* TOPK: the (k+1)/2 most costly and the k/2 least */
            uint32_t top = (k + 1) / 2, bottom = k / 2;
            for (uint32_t q = 0; q < top; q++)
                pk[q] = code[q];
            for (uint32_t q = 0; q < bottom; q++)
                pk[top + q] = code[n - bottom + q];
        }
    }
    apply_picks(mine, in, pick, m);
    return 1;
}

/* 2^e as a double, for -1022 <= e <= 1023 (weights' scales differ by far
 * less: see rescale). */
static double pow2i(int64_t e)
{
    if (e < -1022)
        return 0.0;
    union { uint64_t u; double d; } b = { (uint64_t)(e + 1023) << 52 };
    return b.d;
}

/* Sum of v[0..n) in ascending order, so every rank gets the same bits
 * whatever order the duplicates came in. */
static double sum_sorted(double *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)      /* insertion sort: n is tiny */
        for (uint32_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    double s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* mine->p[0..m) get weights nw[] and mine's sketch the points skc/skw[0..nsk)
 * (all at scale 2^E), brought back so the largest weight lies in [1, 2^32)
 * by a power of two (exact). */
static void set_weights(rp_pathset *mine, const double *nw, uint32_t m, const int64_t *skc,
                        const double *skw, uint32_t nsk, int64_t E)
{
    double mx = 0;
    for (uint32_t q = 0; q < m; q++)
        mx = nw[q] > mx ? nw[q] : mx;
    for (uint32_t q = 0; q < nsk; q++)
        mx = skw[q] > mx ? skw[q] : mx;
    union { double d; uint64_t u; } b = { mx };
    int64_t e = mx > 0 ? (int64_t)((b.u >> 52) & 0x7ff) - 1023 : 0;
    double f = 1.0;
    if (e < 0 || e >= 32) {
        f = pow2i(-e);
        E += e;
    }
    for (uint32_t q = 0; q < m; q++)
        mine->p[q].w = (float)(nw[q] * f);
    for (uint32_t q = 0; q < nsk; q++) {
        mine->sk_cost[q] = skc[q];
        mine->sk_w[q] = (float)(skw[q] * f);
    }
    mine->n_sk = nsk;
    mine->wexp = (int32_t)(E < -(1 << 30) ? -(1 << 30) : E > (1 << 30) ? (1 << 30) : E);
}

/* ---- the weighted join (RP_SELECT=repr, issue 14; doc/accuracy.md) -----
 * A set stands for the distribution of its phase's path costs: each path a
 * point mass of its own weight (the paths it stands for that share its
 * cost: itself and its exact duplicates), and in each gap between two
 * consecutive paths at most one sketch point, the weight of the paths
 * dropped there and their mean cost.  Inside its gap that weight is taken
 * as spread evenly over the widest interval centred on the mean that fits
 * in the gap (the gap's "box"): a point mass would put it all on one side
 * of any path the other set brings into the gap, a box over the whole gap
 * (ignoring the mean) puts too much of it near the longer end, where the
 * tail of a phase's costs is thin (measured: doc/accuracy.md).
 *
 * The join merges both sides' paths by cost; each gap of the merged list
 * gets from each side the part of that side's box that lies in it (weight
 * and first moment).  With at most k paths all are kept; else the ends and
 * the k - 2 paths nearest in cost to the evenly spaced weighted quantiles
 * of that merged distribution (distinct, in order), and everything
 * between two kept paths becomes the sketch point of their gap.  The total
 * weight and the mean cost are kept.  Every sum runs in the merged order,
 * which depends only on the paths (select_path_cmp), and a merged gap takes
 * one piece from each side (a + b == b + a): every rank of a collective
 * computes the same bits, whichever set is its own. */

typedef struct ws_side {
    uint8_t code[RP_PATHSET_MAX_K];       /* in select_path_cmp order, unique: join codes */
    int64_t c[RP_PATHSET_MAX_K];          /* their costs */
    double w[RP_PATHSET_MAX_K];           /* own weights, at the join's scale */
    /* gap g, between paths g and g+1: its weight gm, and its box: from ga
     * ns above path g+1's cost, 1/width gi, centre (the mean) gc */
    double gm[RP_PATHSET_MAX_K], ga[RP_PATHSET_MAX_K], gi[RP_PATHSET_MAX_K], gc[RP_PATHSET_MAX_K];
    uint32_t n;
} ws_side;

/* Where the merge is in one side: the gap it is in (-1: none, or an empty
 * one), and the part of that gap's box below the merge's last cost
 * (weight F, moment M). */
typedef struct ws_pos {
    int32_t g;
    double F, M;
} ws_pos;

/* The side's paths (sorted, exact duplicates added up: summary eviction can
 * reorder equal-cost paths), weights scaled by f, and its sketch points
 * placed in their gaps (a gap holds at most one, whose cost is the mean, as
 * joins write them; more are added up), each gap's box from its mean. */
static void ws_prepare(ws_side *s, const rp_path *p, uint32_t n, uint8_t tag, double f,
                       const int64_t *skc, const float *skw, uint32_t nsk)
{
    if (select_sorted_unique(p, n)) {
        for (uint32_t i = 0; i < n; i++) {
            s->code[i] = (uint8_t)(tag | i);
            s->c[i] = p[i].cost_ns;
            s->w[i] = p[i].w * f;
        }
    } else {
        const rp_path *v[RP_PATHSET_MAX_K];
        for (uint32_t i = 0; i < n; i++)
            v[i] = &p[i];
        select_sort((rp_path **)v, n);
        uint32_t m = 0;
        for (uint32_t i = 0; i < n;) {
            double dup[RP_PATHSET_MAX_K];
            uint32_t j = i, nd = 0;
            while (j < n && (j == i || select_path_cmp(v[i], v[j]) == 0))
                dup[nd++] = v[j++]->w * f;
            s->code[m] = (uint8_t)(tag | (uint32_t)(v[i] - p));
            s->c[m] = v[i]->cost_ns;
            s->w[m++] = nd == 1 ? dup[0] : sum_sorted(dup, nd);
            i = j;
        }
        n = m;
    }
    s->n = n;
    uint32_t q = 0;
    if (n < 2) {   /* no gap (a join never writes this): to the path */
        for (; q < nsk; q++)
            s->w[0] += (double)skw[q] * f;
        return;
    }
    for (uint32_t g = 0; g + 1 < n; g++) {
        int64_t top = s->c[g], bot = s->c[g + 1];
        double m = 0, mu = 0;
        /* the points from the highest gap whose bottom is not above them;
         * one on the bottom of a gap 2 ns wide or more belongs below (a
         * join puts its points strictly inside such gaps) */
        while (q < nsk && (skc[q] > bot || (skc[q] == bot && top - bot < 2) || g + 2 == n)) {
            int64_t c = skc[q] < bot ? bot : skc[q] > top ? top : skc[q];
            double w = (double)skw[q++] * f;
            if (m == 0) {
                m = w;
                mu = (double)(c - bot);
            } else if (m + w > 0) {
                mu = (mu * m + (double)(c - bot) * w) / (m + w);
                m += w;
            }
        }
        s->gm[g] = m;
        if (m <= 0)
            continue;
        /* the widest box centred on mu inside [0, span], at least 1 ns */
        double span = (double)(top - bot), a = mu <= span * 0.5 ? 0 : 2 * mu - span;
        double wd = 2 * (mu - a);
        if (wd < 1) {
            a = mu - 0.5;
            a = a < 0 ? 0 : a + 1 > span ? span - 1 : a;
            wd = 1;
            if (span < 1) {   /* a zero span: the merge's first piece in it takes all */
                a = 0;
                wd = 1;
            }
        }
        s->ga[g] = a;
        s->gi[g] = 1.0 / wd;
        s->gc[g] = a + wd * 0.5;
    }
}

/* The part of side s's current gap's box (at pos) between the merge's last
 * cost and x (below it): weight *m, moment about x *mx; the merge moves on
 * to x.  At the gap's bottom (off = 0, so u <= 0: ga >= 0) the rest of the
 * box, without the arithmetic: the same bits. */
static inline void ws_piece(const ws_side *s, ws_pos *pos, int64_t x, double *m, double *mx)
{
    if (pos->g < 0) {
        *m = *mx = 0;
        return;
    }
    uint32_t g = (uint32_t)pos->g;
    int64_t d = x - s->c[g + 1];
    if (d == 0) {
        *m = s->gm[g] * pos->F;
        *mx = s->gm[g] * pos->M;
        pos->F = pos->M = 0;
        return;
    }
    double off = (double)d, u = (off - s->ga[g]) * s->gi[g], F, M;
    if (u <= 0) {
        F = M = 0;
    } else if (u >= 1) {
        F = 1;
        M = s->gc[g];
    } else {   /* weight u of the box, its moment about 0: u * (a + off) / 2 */
        F = u;
        M = u * (s->ga[g] + off) * 0.5;
    }
    *m = s->gm[g] * (pos->F - F);
    *mx = s->gm[g] * (pos->M - M) - *m * off;
    pos->F = F;
    pos->M = M;
}

/* Side s's path i is the merge's newest: the merge enters its gap below. */
static inline void ws_enter(const ws_side *s, ws_pos *pos, uint32_t i)
{
    pos->g = -1;
    if (i + 1 < s->n && s->gm[i] > 0) {
        pos->g = (int32_t)i;
        pos->F = 1;
        pos->M = s->gc[i];
    }
}

/* x rounded to the nearest integer, halves away from 0, without libm */
static inline int64_t round_i64(double x)
{
    return x >= 0 ? (int64_t)(x + 0.5) : -(int64_t)(0.5 - x);
}

static void join_weighted(rp_pathset *mine, const rp_path *in, uint32_t nb, int32_t in_wexp,
                          const int64_t *in_skc, const float *in_skw, uint32_t in_nsk)
{
    enum { MP = 2 * RP_PATHSET_MAX_K };
    uint32_t k = mine->k_cap;
    int64_t E = mine->wexp > in_wexp ? mine->wexp : in_wexp;
    ws_side A, B;
    ws_prepare(&A, mine->p, mine->n, 0, pow2i((int64_t)mine->wexp - E), mine->sk_cost,
               mine->sk_w, mine->n_sk);
    ws_prepare(&B, in, nb, FROM_IN, pow2i((int64_t)in_wexp - E), in_skc, in_skw, in_nsk);
    /* merge: paths (code, cost, own weight) and, for merged gap q (between
     * paths q and q + 1), its weight G and moment about path q + 1's cost */
    uint8_t code[MP];
    int64_t pc[MP];
    double pw[MP], G[MP], GM[MP], tot = 0;
    uint32_t i = 0, j = 0, nu = 0;
    ws_pos pa = { -1, 0, 0 }, pb = { -1, 0, 0 };
    while (i < A.n || j < B.n) {
        int c;
        if (i == A.n)
            c = 1;
        else if (j == B.n)
            c = -1;
        else if (A.c[i] != B.c[j])
            c = A.c[i] > B.c[j] ? -1 : 1;
        else   /* equal costs: by contents (0: the same path on both sides) */
            c = select_path_cmp(&mine->p[A.code[i]], &in[B.code[j] & ~FROM_IN]);
        int64_t x = c <= 0 ? A.c[i] : B.c[j];
        if (nu) {
            double ma, xa, mb, xb;
            ws_piece(&A, &pa, x, &ma, &xa);
            ws_piece(&B, &pb, x, &mb, &xb);
            G[nu - 1] = ma + mb;
            GM[nu - 1] = xa + xb;
            tot += G[nu - 1];
        }
        code[nu] = c <= 0 ? A.code[i] : B.code[j];
        pc[nu] = x;
        pw[nu] = c < 0 ? A.w[i] : c > 0 ? B.w[j] : A.w[i] + B.w[j];   /* equal: one path */
        tot += pw[nu++];
        if (c <= 0)
            ws_enter(&A, &pa, i++);
        if (c >= 0)
            ws_enter(&B, &pb, j++);
    }
    if (nu == 0)
        return;   /* (both empty: not called so) */
    /* the kept paths: lev[0..m) */
    uint32_t lev[RP_PATHSET_MAX_K], m;
    if (nu <= k) {
        for (m = 0; m < nu; m++)
            lev[m] = m;
    } else if (k == 1) {
        lev[0] = 0;
        m = 1;
    } else {
        /* the ends, and for each level between them the path nearest in
         * cost to the level's quantile of the merged distribution: the
         * point W j/(k - 1) of the weight down from the top, inside a path's
         * own weight its cost, inside a gap's weight interpolated across
         * the gap (the error is measured in cost, and where paths are
         * sparse the nearest in weight can lie far off in cost) */
        uint32_t r = 0, q = 0;
        double run = 0, step = tot / (double)(k - 1);   /* run: the weight above path q */
        lev[0] = 0;
        for (uint32_t l = 1; l + 1 < k; l++) {
            double t = step * (double)l, qt;
            for (;;) {   /* levels descend: q only moves down */
                if (t < run + pw[q] || q + 1 >= nu) {
                    qt = (double)pc[q];
                    break;
                }
                double in_gap = t - run - pw[q];
                if (in_gap < G[q]) {
                    qt = (double)pc[q] - in_gap / G[q] * (double)(pc[q] - pc[q + 1]);
                    break;
                }
                run += pw[q] + G[q];
                q++;
            }
            uint32_t hi = nu - (k - l);   /* leave a path for every level below */
            r++;
            while (r < hi && fabs((double)pc[r + 1] - qt) <= fabs((double)pc[r] - qt))
                r++;
            lev[l] = r;
        }
        lev[k - 1] = nu - 1;
        m = k;
    }
    /* weights: a kept path its own; what lies between two kept paths their
     * gap's sketch point (k == 1: all to the one path) */
    uint8_t pk[RP_PATHSET_MAX_K];
    double nw[RP_PATHSET_MAX_K], skw[RP_PATHSET_MAX_K];
    int64_t skc[RP_PATHSET_MAX_K];
    uint32_t nsk = 0;
    pk[0] = code[0];   /* (m >= 1: the compiler cannot see it) */
    for (uint32_t l = 0; l < m; l++) {
        pk[l] = code[lev[l]];
        nw[l] = pw[lev[l]];
        if (l + 1 == m)
            break;
        uint32_t lo = lev[l + 1];
        int64_t bot = pc[lo], top = pc[lev[l]];
        double sm = 0, smx = 0;
        for (uint32_t q = lev[l]; q < lo; q++) {
            if (q > lev[l]) {
                sm += pw[q];
                smx += pw[q] * (double)(pc[q] - bot);
            }
            sm += G[q];
            smx += GM[q] + G[q] * (double)(pc[q + 1] - bot);
        }
        if (sm > 0) {
            /* the mean, strictly inside the gap when it can be, so that the
             * next join finds the gap from the cost alone */
            int64_t c = bot + round_i64(smx / sm);
            if (top - bot >= 2)
                c = c <= bot ? bot + 1 : c >= top ? top - 1 : c;
            else
                c = c < bot ? bot : c > top ? top : c;
            skc[nsk] = c;
            skw[nsk++] = sm;
        }
    }
    if (m == 1 && nu > 1)
        nw[0] = tot;
    apply_picks(mine, in, pk, m);
    set_weights(mine, nw, m, skc, skw, nsk, E);
}

void pathset_join(rp_pathset *mine, const rp_pathset *in, rp_select_mode sel)
{
    if (in == mine || in->n == 0)
        return;  /* joining with itself or nothing changes nothing */
    if (sel == RP_SELECT_REPR) {
        join_weighted(mine, in->p, in->n, in->wexp, in->sk_cost, in->sk_w, in->n_sk);
        return;
    }
    int sorted = select_sorted_unique(in->p, in->n);
    if (!sorted || !join_fast(mine, in->p, in->n, sel))
        join_paths(mine, in->p, in->n, sel);
}

void pathset_select_from(rp_pathset *dst, const rp_pathset *src, rp_select_mode sel)
{
    if (dst == src)
        return;
    if (src->n <= dst->k_cap && src->n_sk < dst->k_cap) {
        pathset_copy(dst, src);   /* it fits: nothing to choose */
        return;
    }
    /* a join into an empty set: the candidates are src's alone (the
     * unweighted rules by their general join: join_fast's pick table only
     * covers up to 2k candidates) */
    dst->n = 0;
    dst->n_sk = 0;
    dst->wexp = src->wexp;
    if (sel == RP_SELECT_REPR)
        join_weighted(dst, src->p, src->n, src->wexp, src->sk_cost, src->sk_w, src->n_sk);
    else
        join_paths(dst, src->p, src->n, sel);
}

int pathset_join_wire(rp_pathset *mine, const void *buf, size_t len, rp_select_mode sel)
{
    return pathset_join_wire_refs(mine, buf, len, sel, NULL);
}

int pathset_join_wire_refs(rp_pathset *mine, const void *buf, size_t len, rp_select_mode sel,
                           const rp_wire_refs *refs)
{
    if (buf == NULL || ((uintptr_t)buf & (_Alignof(rp_interval) - 1)))
        return -1;
    /* Path headers are read into `in`; intervals stay in the buffer
     * (p->iv points at them, read-only: the join only copies out of it). */
    uint32_t kc = mine->k_cap;
    rp_path in[kc];
    int64_t skc[kc];
    float skw[kc];
    rp_wire_set ws = { in, skc, skw, 0, 0, 0, refs };
    if (pathset_wire_parse(buf, len, kc, mine->iv_cap, &ws) != 0)
        return -1;
    pathset_join_parsed(mine, &ws, sel);
    return 0;
}

void pathset_join_parsed(rp_pathset *mine, const rp_wire_set *ws, rp_select_mode sel)
{
    const rp_path *in = ws->hdr;
    if (sel == RP_SELECT_REPR) {
        join_weighted(mine, in, ws->n, ws->wexp, ws->sk_cost, ws->sk_w, ws->n_sk);
        return;
    }
    int sorted = 1;
    for (uint32_t i = 1; i < ws->n; i++)
        if (in[i].cost_ns == in[i - 1].cost_ns && select_path_cmp(&in[i - 1], &in[i]) >= 0)
            sorted = 0;   /* equal costs: in order by contents, else the general join */
    if (!sorted || !join_fast(mine, in, ws->n, sel))
        join_paths(mine, in, ws->n, sel);
}

void pathset_levels(const rp_pathset *ps, uint32_t k, rp_select_mode sel, uint32_t *map)
{
    uint32_t n = ps->n;
    int64_t cost[n ? n : 1];
    double w[n ? n : 1];
    for (uint32_t i = 0; i < n; i++) {
        cost[i] = ps->p[i].cost_ns;
        w[i] = ps->p[i].w;
    }
    /* one path weighs 2^-wexp in the set's scale (0 if past a double) */
    select_levels(cost, w, n, k, sel,
                  ps->wexp < 1022 && ps->wexp > -1023 ? pow2i(-(int64_t)ps->wexp) : 0.0, map);
}

void pathset_percentile_costs(const rp_pathset *ps, uint32_t k, rp_select_mode sel, int64_t *out)
{
    uint32_t map[k ? k : 1];
    pathset_levels(ps, k, sel, map);
    for (uint32_t j = 0; j < k; j++)
        out[j] = ps->n ? ps->p[map[j]].cost_ns : 0;
}
