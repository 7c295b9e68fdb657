/* sample.c - the sampling half of rpprof (SPEC §3, paper §6).
 *
 * A POSIX timer sends SIGPROF to the main thread every RP_PERIOD us.  The
 * handler unwinds the interrupted stack with libunwind, inserts the calling
 * context into the rank's CCT (cct.c, no allocation, no locks) and charges
 * the sample's weight:
 *
 *   - inside MPI (g_st->in_mpi > 0): to column RP_MET_MPI of the user call
 *     path (frames of rpprof and the MPI libraries stripped) under a
 *     pseudo-frame naming the MPI function;
 *   - otherwise (task time): to column RP_MET_RANK of the full call path,
 *     and the sample {node, weight} is pushed on the item buffer and every
 *     path-summary of the rank's path-set is extended with it.
 *
 * Weights (all in ns of CLOCK_MONOTONIC, whatever clock drives the timer):
 *   task sample  = carried + (now - max(prev_sample, task_start))
 *   MPI sample   = now - max(prev_sample, mpi_enter)
 * where `carried` is the task time no sample has been charged for yet:
 * sample_task_end(cost) adds (cost - what samples of that task were charged)
 * to it.  MPI samples inside a running task (local calls such as receive
 * posting, which are not events) count as charged to that task.  So the
 * task weights plus those local-call MPI weights of a rank add up to its
 * total task time (up to the tail after the last sample of the run), and
 * each weight sits at a location that was actually executing.
 * doc/sampling.md has the details.
 *
 * Everything reachable from on_sigprof() is async-signal-safe: no malloc,
 * no stdio, no locks, no dl_iterate_phdr/dladdr (module ranges are computed
 * at start, module names at export).
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/tls.h"
#include "core/clock.h"
#include "core/state.h"
#include "core/vocab.h"
#include "core/warn.h"
#include "sampler/sample.h"
#include "core/cct.h"
#include "core/counters.h"
#include "core/itembuf.h"
#include "core/pathset.h"
#include "sampler/threads.h"
#include "sampler/unwind.h"
#include "sampler/export.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define barrier() __asm__ __volatile__("" ::: "memory")
#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __asm__ __volatile__("pause" ::: "memory")
#else
#define cpu_relax() barrier()
#endif

/* ---- state ---------------------------------------------------------------- */

volatile uint32_t rp_sample_sigcount;
rp_sample_counters rp_sample_cnt;
#ifdef RP_SAMPLE_TIMING
/* Benchmark builds only: time spent in the handler for recorded samples. */
int64_t  rp_sample_handler_ns;
uint64_t rp_sample_handler_n;
#endif

static rp_cct   g_cct;
static rp_cct_cache g_hcache;       /* last path inserted by the handler */
static rp_cct_cache g_mcache;       /* ... by sample_callsite_node */
static rp_cct_cache g_wcache;       /* last worker path inserted by a drain */
static int      g_cct_ok;
/* The process state handed over at sample_start (never NULL: a blank one
 * until then, so a stray signal reads zeros). */
static rp_state  g_nostate;
static rp_state *g_st = &g_nostate;
/* Names of the MPI pseudo-frames (the MPI layer's table). */
static const char *(*g_fn_name)(int);
static int        g_fn_count;
static int      g_started;          /* sample_start ran (CCT, ranges) */
static timer_t  g_timer;
static int      g_timer_ok;
static int      g_token;            /* our timer's sigev_value.sival_ptr */
static pid_t    g_main_tid;
static volatile sig_atomic_t g_running;   /* timer armed: record samples */
static volatile sig_atomic_t g_cct_busy;  /* main thread writes the CCT */
static volatile sig_atomic_t g_forked;    /* we are a fork child: never sample */
/* 1 while the main thread's handler runs (Dekker with rp_active_other:
 * handler stores this then reads in_mpi; a serialized call from another
 * thread stores in_mpi then waits for this to drop).  Main handler only. */
