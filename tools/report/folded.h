/* folded.h - folded stacks (flamegraph.pl's input) of one column. */
#ifndef RP_REPORT_FOLDED_H
#define RP_REPORT_FOLDED_H

#include <stdint.h>
#include <stdio.h>
#include "report/model.h"

int report_folded(FILE *f, const rp_profile *p, uint32_t col);

#endif
