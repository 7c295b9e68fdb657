/* strtab.h - string interning for the merged profile: every function, file
 * and module name is stored once and referred to by a 32-bit id. */
#ifndef RP_STRTAB_H
#define RP_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include "common/idtab.h"

typedef struct rp_strtab {
    char    **strs;      /* id -> string (owned) */
    uint32_t  n, cap;
    rp_idtab  index;     /* string -> id */
} rp_strtab;

/* Starts with "" as id 0.  0 or -1 (ENOMEM). */
int      strtab_init(rp_strtab *t);
/* Id of s, adding a copy if new; UINT32_MAX on ENOMEM. */
uint32_t strtab_intern(rp_strtab *t, const char *s);
/* Hand the string array to the caller (n entries); the table is emptied. */
char   **strtab_take(rp_strtab *t, uint32_t *n);
void     strtab_free(rp_strtab *t);

#endif
