/* text.h - the text report: warnings, distribution, per rank, MPI sites,
 * phases, hotspots, the calling-context tree. */
#ifndef RP_REPORT_TEXT_H
#define RP_REPORT_TEXT_H

#include <stdio.h>
#include "report/model.h"

int report_text(FILE *f, const rp_profile *p, const rp_report_opts *o);

#endif
