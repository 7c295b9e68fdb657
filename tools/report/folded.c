/* folded.c - rp-report --format folded: one line per calling
 * context with exclusive time in the chosen column,
 * "outer;...;inner VALUE" with VALUE in microseconds, as flamegraph.pl and
 * speedscope read it.  Inlined functions are frames of their own. */
#include "report/model.h"
#include "common/frames.h"
#include "report/folded.h"

#include <stdlib.h>
#include <string.h>

/* ';' separates frames and a newline ends the record: keep them out of names. */
static void put_frame(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s, f);
}

int report_folded(FILE *f, const rp_profile *p, uint32_t col)
{
    rp_view v;
    if (report_view(p, &v) != 0)
        return -1;
    uint32_t *chain = malloc((size_t)(v.n ? v.n : 1) * sizeof *chain);
    if (!chain) {
        report_view_free(&v);
        return -1;
    }
    for (uint32_t i = 1; i < v.n; i++) {
        int64_t ns = v.excl[(size_t)i * v.nm + col];
        long long us = (long long)((ns + 500) / 1000);
        if (us <= 0)
            continue;
        uint32_t d = 0;
        for (uint32_t n = i; n != 0; n = v.nodes[n].parent)
            chain[d++] = n;
        int first = 1;
        while (d-- > 0) {
            uint32_t sym = v.nodes[chain[d]].sym;
            const rp_psym *y = &p->syms[sym];
            uint32_t kind = frames_kind(p, sym);
            if (kind != FRAMES_CODE) {   /* one frame: the MPI call, or the library */
                char nm[600];
                frames_display(nm, sizeof nm, kind, p->strs[p->frames[y->first].func],
                               p->strs[y->module]);
                if (!first)
                    fputc(';', f);
                first = 0;
                put_frame(f, nm);
                continue;
            }
            for (uint32_t k = 0; k < y->n; k++) {
                if (!first)
                    fputc(';', f);
                first = 0;
                put_frame(f, p->strs[p->frames[y->first + k].func]);
            }
        }
        fprintf(f, " %lld\n", us);
    }
    free(chain);
    report_view_free(&v);
    return ferror(f) ? -1 : 0;
}