static int g_handler_busy;
/* The thread that called sample_start: the only consumer of worker rings. */
static __thread int t_is_main RP_TLS_IE;
/* 1 while another thread (MPI_THREAD_SERIALIZED) is inside a wrapper: the
 * handler then leaves the per-task charge (g_attr_*) alone, since
 * sample_task_end runs on that thread.  Set by sample_other_enter, cleared
 * by the handler's next task sample (no wrapper is active then). */
static int g_other_in_mpi;

static int64_t  g_base_period_ns;   /* configured */
static int64_t  g_cur_period_ns;    /* after adaptive doublings */
static uint32_t g_thr[3];           /* item-buffer fill thresholds */
static uint32_t g_next_thr;

static int64_t  g_last_sample_ns;   /* previous sample (any kind) */
static int64_t  g_carried_ns;       /* task time not charged to a sample yet */
static int64_t  g_attr_task;        /* task_start_ns of the task being charged */
static int64_t  g_attr_ns;          /* charged to samples of that task so far */
static int64_t  g_ended_task = INT64_MIN; /* task_start_ns of the last ended task */
static uint32_t g_mpi_node;         /* CCT node of the last MPI sample */

pid_t sample_main_tid(void) { return g_main_tid; }
rp_cct *sample_cct(void) { return g_cct_ok ? &g_cct : NULL; }
int64_t sample_current_period_ns(void) { return g_running ? g_cur_period_ns : 0; }
int sample_forked(void) { return g_forked; }
/* 1 while the main thread's SIGPROF handler runs: SIGPROF is blocked there
 * by the kernel, and a mask change from inside it (libunwind's locks) is
 * not the program blocking SIGPROF (sigwrap.c). */
int sample_in_handler(void) { return __atomic_load_n(&g_handler_busy, __ATOMIC_RELAXED); }

/* ---- the handler ---------------------------------------------------------- */

/* Wall-clock timers expire on multiples of the period of CLOCK_MONOTONIC,
 * the same instants on every rank of a node (and on every node, to the
 * precision of their clocks).  A sample stalls its rank for ~20 us; when
 * the ranks' stalls coincide, a tightly coupled program waits for one
 * stall per period instead of one per rank (each rank's stall would
 * otherwise delay its partners at the next synchronisation).  A doubled
 * period is a multiple of the old one, so ranks that doubled and ranks
 * that did not still meet.  Set once at start (main thread). */
static int g_align;

static void set_period(int64_t ns)
{
    struct itimerspec its;
    its.it_interval.tv_sec = ns / 1000000000;
    its.it_interval.tv_nsec = ns % 1000000000;
    its.it_value = its.it_interval;
    int flags = 0;
    struct timespec now;
    if (g_align && clock_gettime(CLOCK_MONOTONIC, &now) == 0) {   /* async-signal-safe */
        int64_t t = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
        int64_t next = (t / ns + 1) * ns;
        its.it_value.tv_sec = next / 1000000000;
        its.it_value.tv_nsec = next % 1000000000;
        flags = TIMER_ABSTIME;
    }
    timer_settime(g_timer, flags, &its, NULL);   /* async-signal-safe */
}

static void adapt_period(void)
{
    uint32_t fill = g_st->items.n;
    int changed = 0;
    while (g_next_thr < 3 && g_thr[g_next_thr] && fill >= g_thr[g_next_thr]) {
        g_next_thr++;
        g_cur_period_ns *= 2;
        rp_sample_cnt.period_doublings++;
        changed = 1;
    }
    if (changed && g_timer_ok) {
        set_period(g_cur_period_ns);
        threads_set_period(g_cur_period_ns);
    }
}

/* ---- worker threads (threads.c) ------------------------------------------- */

/* A worker's SIGPROF: unwind into its ring, nothing else.  The CCT, the
 * item buffer and the path-set belong to the main thread.  The sample is
 * tagged with the main thread's current task (task_start_ns) and whether
 * the main thread was inside MPI; the drain decides where it goes. */
