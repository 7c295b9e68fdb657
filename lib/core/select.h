/* select.h - choosing k paths out of n candidates (paper Fig. 5).  Pure C. */
#ifndef RP_SELECT_H
#define RP_SELECT_H

#include <stdint.h>
#include "core/pathset.h"

/* Index (into candidates sorted by cost descending, 0 = most costly) of the
 * j-th of k representative picks out of n > k distinct candidates:
 * round(j * (n-1) / (k-1)), halves rounded up; k == 1 gives 0. */
uint32_t select_repr_index(uint32_t j, uint32_t k, uint32_t n);

/* REPR picks for every candidate count n = k+1 .. 2k (a join of two sets of
 * at most k paths): row n-k-1 of tab (k*k entries) holds
 * select_repr_index(j, k, n) for j = 0..k-1.  A join then picks by table
 * look-up, where select_k needs two divisions per join. */
void select_repr_table(uint32_t k, uint16_t *tab);

/* Order two paths: negative if a sorts before b (higher cost first; equal
 * costs ordered by flags, evictions, interval count, then intervals).
 * 0 only for exact duplicates. */
int select_path_cmp(const rp_path *a, const rp_path *b);

/* Select from cand[0..n) (any order; the array is sorted in place and
 * exact duplicates removed) into out[0..*n_out), at most k, descending.
 * out[] entries point into cand's paths (no interval copies are made). */
void select_k(rp_path **cand, uint32_t n, uint32_t k, rp_select_mode sel,
              rp_path **out, uint32_t *n_out);

/* Sort v[0..n) in select_path_cmp order (in place, no allocation). */
void select_sort(rp_path **v, uint32_t n);

/* 1 if p[0..n) is in select_path_cmp order with no exact duplicates.
 * O(n) cost compares; the full comparison runs only between equal costs. */
int select_sorted_unique(const rp_path *p, uint32_t n);

/* Percentile (100 .. 0) shown for report slot j of k. */
double select_percentile(uint32_t j, uint32_t k);
/* Which of n held paths (sorted descending) stands for report slot j of k:
 * the held path whose own percentile is nearest; ties to the lower index. */
uint32_t select_nearest(uint32_t j, uint32_t k, uint32_t n);

/* RP_SELECT=repr: from n candidates sorted by cost descending, candidate i
 * standing for w[i] paths (any common scale), pick at most k (indices
 * ascending, into pick[0..*m_out)) at evenly spaced weighted quantiles,
 * the first and the last always; new_w[q]: the weight pick q stands for
 * afterwards (dropped candidates' weight shared between their kept
 * neighbours by cost; the total is kept).  n <= k keeps all. */
void select_weighted(const int64_t *cost, const double *w, uint32_t n, uint32_t k,
                     uint32_t *pick, double *new_w, uint32_t *m_out);

/* 2^x and log2(y) for path weights (y > 0; below 2^-1000: -1000): fast,
 * ~1e-9 relative, the same bits on every rank. */
double select_exp2(double x);
double select_log2(double y);

/* The weights of the m candidates keep[] (ascending indices) kept of n
 * (sorted by cost, descending): each its own, plus the weight of every
 * dropped candidate between two kept ones split between them in proportion
 * to where its cost lies between theirs (total and mean kept); dropped
 * candidates before the first or after the last go to it.  kw[0..m). */
void select_spread(const int64_t *cost, const double *w, uint32_t n, const uint32_t *keep,
                   uint32_t m, double *kw);

/* Which of n held paths (sorted descending) report level j of k shows
 * (map[j]): under repr path j when n == k (a weighted join places its k
 * paths at the k levels, using the set's sketch too), else by weighted
 * quantile (w, any common scale; unit = the weight of one path in it, or 0
 * if unknown: then positions are not counted in whole paths, select.c);
 * the others select_nearest. */
void select_levels(const int64_t *cost, const double *w, uint32_t n, uint32_t k,
                   rp_select_mode sel, double unit, uint32_t *map);

#endif
