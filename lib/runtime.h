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
#include "pathset.h"
#include "itembuf.h"
#include "phasestats.h"

#define RP_EXPORT __attribute__((visibility("default")))

typedef struct rp_config {
    uint32_t k;             /* RP_K, paths kept (after clamping to the eager limit) */
    uint32_t k_asked;       /* RP_K as given */
    uint32_t summary;       /* RP_SUMMARY, intervals per path-summary */
    uint32_t select;        /* rp_select_mode (RP_SELECT) */
    uint32_t mode;          /* RP_MODE_* (RP_MODE) */
    uint32_t period_us;     /* RP_PERIOD, 0 = no sampling */
    uint32_t clock;         /* RP_CLOCK_* */
    uint32_t tsc;           /* RP_TSC: 1 = time with the TSC where sound (lib/clock.c) */
    uint32_t buffer;        /* RP_BUFFER, uncommitted items per phase */
    uint32_t eager_limit;   /* RP_EAGER_LIMIT, largest path-set message in bytes */
    uint32_t threads;       /* RP_THREADS, 1 = sample the application's other threads */
    uint32_t multiple;      /* RP_MULTIPLE: 0 local, 1 main (MPI_THREAD_MULTIPLE) */
    char     output[4096];  /* RP_OUTPUT, measurement directory ("" = default) */
} rp_config;

typedef struct rp_runtime {
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
    int64_t    finalize_ns;         /* MPI_Finalize entered (end of the last task) */
    uint32_t   max_wire;            /* largest encoded path-set, bytes */
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
} rp_runtime;

extern rp_runtime rp_rt;

/* rp_now_ns(): monotonic ns (lib/clock.c: TSC-scaled where sound). */
#include "clock.h"

/* ---- hooks the sampler (sample.c) provides to the runtime ---------------- */
/* Start sampling on the calling (main) thread; 0 or -1 (one warning printed). */
int  sample_start(const rp_config *cfg);
/* A thread other than the main one is about to run a wrapper
 * (MPI_THREAD_SERIALIZED): raise in_mpi and wait until a main-thread
 * SIGPROF handler that started before it could see in_mpi has finished
 * with the path-set (a few us at most; the handler never waits). */
void sample_other_enter(void);
/* Phase start: reset the adaptive period to the configured one. */
void sample_phase_reset(void);
/* Stop the timer (before Finalize writes the file). */
void sample_stop(void);
/* Task end (called by the wrapper at MPI entry, with in_mpi > 0 and BEFORE
 * task_start_ns is advanced): the finished task cost task_cost_ns.  The part
 * of it that no sample has been charged for is carried to the next task
 * sample, so the task-sample weights of a rank sum to its total task time. */
void sample_task_end(int64_t task_cost_ns);
/* Phase end: called by commit_phase for every (path, item) pair so the
 * sample's weight lands in the CCT node's path column. */
void sample_commit_item(void *ctx, uint32_t path, const struct rp_item *item, uint32_t idx);

/* Fill the CCT-related parts of a rank file (modules, nodes, metrics,
 * mpi names, sampler counters) at Finalize.  Defined in sample.c. */
struct rp_rankdata;
int  sample_export(struct rp_rankdata *d);

/* Name of the MPI function with generated id `fn` ("MPI_Send"). */
const char *rp_fn_name(int fn);
int rp_fn_count(void);

/* Print one warning line to stderr, prefixed "rpprof[rank]: " (rank 0 only
 * unless all_ranks).  Not for the signal handler. */
void rp_warn(int all_ranks, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Counters reported in the rank file (a name each, see doc/environment.md).
 * Incremented by the MPI layer only (main thread), except
 * RP_CNT_OTHER_THREAD_CALLS (any thread, atomic, in rp_active()). */
enum {
    RP_CNT_MSGS_SENT, RP_CNT_MSGS_RECV, RP_CNT_PS_BYTES_SENT,
    RP_CNT_PS_DECODE_ERRORS, RP_CNT_POOL_GROW, RP_CNT_POOL_WAIT,
    RP_CNT_UNMATCHED_PS, RP_CNT_COLL_JOINS, RP_CNT_COMMIT_CLIPPED,
    RP_CNT_ITEMS_DROPPED, RP_CNT_K_CLAMPED, RP_CNT_UNSUPPORTED,
    RP_CNT_REQ_FREED_ACTIVE, RP_CNT_CANCELLED, RP_CNT_TASKS_EAGER,
    RP_CNT_ALLOC_FAILURES, RP_CNT_CLOCK_TSC,
    RP_CNT_THREAD_LEVEL,        /* MPI_Init_thread's provided level (per rank) */
    RP_CNT_OTHER_THREAD_CALLS,  /* MPI calls from other threads, passed through */
    RP_CNT_LOCAL_PATHS,         /* 1 per rank: no path exchange (RP_MULTIPLE=local) */
    RP_CNT__N
};
extern uint64_t rp_counters[RP_CNT__N];
extern const char *const rp_counter_names[RP_CNT__N];

#endif