static void worker_sample(rp_thr_slot *s, const siginfo_t *si, void *ucv)
{
    uintptr_t pcs[RP_SAMPLE_MAX_DEPTH];
    if (rp_thr_self != s) {
        __atomic_fetch_add(&rp_thr_cnt.skipped, 1, __ATOMIC_RELAXED);
        return;
    }
    /* Thread CPU time: one period per expiration, merged ones included.
     * Noted before the state check: a disarm on another thread either
     * counts it as seen or (when it read seen_ns first) as unsampled,
     * and then this expiry is skipped (threads.c disarm). */
    int64_t w = s->period_ns * (1 + (int64_t)(si->si_overrun > 0 ? si->si_overrun : 0));
    threads_note_expiry(s, w);
    if (__atomic_load_n(&s->tstate, __ATOMIC_ACQUIRE) != 2 || !g_running || g_forked ||
        !g_st->active || !g_cct_ok) {
        __atomic_fetch_add(&rp_thr_cnt.skipped, 1, __ATOMIC_RELAXED);
        return;
    }
    uint32_t flags = __atomic_load_n(&g_st->in_mpi, __ATOMIC_ACQUIRE) ? RP_THR_F_INMPI : 0;
    int64_t task = __atomic_load_n(&g_st->task_start_ns, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&g_st->in_mpi, __ATOMIC_ACQUIRE))
        flags |= RP_THR_F_INMPI;
    int n = unwind_take_stack((const ucontext_t *)ucv, pcs);
    if (n > 0)
        thr_ring_push(s, pcs, (uint32_t)n, task, flags, w);
    threads_follow_period(s);
}

typedef struct drain_ctx {
    int     charge;   /* may push items / extend summaries (main owns them now) */
    int64_t task;     /* the open task */
} drain_ctx;

/* A task sample at CCT node `node`: a new item of the open task, and every
 * path-summary of the rank's set extended with it.  The item's weight (what
 * the paths get) is w_path, the timer interval the sample stands for: an
 * unbiased per-path estimate.  The whole-rank weight (carry, header) would
 * hand a path the unsampled time of earlier tasks that may lie on other
 * paths (doc/sampling.md).  0, or -1 when the item buffer is full.
 * Async-signal-safe. */
/* A sample that stands for several periods (timer overruns on a loaded
 * machine) is pushed as up to this many items of equal weight: the summary
 * reservoir's estimate is exact for units of equal weight, and one heavy
 * unit kept or turned away moved a path's located total by 15-40 % under
 * load (measured: 2000 overruns in 7000 samples on mpi_wavefront, 4 ranks
 * on 2 shared cores). */
#define RP_SPLIT_MAX 8

static int push_task_sample(uint32_t node, int64_t w_path, int64_t periods)
{
    int64_t n = periods < 1 ? 1 : periods > RP_SPLIT_MAX ? RP_SPLIT_MAX : periods;
    int64_t piece = w_path / n / 1000 * 1000, rc = 0;   /* whole us: sampled_us stays exact */
    for (int64_t j = 0; j < n; j++) {
        int64_t w = j == n - 1 ? w_path - piece * (n - 1) : piece;
        int32_t i = itembuf_push(&g_st->items, node, 0, w);
        pathset_add_sample(&g_st->ps, w, i < 0);
        if (i < 0) {
            rc = -1;
            continue;
        }
        pathset_extend(&g_st->ps, g_st->rank, (uint16_t)i,
                       (rp_summary_mode)g_st->sum_mode,
                       &g_st->rng);
    }
    adapt_period();
    return (int)rc;
}

