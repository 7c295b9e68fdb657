/* runtime.h - the per-process state of the preloaded runtime and the hooks
 * that tie the MPI layer, the sampler and the algorithm core together.
 *
 * Ownership: `rp_rt` is the single instance, owned by runtime.c.  The MPI
 * wrappers (main thread) mutate it only between rp_enter() and rp_leave();
 * the SIGPROF handler mutates the path-set/item buffer only when
 * rp_rt.in_mpi == 0, i.e. never concurrently with a wrapper on the same
 * thread.  Wrappers are not re-entrant: PMPI calls made inside a wrapper
 * never come back into our MPI_* symbols. */
#ifndef RP_RUNTIME_H
#define RP_RUNTIME_H

#include <signal.h>
#include <stdint.h>
#include "core/tls.h"
#include "core/state.h"
#include "core/counters.h"
#include "core/warn.h"

#define RP_EXPORT __attribute__((visibility("default")))

typedef rp_state rp_runtime;

/* The mode's table of operations (lib/modes/modes.h), set at rp_start. */
struct rp_mode_ops;
extern const struct rp_mode_ops *rp_mode;

extern rp_runtime rp_rt;

/* True on the thread that called MPI_Init (the only one we profile);
 * initial-exec TLS outside SMPI (core/tls.h). */
extern __thread int rp_tls_main RP_TLS_IE;

/* Calls from other threads (runtime.c): counted; under
 * MPI_THREAD_SERIALIZED profiled like the main thread's, otherwise passed
 * straight through (doc/design.md, "Threads"). */
int rp_active_other(void);


#include "core/clock.h"   /* rp_now_ns() */
#include "sampler/sample.h"

/* Counters: lib/core/counters.def (rp_counters[RP_CNT_*]). */

#endif
