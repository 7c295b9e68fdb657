/* unit_select.c - representative-path selection (paper Fig. 5). */
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "core/select.h"
#include "unit.h"

#define MAXC 64
#define MAXIV 4

/* A pool of candidate paths with their own interval storage. */
typedef struct pool {
    rp_path p[MAXC];
    rp_interval iv[MAXC][MAXIV];
} pool;

static void pool_init(pool *pl)
{
    memset(pl, 0, sizeof *pl);
    for (int i = 0; i < MAXC; i++)
        pl->p[i].iv = pl->iv[i];
}

static void set_path(rp_path *p, int64_t cost, uint32_t rank, uint16_t lo,
                     uint16_t hi)
{
    p->cost_ns = cost;
    p->n_iv = 1;
    p->flags = 0;
    p->n_evicted = 0;
    p->iv[0] = (rp_interval){ rank, lo, hi };
}

static uint64_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static void shuffle(rp_path **v, uint32_t n)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = rnd(i);
        rp_path *t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

static void test_repr_index_hand(void)
{
    static const uint32_t k5n10[] = { 0, 2, 5, 7, 9 };
    for (uint32_t j = 0; j < 5; j++)
        CHECK_EQ(select_repr_index(j, 5, 10), k5n10[j]);
    static const uint32_t k4n6[] = { 0, 2, 3, 5 };  /* 0, 1.67, 3.33, 5 */
    for (uint32_t j = 0; j < 4; j++)
        CHECK_EQ(select_repr_index(j, 4, 6), k4n6[j]);
    static const uint32_t k3n4[] = { 0, 2, 3 };     /* 1.5 rounds up */
    for (uint32_t j = 0; j < 3; j++)
        CHECK_EQ(select_repr_index(j, 3, 4), k3n4[j]);
    CHECK_EQ(select_repr_index(0, 1, 7), 0);
    CHECK_EQ(select_repr_index(1, 2, 3), 2);
}

/* k = 1..12, n = k+1..2k: distinct, increasing, first = max, last = min. */
static void test_repr_index_props(void)
{
    for (uint32_t k = 1; k <= 12; k++) {
        for (uint32_t n = 1; n <= 2 * k; n++) {
            if (n <= k)
                continue;  /* all kept: no index needed */
            CHECK_EQ(select_repr_index(0, k, n), 0);
            if (k >= 2)
                CHECK_EQ(select_repr_index(k - 1, k, n), n - 1);
            for (uint32_t j = 1; j < k; j++) {
                CHECK(select_repr_index(j, k, n) > select_repr_index(j - 1, k, n));
                CHECK(select_repr_index(j, k, n) < n);
            }
        }
    }
}

/* select_k on n distinct shuffled candidates, k = 1..12, n = 1..2k. */
static void test_select_k_sizes(void)
{
    pool *pl = malloc(sizeof *pl);
    for (uint32_t k = 1; k <= 12; k++) {
        for (uint32_t n = 1; n <= 2 * k; n++) {
            pool_init(pl);
            rp_path *cand[MAXC], *out[MAXC];
            for (uint32_t i = 0; i < n; i++) {
                /* cost 1000*(n-i): cand index i is sorted position i */
                set_path(&pl->p[i], 1000 * (int64_t)(n - i), i, 0, 0);
                cand[i] = &pl->p[i];
            }
            shuffle(cand, n);
            uint32_t m = 99;
            for (int sel = 1; sel < 3; sel++) {   /* topk, paper (repr: below) */
                shuffle(cand, n);
                select_k(cand, n, k, (rp_select_mode)sel, out, &m);
                CHECK_EQ(m, n < k ? n : k);
                for (uint32_t j = 1; j < m; j++)
                    CHECK(out[j - 1]->cost_ns > out[j]->cost_ns);
                CHECK(out[0] == &pl->p[0]);                 /* max kept */
                if (k >= 2 || n == 1)
                    CHECK(out[m - 1] == &pl->p[n - 1]);     /* min kept */
                for (uint32_t j = 0; j < m; j++) {
                    uint32_t want;
                    if (n <= k)
                        want = j;
                    else if (sel == RP_SELECT_PAPER)
                        want = select_repr_index(j, k, n);
                    else
                        want = j < (k + 1) / 2 ? j : n - k + j;
                    CHECK(out[j] == &pl->p[want]);
                }
            }
        }
    }
    free(pl);
}

