/* sites.h - MPI time by call site (as mpiP lists it): the sampled
 * time inside each MPI function, split by the source line that called it. */
#ifndef RP_REPORT_SITES_H
#define RP_REPORT_SITES_H

#include <stdint.h>
#include <stdio.h>
#include "common/profile.h"

typedef struct rp_site {
    uint32_t mpi;                /* string id of the MPI function */
    uint32_t func, file, line;   /* the calling line (string ids; 0 = unknown) */
    int64_t  ns;                 /* sampled time inside the call (column RP_MET_MPI) */
} rp_site;

/* Largest first; *out malloc'd; the count or -1 on ENOMEM. */
int32_t sites_collect(const rp_profile *p, rp_site **out);
/* Text table of the top entries; JSON array of the top entries. */
/* exact_mpi_ns: the ranks' exact MPI time (the per-rank table's), or <= 0
 * if unknown: then the sampled share of it is stated. */
int sites_text(FILE *f, const rp_profile *p, uint32_t top, int64_t exact_mpi_ns);
int sites_json(FILE *f, const rp_profile *p, uint32_t top,
               void (*jstr)(FILE *, const char *));

#endif
