/* report_critpath.h - what report_critpath.c adds to the views that
 * paths.h declares (report_critpath, report_paths_text). */
#ifndef RP_REPORT_CRITPATH_H
#define RP_REPORT_CRITPATH_H

#include <stdint.h>
#include <stdio.h>
#include "paths.h"

/* critPath.out with task seconds printed with `digits` decimals (0: rounded
 * to an integer, the format's own rule, which report_critpath uses; at most
 * 9).  0, or -1 (message printed). */
int report_critpath_digits(FILE *f, const rp_run *run, uint32_t digits);

#endif
