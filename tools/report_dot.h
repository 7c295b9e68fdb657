/* report_dot.h - what report_dot.c adds to report_dot (paths.h). */
#ifndef RP_REPORT_DOT_H
#define RP_REPORT_DOT_H

#include <stdint.h>
#include <stdio.h>
#include "paths.h"

/* Graphviz DOT of one phase (phase >= 0) or of all (phase < 0).  Path mode:
 * the k paths of the phase(s); trace mode, all phases: the whole task graph
 * with the critical path red; trace mode, one phase: that phase's longest
 * and shortest paths drawn as in path mode.  A note on stderr gives the
 * graph's size when it is too large to look at.  0, or -1 (message
 * printed). */
int report_dot_phase(FILE *f, const rp_run *run, int64_t phase);

#endif
