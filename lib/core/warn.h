/* warn.h - one-line warnings on stderr, "rpprof[rank]: ...".  Not for the
 * signal handler (uses vsnprintf). */
#ifndef RP_WARN_H
#define RP_WARN_H

#include <stdint.h>

/* The rank that prefixes every line and decides who prints (rank 0 only
 * unless all_ranks); 0 until set (before MPI_Init). */
void rp_warn_set_rank(uint32_t rank);
void rp_warn(int all_ranks, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
