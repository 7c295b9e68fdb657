/* threads.h - worker-thread sampling: the registry of application threads,
 * their per-thread CPU-clock timers and the lock-free rings their SIGPROF
 * samples wait in until the main thread charges them (doc/sampling.md,
 * "Threads").
 *
 * Ownership:
 *   - a slot is claimed and retired by its own thread (normal context);
 *   - its ring has one producer (the SIGPROF handler on that thread) and one
 *     consumer (the main thread: its handler or sample_task_end/export,
 *     never both at once: sample.c fences them with g_cct_busy);
 *   - its timer is created by whoever wins tstate 0 -> 1 (the thread itself,
 *     or sample_start on the main thread for threads that existed before)
 *     and deleted by whoever wins tstate 2 -> 3 (thread exit, sample_stop),
 *     which sets 0 once it has read the arming's values.
 * No locks anywhere: every shared word is an __atomic access. */
#ifndef RP_THREADS_H
#define RP_THREADS_H

#include "core/tls.h"

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* Most application threads sampled at once; further ones run unsampled
 * (counter thread_slots_overflow, one warning). */
#define RP_THR_SLOTS     256
/* Ring capacity in 64-bit words: a record is 3 + depth words, so this holds
 * ~250 samples of depth 30 (~1.2 s of one thread at the default period). */
#define RP_THR_RING_WORDS 8192u

typedef struct rp_thr_slot {
    uint32_t state;       /* RP_THR_FREE / RP_THR_OWNED (atomic) */
    uint32_t gen;         /* bumped at every claim (atomic) */
    uint32_t tstate;      /* timer: 0 none, 1 being created, 2 armed, 3 being
                           * deleted (atomic) */
    pid_t    tid;         /* owner's kernel thread id */
    timer_t  timer;       /* valid while tstate == 2 */
    int64_t  period_ns;   /* the timer's period; the owner's handler follows
                           * the main thread's adaptive period */
    pid_t    ttid;        /* the thread the timer was created for (set by the
                           * arming thread; read by the deleting one) */
    int64_t  cpu0_ns;     /* the thread's CPU clock when its timer was armed */
    int64_t  seen_ns;     /* CPU time its delivered expirations stand for
                           * (written by the owner's handler, atomic) */
    uint64_t delivered;   /* expirations delivered to the handler (atomic) */
    uint64_t *ring;       /* RP_THR_RING_WORDS words, mapped once, kept for reuse */
    uint64_t head __attribute__((aligned(64)));   /* producer: words written */
    uint64_t tail __attribute__((aligned(64)));   /* consumer: words consumed */
} __attribute__((aligned(64))) rp_thr_slot;

enum { RP_THR_FREE = 0, RP_THR_OWNED = 1, RP_THR_EXCLUDED = 2 };

/* Record flags. */
#define RP_THR_F_INMPI 1u   /* the main thread was inside MPI at sample time */

extern rp_thr_slot rp_thr_slots[RP_THR_SLOTS];
/* Records pushed and not yet consumed, over all rings: the one word the
 * main thread's hot path (sample_task_end) looks at. */
extern uint32_t rp_thr_pending;
/* This thread's slot (NULL: not a sampled worker).  Read by the handler. */
extern __thread rp_thr_slot *rp_thr_self RP_TLS_IE;

/* Counters (atomic; exported by sample_export). */
typedef struct rp_thr_counters {
    uint64_t threads_sampled;      /* timers created for worker threads */
    uint64_t slots_overflow;       /* threads not sampled: slot table full */
    uint64_t samples;              /* worker samples written to the CCT */
    uint64_t charged;              /* ... of which on the current task's paths */
    uint64_t rank_only;            /* ... of which whole-rank profile only */
    uint64_t dropped;              /* lost: ring full */
    uint64_t skipped;              /* worker signals ignored (stopped, fork) */
    uint64_t cpu_ns;               /* threads' CPU time between arm and disarm */
    uint64_t unsampled_ns;         /* ... that no delivered expiration stood for,
                                    * beyond 2 x max(period, 10 ms) a thread
                                    * (late timers) */
} rp_thr_counters;
extern rp_thr_counters rp_thr_cnt;

/* ---- normal context ------------------------------------------------------ */
/* Claim a slot for the calling thread (idempotent) and, when worker sampling
 * runs, arm its timer.  0, or -1 (table full / forked). */
int  threads_register_self(void);
/* The calling thread is exiting: stop its timer, give the slot back. */
void threads_retire_self(void);
/* Worker sampling on (main thread, from sample_start): arm a timer for every
 * registered thread except the caller.  period_ns > 0. */
void threads_start(int64_t period_ns);
/* Delete every worker timer (any thread; idempotent). */
void threads_stop(void);
/* In a fork child: nothing of ours runs there. */
void threads_atfork_child(void);

/* ---- the SIGPROF handler (async-signal-safe) ------------------------------ */
/* Current period the workers should follow (set by the main thread). */
void threads_set_period(int64_t period_ns);
/* Called on the worker itself for every expiration delivered to it: the
 * CPU time `weight` it stands for (period x (1 + overruns)). */
void threads_note_expiry(rp_thr_slot *s, int64_t weight);
/* Called on the worker itself: follow the main thread's period. */
void threads_follow_period(rp_thr_slot *s);
/* Producer: append one record; 0, or -1 when the ring is full (counted). */
int  thr_ring_push(rp_thr_slot *s, const uintptr_t *pcs, uint32_t n, int64_t task,
                   uint32_t flags, int64_t weight);

/* Consumer (main thread): call fn for every record in every ring; returns
 * the number consumed. */
typedef void (*rp_thr_rec_fn)(void *ctx, const uintptr_t *pcs, uint32_t n, int64_t task,
                              uint32_t flags, int64_t weight);
uint32_t thr_drain(rp_thr_rec_fn fn, void *ctx);

#endif
