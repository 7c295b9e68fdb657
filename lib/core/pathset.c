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
    for (uint32_t i = 0; i < ps->n; i++) {
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

/* Copy header and intervals into dst's own storage (dst->iv kept).  n_iv
 * is clamped to the destination's capacity; callers guarantee it fits. */
static void path_copy_into(rp_path *dst, const rp_path *src, uint32_t iv_cap)
{
    rp_interval *iv = dst->iv;
    uint16_t n_iv = src->n_iv <= iv_cap ? src->n_iv : (uint16_t)iv_cap;
    if (n_iv > 0 && iv != src->iv)
        memmove(iv, src->iv, (size_t)n_iv * sizeof *iv);
    *dst = *src;
    dst->iv = iv;
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
 * always enough free buffers.  Bit masks: this runs at every message. */
static void apply_picks(rp_pathset *mine, const rp_path *in, const uint8_t *pick, uint32_t m)
{
    uint32_t k = mine->k_cap;
    rp_path *a = mine->p;
    uint64_t kept = 0;
    for (uint32_t q = 0; q < m; q++)
        if (!(pick[q] & FROM_IN))
            kept |= 1ull << pick[q];
    uint64_t free_slots = ~kept & (k == 64 ? ~0ull : (1ull << k) - 1);
    rp_path newp[RP_PATHSET_MAX_K];
    for (uint32_t q = 0; q < m; q++) {
        uint32_t c = pick[q];
        if (!(c & FROM_IN)) {
            newp[q] = a[c];
            continue;
        }
        uint32_t s = (uint32_t)__builtin_ctzll(free_slots);
        free_slots &= free_slots - 1;
        newp[q].iv = a[s].iv;
        path_copy_into(&newp[q], &in[c & ~FROM_IN], mine->iv_cap);
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
        /* equal costs by weight: the order weighted_sketch's merge expects */
        int64_t c = skc[q];
        float w = (float)(skw[q] * f);
        uint32_t x = q;
        for (; x > 0 && mine->sk_cost[x - 1] == c && mine->sk_w[x - 1] > w; x--) {
            mine->sk_cost[x] = mine->sk_cost[x - 1];
            mine->sk_w[x] = mine->sk_w[x - 1];
        }
        mine->sk_cost[x] = c;
        mine->sk_w[x] = w;
    }
    mine->n_sk = nsk;
    mine->wexp = (int32_t)(E < -(1 << 30) ? -(1 << 30) : E > (1 << 30) ? (1 << 30) : E);
}

/* The paths of mine U in as weighted candidates (code, cost, weight at
 * scale 2^E), most costly first; an equal pair (the same path on both
 * sides: in a collective, the same path reached twice; otherwise distinct
 * paths with the same cost and summary) one candidate with the weights
 * added in ascending order, so that every rank gets the same bits.
 * Returns how many. */
static uint32_t weighted_paths(const rp_pathset *mine, const rp_path *in, uint32_t nb,
                               int in_sorted, double fa, double fb, uint8_t *code,
                               int64_t *pc, double *pw)
{
    uint32_t na = mine->n, nu = 0;
    if (in_sorted && select_sorted_unique(mine->p, na)) {
        /* the usual case: one merge pass */
        uint8_t twin[2 * RP_PATHSET_MAX_K];
        nu = merge_codes(mine, in, nb, code, twin);
        for (uint32_t q = 0; q < nu; q++) {
            uint32_t c = code[q];
            const rp_path *p = c & FROM_IN ? &in[c & ~FROM_IN] : &mine->p[c];
            double x = p->w * (c & FROM_IN ? fb : fa);
            if (twin[q] != 0xff) {
                double y = in[twin[q]].w * fb;
                x = x < y ? x + y : y + x;
            }
            pc[q] = p->cost_ns;
            pw[q] = x;
        }
        return nu;
    }
    const rp_path *cand[2 * RP_PATHSET_MAX_K];
    double dup[2 * RP_PATHSET_MAX_K];
    uint32_t n = 0;
    for (uint32_t i = 0; i < na; i++)
        cand[n++] = &mine->p[i];
    for (uint32_t j = 0; j < nb; j++)
        cand[n++] = &in[j];
    const rp_path *mine_end = mine->p + na;
    select_sort((rp_path **)cand, n);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i, nd = 0;
        while (j < n && (j == i || select_path_cmp(cand[i], cand[j]) == 0)) {
            const rp_path *c = cand[j++];
            int own = c >= mine->p && c < mine_end;
            dup[nd++] = c->w * (own ? fa : fb);
        }
        code[nu] = code_of(mine, in, cand[i]);
        pc[nu] = cand[i]->cost_ns;
        pw[nu++] = nd == 1 ? dup[0] : sum_sorted(dup, nd);
        i = j;
    }
    return nu;
}

/* Sketch points of both sides into sc/sw, in the order (cost descending,
 * weight ascending), which does not depend on which side a point came from.
 * Each side is in that order already (set_weights keeps it), so one merge
 * pass.  Returns how many. */
static uint32_t weighted_sketch(const rp_pathset *mine, double fa, const int64_t *skc,
                                const float *skw, uint32_t nsk, double fb, int64_t *sc,
                                double *sw)
{
    uint32_t i = 0, j = 0, n = 0, na = mine->n_sk;
    const int64_t *ac = mine->sk_cost;
    const float *aw = mine->sk_w;
    while (i < na && j < nsk) {
        double wa = aw[i] * fa, wb = skw[j] * fb;
        if (ac[i] > skc[j] || (ac[i] == skc[j] && wa <= wb)) {
            sc[n] = ac[i++];
            sw[n++] = wa;
        } else {
            sc[n] = skc[j++];
            sw[n++] = wb;
        }
    }
    for (; i < na; i++, n++) {
        sc[n] = ac[i];
        sw[n] = aw[i] * fa;
    }
    for (; j < nsk; j++, n++) {
        sc[n] = skc[j];
        sw[n] = skw[j] * fb;
    }
    return n;
}

/* RP_SELECT=repr: mine <- the weighted selection of mine U in, paths and
 * sketch points (in's weights are w * 2^in_wexp).  The candidates, paths
 * and sketch points in one order (cost descending, a path before a sketch
 * point of equal cost), stand for the distribution of all paths' costs
 * with their weights.  Of its 2k - 1 evenly spaced weighted quantiles, the
 * even ones are the report levels: each takes the path whose weight centre
 * lies nearest (the ends: the first and the last path, exact); the odd
 * ones, between two levels, take the candidate that covers them and keep
 * it as a sketch point (cost and weight only).  The weight of every dropped
 * candidate moves to its two kept neighbours in proportion to where its
 * cost lies between theirs, which keeps the total weight and the mean.  No
 * exp/log: the scales are powers of two, and the result is brought back
 * near 1 by a power of two, so every rank computes the same bits.  Fixed
 * arrays (k <= 64) rather than variable-length ones: this runs at every
 * message. */
static void join_sketch(rp_pathset *mine, const rp_path *in, uint32_t nb, int in_sorted,
                        int32_t in_wexp, const int64_t *in_skc, const float *in_skw,
                        uint32_t in_nsk)
{
    enum { MP = 2 * RP_PATHSET_MAX_K, MC = 4 * RP_PATHSET_MAX_K };
    uint32_t k = mine->k_cap;
    int64_t E = mine->wexp > in_wexp ? mine->wexp : in_wexp;
    double fa = pow2i((int64_t)mine->wexp - E), fb = pow2i((int64_t)in_wexp - E);
    uint8_t pcode[MP];
    int64_t pc[MP + 1], sc[MP + 1];
    double pw[MP], sw[MP];
    uint32_t nu = weighted_paths(mine, in, nb, in_sorted, fa, fb, pcode, pc, pw);
    uint32_t ns = weighted_sketch(mine, fa, in_skc, in_skw, in_nsk, fb, sc, sw);
    if (nu <= k && ns + 1 <= k) {   /* everything fits: nothing to drop */
        apply_picks(mine, in, pcode, nu);
        set_weights(mine, pw, nu, sc, sw, ns, E);
        return;
    }
    /* one order, paths first on equal cost (sentinels: costs are >= 0);
     * running weight sums; where the paths are */
    int64_t cc[MC];
    double cw[MC], cum[MC], tot = 0;
    uint8_t code[MC];
    uint32_t ri[MP], nr = 0, n = 0, i = 0, j = 0;
    pc[nu] = -1;
    sc[ns] = -1;
    for (; n < nu + ns; n++) {
        if (pc[i] >= sc[j]) {
            cc[n] = pc[i];
            cw[n] = pw[i];
            code[n] = pcode[i++];
            ri[nr++] = n;
        } else {
            cc[n] = sc[j];
            cw[n] = sw[j++];
        }
        tot += cw[n];
        cum[n] = tot;
    }
    /* levels: the path whose weight centre is nearest 2l of 2k - 2 steps
     * (centres rise, so one forward pass); the ends the first and last path */
    uint32_t lev[RP_PATHSET_MAX_K], r = 0;
    double step = k > 1 ? tot / (double)(2 * k - 2) : 0.0;
    lev[0] = ri[0];
    for (uint32_t l = 1; l + 1 < k; l++) {
        double t = step * (double)(2 * l);
        double dr = fabs(cum[ri[r]] - cw[ri[r]] * 0.5 - t);
        while (r + 1 < nr) {
            double dn = fabs(cum[ri[r + 1]] - cw[ri[r + 1]] * 0.5 - t);
            if (!(dn <= dr))
                break;
            dr = dn;
            r++;
        }
        lev[l] = ri[r];
    }
    if (k > 1)
        lev[k - 1] = ri[nr - 1];
    /* kept, in order: levels (distinct) and between two distinct levels the
     * candidate covering the odd quantile, as a sketch point */
    uint32_t keep[2 * RP_PATHSET_MAX_K], nk = 0;
    uint8_t odd[2 * RP_PATHSET_MAX_K];   /* keep[q] becomes a sketch point */
    for (uint32_t l = 0; l < k; l++) {
        if (nk && keep[nk - 1] == lev[l])
            continue;
        if (nk && lev[l] > keep[nk - 1] + 1) {
            double t = step * (double)(2 * l - 1);
            uint32_t q = keep[nk - 1] + 1;
            while (q + 1 < lev[l] && !(cum[q] > t))
                q++;
            odd[nk] = 1;
            keep[nk++] = q;
        }
        odd[nk] = 0;
        keep[nk++] = lev[l];
    }
    double kw[2 * RP_PATHSET_MAX_K], nw[RP_PATHSET_MAX_K], skw[RP_PATHSET_MAX_K];
    int64_t skc[RP_PATHSET_MAX_K];
    uint8_t pk[RP_PATHSET_MAX_K];
    uint32_t m = 0, nsk = 0;
    select_spread(cc, cw, n, keep, nk, kw);   /* sketch points tied with the last path go to it */
    for (uint32_t q = 0; q < nk; q++) {
        if (!odd[q]) {
            pk[m] = code[keep[q]];
            nw[m++] = kw[q];
        } else {
            skc[nsk] = cc[keep[q]];
            skw[nsk++] = kw[q];
        }
    }
    apply_picks(mine, in, pk, m);
    set_weights(mine, nw, m, skc, skw, nsk, E);
}

void pathset_join(rp_pathset *mine, const rp_pathset *in, rp_select_mode sel)
{
    if (in == mine || in->n == 0)
        return;  /* joining with itself or nothing changes nothing */
    int sorted = select_sorted_unique(in->p, in->n);
    if (sel == RP_SELECT_REPR)
        join_sketch(mine, in->p, in->n, sorted, in->wexp, in->sk_cost, in->sk_w, in->n_sk);
    else if (!sorted || !join_fast(mine, in->p, in->n, sel))
        join_paths(mine, in->p, in->n, sel);
}

int pathset_join_wire(rp_pathset *mine, const void *buf, size_t len, rp_select_mode sel)
{
    if (buf == NULL || ((uintptr_t)buf & (_Alignof(rp_interval) - 1)))
        return -1;
    /* Path headers are read into `in`; intervals stay in the buffer
     * (p->iv points at them, read-only: the join only copies out of it). */
    uint32_t kc = mine->k_cap;
    rp_path in[kc];
    int64_t skc[kc];
    float skw[kc];
    rp_wire_set ws = { in, skc, skw, 0, 0, 0 };
    if (pathset_wire_parse(buf, len, kc, mine->iv_cap, &ws) != 0)
        return -1;
    int sorted = 1;
    for (uint32_t i = 1; i < ws.n; i++)
        if (in[i].cost_ns == in[i - 1].cost_ns && select_path_cmp(&in[i - 1], &in[i]) >= 0)
            sorted = 0;   /* equal costs: in order by contents, else the general join */
    if (sel == RP_SELECT_REPR)
        join_sketch(mine, in, ws.n, sorted, ws.wexp, skc, skw, ws.n_sk);
    else if (!sorted || !join_fast(mine, in, ws.n, sel))
        join_paths(mine, in, ws.n, sel);
    return 0;
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
