/* warn.c - one-line warnings on stderr (warn.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/warn.h"

static uint32_t g_rank;

void rp_warn_set_rank(uint32_t rank) { g_rank = rank; }

void rp_warn(int all_ranks, const char *fmt, ...)
{
    if (!all_ranks && g_rank != 0)
        return;
    char buf[1024], *line = buf;
    int n = snprintf(buf, sizeof buf, "rpprof[%u]: ", g_rank);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
    va_end(ap);
    if (m < 0)
        m = 0;
    size_t len = (size_t)n + (size_t)m;
    if (len + 1 >= sizeof buf) {
        /* Longer than the stack buffer: the whole line, never a cut one
         * (values the callers print are elided to RP_SHOW_LEN, show.h; a
         * line this long has many of them). */
        char *big = malloc(len + 2);
        if (big) {
            memcpy(big, buf, (size_t)n);
            va_start(ap, fmt);
            vsnprintf(big + n, len + 2 - (size_t)n, fmt, ap);
            va_end(ap);
            line = big;
        } else {
            /* no memory: say that it was cut, and still end the line */
            static const char cut[] = " [cut]";
            len = sizeof buf - sizeof cut - 1;
            memcpy(buf + len, cut, sizeof cut - 1);
            len += sizeof cut - 1;
        }
    }
    /* a message's own trailing newline is not doubled */
    while (len > (size_t)n && line[len - 1] == '\n')
        len--;
    line[len++] = '\n';
    /* One write: lines from many ranks do not interleave mid-line. */
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(2, line + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    if (line != buf)
        free(line);
}
