/* speedscope.h - rp-report --format speedscope: the k paths and the
 * whole program as "sampled" profiles of one file in speedscope's JSON
 * format (https://www.speedscope.app/file-format-schema.json), frames
 * shared between the profiles, weights in seconds. */
#ifndef RP_REPORT_SPEEDSCOPE_H
#define RP_REPORT_SPEEDSCOPE_H

#include <stdio.h>
#include "report/model.h"

/* Profiles, in this order: path 0 (100 %, the critical path) .. path k-1
 * (0 %), then "whole program: computation" (every task-time sample of every
 * rank) and "whole program: inside MPI".  Each calling context with
 * exclusive time in the profile's column is one sample whose weight is that
 * time in seconds (contexts are aggregated, so speedscope's time-order view
 * is not a time line; left-heavy and sandwich are the useful views).  A
 * frame is a function (template arguments elided) and its file; rpprof's
 * wrappers and modules without symbols are one frame each, as in the other
 * views.  o supplies the path costs named in the profile names (NULL
 * fields: the phase statistics).  0, or -1 on ENOMEM / a write error. */
int report_speedscope(FILE *f, const rp_profile *p, const rp_report_opts *o);

#endif
