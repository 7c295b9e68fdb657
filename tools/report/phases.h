/* phases.h - the per-phase view (path and trace modes, whose rank
 * files keep every phase's path costs; prof mode keeps constant-space
 * statistics only): the phases with the largest spread between the 100 %
 * and the 0 % path, with their index, costs and where they start on the
 * critical path's time line. */
#ifndef RP_REPORT_PHASES_H
#define RP_REPORT_PHASES_H

#include <stdint.h>
#include <stdio.h>
#include "common/paths.h"

int phases_text(FILE *f, const rp_run *run, uint32_t top);
int phases_json(FILE *f, const rp_run *run, uint32_t top);

#endif