/* One drained worker sample (main thread, CCT writer). */
static void drain_rec(void *cv, const uintptr_t *pcs, uint32_t n, int64_t task,
                      uint32_t flags, int64_t w)
{
    const drain_ctx *c = cv;
    uint32_t node = cct_insert_path_cached(&g_cct, &g_wcache, pcs, n, 0);
    cct_add(&g_cct, node, RP_MET_RANK, w);
    rp_thr_cnt.samples++;
    if (c->charge && task == c->task && !(flags & RP_THR_F_INMPI)) {
        if (push_task_sample(node, w, 1) == 0) {
            rp_thr_cnt.charged++;
            return;
        }
    }
    rp_thr_cnt.rank_only++;
}

/* Drain from normal context on the main thread: the handler is fenced off
 * the CCT meanwhile (its samples are skipped and counted, as for
 * sample_callsite_node). */
__attribute__((noinline, cold)) static void drain_main(int charge)
{
    if (!g_cct_ok || !t_is_main)   /* the rings have one consumer */
        return;
    drain_ctx c = { charge, g_st->task_start_ns };
    g_cct_busy = 1;
    barrier();
    thr_drain(drain_rec, &c);
    barrier();
    g_cct_busy = 0;
}

void sample_other_enter(void)
{
    /* Dekker with the handler: it stores g_handler_busy, then reads in_mpi
     * and g_other_in_mpi; we store those, then wait for it.  The second
     * round covers a handler that cleared g_other_in_mpi in task mode just
     * before our in_mpi store.  The handler never waits for anything, so
     * this ends within one handler's run. */
    __atomic_store_n(&g_other_in_mpi, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&g_st->in_mpi, 1, __ATOMIC_SEQ_CST);
    for (int round = 0; round < 2; round++) {
        while (__atomic_load_n(&g_handler_busy, __ATOMIC_SEQ_CST))
            cpu_relax();
        __atomic_store_n(&g_other_in_mpi, 1, __ATOMIC_SEQ_CST);
    }
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    int saved_errno = errno;
    int busy = 0;
    uintptr_t pcs[RP_SAMPLE_MAX_DEPTH];

    if (!si || si->si_code != SI_TIMER)
        goto out;              /* not a timer's signal */
    if (si->si_value.sival_ptr != &g_token) {
        const char *p = si->si_value.sival_ptr;
        if (p >= (const char *)rp_thr_slots && p < (const char *)(rp_thr_slots + RP_THR_SLOTS))
            worker_sample((rp_thr_slot *)(uintptr_t)p, si, ucv);
        goto out;              /* a worker's, or not ours */
    }
    busy = 1;
    __atomic_store_n(&g_handler_busy, 1, __ATOMIC_SEQ_CST);
    rp_sample_sigcount++;
    if (si->si_overrun > 0)
        rp_sample_cnt.timer_overruns += (uint64_t)si->si_overrun;
    if (!g_running || g_forked || !g_st->active || g_cct_busy || !g_cct_ok) {
        rp_sample_cnt.samples_skipped++;
        goto out;
    }

    int64_t now = rp_now_ns();
    int paused = g_st->paused != 0;
    int n = paused ? 0 : unwind_take_stack((const ucontext_t *)ucv, pcs);

    if (paused) {
        /* MPI_Pcontrol(0): nothing is charged, but the time since the last
         * sample counts as charged to the running task, and the carry is
         * dropped, so no sample after the pause inherits paused time (it
         * ends up on the paths as <unknown>, not at some later location). */
        int64_t ts = g_st->task_start_ns;
        int in_task = g_st->in_mpi == 0 ||
                      (ts != g_ended_task && !__atomic_load_n(&g_other_in_mpi, __ATOMIC_SEQ_CST));
        int64_t from = g_st->in_mpi > 0 ? (g_last_sample_ns > g_st->mpi_enter_ns
                                               ? g_last_sample_ns : g_st->mpi_enter_ns)
                                         : (g_last_sample_ns > ts ? g_last_sample_ns : ts);
        if (in_task) {
            if (g_attr_task != ts) {
                g_attr_task = ts;
                g_attr_ns = 0;
            }
            g_attr_ns += now > from ? now - from : 0;
        }
        if (g_st->in_mpi == 0)
            g_carried_ns = 0;
        rp_sample_cnt.samples_paused++;
    } else if (g_st->in_mpi > 0) {
        int s = unwind_mpi_user_start(pcs, n);
        uintptr_t fn = CCT_PSEUDO_BIT | (uintptr_t)(uint32_t)g_st->cur_fn;
        uint32_t node = cct_insert_path_cached(&g_cct, &g_hcache, pcs + s,
                                               (uint32_t)(n - s), fn);
        int64_t from = g_last_sample_ns > g_st->mpi_enter_ns ? g_last_sample_ns
                                                              : g_st->mpi_enter_ns;
        int64_t w = now > from ? now - from : 0;
        cct_add(&g_cct, node, RP_MET_MPI, w);
        int64_t ts = g_st->task_start_ns;
        int other = __atomic_load_n(&g_other_in_mpi, __ATOMIC_SEQ_CST);
        if (ts != g_ended_task && !other) {
            /* A local MPI call inside a running task (not an event): its
             * time is part of the task's cost, so count it as charged,
             * or the carry would hand it to a task sample as well. */
            if (g_attr_task != ts) {
                g_attr_task = ts;
                g_attr_ns = 0;
            }
            g_attr_ns += w;
        } else if (!other && g_timer_ok && !g_st->timer_backoff) {
            /* An event call (the task has ended) that is still inside
             * MPI at a sample is waiting: sample the rest of it at
             * 1/RP_MPI_BACKOFF the rate.  Each MPI sample weighs the time
             * since the previous one, and sample_mpi_leave charges the
             * tail, so the MPI column loses nothing; the rank is woken
             * 8 times less (issue 16).  A doubled period stays a multiple
             * of the base one, so aligned ranks still meet. */
            /* (Only the main thread's own calls: their rp_leave runs on
             * the main thread, which owns the CCT.) */
            g_st->timer_backoff = 1;
            set_period(g_cur_period_ns * RP_MPI_BACKOFF);
            rp_sample_cnt.mpi_backoffs++;
        }
        g_mpi_node = node;
        rp_sample_cnt.samples++;
        rp_sample_cnt.samples_mpi++;
    } else {
        if (g_other_in_mpi)    /* no wrapper is active: that call is over */
            __atomic_store_n(&g_other_in_mpi, 0, __ATOMIC_RELAXED);
        uint32_t node = cct_insert_path_cached(&g_cct, &g_hcache, pcs, (uint32_t)n, 0);
        int64_t ts = g_st->task_start_ns;
        int64_t from = g_last_sample_ns > ts ? g_last_sample_ns : ts;
        int64_t wcur = now > from ? now - from : 0;
        if (g_attr_task != ts) {
            g_attr_task = ts;
            g_attr_ns = 0;
        }
        g_attr_ns += wcur;
        int64_t w = g_carried_ns + wcur;
        g_carried_ns = 0;
        cct_add(&g_cct, node, RP_MET_RANK, w);
        rp_sample_cnt.samples++;
        int64_t periods = 1 + (int64_t)(si->si_overrun > 0 ? si->si_overrun : 0);
        if (g_st->timer_backoff) {
            /* The call's return did not restore the period (a wrapper
             * without rp_leave, or a signal between its check and here):
             * this interval was a slow one. */
            periods *= RP_MPI_BACKOFF;
            g_st->timer_backoff = 0;
            set_period(g_cur_period_ns);
        }
        if (push_task_sample(node, g_cur_period_ns * periods, periods) != 0)
            rp_sample_cnt.samples_dropped++;
    }
    g_last_sample_ns = now;
    /* Worker samples: in a task they may join the task's paths; inside
     * MPI only once the task that ended is accounted (sample_task_end ran),
     * and then to the whole-rank profile only. */
    if (__atomic_load_n(&rp_thr_pending, __ATOMIC_RELAXED)) {
        drain_ctx c = { g_st->in_mpi == 0, g_st->task_start_ns };
        if (c.charge || g_ended_task == c.task)
            thr_drain(drain_rec, &c);
    }
#ifdef RP_SAMPLE_TIMING
    rp_sample_handler_ns += rp_now_ns() - now;
    rp_sample_handler_n++;
#endif
out:
    if (busy)
        __atomic_store_n(&g_handler_busy, 0, __ATOMIC_RELEASE);
    errno = saved_errno;
}