static void test_topk_hand(void)
{
    pool *pl = malloc(sizeof *pl);
    pool_init(pl);
    rp_path *cand[10], *out[10];
    uint32_t m;
    for (int i = 0; i < 10; i++) {
        set_path(&pl->p[i], 100 - i, 0, (uint16_t)i, (uint16_t)i);
        cand[i] = &pl->p[i];
    }
    shuffle(cand, 10);
    select_k(cand, 10, 5, RP_SELECT_TOPK, out, &m);
    static const int64_t want5[] = { 100, 99, 98, 92, 91 };
    CHECK_EQ(m, 5);
    for (int j = 0; j < 5; j++)
        CHECK_EQ(out[j]->cost_ns, want5[j]);
    select_k(cand, 10, 4, RP_SELECT_TOPK, out, &m);
    static const int64_t want4[] = { 100, 99, 92, 91 };
    CHECK_EQ(m, 4);
    for (int j = 0; j < 4; j++)
        CHECK_EQ(out[j]->cost_ns, want4[j]);
    select_k(cand, 10, 5, RP_SELECT_PAPER, out, &m);
    static const int64_t wantr[] = { 100, 98, 95, 93, 91 };
    for (int j = 0; j < 5; j++)
        CHECK_EQ(out[j]->cost_ns, wantr[j]);
    free(pl);
}

/* Exact duplicates go, near-duplicates (same cost, other summary) stay. */
static void test_duplicates(void)
{
    pool *pl = malloc(sizeof *pl);
    pool_init(pl);
    rp_path *cand[8], *out[8];
    uint32_t m;
    set_path(&pl->p[0], 50, 1, 0, 3);
    set_path(&pl->p[1], 50, 1, 0, 3);   /* duplicate of 0 */
    set_path(&pl->p[2], 50, 1, 0, 4);   /* same cost, other interval */
    set_path(&pl->p[3], 50, 1, 0, 3);
    pl->p[3].n_evicted = 1;             /* differs only by evictions */
    set_path(&pl->p[4], 50, 1, 0, 3);
    pl->p[4].flags = RP_PATH_OVERFLOW;  /* differs only by flags */
    set_path(&pl->p[5], 10, 2, 0, 0);
    set_path(&pl->p[6], 10, 2, 0, 0);   /* duplicate of 5 */
    for (int i = 0; i < 7; i++)
        cand[i] = &pl->p[i];
    CHECK_EQ(select_path_cmp(&pl->p[0], &pl->p[1]), 0);
    CHECK(select_path_cmp(&pl->p[0], &pl->p[2]) != 0);
    CHECK(select_path_cmp(&pl->p[0], &pl->p[3]) < 0);  /* fewer evictions first */
    CHECK(select_path_cmp(&pl->p[3], &pl->p[0]) > 0);
    CHECK(select_path_cmp(&pl->p[5], &pl->p[0]) > 0);  /* cheaper sorts later */
    select_k(cand, 7, 10, RP_SELECT_PAPER, out, &m);
    CHECK_EQ(m, 5);
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = i + 1; j < m; j++)
            CHECK(select_path_cmp(out[i], out[j]) < 0);
    CHECK_EQ(out[m - 1]->cost_ns, 10);
    /* all equal: one survives */
    for (int i = 0; i < 7; i++) {
        set_path(&pl->p[i], 7, 3, 1, 2);
        cand[i] = &pl->p[i];
    }
    select_k(cand, 7, 3, RP_SELECT_PAPER, out, &m);
    CHECK_EQ(m, 1);
    free(pl);
}

/* Many equal costs: the selection must not depend on input order. */
static void test_deterministic_ties(void)
{
    pool *pl = malloc(sizeof *pl);
    for (int round = 0; round < 50; round++) {
        pool_init(pl);
        uint32_t n = 2 + rnd(30), k = 1 + rnd(10);
        rp_path *cand[MAXC], *out[MAXC], *ref[MAXC];
        for (uint32_t i = 0; i < n; i++) {
            rp_path *p = &pl->p[i];
            p->cost_ns = rnd(4);
            p->flags = (uint16_t)rnd(2);
            p->n_evicted = rnd(2);
            p->n_iv = (uint16_t)rnd(MAXIV + 1);
            for (uint32_t j = 0; j < p->n_iv; j++) {
                uint16_t lo = (uint16_t)rnd(3);
                p->iv[j] = (rp_interval){ rnd(2), lo, (uint16_t)(lo + rnd(2)) };
            }
            cand[i] = p;
        }
        for (int sel = 1; sel <= 2; sel++) {   /* topk, paper */
            uint32_t mref = 0, m = 0;
            shuffle(cand, n);
            select_k(cand, n, k, (rp_select_mode)sel, ref, &mref);
            for (int t = 0; t < 10; t++) {
                shuffle(cand, n);
                select_k(cand, n, k, (rp_select_mode)sel, out, &m);
                CHECK_EQ(m, mref);
                for (uint32_t j = 0; j < m && j < mref; j++)
                    CHECK_EQ(select_path_cmp(out[j], ref[j]), 0);
            }
            for (uint32_t j = 1; j < mref; j++)
                CHECK(select_path_cmp(ref[j - 1], ref[j]) < 0);
        }
    }
    free(pl);
}

