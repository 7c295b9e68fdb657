/* frames.c - kinds of frames for the report views (frames.h). */
#include "common/frames.h"

#include <stdio.h>
#include <string.h>

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const rp_pframe *frames_leaf(const rp_profile *p, uint32_t sym)
{
    const rp_psym *y = &p->syms[sym];
    return &p->frames[y->first + y->n - 1];
}

uint32_t frames_kind(const rp_profile *p, uint32_t sym)
{
    const rp_psym *y = &p->syms[sym];
    if (y->kind != RP_SYM_FRAME)
        return FRAMES_CODE;
    if (!strncmp(base(p->strs[y->module]), "librpprof", 9))
        return FRAMES_PROFILER;
    const char *fn = p->strs[p->frames[y->first].func];
    if (!strncmp(fn, "rpf_", 4) || !strncmp(fn, "reqtab_", 7) || !strncmp(fn, "PMPI_", 5))
        return FRAMES_PROFILER;
    if (y->flags & RP_SYMF_FALLBACK)
        return FRAMES_NOSYM;
    /* present but without a symbol for this address (a stripped binary, a
     * system library's internal function): symbols.c names it module+0xOFF */
    const char *mb = base(p->strs[y->module]);
    size_t ml = strlen(mb);
    if (ml && !strncmp(fn, mb, ml) && !strncmp(fn + ml, "+0x", 3))
        return FRAMES_NOSYM;
    return FRAMES_CODE;
}

void frames_mpi_name(char *out, size_t n, const char *func)
{
    if (!strncmp(func, "rpf_MPI_", 8))
        snprintf(out, n, "%s", func + 4);
    else if (!strncmp(func, "PMPI_", 5))
        snprintf(out, n, "%s", func + 1);
    else if (!strncmp(func, "MPI_", 4) || !strncmp(func, "mpi_", 4))
        snprintf(out, n, "%s", func);
    else
        snprintf(out, n, "rpprof");
}

void frames_display(char *out, size_t n, uint32_t kind, const char *func, const char *module)
{
    if (kind == FRAMES_PROFILER) {
        char m[256];
        frames_mpi_name(m, sizeof m, func);
        snprintf(out, n, "%s [rpprof wrapper]", m);
    } else if (kind == FRAMES_NOSYM) {
        snprintf(out, n, "%s [no symbols]", base(module));
    } else {
        snprintf(out, n, "%s", func);
    }
}
