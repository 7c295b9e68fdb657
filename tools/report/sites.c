/* sites.c - MPI time by call site (sites.h).  Samples inside
 * MPI sit under a pseudo-frame naming the call (RP_SYM_MPI), whose parent
 * is the user's calling context with rpprof's frames already stripped by
 * the sampler; the parent's innermost frame is the call site. */
#include "report/sites.h"
#include "common/frames.h"

#include <stdlib.h>
#include <string.h>
#include "common/names.h"
#include "report/model.h"

static int cmp_key(const void *a, const void *b)
{
    const rp_site *x = a, *y = b;
    if (x->mpi != y->mpi)
        return x->mpi < y->mpi ? -1 : 1;
    if (x->func != y->func)
        return x->func < y->func ? -1 : 1;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_site(const void *a, const void *b)
{
    const rp_site *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return cmp_key(a, b);
}

int32_t sites_collect(const rp_profile *p, rp_site **out)
{
    *out = NULL;
    rp_site *v = malloc((size_t)(p->n_nodes ? p->n_nodes : 1) * sizeof *v);
    if (!v)
        return -1;
    uint32_t n = 0;
    for (uint32_t i = 1; i < p->n_nodes; i++) {
        int64_t ns = p->metrics[(size_t)i * p->n_metrics + RP_MET_MPI];
        const rp_psym *y = &p->syms[p->nodes[i].sym];
        if (ns <= 0 || y->kind != RP_SYM_MPI)
            continue;
        rp_site s = {p->frames[y->first].func, 0, 0, 0, ns};
        uint32_t par = p->nodes[i].parent;
        if (par != 0 && par != UINT32_MAX) {
            const rp_pframe *f = frames_leaf(p, p->nodes[par].sym);
            s.func = f->func;
            s.file = f->file;
            s.line = f->line;
        }
        v[n++] = s;
    }
    /* same (call, site) from different contexts: sort by key, sum runs */
    qsort(v, n, sizeof *v, cmp_key);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m > 0 && cmp_key(&v[m - 1], &v[i]) == 0)
            v[m - 1].ns += v[i].ns;
        else
            v[m++] = v[i];
    }
    qsort(v, m, sizeof *v, cmp_site);
    *out = v;
    return (int32_t)m;
}

int sites_text(FILE *f, const rp_profile *p, uint32_t top, int64_t exact_mpi_ns)
{
    rp_site *s;
    int32_t n = sites_collect(p, &s);
    if (n < 0)
        return -1;
    if (n == 0) {
        free(s);
        return 0;
    }
    int64_t tot = report_total(p, RP_MET_MPI);
    fprintf(f, "\nMPI time by call site (sampled, all ranks; time inside the call, waiting "
               "included)\n");
    if (exact_mpi_ns > 0)   /* how much of the MPI time the samples saw */
        fprintf(f, "  the samples saw %.3f s of the %.3f s the ranks spent in MPI calls (exact, per "
                   "rank above): calls shorter\n  than the sampling period are mostly missed: this "
                   "table shows where the long waits are\n",
                (double)tot / 1e9, (double)exact_mpi_ns / 1e9);
    fprintf(f, "  %9s %6s  %-20s %s\n", "seconds", "%", "call", "called from");
    for (int32_t i = 0; i < n && (uint32_t)i < top; i++) {
        char site[1024] = "(no calling frame)";
        if (s[i].func)
            names_label(site, sizeof site, p->strs[s[i].func], p->strs[s[i].file], s[i].line, 0);
        fprintf(f, "  %9.3f %5.1f%%  %-20s %s\n", (double)s[i].ns / 1e9,
                tot > 0 ? 100.0 * (double)s[i].ns / (double)tot : 0.0, p->strs[s[i].mpi], site);
    }
    free(s);
    return 0;
}

int sites_json(FILE *f, const rp_profile *p, uint32_t top, void (*jstr)(FILE *, const char *))
{
    rp_site *s;
    int32_t n = sites_collect(p, &s);
    if (n < 0)
        return -1;
    fputc('[', f);
    for (int32_t i = 0; i < n && (uint32_t)i < top; i++) {
        fputs(i ? ", {\"call\": " : "{\"call\": ", f);
        jstr(f, p->strs[s[i].mpi]);
        fputs(", \"function\": ", f);
        jstr(f, p->strs[s[i].func]);
        fputs(", \"file\": ", f);
        jstr(f, p->strs[s[i].file]);
        fprintf(f, ", \"line\": %u, \"seconds\": %.9g}", s[i].line, (double)s[i].ns / 1e9);
    }
    fputc(']', f);
    free(s);
    return 0;
}
