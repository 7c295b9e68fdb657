/* precision.c - sample-count estimates and the noise test (precision.h). */
#include "report/precision.h"

#include <math.h>
#include "report/model.h"

double precision_weight_ns(const rp_profile *p)
{
    uint64_t n = profile_counter(p, "samples");
    int64_t t = report_total(p, RP_MET_RANK) + report_total(p, RP_MET_MPI);
    if (n == 0 || t <= 0)
        return 0.0;
    return (double)t / (double)n;
}

double precision_samples(double weight_ns, int64_t ns)
{
    return weight_ns > 0 && ns > 0 ? (double)ns / weight_ns : 0.0;
}

int precision_within_noise(double a, double na, double b, double nb)
{
    double var = (na > 0 ? a * a / na : 0.0) + (nb > 0 ? b * b / nb : 0.0);
    return fabs(a - b) < 2.0 * sqrt(var);
}