/* ---- hooks ------------------------------------------------------------------ */

void sample_task_end(int64_t task_cost_ns)
{
    /* Worker samples of the task that ends join its paths now: one load
     * and a branch when no worker thread is sampled. */
    if (__builtin_expect(__atomic_load_n(&rp_thr_pending, __ATOMIC_RELAXED) != 0, 0) &&
        t_is_main)   /* a serialized call from another thread: the main handler drains */
        drain_main(1);
    /* in_mpi > 0, so the handler never touches g_carried_ns now; once
     * g_ended_task names this task it leaves g_attr_* alone as well. */
    int64_t ts = g_st->task_start_ns;
    g_ended_task = ts;
    barrier();
    int64_t charged = g_attr_task == ts ? g_attr_ns : 0;
    /* paused (MPI_Pcontrol(0)): the task's uncharged rest is not carried to
     * the next sample, which could land after the pause */
    if (task_cost_ns > charged && !g_st->paused)
        g_carried_ns += task_cost_ns - charged;
    g_attr_task = INT64_MIN;
    g_attr_ns = 0;
}

void sample_mpi_leave(void)
{
    /* in_mpi > 0: a signal from here on is an MPI sample.  Clear the flag
     * first: a handler that sets it again in between leaves at worst one
     * more (harmless) restore for the next return. */
    g_st->timer_backoff = 0;
    barrier();
    if (!g_timer_ok || !g_running)
        return;
    set_period(g_cur_period_ns);
    if (!t_is_main)   /* the CCT is the main thread's: no tail then */
        return;
    /* The tail of the wait since its last sample, to that sample's MPI
     * context (the handler is fenced off the CCT meanwhile). */
    g_cct_busy = 1;
    barrier();
    int64_t now = rp_now_ns();
    int64_t from = g_last_sample_ns > g_st->mpi_enter_ns ? g_last_sample_ns : g_st->mpi_enter_ns;
    if (g_cct_ok && now > from) {
        cct_add(&g_cct, g_mpi_node, RP_MET_MPI, now - from);
        g_last_sample_ns = now;
    }
    barrier();
    g_cct_busy = 0;
}