/* out == cand is allowed (the join relies on nothing else, but callers may). */
static void test_select_in_place(void)
{
    pool *pl = malloc(sizeof *pl);
    pool_init(pl);
    rp_path *cand[20];
    uint32_t m;
    for (int i = 0; i < 20; i++) {
        set_path(&pl->p[i], 20 - i, 0, 0, 0);
        cand[i] = &pl->p[i];
    }
    shuffle(cand, 20);
    select_k(cand, 20, 5, RP_SELECT_PAPER, cand, &m);
    CHECK_EQ(m, 5);
    static const int64_t want[] = { 20, 15, 10, 6, 1 };  /* idx 0,5,10(9.5 up),14,19 */
    for (int j = 0; j < 5; j++)
        CHECK_EQ(cand[j]->cost_ns, want[j]);
    free(pl);
}

static void test_percentiles(void)
{
    CHECK(select_percentile(0, 1) == 100.0);
    CHECK(select_percentile(0, 5) == 100.0);
    CHECK(select_percentile(1, 5) == 75.0);
    CHECK(select_percentile(4, 5) == 0.0);
    CHECK(select_percentile(1, 3) == 50.0);
    /* k = 5, n = 3: held 100, 50, 0; slot 75 ties 100/50 -> lower index */
    static const uint32_t k5n3[] = { 0, 0, 1, 1, 2 };
    for (uint32_t j = 0; j < 5; j++)
        CHECK_EQ(select_nearest(j, 5, 3), k5n3[j]);
    static const uint32_t k3n5[] = { 0, 2, 4 };
    for (uint32_t j = 0; j < 3; j++)
        CHECK_EQ(select_nearest(j, 3, 5), k3n5[j]);
    CHECK_EQ(select_nearest(0, 1, 4), 0);
    CHECK_EQ(select_nearest(3, 5, 1), 0);
    /* k = 4 (100, 66.7, 33.3, 0), n = 7 (100, 83, 67, 50, 33, 17, 0) */
    static const uint32_t k4n7[] = { 0, 2, 4, 6 };
    for (uint32_t j = 0; j < 4; j++)
        CHECK_EQ(select_nearest(j, 4, 7), k4n7[j]);
    for (uint32_t k = 1; k <= 12; k++) {
        for (uint32_t n = 1; n <= 2 * k; n++) {
            CHECK_EQ(select_nearest(0, k, n), 0);
            if (k >= 2)
                CHECK_EQ(select_nearest(k - 1, k, n), n - 1);
            for (uint32_t j = 0; j < k; j++) {
                uint32_t i = select_nearest(j, k, n);
                CHECK(i < n);
                if (n == k)
                    CHECK_EQ(i, j);
                if (j > 0)
                    CHECK(i >= select_nearest(j - 1, k, n));
                /* against floating point where the answer is not a tie */
                double ps = select_percentile(j, k), best = 1e9;
                uint32_t bi = 0;
                int tie = 0;
                for (uint32_t h = 0; h < n; h++) {
                    double ph = n == 1 ? 100.0 : 100.0 * (n - 1 - h) / (n - 1);
                    double d = ps > ph ? ps - ph : ph - ps;
                    if (d < best - 1e-9) {
                        best = d;
                        bi = h;
                        tie = 0;
                    } else if (d < best + 1e-9) {
                        tie = 1;
                    }
                }
                if (!tie)
                    CHECK_EQ(i, bi);
            }
        }
    }
}

/* select_sorted_unique: the join's test for taking the merge fast path. */
static void test_sorted_unique(void)
{
    pool pl;
    pool_init(&pl);
    set_path(&pl.p[0], 30, 0, 1, 1);
    set_path(&pl.p[1], 20, 0, 1, 1);
    set_path(&pl.p[2], 20, 1, 1, 1);
    set_path(&pl.p[3], 10, 0, 1, 1);
    CHECK(select_sorted_unique(pl.p, 4));
    CHECK(select_sorted_unique(pl.p, 1));
    CHECK(select_sorted_unique(pl.p, 0));
    /* equal costs out of the full order */
    set_path(&pl.p[1], 20, 1, 1, 1);
    set_path(&pl.p[2], 20, 0, 1, 1);
    CHECK(!select_sorted_unique(pl.p, 4));
    /* an exact duplicate */
    set_path(&pl.p[2], 20, 1, 1, 1);
    CHECK(!select_sorted_unique(pl.p, 4));
    /* cost going up */
    set_path(&pl.p[2], 25, 2, 1, 1);
    CHECK(!select_sorted_unique(pl.p, 4));
}

