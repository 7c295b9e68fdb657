/* fold.h - fold the merged tree by what prints the same (fold.c): bounds
 * the merged profile by the program's source contexts (issue 16). */
#ifndef RP_FOLD_H
#define RP_FOLD_H

#include "common/profile.h"

/* Merges symbols with the same kind, flags, module and frames, then nodes
 * with the same folded parent and symbol (metrics summed).  0, or -1 when
 * out of memory (p is then unchanged). */
int profile_fold(rp_profile *p);

#endif
