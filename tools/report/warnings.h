/* warnings.h - the warnings every report view shows, in one place: one per
 * non-zero counter whose row in lib/core/counters.def is RP_CK_LOSS, with
 * that row's meaning and remedy, so a counter added to the table is warned
 * about by text, JSON, folded, critpath and dot without touching them. */
#ifndef RP_WARNINGS_H
#define RP_WARNINGS_H

#include <stdint.h>
#include <stdio.h>
#include "format/rpfile.h"

typedef struct rp_warning {
    const char *counter;   /* the counter's name as in the rank file */
    uint64_t    value;     /* summed over ranks */
    const char *meaning;   /* from the table; a fixed text for unknown counters */
    const char *remedy;    /* "" if the table names none */
} rp_warning;

/* Fill out[0..max) with the warnings for counters c[0..n) (summed over
 * ranks), in the order given.  A counter this version's table does not know
 * (a file from another version) is warned about only if its name says loss
 * ("drop", "lost", "fail", ...).  Returns how many warnings there are (may
 * exceed max: then only max were written). */
uint32_t report_warnings(const rp_counter *c, uint32_t n, rp_warning *out, uint32_t max);

/* Every warning as one line "PREFIXwarning: NAME = V (summed over ranks): MEANING; REMEDY\n".
 * Returns the number written. */
uint32_t report_warnings_print(FILE *f, const char *prefix, const rp_counter *c, uint32_t n);

/* Counters of several rank files summed by name (for the views that read
 * rank files rather than a merged profile).  *out is malloc'd; returns the
 * count or -1 on ENOMEM. */
int32_t report_sum_counters(const rp_rankdata *rd, const uint8_t *present, uint32_t nranks,
                            rp_counter **out);

struct rp_profile;
/* The header's account of sampling, for every view: the period asked for,
 * and whether samples came (not "sampling every 1000 us" when the program
 * blocked SIGPROF and none did).  No newline. */
void report_sampling_line(const struct rp_profile *p, char *buf, size_t n);

#endif
