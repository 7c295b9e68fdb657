/* show.h - strings from outside (paths, environment values, program names)
 * as every message and report prints them: always one line, whole or
 * visibly elided, never cut.
 *
 *   rp_show      control bytes escaped C-style (\n \t \r \xNN, and \\);
 *                longer than the buffer allows: the middle elided,
 *                "head...tail (N characters)"
 *   rp_show_arg  the same, quoted for a shell command line when needed:
 *                as is when it has only characters a shell leaves alone,
 *                'single-quoted' when it has spaces or shell characters,
 *                $'...' (bash/zsh/ksh) when it has control bytes
 *
 * Both return out; n >= RP_SHOW_MIN.  Async-signal-safe (no allocation,
 * no stdio). */
#ifndef RP_SHOW_H
#define RP_SHOW_H

#include <stddef.h>

#define RP_SHOW_MIN 64
/* A buffer for a string shown in a one-line message: long values elided
 * to fit it. */
#define RP_SHOW_LEN 256

const char *rp_show(char *out, size_t n, const char *s);
const char *rp_show_arg(char *out, size_t n, const char *s);

#endif
