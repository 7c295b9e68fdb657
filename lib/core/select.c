/* select.c - choosing k of n candidate paths (paper Fig. 5).
 *
 * Every rank of a collective must select the identical set from the same
 * candidates whatever order they arrived in, so the order is total on path
 * contents (select_path_cmp) and ties never depend on input position.
 * No allocation: sorting is in place (k is small, bounded by the eager
 * limit), so this is usable anywhere.
 */
#include <math.h>
#include "core/select.h"

uint32_t select_repr_index(uint32_t j, uint32_t k, uint32_t n)
{
    if (k <= 1 || n <= 1)
        return 0;
    /* round(j*(n-1)/(k-1)), halves up, without floating point. */
    uint64_t num = 2ull * j * (n - 1) + (k - 1);
    return (uint32_t)(num / (2ull * (k - 1)));
}

void select_repr_table(uint32_t k, uint16_t *tab)
{
    for (uint32_t n = k + 1; n <= 2 * k; n++)
        for (uint32_t j = 0; j < k; j++)
            *tab++ = (uint16_t)select_repr_index(j, k, n);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

static int cmp_interval(const rp_interval *a, const rp_interval *b)
{
    int c = cmp_u64(a->rank, b->rank);
    if (c == 0)
        c = cmp_u64(a->low, b->low);
    if (c == 0)
        c = cmp_u64(a->high, b->high);
    return c;
}

int select_path_cmp(const rp_path *a, const rp_path *b)
{
    if (a->cost_ns != b->cost_ns)
        return a->cost_ns > b->cost_ns ? -1 : 1;  /* higher cost first */
    int c = cmp_u64(a->flags, b->flags);
    if (c == 0)
        c = cmp_u64(a->n_evicted, b->n_evicted);
    if (c == 0)
        c = cmp_u64(a->n_iv, b->n_iv);
    for (uint32_t i = 0; c == 0 && i < a->n_iv; i++)
        c = cmp_interval(&a->iv[i], &b->iv[i]);
    return c;
}

static int is_sorted(rp_path **v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (select_path_cmp(v[i - 1], v[i]) > 0)
            return 0;
    return 1;
}

/* Heapsort: O(n log n), in place, no allocation.  Not stable, which does
 * not matter because cmp == 0 only for identical paths. */
static void sift_down(rp_path **v, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && select_path_cmp(v[child], v[child + 1]) < 0)
            child++;
        if (select_path_cmp(v[root], v[child]) >= 0)
            return;
        rp_path *t = v[root];
        v[root] = v[child];
        v[child] = t;
        root = child;
    }
}

void select_sort(rp_path **v, uint32_t n)
{
    if (is_sorted(v, n))  /* often already in order: O(n) */
        return;
    for (uint32_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (uint32_t end = n; end-- > 1;) {
        rp_path *t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_down(v, 0, end);
    }
}

static uint32_t dedup_sorted(rp_path **v, uint32_t n)
{
    if (n == 0)
        return 0;
    uint32_t m = 1;
    for (uint32_t i = 1; i < n; i++)
        if (select_path_cmp(v[m - 1], v[i]) != 0)
            v[m++] = v[i];
    return m;
}

/* out may equal cand: every pick index is >= its output position, so
 * writing out[j] never clobbers a candidate still to be read. */
int select_sorted_unique(const rp_path *p, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        if (p[i - 1].cost_ns > p[i].cost_ns)
            continue;
        if (p[i - 1].cost_ns < p[i].cost_ns || select_path_cmp(&p[i - 1], &p[i]) >= 0)
            return 0;
    }
    return 1;
}

/* select_k's selection, once its candidates are sorted without duplicates */
static void select_k_sorted(rp_path **cand, uint32_t n, uint32_t k, rp_select_mode sel,
                            rp_path **out, uint32_t *n_out);

void select_k(rp_path **cand, uint32_t n, uint32_t k, rp_select_mode sel,
              rp_path **out, uint32_t *n_out)
{
    select_sort(cand, n);
    n = dedup_sorted(cand, n);
    select_k_sorted(cand, n, k, sel, out, n_out);
}

static void select_k_sorted(rp_path **cand, uint32_t n, uint32_t k, rp_select_mode sel,
                            rp_path **out, uint32_t *n_out)
{
    if (n <= k) {
        for (uint32_t i = 0; i < n; i++)
            out[i] = cand[i];
        *n_out = n;
        return;
    }
    if (sel == RP_SELECT_TOPK) {
        uint32_t top = (k + 1) / 2, bottom = k / 2;
        for (uint32_t i = 0; i < top; i++)
            out[i] = cand[i];
        for (uint32_t i = 0; i < bottom; i++)
            out[top + i] = cand[n - bottom + i];
    } else if (k == 1) {
        out[0] = cand[0];
    } else {
        /* select_repr_index(j, k, n) for j = 0..k-1, walked incrementally:
         * index_j = (j*step + (k-1)) / den with step = 2(n-1), den = 2(k-1);
         * two divisions instead of k (this runs at every message join). */
        uint32_t den = 2 * (k - 1), step = 2 * (n - 1);
        uint32_t q = (k - 1) / den, r = (k - 1) % den;
        uint32_t dq = step / den, dr = step % den;
        for (uint32_t j = 0; j < k; j++) {
            out[j] = cand[q];
            q += dq;
            r += dr;
            if (r >= den) {
                r -= den;
                q++;
            }
        }
    }
    *n_out = k;
}

double select_percentile(uint32_t j, uint32_t k)
{
    if (k <= 1)
        return 100.0;
    return 100.0 * (double)(k - 1 - j) / (double)(k - 1);
}