/* The report's level map (select_levels): by weight under RP_SELECT=repr
 * (the runtime's weighted join is pathset.c's, tested in unit_pathset). */
static void test_levels(void)
{
    int64_t c5[5] = {10, 6, 5, 4, 1};
    double w5[5] = {1, 1024, 1, 1, 1};
    /* the report's levels: by weight under repr, by position otherwise */
    uint32_t map[7];
    select_levels(c5, w5, 5, 5, RP_SELECT_REPR, 0.0, map);   /* k held: one each */
    CHECK(map[0] == 0 && map[1] == 1 && map[2] == 2 && map[3] == 3 && map[4] == 4);
    select_levels(c5, w5, 5, 7, RP_SELECT_REPR, 0.0, map);   /* fewer held: by weight */
    CHECK(map[0] == 0 && map[1] == 1 && map[2] == 1 && map[3] == 1 && map[4] == 1 &&
          map[5] == 1 && map[6] == 4);
    select_levels(c5, w5, 5, 5, RP_SELECT_PAPER, 0.0, map);
    CHECK(map[0] == 0 && map[1] == 1 && map[2] == 2 && map[3] == 3 && map[4] == 4);
    /* Whole paths (unit > 0): a set that holds every path of its phase with
     * integer weights shows the exact percentiles, as the oracle counts
     * them (path nearbyint(j/(k-1) (N-1)) of N, 0-based from the longest),
     * also when the weights carry the tools' log2 rounding noise.  8 paths
     * at k = 9 put every level on a weight boundary: the rule without
     * whole paths took the longest path for 87.5 % (a 98 % error measured
     * in a tail phase of bench/accuracy's master-worker). */
    {
        int64_t c8[8] = {80, 70, 60, 50, 40, 30, 20, 10};
        double w8[8], wn[8];
        uint32_t m9[9];
        for (int i = 0; i < 8; i++) {
            w8[i] = 1.0;
            wn[i] = 1.0 + ((i & 1) ? 1e-7 : -1e-7);
        }
        for (int noisy = 0; noisy < 2; noisy++) {
            select_levels(c8, noisy ? wn : w8, 8, 9, RP_SELECT_REPR, 1.0, m9);
            for (uint32_t j = 0; j < 9; j++)
                CHECK_EQ(m9[j], (uint32_t)nearbyint((double)j / 8.0 * 7.0));
        }
        /* random integer weights, fewer paths than levels: against the
         * expanded list of all paths; and in any common scale */
        for (int t = 0; t < 2000; t++) {
            uint32_t n = 1 + rnd(8), k = n + 1 + rnd(8);
            int64_t cc[8];
            double ww[8], ws[8];
            uint32_t owner[8 * 6], N = 0, mm[16];
            for (uint32_t i = 0; i < n; i++) {
                cc[i] = 100 - (int64_t)i;
                uint32_t c = 1 + rnd(5);
                ww[i] = c;
                ws[i] = c * 0x1p-20;
                for (uint32_t q = 0; q < c; q++)
                    owner[N++] = i;
            }
            for (int sc = 0; sc < 2; sc++) {
                select_levels(cc, sc ? ws : ww, n, k, RP_SELECT_REPR, sc ? 0x1p-20 : 1.0, mm);
                for (uint32_t j = 0; j < k; j++) {
                    uint32_t pos = j == 0 ? 0 : j + 1 == k ? N - 1
                                 : (uint32_t)nearbyint((double)j / (double)(k - 1) * (N - 1));
                    CHECK_EQ(mm[j], owner[pos]);
                }
            }
        }
    }
    /* the fast exp2/log2 the tools and files use */
    for (double x = -900; x < 900; x += 0.37)
        CHECK(fabs(select_exp2(x) / exp2(x) - 1) < 1e-8);
    for (double y = 1e-290; y < 1e290; y *= 3.7)
        CHECK(fabs(select_log2(y) - log2(y)) < 1e-9);
    CHECK(select_log2(0.0) == -1000.0 && select_exp2(-2000.0) == 0.0);
}

int main(void)
{
    test_levels();
    test_sorted_unique();
    test_repr_index_hand();
    test_repr_index_props();
    test_select_k_sizes();
    test_topk_hand();
    test_duplicates();
    test_deterministic_ties();
    test_select_in_place();
    test_percentiles();
    return unit_done("unit_select");
}
