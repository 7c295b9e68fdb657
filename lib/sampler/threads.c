/* threads.c - the registry of application threads and their samples' rings
 * (threads.h has the ownership rules, doc/sampling.md the design).
 *
 * A worker's timer counts that thread's CPU time (its kernel CPU clock), so
 * an idle or blocked worker costs nothing and a sample's weight, period x
 * (1 + overruns), is thread CPU time.  The worker's handler only unwinds
 * into its ring; the main thread, which owns the CCT, the item buffer and
 * the path-set, drains the rings at safe points (sample.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "sampler/threads.h"
#include "sampler/sample.h"
#include "core/warn.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* Owned slot by slot, see threads.h. */
rp_thr_slot rp_thr_slots[RP_THR_SLOTS];
/* Written by worker handlers (+1) and the main thread's drain (-n). */
uint32_t rp_thr_pending;
/* Set by the owning thread in normal context, read by its own handler. */
__thread rp_thr_slot *rp_thr_self RP_TLS_IE;
/* Atomic increments from any thread. */
rp_thr_counters rp_thr_cnt;

/* 1 while worker timers should exist (threads_start .. threads_stop);
 * written by the main thread (or whoever calls sample_stop). */
static int g_on;
/* 1 in a fork child: never register, never arm. */
static int g_forked;
/* Period the workers follow (the main thread's adaptive period). */
static int64_t g_period_ns;
/* One warning when the table is full. */
static int g_full_warned;

#define LD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ST(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define INC(p) __atomic_fetch_add((p), 1, __ATOMIC_RELAXED)

/* The kernel's CPU clock of thread `tid` (what pthread_getcpuclockid
 * returns, built from the tid so that the main thread can arm a timer for
 * a thread it has no pthread_t for; a dead tid makes timer_create fail). */
static clockid_t thread_cpu_clock(pid_t tid)
{
    return (clockid_t)(((unsigned int)~tid << 3) | 6u);   /* CPUCLOCK_SCHED | PERTHREAD */
}

static void set_timer(timer_t t, int64_t ns)
{
    struct itimerspec its;
    its.it_interval.tv_sec = ns / 1000000000;
    its.it_interval.tv_nsec = ns % 1000000000;
    its.it_value = its.it_interval;
    timer_settime(t, 0, &its, NULL);   /* async-signal-safe */
}

