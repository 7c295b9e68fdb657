/* export.h - the rank's calling-context tree in rank-file shape at
 * Finalize (export.c): module/offset nodes, metrics, MPI pseudo-frame names. */
#ifndef RP_EXPORT_H
#define RP_EXPORT_H

#include <stdint.h>
#include "core/cct.h"

/* The tree cct as module/offset nodes with k path columns (normal context,
 * allocates).  fn_name/fn_count name the MPI pseudo-frames.  0 or -1. */
int sample_export_cct(const rp_cct *cct, rp_cct_export *out, uint32_t k,
                      const char *(*fn_name)(int), int fn_count);

#endif
