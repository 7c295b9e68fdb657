/* warn.c - one-line warnings on stderr (warn.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/warn.h"

static uint32_t g_rank;

void rp_warn_set_rank(uint32_t rank) { g_rank = rank; }

void rp_warn(int all_ranks, const char *fmt, ...)
{
    if (!all_ranks && g_rank != 0)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(line, sizeof line, "rpprof[%u]: ", g_rank);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    if (len < sizeof line - 1)
        line[len++] = '\n';
    /* One write: lines from many ranks do not interleave mid-line. */
    ssize_t w = write(2, line, len);
    (void)w;
}
