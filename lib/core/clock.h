/* clock.h - the runtime's nanosecond clock (clock.c): the TSC scaled to
 * CLOCK_MONOTONIC where that is sound, else CLOCK_MONOTONIC itself.  Only
 * differences of rp_now_ns() values are meaningful. */
#ifndef RP_CLOCK_H
#define RP_CLOCK_H

#include <stdint.h>

/* Now, in ns.  Async-signal-safe and thread-safe. */
int64_t rp_now_ns(void);

/* Switch to the TSC if usable (MPI_Init return, main thread).  Spins until
 * at least 2 ms have passed since the library was loaded. */
void rp_clock_init(int want_tsc);
/* Re-measure the rate over the whole run and re-anchor to CLOCK_MONOTONIC
 * (main thread, inside an MPI call: phase end). */
void rp_clock_rebase(void);
/* 1 when rp_now_ns reads the TSC (reported in the rank file's counters). */
int rp_clock_is_tsc(void);

#endif
