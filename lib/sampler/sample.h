/* sample.h - internals shared by the sampler (sample.c), the sleep
 * wrappers (sleepwrap.c), tests and the benchmark.  The runtime-facing
 * hooks (sample_start, sample_stop, ...) are below; stack walking is in
 * unwind.h, the export of the tree in export.h. */
#ifndef RP_SAMPLE_H
#define RP_SAMPLE_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/cct.h"
#include "core/state.h"

/* Deepest user call path kept per sample (innermost frames win). */
#define RP_SAMPLE_MAX_DEPTH 256
/* Most handler/trampoline frames skipped above the interrupted PC. */
#define RP_SAMPLE_MAX_SKIP  16

/* Incremented by the SIGPROF handler each time our timer's signal is
 * delivered (whether or not a sample was recorded).  The sleep wrappers
 * compare it around a sleep to tell our interruptions from others. */
extern volatile uint32_t rp_sample_sigcount;

/* Thread id of the thread that called sample_start (the only thread our
 * timer signals), 0 before. */
pid_t sample_main_tid(void);

/* Counters (also exported into the rank file by sample_export). */
typedef struct rp_sample_counters {
    uint64_t samples;           /* samples recorded in the CCT (task + MPI) */
    uint64_t samples_mpi;       /* ... of which inside MPI / rpprof */
    uint64_t samples_dropped;   /* task samples not pushed: item buffer full */
    uint64_t samples_skipped;   /* signals ignored: not active / CCT busy */
    uint64_t unwind_failures;   /* unwind faulted or lost the interrupted PC */
    uint64_t stacks_truncated;  /* deeper than RP_SAMPLE_MAX_DEPTH */
    uint64_t period_doublings;  /* adaptive sampling steps */
    uint64_t timer_overruns;    /* expirations merged by the kernel */
    uint64_t samples_paused;    /* main-thread samples while MPI_Pcontrol(0) */
    uint64_t mpi_backoffs;      /* event calls sampled at 1/RP_MPI_BACKOFF the rate */
} rp_sample_counters;
extern rp_sample_counters rp_sample_cnt;
#ifdef RP_SAMPLE_TIMING
/* Benchmark builds (-DRP_SAMPLE_TIMING): ns spent in the handler from the
 * sample's timestamp to its end (unwind + CCT + buffer + summaries). */
extern int64_t  rp_sample_handler_ns;
extern uint64_t rp_sample_handler_n;
#endif
/* The rank's CCT (NULL before sample_start). */
rp_cct *sample_cct(void);

/* Path/trace mode helper for the MPI layer (not for the handler): the
 * calling context of the current MPI call, i.e. the caller's stack with the
 * frames of rpprof and the MPI libraries stripped, plus a pseudo-frame leaf
 * for rp_rt.cur_fn.  Returns the CCT node, or CCT_ROOT if there is no CCT.
 * Samples arriving meanwhile are skipped (counted), never corrupt the tree.
 * Cost: one unw_backtrace (~0.3 us) + a hash lookup per frame. */
uint32_t sample_callsite_node(void);

/* Current sampling period in ns (0 = not sampling). */
int64_t sample_current_period_ns(void);

/* Are we a fork child (worker threads, threadwrap.c). */
int  sample_forked(void);
/* 1 while the main thread's SIGPROF handler runs (sigwrap.c ignores mask
 * changes made from inside it). */
int  sample_in_handler(void);

/* ---- what the runtime calls --------------------------------------------- */
/* Start sampling on the calling (main) thread; 0 or -1 (one warning printed).
 * st: the process state the handler extends (path-set, item buffer, current
 * task; lib/core/state.h), kept until sample_stop.  fn_name/fn_count: the
 * names of the MPI pseudo-frames (the MPI layer's table). */
int  sample_start(rp_state *st, const char *(*fn_name)(int), int fn_count);
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
/* Return of an event call during which the timer was slowed (st->
 * timer_backoff set by the handler): restores the period and charges the
 * wait's tail since its last sample to that sample's MPI context.  Called
 * with in_mpi still > 0.  Normal context, main thread. */
void sample_mpi_leave(void);
/* A sample inside an event call slows the timer this many times for the
 * rest of the call (doc/sampling.md "Waiting ranks"). */
#define RP_MPI_BACKOFF 8
/* Phase end: called by commit_phase for every (path, item) pair so the
 * sample's weight lands in the CCT node's path column. */
void sample_commit_item(void *ctx, uint32_t path, const struct rp_item *item, uint32_t idx);

/* Pseudo-frame keys of "<unknown>" (RP_UNK_PSEUDO) and its causes
 * (RP_UNK_PSEUDO + RP_UNK_*), above any MPI function id. */
#define RP_UNK_PSEUDO 0x40000000u
/* Phase end, one rank: ns of report column col (0 = 100 %) that no sample
 * locates, under "<unknown>" / cause (RP_UNK_*).  Normal context. */
void sample_commit_unknown(uint32_t col, uint32_t cause, int64_t ns);
/* The calling-context tree at Finalize: modules, nodes, metrics and the
 * names of the MPI pseudo-frames, in rank-file shape (core/cct.h), and the
 * sampler's counters into cnt[RP_CNT_*].  k: paths (metric columns).
 * 0, or -1 (out of memory: out is empty). */
int  sample_export(rp_cct_export *out, uint32_t k, uint64_t *cnt);

#endif
