/* dot.h - Graphviz views of the rank files' full paths. */
#ifndef RP_REPORT_DOT_H
#define RP_REPORT_DOT_H

#include <stdint.h>
#include <stdio.h>
#include "common/paths.h"

/* Graphviz DOT: the k paths (path mode) or the whole graph with the
 * critical path red (trace mode). */
int report_dot(FILE *f, const rp_run *run);
/* Graphviz DOT of one phase (phase >= 0) or of all (phase < 0).  Path mode:
 * the k paths of the phase(s); trace mode, all phases: the whole task graph
 * with the critical path red; trace mode, one phase: that phase's longest
 * and shortest paths drawn as in path mode.  A note on stderr gives the
 * graph's size when it is too large to look at.  0, or -1 (message
 * printed). */
int report_dot_phase(FILE *f, const rp_run *run, int64_t phase);

#endif
