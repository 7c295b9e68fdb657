/* diffhtml.h - rp-report --diff --format html: one self-contained page
 * (tools/report/diff.js draws it from diffview_json's object): the two
 * path-length distributions beside a differential flame graph of the
 * critical path, and the tables of the text report. */
#ifndef RP_REPORT_DIFFHTML_H
#define RP_REPORT_DIFFHTML_H

#include <stdio.h>
#include "report/diffview.h"

/* 0, or -1 on ENOMEM / a write error. */
int diffview_html(FILE *f, const rp_diffrun *a, const rp_diffrun *b);

#endif
