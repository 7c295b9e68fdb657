/* sigwrap.c - sigaction() and signal() interposed so that a program that
 * installs its own SIGPROF handler after MPI_Init gets SIGPROF to itself:
 * our sampling stops (rank 0 warns once; counter sampling_lost_app_sigprof)
 * and the program sees the disposition it would have seen without rpprof.
 * The real functions are resolved with rp_dlnext (dlsym RTLD_NEXT) at load time,
 * outside any signal handler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include "core/warn.h"
#include "sampler/sample.h"
#include "sampler/sigwrap.h"
#include "sampler/dlnext.h"

#define RP_EXPORT __attribute__((visibility("default")))

/* ---- the real sigaction / signal -------------------------------------------- */

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);
static sigaction_fn g_real_sigaction;
static signal_fn g_real_signal;

static void resolve(void)
{
    if (!__atomic_load_n(&g_real_sigaction, __ATOMIC_ACQUIRE))
        __atomic_store_n(&g_real_sigaction, (sigaction_fn)rp_dlnext("sigaction"),
                         __ATOMIC_RELEASE);
    if (!__atomic_load_n(&g_real_signal, __ATOMIC_ACQUIRE))
        __atomic_store_n(&g_real_signal, (signal_fn)rp_dlnext("signal"),
                         __ATOMIC_RELEASE);
}

/* Resolve early, outside any signal handler the program may call us from. */
__attribute__((constructor)) static void fault_ctor(void) { resolve(); }

int sigwrap_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    sigaction_fn f = __atomic_load_n(&g_real_sigaction, __ATOMIC_ACQUIRE);
    if (!f) {
        resolve();
        f = __atomic_load_n(&g_real_sigaction, __ATOMIC_ACQUIRE);
        if (!f) {
            errno = ENOSYS;
            return -1;
        }
    }
    return f(sig, act, old);
}

/* ---- SIGPROF ---------------------------------------------------------------- */

/* Our sampler's handler while we own SIGPROF; NULL otherwise. */
static void *volatile g_our_prof;
static volatile int g_app_sigprof;

static void *handler_of(const struct sigaction *sa)
{
    return (sa->sa_flags & SA_SIGINFO) ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
}

/* The program sets its own SIGPROF disposition: step aside (once). */
static void app_takes_sigprof(void)
{
    void *was = __atomic_exchange_n(&g_our_prof, NULL, __ATOMIC_ACQ_REL);
    if (!was)
        return;
    sample_stop();
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
        app_takes_sigprof();
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
        app_takes_sigprof();
    signal_fn f = __atomic_load_n(&g_real_signal, __ATOMIC_ACQUIRE);
    if (!f) {
        resolve();
        f = __atomic_load_n(&g_real_signal, __ATOMIC_ACQUIRE);
        if (!f) {
            errno = ENOSYS;
            return SIG_ERR;
        }
    }
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
}

int sigwrap_app_took_sigprof(void) { return g_app_sigprof; }
