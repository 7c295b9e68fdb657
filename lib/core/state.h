/* state.h - the per-process state of the profiler: settings, the rank's
 * path-set and item buffer, the current task, phase statistics.  The runtime
 * owns the one instance (rp_rt, lib/runtime) and hands a pointer to the
 * layers below it at start-up (sampler, exchange, modes): they read and
 * change what their signatures say, never a global.
 *
 * Ownership: the MPI wrappers (main thread) mutate it only between
 * rp_enter() and rp_leave(); the SIGPROF handler mutates the path-set and
 * item buffer only when in_mpi == 0, i.e. never concurrently with a wrapper
 * on the same thread. */
#ifndef RP_STATE_H
#define RP_STATE_H

#include <signal.h>
#include <stdint.h>
#include "core/pathset.h"
#include "core/itembuf.h"
#include "core/phasestats.h"

/* Most paths a set may keep (RP_K's upper bound). */
#define RP_MAX_K RP_PATHSET_MAX_K

typedef struct rp_config {
    uint32_t k;             /* RP_K, paths kept (after clamping to the eager limit) */
    uint32_t k_asked;       /* RP_K as given */
    uint32_t summary;       /* RP_SUMMARY, intervals per path-summary */
    uint32_t chain;         /* RP_CHAIN, path mode: chain intervals a rank keeps a phase */
    /* RP_PHASE_K: paths a member keeps inside a phase-end exchange before
     * the final choice of k (lib/exchange/collpaths.c); k = none wider */
    uint32_t phase_k;
    /* RP_PHASE_BATCH: phases whose phase-end exchange runs as one
     * (lib/runtime/phasebatch.c); 1 = each at its end */
    uint32_t phase_batch;
    uint32_t select;        /* rp_select_mode (RP_SELECT) */
    uint32_t mode;          /* RP_MODE_* (RP_MODE) */
    uint32_t period_us;     /* RP_PERIOD, 0 = no sampling */
    uint32_t clock;         /* RP_CLOCK_* */
    uint32_t tsc;           /* RP_TSC: 1 = time with the TSC where sound (lib/core/clock.c) */
    uint32_t buffer;        /* RP_BUFFER, uncommitted items per phase (path mode: the most, itembuf.h) */
    uint32_t eager_limit;   /* RP_EAGER_LIMIT, largest path-set message in bytes */
    uint32_t threads;       /* RP_THREADS, 1 = sample the application's other threads */
    uint32_t jobfile;       /* RP_JOBFILE: ranks from which one job file is written (0 = never) */
    uint32_t jobfile_io;    /* RP_JOBFILE_IO: rp_jobfile_io, how the job file is written */
    uint32_t checkpoint_s;  /* RP_CHECKPOINT, seconds between checkpoints (0 = Finalize only) */
    uint32_t cct_nodes;     /* RP_CCT_NODES, calling-context tree capacity */
    uint32_t multiple;      /* RP_MULTIPLE: 0 local, 1 main (MPI_THREAD_MULTIPLE) */
    uint32_t mailbox;       /* RP_MAILBOX: 1 = path-sets between ranks of a node
                               through shared memory (lib/exchange/mailbox.c) */
    uint32_t mailbox_bytes; /* RP_MAILBOX_BYTES: ring per sender, 0 = automatic */
    uint32_t mailbox_node;  /* RP_MAILBOX_NODE: ranks per mailbox group, 0 = the node */
    uint32_t mailbox_refs;  /* RP_MAILBOX_REFS: 0 off, 1 summaries by name in prof
                               mode, 2 ("all") in every mode (tests) */
    char     output[4096];  /* RP_OUTPUT, measurement directory ("" = default) */
} rp_config;

typedef struct rp_state {
    /* >0 while the main thread is inside an MPI wrapper (or our own code on
     * its behalf): samples taken then are MPI time, not task time. */
    volatile sig_atomic_t in_mpi;
    volatile sig_atomic_t active;   /* between MPI_Init and MPI_Finalize, profiling on */
    uint32_t   rank, nranks;        /* in MPI_COMM_WORLD */
    rp_config  cfg;
    rp_pathset ps;                  /* this rank's path-set */
    rp_itembuf items;               /* uncommitted items of this phase */
    uint64_t   rng;                 /* xorshift state (summary eviction) */
    int64_t    task_start_ns;       /* return of the last event = start of current task */
    int64_t    init_ns;             /* MPI_Init returned */
    uint64_t   nphases;             /* completed phases */
    rp_phasestats stats;            /* per-percentile phase statistics */
    /* Identifier of the MPI function the main thread is inside (index into
     * the generated name table), valid while in_mpi > 0; the sampler hangs
     * MPI samples under a pseudo-frame of that name. */
    volatile sig_atomic_t cur_fn;
    /* When the main thread entered the current MPI call (set by the wrapper
     * with in_mpi > 0, before it calls sample_task_end); MPI samples weigh
     * now - max(previous sample, mpi_enter_ns).  Added by sample.c. */
    int64_t    mpi_enter_ns;
    /* Sum of this rank's task costs (every event's, MPI_Init's return to
     * MPI_Finalize's entry): its exact time outside MPI event calls; the
     * rest of its wall time is inside them (counter task_time_ns). */
    int64_t    task_total_ns;
    /* 1 while the sampler's timer runs RP_MPI_BACKOFF times slower because
     * the current event call was sampled waiting (issue 16: a waiting rank
     * needs no sample a period).  Set by the handler; the wrapper's return
     * (rp_leave) calls sample_mpi_leave() while it is set. */
    volatile sig_atomic_t timer_backoff;
    int64_t    finalize_ns;         /* MPI_Finalize entered (end of the last task) */
    /* Next checkpoint inside a long phase (lib/runtime/fault.c), 0 = none:
     * the event entry compares its clock read with it. */
    int64_t    ckpt_due_ns;
    int64_t    phase_start_ns;      /* the phase in progress began (fault.c) */
    uint32_t   sum_mode;            /* rp_summary_mode: what a full summary does (the mode's) */
    uint32_t   max_wire;            /* largest encoded path-set, bytes */
    uint32_t   coll_wire;           /* ... of the phase-end exchange's wide set (>= max_wire) */
    /* 1 when MPI_Init_thread provided MPI_THREAD_SERIALIZED: the program
     * never has two threads inside MPI at once, so a call from any thread
     * is the process's event (rp_active_other).  Set once at MPI_Init. */
    volatile sig_atomic_t any_thread;
    /* 1 under MPI_THREAD_MULTIPLE with RP_MULTIPLE=local (the default): no
     * path-set travels between ranks during the run.  Another thread may
     * send or receive a message, or enter a collective, that the main
     * thread of the peer pairs with; the peer would then wait for a
     * path-set that never comes.  Paths stay within each rank until the
     * exchange at MPI_Finalize (main threads only, as MPI requires).  Set
     * once at MPI_Init_thread. */
    int local_paths;
    /* 1 between MPI_Pcontrol(0) and MPI_Pcontrol(level != 0): the sampler
     * charges no sample to the tree or the paths (counted as
     * samples_paused); task costs, and so path costs, are still measured. */
    volatile sig_atomic_t paused;
} rp_state;

#endif