static void atfork_child(void)
{
    /* POSIX timers are not inherited; make sure nothing samples anyway. */
    g_forked = 1;
    g_running = 0;
    g_timer_ok = 0;
    g_st->active = 0;
    threads_atfork_child();
}

static void set_thresholds(void)
{
    uint32_t cap = g_st->items.cap;
    g_thr[0] = cap / 2;
    g_thr[1] = cap - cap / 4;
    g_thr[2] = cap - cap / 8;
    g_next_thr = 0;
}

int sample_start(rp_state *st, const char *(*fn_name)(int), int fn_count)
{
    const rp_config *cfg = &st->cfg;
    g_st = st;
    g_fn_name = fn_name;
    g_fn_count = fn_count;
    static int atfork_done;
    if (g_forked)
        return -1;
    if (!g_started) {
        g_main_tid = gettid();
        t_is_main = 1;
        if (!atfork_done) {
            pthread_atfork(NULL, NULL, atfork_child);
            atfork_done = 1;
        }
        unwind_find_ranges();
        uint32_t cap = cfg->cct_nodes ? cfg->cct_nodes : CCT_DEFAULT_CAP;
        if (cct_init(&g_cct, cap, RP_MET_PATH0 + (cfg->k ? cfg->k : 1)) == 0)
            g_cct_ok = 1;
        else
            rp_warn(0, "cannot map the calling-context tree (%u nodes): %s; "
                    "sampling is off", cap, strerror(errno));
        g_attr_task = INT64_MIN;
        g_started = 1;
    }
    if (cfg->period_us == 0 || g_running)
        return 0;
    if (!g_cct_ok)
        return -1;

    struct sigaction old;
    sigaction(SIGPROF, NULL, &old);
    if ((old.sa_flags & SA_SIGINFO) ? old.sa_sigaction != on_sigprof
                                    : (old.sa_handler != SIG_DFL &&
                                       old.sa_handler != SIG_IGN)) {
        rp_warn(0, "the program has its own SIGPROF handler; sampling is off");
        return -1;
    }

    unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
    {   /* warm libunwind (lazy init, per-thread cache) outside the handler */
        void *buf[64];
        (void)unw_backtrace(buf, 64);
    }

    unwind_guard_install();

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigprof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0) {
        rp_warn(0, "sigaction(SIGPROF): %s; sampling is off", strerror(errno));
        return -1;
    }

    clockid_t clk = CLOCK_MONOTONIC;
    if (cfg->clock == RP_CLOCK_CPU)
        clk = CLOCK_THREAD_CPUTIME_ID;   /* the calling (main) thread's CPU time */
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_value.sival_ptr = &g_token;
    sev.sigev_notify_thread_id = g_main_tid;
    if (timer_create(clk, &sev, &g_timer) != 0) {
        rp_warn(0, "timer_create: %s; sampling is off", strerror(errno));
        return -1;
    }
    g_timer_ok = 1;
    g_align = clk == CLOCK_MONOTONIC;
    g_base_period_ns = g_cur_period_ns = (int64_t)cfg->period_us * 1000;
    set_thresholds();
    g_last_sample_ns = rp_now_ns();
    barrier();
    g_running = 1;
    set_period(g_cur_period_ns);
    if (cfg->threads)
        threads_start(g_cur_period_ns);   /* worker threads (threads.c) */
    return 0;
}

