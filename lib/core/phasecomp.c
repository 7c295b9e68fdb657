/* phasecomp.c - per-phase computation of one rank (phasecomp.h). */
#include "core/phasecomp.h"

#include <stdlib.h>
#include <string.h>

int phasecomp_close(rp_phasecomp *p, uint64_t phase)
{
    int64_t ns = p->open_ns;
    p->open_ns = 0;
    if (p->failed)
        return -1;
    /* a phase number below what is booked cannot come from the runtime
     * (phases are numbered in order): keep the record as it is */
    if (phase < p->n)
        return 0;
    if (phase == UINT64_MAX) {   /* (phase + 1 would wrap) */
        p->failed = 1;
        return -1;
    }
    uint64_t need = phase + 1;
    if (need > p->cap) {
        uint64_t cap = p->cap ? p->cap : 256;
        while (cap < need && cap <= UINT64_MAX / 2)
            cap *= 2;
        void *v = cap < need || cap > SIZE_MAX / sizeof *p->v ? NULL
                                                             : realloc(p->v, cap * sizeof *p->v);
        if (!v) {
            p->failed = 1;
            return -1;
        }
        p->v = v;
        p->cap = cap;
    }
    memset(p->v + p->n, 0, (size_t)(phase - p->n) * sizeof *p->v);
    p->v[phase] = ns;
    p->n = need;
    return 0;
}

const int64_t *phasecomp_get(const rp_phasecomp *p, uint64_t *n)
{
    *n = p->failed ? 0 : p->n;
    return *n ? p->v : NULL;
}

void phasecomp_free(rp_phasecomp *p)
{
    free(p->v);
    memset(p, 0, sizeof *p);
}
