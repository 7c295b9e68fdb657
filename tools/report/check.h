/* check.h - rp-report --check (check.c). */
#ifndef RP_REPORT_CHECK_H
#define RP_REPORT_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include "common/paths.h"

/* Trace mode: per phase the offline longest/shortest path against the
 * online 100 %/0 % costs, then the exact percentiles of all paths against
 * the online middle paths (oracle.h).  Path mode: every reassembled path's
 * tasks against its cost.  A table, or with json one JSON object
 * (doc/report.md).  bins: the oracle's, as oracle_percentiles' (0:
 * its default; rp-report --check-bins).  Returns 0 if all agree within tol_ns per phase, 1 if
 * not, 3 if all it could check agrees but a path's summary overflowed
 * (path mode), -1 on error (message printed). */
int report_check(FILE *f, const rp_run *run, int64_t tol_ns, int json, uint32_t bins);

#endif
