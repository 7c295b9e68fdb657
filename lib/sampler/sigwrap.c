/* sigwrap.c - sigaction() and signal() interposed so that a program that
 * installs its own SIGPROF handler after MPI_Init gets SIGPROF to itself:
 * our sampling stops (rank 0 warns once; counter sampling_lost_app_sigprof)
 * and the program sees the disposition it would have seen without rpprof.
 * A program that ignores SIGPROF (SIG_IGN) stops sampling the same way; one
 * that blocks it in the thread that called MPI_Init (sigprocmask and
 * pthread_sigmask are interposed too, and the mask is read when sampling
 * starts) gets no samples while it stays blocked.  Both are timed (counter
 * sigprof_blocked_us) and said once on stderr: the report must not offer
 * "lower RP_PERIOD" for samples the program kept from arriving.
 * The real functions are resolved with rp_dlnext (dlsym RTLD_NEXT) at load time,
 * outside any signal handler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include "core/clock.h"
#include "core/warn.h"
#include "sampler/sample.h"
#include "sampler/sigwrap.h"
#include "sampler/dlnext.h"

#define RP_EXPORT __attribute__((visibility("default")))

/* ---- the real sigaction / signal -------------------------------------------- */

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);
typedef int (*mask_fn)(int, const sigset_t *, sigset_t *);
enum { REAL_SIGACTION, REAL_SIGNAL, REAL_SIGPROCMASK, REAL_PTHREAD_SIGMASK, REAL_N };
static const char *const g_real_name[REAL_N] = { "sigaction", "signal", "sigprocmask",
                                                  "pthread_sigmask" };
static void *g_real[REAL_N];   /* the next definitions, resolved once */

static void resolve(void)
{
    for (int i = 0; i < REAL_N; i++)
        if (!__atomic_load_n(&g_real[i], __ATOMIC_ACQUIRE))
            __atomic_store_n(&g_real[i], rp_dlnext(g_real_name[i]), __ATOMIC_RELEASE);
}

/* The next definition of g_real_name[which], resolved on first use; NULL
 * (errno ENOSYS) if there is none. */
static void *real_fn(int which)
{
    void *f = __atomic_load_n(&g_real[which], __ATOMIC_ACQUIRE);
    if (!f) {
        resolve();
        f = __atomic_load_n(&g_real[which], __ATOMIC_ACQUIRE);
        if (!f)
            errno = ENOSYS;
    }
    return f;
}

/* Resolve early, outside any signal handler the program may call us from. */
__attribute__((constructor)) static void fault_ctor(void) { resolve(); }

int sigwrap_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    sigaction_fn f = (sigaction_fn)real_fn(REAL_SIGACTION);
    return f ? f(sig, act, old) : -1;
}

/* ---- SIGPROF ---------------------------------------------------------------- */

/* Our sampler's handler while we own SIGPROF; NULL otherwise. */
static void *volatile g_our_prof;
static volatile int g_app_sigprof;

static void *handler_of(const struct sigaction *sa)
{
    return (sa->sa_flags & SA_SIGINFO) ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
}

/* ---- SIGPROF blocked or ignored ---------------------------------------------- */

/* Main thread only (the sampler's timer signals it alone).  A block shorter
 * than a period loses nothing (the pending signal arrives at the unblock,
 * its merged expirations counted as overruns): each interval counts beyond
 * one period.  An ignored SIGPROF counts from then on. */
static int64_t g_blocked_since;   /* 0: not blocked */
static int64_t g_blocked_period;  /* the period when the block began */
static int64_t g_blocked_ns;      /* closed intervals, beyond one period each */
static const char *g_blocked_how; /* the first cause, for the warning */

static void blocked_begin(const char *how)
{
    if (g_blocked_since)
        return;
    int64_t now = rp_now_ns();
    g_blocked_since = now > 0 ? now : 1;
    g_blocked_period = sample_current_period_ns();
    if (!g_blocked_how)
        g_blocked_how = how;
}

static void blocked_end(void)
{
    if (!g_blocked_since)
        return;
    int64_t d = rp_now_ns() - g_blocked_since - g_blocked_period;
    if (d > 0)
        g_blocked_ns += d;
    g_blocked_since = 0;
}

static int on_main_thread(void)
{
    pid_t m = sample_main_tid();
    return m && gettid() == m;
}

static int real_mask(int how, const sigset_t *set, sigset_t *old)
{
    mask_fn f = (mask_fn)real_fn(REAL_PTHREAD_SIGMASK);
    return f ? f(how, set, old) : -1;
}

