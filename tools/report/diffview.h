/* diffview.h - rp-report --diff's text and JSON (doc/report.md, "--diff"):
 * the two path-length distributions, the POP factors, the contexts and MPI
 * call sites whose time changed most, and the per-rank times, side by
 * side.  The matching is diff.c's. */
#ifndef RP_REPORT_DIFFVIEW_H
#define RP_REPORT_DIFFVIEW_H

#include <stdint.h>
#include <stdio.h>
#include "report/diff.h"

/* A run with the name it was given on the command line. */
typedef struct rp_diffrun {
    rp_diffside s;
    const char *name;
} rp_diffrun;

/* 0, or -1 on ENOMEM / a write error. top: rows per context and site list. */
int diffview_text(FILE *f, const rp_diffrun *a, const rp_diffrun *b, uint32_t top);
/* One JSON object; jstr writes a JSON string. */
int diffview_json(FILE *f, const rp_diffrun *a, const rp_diffrun *b, uint32_t top,
                  void (*jstr)(FILE *, const char *));

#endif
