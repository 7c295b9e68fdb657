/* unwind.h - stack walking for the sampler (unwind.c).  Everything called
 * from a signal handler here is async-signal-safe. */
#ifndef RP_UNWIND_H
#define RP_UNWIND_H

#include <stdint.h>
#include <ucontext.h>

/* Start (normal context): find the executable ranges of the MPI libraries
 * and of rpprof itself. */
void unwind_find_ranges(void);
/* SIGSEGV/SIGBUS guard around libunwind (chains to the program's handler
 * for faults outside an unwind). */
void unwind_guard_install(void);
void unwind_guard_remove(void);
/* Unwind the interrupted context into out[RP_SAMPLE_MAX_DEPTH]: number of
 * frames (0 on failure, counted).  Async-signal-safe. */
int  unwind_take_stack(const ucontext_t *uc, uintptr_t *out);
/* First frame of pcs[0..n) that is the user's (past rpprof and MPI). */
int  unwind_mpi_user_start(const uintptr_t *pcs, int n);
/* Testing aid: strip frames lying in [lo, hi) as if they were rpprof's own
 * text (the real range is found at sample_start; it is empty when the
 * sampler is linked into the main program, e.g. in tests). */
void sample_set_self_range(uintptr_t lo, uintptr_t hi);
/* Worker threads (threadwrap.c): is `path` an MPI-stack library (its
 * threads are not sampled); warm libunwind on the calling thread (normal
 * context). */
int  sample_is_mpi_lib(const char *path);
void sample_warm_thread(void);

#endif
