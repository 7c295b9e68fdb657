/* frames.h - what kind of code a frame is, for the report views:
 * the program's own code, rpprof's own (its wrappers and what they call:
 * never computation, so a view shows it as the MPI call it wraps), or a
 * module without symbols (grouped by library, one row per library rather
 * than one per address). */
#ifndef RP_FRAMES_H
#define RP_FRAMES_H

#include <stddef.h>
#include <stdint.h>
#include "common/profile.h"

enum { FRAMES_CODE = 0, FRAMES_PROFILER = 1, FRAMES_NOSYM = 2 };

/* The kind of symbol `sym`.  Profiler: a frame of librpprof*, or a function
 * named rpf_*, reqtab_* or PMPI_* (rpprof's Fortran and request-table
 * helpers, the MPI entry it forwards to).  No symbols: the module was
 * missing or changed (RP_SYMF_FALLBACK), or has no symbol for the address
 * (stripped; a system library's internal code): named module+0xoffset. */
uint32_t frames_kind(const rp_profile *p, uint32_t sym);

/* The innermost frame of symbol `sym` (inlined frames come first): the
 * source line a hotspot list shows. */
const rp_pframe *frames_leaf(const rp_profile *p, uint32_t sym);

/* The MPI call a profiler function stands for: rpf_MPI_Send and PMPI_Send
 * give MPI_Send, MPI_Send stays; anything else (rp_active, reqtab_find
 * outside a wrapper) gives "rpprof". */
void frames_mpi_name(char *out, size_t n, const char *func);

/* How a frame of kind `kind` with function string `func` / module string
 * `module` is shown: "MPI_Send [rpprof wrapper]", "libgomp.so.1 [no
 * symbols]", or func itself. */
void frames_display(char *out, size_t n, uint32_t kind, const char *func, const char *module);

#endif