/* After a change of the calling thread's mask: is SIGPROF blocked now? */
static void note_mask(const char *fn)
{
    /* from inside our handler (libunwind's locks): SIGPROF is blocked
     * there by the kernel until the handler returns, not by the program */
    if (!g_our_prof || !on_main_thread() || sample_in_handler())
        return;
    sigset_t cur;
    if (real_mask(SIG_BLOCK, NULL, &cur) != 0)
        return;
    if (sigismember(&cur, SIGPROF))
        blocked_begin(fn);
    else
        blocked_end();
}

RP_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    mask_fn f = (mask_fn)real_fn(REAL_SIGPROCMASK);
    if (!f)
        return -1;
    int rc = f(how, set, old);
    if (rc == 0 && set && g_our_prof) {
        int e = errno;
        note_mask("sigprocmask");
        errno = e;
    }
    return rc;
}

RP_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    int rc = real_mask(how, set, old);
    if (rc == 0 && set && g_our_prof) {
        int e = errno;
        note_mask("pthread_sigmask");
        errno = e;
    }
    return rc;
}

uint64_t sigwrap_sigprof_blocked_us(void)
{
    int64_t ns = g_blocked_ns;
    if (g_blocked_since) {   /* still blocked (or ignored): up to now */
        int64_t d = rp_now_ns() - g_blocked_since - g_blocked_period;
        if (d > 0)
            ns += d;
    }
    return ns > 0 ? (uint64_t)ns / 1000 : 0;
}

void sigwrap_warn_blocked(void)
{
    static int warned;
    uint64_t us = sigwrap_sigprof_blocked_us();
    if (warned || us == 0)
        return;
    warned = 1;
    /* every rank that lost samples says so once (another rank's mask is
     * its own) */
    if (g_blocked_how && !strcmp(g_blocked_how, "SIG_IGN"))
        rp_warn(1, "the program ignores SIGPROF (SIG_IGN): no samples for the last %.3f s "
                   "(path costs stay exact; RP_PERIOD cannot help)", (double)us / 1e6);
    else
        rp_warn(1, "the program blocks SIGPROF (%s) in the thread that called MPI_Init: "
                   "no samples for %.3f s (path costs stay exact; RP_PERIOD cannot help: "
                   "leave SIGPROF unblocked in that thread)",
                g_blocked_how ? g_blocked_how : "signal mask", (double)us / 1e6);
}

/* The program sets its own SIGPROF disposition: step aside (once).  SIG_IGN
 * (the program wants no SIGPROF at all) is timed as lost sampling; a
 * handler of its own is counted as sampling_lost_app_sigprof. */
static void app_takes_sigprof(void *handler)
{
    void *was = __atomic_exchange_n(&g_our_prof, NULL, __ATOMIC_ACQ_REL);
    if (!was)
        return;
    sample_stop();
    if (handler == (void *)SIG_IGN) {
        blocked_end();
        g_blocked_how = NULL;
        blocked_begin("SIG_IGN");
        g_blocked_period = 0;
        rp_warn(0, "the program ignores SIGPROF (SIG_IGN); sampling stops here "
                   "(path costs stay exact)");
        return;
    }
    g_app_sigprof = 1;
    rp_warn(0, "the program installed its own SIGPROF handler; sampling stops here "
               "(path costs stay exact)");
}

RP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    void *ours = g_our_prof;
    if (sig != SIGPROF || !ours)
        return sigwrap_real_sigaction(sig, act, old);
    if (act)
        app_takes_sigprof(handler_of(act));
    int rc = sigwrap_real_sigaction(sig, act, old);
    if (rc == 0 && old && handler_of(old) == ours) {
        /* what the program would have seen without rpprof */
        memset(old, 0, sizeof *old);
        old->sa_handler = SIG_DFL;
    }
    return rc;
}

RP_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
    void *ours = sig == SIGPROF ? g_our_prof : NULL;
    if (ours)
        app_takes_sigprof((void *)handler);
    signal_fn f = (signal_fn)real_fn(REAL_SIGNAL);
    if (!f)
        return SIG_ERR;
    sighandler_t prev = f(sig, handler);
    return ours && (void *)prev == ours ? SIG_DFL : prev;
}

void sigwrap_guard_sigprof(void)
{
    struct sigaction cur;
    if (sigwrap_real_sigaction(SIGPROF, NULL, &cur) == 0) {
        void *h = handler_of(&cur);
        if (h != (void *)SIG_DFL && h != (void *)SIG_IGN)
            g_our_prof = h;
    }
    /* blocked before MPI_Init (or inherited from the launcher) */
    note_mask("blocked before MPI_Init");
}

int sigwrap_app_took_sigprof(void) { return g_app_sigprof; }
