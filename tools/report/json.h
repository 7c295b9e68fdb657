/* json.h - rp-report --format json (field names: SPEC), and the JSON
 * string writer the other views use. */
#ifndef RP_REPORT_JSON_H
#define RP_REPORT_JSON_H

#include <stdio.h>
#include "report/model.h"

int report_json(FILE *f, const rp_profile *p, const rp_report_opts *o);

/* s as a JSON string (quotes, backslashes and control characters escaped,
 * invalid UTF-8 replaced by U+FFFD): report_json's writer, for other views. */
void report_json_string(FILE *f, const char *s);
/* The loss-counter warnings of p as JSON objects {counter, value, message,
 * remedy}, comma-separated, no brackets.  Returns how many, or -1 (no
 * memory). */
int report_json_counter_warnings(FILE *f, const rp_profile *p);

#endif