uint32_t select_nearest(uint32_t j, uint32_t k, uint32_t n)
{
    if (n <= 1)
        return 0;
    /* Slot j's percentile is a/b, held path i's is (n-1-i)/(n-1).  With the
     * common denominator b*(n-1) the distance is |a*(n-1) - (n-1-i)*b|, an
     * exact integer: no rounding can flip a tie. */
    uint64_t a = (k <= 1) ? 1 : (uint64_t)(k - 1 - j);
    uint64_t b = (k <= 1) ? 1 : (uint64_t)(k - 1);
    uint64_t target = a * (n - 1);
    uint32_t best = 0;
    uint64_t best_d = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)(n - 1 - i) * b;
        uint64_t d = v > target ? v - target : target - v;
        if (d < best_d) {  /* strict: ties stay with the lower index */
            best_d = d;
            best = i;
        }
    }
    return best;
}

/* ---- weighted selection of a candidate list (RP_SELECT=repr, issue 14) -----
 * select_k's rule for repr, on a list of weighted candidates without a
 * sketch (the runtime's join, with its sketch, is pathset.c's
 * join_weighted; select_levels below is shared by both).
 * Candidate i (sorted by cost, descending) stands for w[i] paths (one
 * scale for all: pathset.c keeps a set's weights as floats times 2^wexp).  The
 * picks are the candidates at the k evenly spaced weighted quantiles:
 * level j takes the candidate whose share of the total weight W covers
 * position W j/(k-1), the ends exactly the first and the last.  The weight
 * of a dropped candidate moves to its two kept neighbours in proportion to
 * where its cost lies between theirs, so total weight and mean cost are
 * kept.  All in double, in an order fixed by the candidates' order:
 * identical on every rank. */

/* exp2 and log2 for the weights: a join runs them ~15 times per message,
 * on the receiver's critical path, where libm's cost 10-20 ns each.  Range
 * reduction plus a short series, ~1e-9 relative (far below the float the
 * result is stored in); plain arithmetic, so every rank gets the same bits. */
double select_exp2(double x)
{
    if (!(x > -1000.0))
        return 0.0;
    if (x > 1000.0)
        x = 1000.0;
    int64_t xi = (int64_t)x;              /* floor, without a libm call */
    if ((double)xi > x)
        xi--;
    double f = (x - (double)xi) * 0.69314718055994530942;   /* [0, ln 2) */
    double p = 1.0 + f * (1.0 + f * (1.0 / 2 + f * (1.0 / 6 + f * (1.0 / 24 + f * (1.0 / 120 +
               f * (1.0 / 720 + f * (1.0 / 5040 + f * (1.0 / 40320 + f * (1.0 / 362880)))))))));
    union { uint64_t u; double d; } b = { (uint64_t)(xi + 1023) << 52 };   /* 2^xi */
    return p * b.d;
}

double select_log2(double y)
{
    if (!(y >= 0x1p-1000))
        return -1000.0;                   /* weights below 2^-1000 of the largest */
    union { double d; uint64_t u; } b = { y };
    int64_t e = (int64_t)((b.u >> 52) & 0x7ff) - 1022;
    b.u = (b.u & 0x800fffffffffffffull) | (1022ull << 52);   /* m in [0.5, 1) */
    double m = b.d;
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e -= 1;
    }
    double t = (m - 1.0) / (m + 1.0), t2 = t * t;   /* |t| <= 0.1716 */
    double ln = 2.0 * t * (1.0 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7 + t2 * (1.0 / 9 +
                t2 * (1.0 / 11))))));
    return (double)e + ln * 1.44269504088896340736;
}

/* For each level j of k, the candidate whose share of the total weight
 * covers position tot j/(k-1) (the first whose running sum passes it); the
 * ends are the first and the last candidate.  One pass: levels rise.
 * unit > 0 is the weight of one path in w's units: then, while the count
 * tot/unit is exact in a double, positions are counted in whole paths as
 * the oracle counts them (tools/common/oracle.c: path nearbyint(j/(k-1) (N-1)) of
 * N, 0-based from the longest), and the candidate taken is the one holding
 * the middle of that path's unit of weight, so rounding noise in the
 * weights (the tools read them back from log2) cannot move a level across
 * a boundary.  A set of fewer than k paths that never dropped one holds
 * every path of its phase with integer weights: its levels are then the
 * exact percentiles. */
static void level_indices(const double *w, uint32_t n, double tot, uint32_t k, double unit,
                          uint32_t *at)
{
    at[0] = 0;
    if (k < 2)
        return;
    uint32_t i = 0;
    double cum = w[0], step = tot / (double)(k - 1);
    double count = unit > 0 ? tot / unit : 0;
    int whole = count >= 1 && count < 0x1p52;
    for (uint32_t j = 1; j + 1 < k; j++) {
        double t = step * (double)j;
        if (whole)
            t = (nearbyint((double)j / (double)(k - 1) * (count - 1)) + 0.5) * unit;
        while (i + 1 < n && !(cum > t))
            cum += w[++i];
        at[j] = i;
    }
    at[k - 1] = n ? n - 1 : 0;
}

void select_levels(const int64_t *cost, const double *w, uint32_t n, uint32_t k,
                   rp_select_mode sel, double unit, uint32_t *map)
{
    (void)cost;
    if (n == k && sel == RP_SELECT_REPR) {
        /* a weighted join puts its k paths at the k levels (pathset.c) */
        for (uint32_t j = 0; j < k; j++)
            map[j] = j;
        return;
    }
    if (sel != RP_SELECT_REPR || n == 0) {
        for (uint32_t j = 0; j < k; j++)
            map[j] = select_nearest(j, k, n);
        return;
    }
    double tot = 0;
    for (uint32_t i = 0; i < n; i++)
        tot += w[i];
    level_indices(w, n, tot, k, unit, map);
}
