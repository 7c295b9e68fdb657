/* names.c - readable names for the report views (names.h). */
#include "common/names.h"

#include <stdio.h>
#include <string.h>

void names_elide_templates(char *out, size_t n, const char *func)
{
    size_t o = 0;
    int depth = 0;
    if (n == 0)
        return;
    if (func[0] == '<') {
        /* no C++ name starts with '<': a pseudo-frame ("<unknown>", "<program>") */
        snprintf(out, n, "%s", func);
        return;
    }
    for (const char *s = func; *s && o + 1 < n; s++) {
        if (*s == '<') {
            /* operator<, operator<<, operator<=: not a template list */
            size_t at = (size_t)(s - func);
            int op = at >= 8 && !strncmp(s - 8, "operator", 8);
            if (!op && at >= 9 && !strncmp(s - 9, "operator<", 9))
                op = 1;
            if (op) {
                if (depth == 0)
                    out[o++] = *s;
                continue;
            }
            if (depth++ == 0) {
                out[o++] = '<';
                if (o + 1 < n)
                    out[o++] = '>';
            }
            continue;
        }
        if (*s == '>' && depth > 0) {
            /* "->" inside a template argument is not a closer */
            if (s > func && s[-1] == '-' && depth > 0)
                continue;
            depth--;
            continue;
        }
        if (depth == 0)
            out[o++] = *s;
    }
    out[o] = 0;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void names_label(char *out, size_t n, const char *func, const char *file, uint32_t line,
                 size_t width)
{
    char loc[300] = "";
    if (file && *file && line)
        snprintf(loc, sizeof loc, " (%.260s:%u)", base(file), line);
    else if (file && *file)
        snprintf(loc, sizeof loc, " (%.280s)", base(file));
    char fn[1024];
    names_elide_templates(fn, sizeof fn, func);
    size_t lf = strlen(fn), ll = strlen(loc);
    /* a long location still leaves the name 12 characters (the line then
     * passes the width a little; a whole 190-character C++ name would push
     * the table's columns apart: miniFE) */
    size_t room = width >= ll + 12 ? width - ll - 3 : 9;
    if (width == 0 || lf + ll <= width || lf <= room + 3) {
        snprintf(out, n, "%s%s", fn, loc);
        return;
    }
    /* keep the head and the tail of the name (the tail is the function
     * itself in "ns::Class::method"), "..." between */
    size_t head = room / 3, tail = room - head;
    snprintf(out, n, "%.*s...%s%s", (int)head, fn, fn + lf - tail, loc);
}
