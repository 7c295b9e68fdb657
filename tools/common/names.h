/* names.h - names as a person reads them in a report: C++ template
 * arguments elided, long names shortened in the middle so the
 * "(file:line)" that locates them is never cut off. */
#ifndef RP_NAMES_H
#define RP_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* func with every outermost template argument list "<...>" replaced by
 * "<>" (operator<, operator<<, operator<=>, operator-> are kept). */
void names_elide_templates(char *out, size_t n, const char *func);

/* "func (file:line)", "func (file)" or "func" (file reduced to its base
 * name), fitted into `width` characters (0: no limit): templates elided
 * first, then the function name cut in the middle with "..."; the location
 * is kept whole. */
void names_label(char *out, size_t n, const char *func, const char *file, uint32_t line,
                 size_t width);

#endif
