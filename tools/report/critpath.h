/* critpath.h - the critical path and the k paths as text, from the rank
 * files' full paths (common/paths.h). */
#ifndef RP_REPORT_CRITPATH_H
#define RP_REPORT_CRITPATH_H

#include <stdint.h>
#include <stdio.h>
#include "common/paths.h"

/* The critical path in the course assignment's critPath.out format.
 * 0, or -1 (message printed). */
int report_critpath(FILE *f, const rp_run *run);
/* Text: every path's task sequence, per phase (path mode). */
int report_paths_text(FILE *f, const rp_run *run, uint32_t max_steps, uint32_t max_phases);
/* critPath.out with task seconds printed with `digits` decimals (0: rounded
 * to an integer, the format's own rule, which report_critpath uses; at most
 * 9).  0, or -1 (message printed). */
int report_critpath_digits(FILE *f, const rp_run *run, uint32_t digits);

#endif