/* Thread `tid`'s CPU time in ns, or -1 when it is gone (async-signal-safe). */
static int64_t thread_cpu_ns(pid_t tid)
{
    struct timespec ts;
    if (clock_gettime(thread_cpu_clock(tid), &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* CPU time of a thread that its delivered expirations may leave unsampled
 * as the sampler's own resolution: the tail after the last one and a
 * re-arm at a new period, where a CPU clock's expirations are checked at
 * the kernel's tick (10 ms at HZ=100): 2 x max(period, 10 ms). */
static int64_t resolution_ns(int64_t period_ns)
{
    return 2 * (period_ns > 10000000 ? period_ns : 10000000);
}

/* Whoever wins tstate 2 -> 0 books the thread's CPU time since the arm and
 * what no delivered expiration stood for beyond resolution_ns: that much
 * means the kernel delivered the CPU-clock timer late.  On this project's
 * 6.18 guests with more runnable threads than cores a busy thread's timer
 * fired once in 50-150 ms of its CPU instead of every 1 ms; a later
 * expiration carries the missed ones as overruns, but the thread's last
 * stretch before it ends has none (doc/sampling.md, "Threads"). */
static void disarm(rp_thr_slot *s)
{
    /* 2 -> 3 while this arming's values are read: arm() wants 0, so the
     * slot cannot be armed again (with another tid) under us.  A slot being
     * armed (1) is left alone: its arm() re-checks and disarms itself. */
    uint32_t armed = 2;
    if (!__atomic_compare_exchange_n(&s->tstate, &armed, 3, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return;
    int64_t cpu0 = s->cpu0_ns, now = thread_cpu_ns(s->ttid);
    timer_delete(s->timer);
    /* The owner's handler notes an expiry before it checks tstate, so one
     * it then skips is either in seen_ns or booked below as unsampled,
     * never both (sample.c worker_sample). */
    int64_t seen = LD(&s->seen_ns), per = LD(&s->period_ns);
    __atomic_store_n(&s->tstate, 0, __ATOMIC_SEQ_CST);
    /* A thread that ended without retiring (no destructor ran) may have
     * its tid reused by another thread of ours, whose clock then reads:
     * only a clock that went backwards is caught. */
    if (now < 0 || cpu0 < 0 || now < cpu0)
        return;   /* the thread is gone: its CPU clock cannot be read */
    int64_t cpu = now - cpu0, lost = cpu - seen - resolution_ns(per);
    __atomic_fetch_add(&rp_thr_cnt.cpu_ns, (uint64_t)cpu, __ATOMIC_RELAXED);
    if (lost > 0)
        __atomic_fetch_add(&rp_thr_cnt.unsampled_ns, (uint64_t)lost, __ATOMIC_RELAXED);
}

/* Create and arm the timer of slot s, owned by generation gen (normal
 * context, any thread).  Loses quietly against a concurrent arm. */
static void arm(rp_thr_slot *s, uint32_t gen)
{
    uint32_t zero = 0;
    if (!__atomic_compare_exchange_n(&s->tstate, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return;
    if (!s->ring) {
        void *p = mmap(NULL, RP_THR_RING_WORDS * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            ST(&s->tstate, 0);
            return;
        }
        ST(&s->ring, (uint64_t *)p);
    }
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_value.sival_ptr = s;
    pid_t tid = s->tid;
    sev.sigev_notify_thread_id = tid;
    timer_t t;
    if (timer_create(thread_cpu_clock(tid), &sev, &t) != 0) {
        ST(&s->tstate, 0);    /* the thread is gone, or no timers left */
        return;
    }
    s->timer = t;
    int64_t per = LD(&g_period_ns);
    ST(&s->period_ns, per);
    ST(&s->seen_ns, 0);
    s->ttid = tid;
    s->cpu0_ns = thread_cpu_ns(tid);
    __atomic_store_n(&s->tstate, 2, __ATOMIC_SEQ_CST);
    set_timer(t, per);
    INC(&rp_thr_cnt.threads_sampled);
    /* Sampling stopped, or the thread retired, while we were creating it. */
    if (!__atomic_load_n(&g_on, __ATOMIC_SEQ_CST) ||
        __atomic_load_n(&s->state, __ATOMIC_SEQ_CST) != RP_THR_OWNED ||
        __atomic_load_n(&s->gen, __ATOMIC_SEQ_CST) != gen)
        disarm(s);
}

int threads_register_self(void)
{
    if (LD(&g_forked))
        return -1;
    if (rp_thr_self)
        return 0;
    for (int i = 0; i < RP_THR_SLOTS; i++) {
        rp_thr_slot *s = &rp_thr_slots[i];
        uint32_t f = RP_THR_FREE;
        if (LD(&s->state) != RP_THR_FREE ||
            !__atomic_compare_exchange_n(&s->state, &f, RP_THR_OWNED, 0, __ATOMIC_SEQ_CST,
                                         __ATOMIC_RELAXED))
            continue;
        uint32_t gen = __atomic_add_fetch(&s->gen, 1, __ATOMIC_SEQ_CST);
        s->tid = gettid();
        rp_thr_self = s;
        if (__atomic_load_n(&g_on, __ATOMIC_SEQ_CST))
            arm(s, gen);
        return 0;
    }
    INC(&rp_thr_cnt.slots_overflow);
    if (!__atomic_exchange_n(&g_full_warned, 1, __ATOMIC_RELAXED))
        rp_warn(1, "more than %d threads: further threads are not sampled", RP_THR_SLOTS);
    return -1;
}

void threads_retire_self(void)
{
    rp_thr_slot *s = rp_thr_self;
    if (!s)
        return;
    rp_thr_self = NULL;              /* our handler ignores a pending signal */
    __asm__ __volatile__("" ::: "memory");
    if (!LD(&g_forked))
        disarm(s);
    /* Records still in the ring stay valid samples: the main thread drains
     * them whoever owns the slot next (head/tail never reset). */
    __atomic_store_n(&s->state, RP_THR_FREE, __ATOMIC_SEQ_CST);
}

void threads_start(int64_t period_ns)
{
    if (LD(&g_forked) || period_ns <= 0)
        return;
    ST(&g_period_ns, period_ns);
    /* The thread that initialised MPI may itself be a registered thread:
     * it has the main timer, not a worker one. */
    rp_thr_slot *me = rp_thr_self;
    if (me) {
        rp_thr_self = NULL;
        disarm(me);
        __atomic_store_n(&me->state, RP_THR_EXCLUDED, __ATOMIC_SEQ_CST);
    }
    __atomic_store_n(&g_on, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < RP_THR_SLOTS; i++) {
        rp_thr_slot *s = &rp_thr_slots[i];
        uint32_t gen = __atomic_load_n(&s->gen, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&s->state, __ATOMIC_SEQ_CST) == RP_THR_OWNED &&
            LD(&s->tstate) == 0)
            arm(s, gen);
    }
}

void threads_stop(void)
{
    __atomic_store_n(&g_on, 0, __ATOMIC_SEQ_CST);
    if (LD(&g_forked))
        return;
    for (int i = 0; i < RP_THR_SLOTS; i++)
        disarm(&rp_thr_slots[i]);
}

void threads_atfork_child(void)
{
    /* Timers are not inherited and their ids mean nothing here: forget them
     * without timer_delete (which could hit a timer of the child's own). */
    g_forked = 1;
    g_on = 0;
    for (int i = 0; i < RP_THR_SLOTS; i++)
        rp_thr_slots[i].tstate = 0;
    rp_thr_self = NULL;
}

/* ---- handler side ------------------------------------------------------------ */

void threads_set_period(int64_t period_ns) { ST(&g_period_ns, period_ns); }

void threads_note_expiry(rp_thr_slot *s, int64_t weight)
{
    __atomic_fetch_add(&s->seen_ns, weight, __ATOMIC_RELAXED);
    INC(&s->delivered);
}

void threads_follow_period(rp_thr_slot *s)
{
    int64_t want = LD(&g_period_ns);
    if (want > 0 && want != s->period_ns && LD(&s->tstate) == 2) {
        s->period_ns = want;
        set_timer(s->timer, want);
    }
}

int thr_ring_push(rp_thr_slot *s, const uintptr_t *pcs, uint32_t n, int64_t task,
                  uint32_t flags, int64_t weight)
{
    uint64_t *r = LD(&s->ring);
    uint64_t h = s->head, t = LD(&s->tail);
    const uint64_t mask = RP_THR_RING_WORDS - 1;
    if (!r || h - t + 3 + n > RP_THR_RING_WORDS) {
        INC(&rp_thr_cnt.dropped);
        return -1;
    }
    r[h & mask] = (uint64_t)n | (uint64_t)flags << 32;
    r[(h + 1) & mask] = (uint64_t)task;
    r[(h + 2) & mask] = (uint64_t)weight;
    for (uint32_t i = 0; i < n; i++)
        r[(h + 3 + i) & mask] = (uint64_t)pcs[i];
    /* pending first: it never undercounts what a drain can see */
    __atomic_fetch_add(&rp_thr_pending, 1, __ATOMIC_RELAXED);
    ST(&s->head, h + 3 + n);
    return 0;
}

uint32_t thr_drain(rp_thr_rec_fn fn, void *ctx)
{
    uintptr_t pcs[RP_SAMPLE_MAX_DEPTH];
    const uint64_t mask = RP_THR_RING_WORDS - 1;
    uint32_t done = 0;
    for (int i = 0; i < RP_THR_SLOTS; i++) {
        rp_thr_slot *s = &rp_thr_slots[i];
        uint64_t t = s->tail, h = LD(&s->head);
        if (t == h)
            continue;
        const uint64_t *r = LD(&s->ring);
        while (t < h) {
            uint64_t w0 = r[t & mask];
            uint32_t n = (uint32_t)w0, flags = (uint32_t)(w0 >> 32);
            if (n > RP_SAMPLE_MAX_DEPTH)
                n = RP_SAMPLE_MAX_DEPTH;    /* cannot happen: the producer caps it */
            int64_t task = (int64_t)r[(t + 1) & mask];
            int64_t w = (int64_t)r[(t + 2) & mask];
            for (uint32_t j = 0; j < n; j++)
                pcs[j] = (uintptr_t)r[(t + 3 + j) & mask];
            t += 3 + (uint64_t)(uint32_t)w0;
            fn(ctx, pcs, n, task, flags, w);
            done++;
        }
        ST(&s->tail, t);
    }
    if (done)
        __atomic_fetch_sub(&rp_thr_pending, done, __ATOMIC_RELAXED);
    return done;
}
