/* symbols.h - resolve (module, offset) to source frames with elfutils
 * libdwfl/libdw: function (demangled), file, line, and the chain of
 * inlined functions where DWARF describes it.
 *
 * Offsets are ELF virtual addresses of the module (runtime address minus
 * the module's load bias, dl_iterate_phdr's dlpi_addr), see doc/formats.md. */
#ifndef RP_SYMBOLS_H
#define RP_SYMBOLS_H

#include <stdint.h>

#define RP_SYM_MAX_INLINE 32u

typedef struct rp_symframe {
    char    *func;   /* malloc'd */
    char    *file;   /* malloc'd, "" when unknown */
    uint32_t line;
} rp_symframe;

typedef struct rp_symmod rp_symmod;

/* Open a module for lookups.  Never fails: if the file is missing,
 * unreadable, or its build-id differs from the recorded one, the handle
 * answers every lookup with "name+0xoffset", and one warning goes to
 * stderr prefixed with prog. */
rp_symmod *symmod_open(const char *prog, const char *path, const uint8_t *build_id,
                       uint32_t build_id_len);
/* Resolve offset.  callsite: the offset is a return address, so look up
 * offset-1 (the call instruction's line).  Fills out[0..n) from outermost
 * (the function containing the address) to innermost inlined; returns n
 * (>= 1), or 0 on ENOMEM.  *dwarf_lines set if file/line came from DWARF,
 * *fallback if the module could not be used. */
uint32_t symmod_lookup(rp_symmod *m, uint64_t offset, int callsite, rp_symframe *out,
                       uint32_t max, int *dwarf_lines, int *fallback);
void symmod_close(rp_symmod *m);
void symframe_free(rp_symframe *f, uint32_t n);
/* Demangle a C++ linkage name; malloc'd copy of the input otherwise. */
char *rp_demangle(const char *name);

#endif
