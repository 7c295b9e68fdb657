/* html.h - rp-report --format html: one self-contained HTML file
 * (no network: data, style and script inline) with the report's views. */
#ifndef RP_REPORT_HTML_H
#define RP_REPORT_HTML_H

#include <stdio.h>
#include "report/model.h"

/* 0, or -1 (ENOMEM / write error). */
int report_html(FILE *f, const rp_profile *p, const rp_report_opts *o);

#endif