void sample_phase_reset(void)
{
    if (!g_running)
        return;
    set_thresholds();
    if (g_cur_period_ns != g_base_period_ns) {
        g_cur_period_ns = g_base_period_ns;
        set_period(g_cur_period_ns);
        threads_set_period(g_cur_period_ns);
    }
}

void sample_stop(void)
{
    if (!g_timer_ok)
        return;
    g_running = 0;
    barrier();
    threads_stop();
    timer_delete(g_timer);
    g_timer_ok = 0;
    unwind_guard_remove();
    /* The handler stays installed: a SIGPROF still pending is ignored
     * instead of killing the process with the default action. */
}

void sample_commit_item(void *ctx, uint32_t path, const rp_item *item, uint32_t idx)
{
    (void)ctx;
    (void)idx;
    if (g_cct_ok && item)
        cct_add(&g_cct, item->node, RP_MET_PATH0 + path, item->value_ns);
}

void sample_commit_unknown(uint32_t col, uint32_t cause, int64_t ns)
{
    /* ns == 0 still creates the nodes: their presence tells the merge that
     * this profile books its unknown time (it may then cap located time). */
    if (!g_cct_ok || ns < 0 || cause == RP_UNK_FRAME || cause >= RP_UNK_N)
        return;
    g_cct_busy = 1;
    barrier();
    uint32_t u = cct_child(&g_cct, CCT_ROOT, CCT_PSEUDO_BIT | RP_UNK_PSEUDO);
    uint32_t c = u == CCT_NONE ? CCT_NONE
                               : cct_child(&g_cct, u, CCT_PSEUDO_BIT | (RP_UNK_PSEUDO + cause));
    /* A full CCT: the root takes it (still counted in the path's total). */
    if (ns > 0)
        cct_add(&g_cct, c != CCT_NONE ? c : u != CCT_NONE ? u : CCT_ROOT, RP_MET_PATH0 + col, ns);
    barrier();
    g_cct_busy = 0;
}

