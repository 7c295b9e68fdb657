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
 * exact duplicates removed) into out[0..*n_out), at most k, descending,
 * by the unweighted rules: RP_SELECT_TOPK, or RP_SELECT_PAPER's evenly
 * spaced indices.  RP_SELECT_REPR needs the paths' weights and the sets'
 * sketch points, which a candidate list does not carry: pathset_join
 * does it (join_weighted); here it picks as PAPER.
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

/* 2^x and log2(y) for path weights (y > 0; below 2^-1000: -1000): fast,
 * ~1e-9 relative, the same bits on every rank. */
double select_exp2(double x);
double select_log2(double y);

/* Which of n held paths (sorted descending) report level j of k shows
 * (map[j]): under repr path j when n == k (a weighted join places its k
 * paths at the k levels, using the set's sketch too), else by weighted
 * quantile (w, any common scale; unit = the weight of one path in it, or 0
 * if unknown: then positions are not counted in whole paths, select.c);
 * the others select_nearest. */
void select_levels(const int64_t *cost, const double *w, uint32_t n, uint32_t k,
                   rp_select_mode sel, double unit, uint32_t *map);

#endif
