/* precision.h - how precise a sampled number is (doc/report.md,
 * "Precision").  Rank files keep sampled time per context, not sample
 * counts, so the count behind a time is estimated as time / the mean sample
 * weight of the run (every sample's weight is the time since the previous
 * one, about the period; adaptive sampling makes later samples heavier, so
 * the estimate is exact for a fixed period and an average otherwise). */
#ifndef RP_PRECISION_H
#define RP_PRECISION_H

#include <stdint.h>
#include "common/profile.h"

/* Mean weight of a sample in ns: (task + MPI sampled time) / the "samples"
 * counter; 0 when the run has no samples or no counter. */
double precision_weight_ns(const rp_profile *p);

/* Estimated samples behind `ns` of sampled time (0 if the weight is 0). */
double precision_samples(double weight_ns, int64_t ns);

/* 1 if a - b is within sampling noise: |a - b| < 2 sqrt(a^2/na + b^2/nb),
 * the 2-sigma bound of two independent Poisson counts (a Poisson variance
 * n is an upper bound on the binomial n p (1-p)), for values a, b measured
 * from na, nb samples.  A value with no samples counts as exact 0. */
int precision_within_noise(double a, double na, double b, double nb);

#endif