uint32_t sample_callsite_node(void)
{
    if (!g_cct_ok)
        return CCT_ROOT;
    void *buf[RP_SAMPLE_MAX_DEPTH];
    uintptr_t pcs[RP_SAMPLE_MAX_DEPTH];
    g_cct_busy = 1;
    barrier();
    int n = unw_backtrace(buf, RP_SAMPLE_MAX_DEPTH);
    for (int i = 0; i < n; i++)
        pcs[i] = (uintptr_t)buf[i];
    /* Frame 0 is this function: it is ours even when we are linked into
     * the program, so skip it explicitly. */
    int s = n > 0 ? 1 : 0;
    int u = unwind_mpi_user_start(pcs, n);
    if (u > s)
        s = u;
    uintptr_t fn = CCT_PSEUDO_BIT | (uintptr_t)(uint32_t)g_st->cur_fn;
    uint32_t node = cct_insert_path_cached(&g_cct, &g_mcache, pcs + s,
                                           (uint32_t)(n - s), fn);
    barrier();
    g_cct_busy = 0;
    return node;
}

int sample_export(rp_cct_export *d, uint32_t k, uint64_t *cnt)
{
    /* Worker samples still waiting (timers are stopped by now): whole-rank
     * profile only, their tasks are accounted. */
    drain_main(0);
    int rc = sample_export_cct(g_cct_ok ? &g_cct : NULL, d, k, g_fn_name, g_fn_count);
    if (rc != 0)
        return rc;
    uint64_t *c = cnt;
    c[RP_CNT_SAMPLES] = rp_sample_cnt.samples;
    c[RP_CNT_SAMPLES_MPI] = rp_sample_cnt.samples_mpi;
    c[RP_CNT_SAMPLES_DROPPED] = rp_sample_cnt.samples_dropped;
    c[RP_CNT_SAMPLES_SKIPPED] =
        rp_sample_cnt.samples_skipped + __atomic_load_n(&rp_thr_cnt.skipped, __ATOMIC_RELAXED);
    c[RP_CNT_UNWIND_FAILURES] = rp_sample_cnt.unwind_failures;
    c[RP_CNT_SAMPLES_PAUSED] = rp_sample_cnt.samples_paused;
    c[RP_CNT_STACKS_TRUNCATED] = rp_sample_cnt.stacks_truncated;
    c[RP_CNT_CCT_FULL] = g_cct_ok ? g_cct.full : 0;
    c[RP_CNT_PERIOD_DOUBLINGS] = rp_sample_cnt.period_doublings;
    c[RP_CNT_TIMER_OVERRUNS] = rp_sample_cnt.timer_overruns;
    c[RP_CNT_MPI_BACKOFFS] = rp_sample_cnt.mpi_backoffs;
    c[RP_CNT_THREADS_SAMPLED] = __atomic_load_n(&rp_thr_cnt.threads_sampled, __ATOMIC_RELAXED);
    c[RP_CNT_THREAD_SAMPLES] = rp_thr_cnt.samples;
    c[RP_CNT_THREAD_SAMPLES_CHARGED] = rp_thr_cnt.charged;
    c[RP_CNT_THREAD_SAMPLES_RANK_ONLY] = rp_thr_cnt.rank_only;
    c[RP_CNT_THREAD_SAMPLES_DROPPED] = __atomic_load_n(&rp_thr_cnt.dropped, __ATOMIC_RELAXED);
    c[RP_CNT_THREAD_SLOTS_OVERFLOW] = __atomic_load_n(&rp_thr_cnt.slots_overflow, __ATOMIC_RELAXED);
    c[RP_CNT_THREAD_CPU_US] = __atomic_load_n(&rp_thr_cnt.cpu_ns, __ATOMIC_RELAXED) / 1000;
    c[RP_CNT_THREAD_CPU_UNSAMPLED_US] =
        __atomic_load_n(&rp_thr_cnt.unsampled_ns, __ATOMIC_RELAXED) / 1000;
    return 0;
}
