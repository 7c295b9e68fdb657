/* fault.c - jobs that do not reach MPI_Finalize, and applications that
 * fight over SIGPROF (doc/robustness.md).
 *
 * What is saved when a job dies:
 *   - periodic checkpoints: at a phase end, once RP_CHECKPOINT seconds have
 *     passed since this rank's last write, the rank file is rewritten with
 *     every completed phase (rpfile_write: temporary file, fsync, rename, so
 *     a reader sees the previous checkpoint or the new one, never a torn
 *     file).  A rank killed by mpirun after another rank crashed, or by a
 *     batch system's SIGTERM, leaves its last checkpoint.
 *   - MPI_Abort: the aborting rank writes its file before PMPI_Abort; the
 *     other ranks, which MPI then kills, leave their last checkpoint.
 *   - SIGTERM/SIGINT: nothing can be encoded in a signal handler (no malloc,
 *     no locks, the main thread may be anywhere), so the handler only
 *     unlinks a temporary file we were writing and then hands the signal on
 *     to the previous disposition (default: the process dies of it).
 *   - SIGSEGV/SIGBUS in the application: untouched (the sampler's unwind
 *     guard passes them on); the rank keeps its last checkpoint.
 *
 * SIGPROF: sigaction() and signal() are interposed.  When the program
 * installs a SIGPROF disposition after MPI_Init while our sampler owns the
 * signal, the sampler's timer is stopped, the program's disposition is
 * installed unchanged, rank 0 says so once and the rank file counts
 * sampling_lost_app_sigprof.  Queries never reveal our handler: the program
 * sees SIG_DFL where it would have without rpprof.  (A handler installed
 * before MPI_Init is detected by sample_start, which then does not sample.)
 * Everything else passes straight through to libc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "hooks.h"
#include "config.h"
#include "fault.h"
#include "runtime_int.h"

rp_fault_counters rp_fault_cnt;

#define RP_DEFAULT_CHECKPOINT_S 10u
#define RP_MAX_CHECKPOINT_S     31536000u   /* a year */

static int64_t g_ckpt_ns;          /* 0 = checkpoints off */
static int64_t g_last_write_ns;

/* ---- the real sigaction / signal -------------------------------------------- */

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);
static sigaction_fn g_real_sigaction;
static signal_fn g_real_signal;

static void resolve(void)
{
    if (!__atomic_load_n(&g_real_sigaction, __ATOMIC_ACQUIRE))
        __atomic_store_n(&g_real_sigaction, (sigaction_fn)dlsym(RTLD_NEXT, "sigaction"),
                         __ATOMIC_RELEASE);
    if (!__atomic_load_n(&g_real_signal, __ATOMIC_ACQUIRE))
        __atomic_store_n(&g_real_signal, (signal_fn)dlsym(RTLD_NEXT, "signal"),
                         __ATOMIC_RELEASE);
}

/* Resolve early, outside any signal handler the program may call us from. */
__attribute__((constructor)) static void fault_ctor(void) { resolve(); }

static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
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

static void *handler_of(const struct sigaction *sa)
{
    return (sa->sa_flags & SA_SIGINFO) ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
}

/* The program sets its own SIGPROF disposition: step aside (once). */
static void app_takes_sigprof(void)
{
    void *was = __atomic_exchange_n(&g_our_prof, NULL, __ATOMIC_ACQ_REL);
    if (!was || !rp_rt.active)
        return;
    sample_stop();
    rp_fault_cnt.app_sigprof = 1;
    rp_warn(0, "the program installed its own SIGPROF handler; sampling stops here "
               "(path costs stay exact)");
}

RP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    void *ours = g_our_prof;
    if (sig != SIGPROF || !ours)
        return real_sigaction(sig, act, old);
    if (act)
        app_takes_sigprof();
    int rc = real_sigaction(sig, act, old);
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

/* ---- SIGTERM / SIGINT --------------------------------------------------------- */

static char g_tmp_path[4200];
static volatile sig_atomic_t g_writing;
static struct sigaction g_old_term, g_old_int;
static volatile sig_atomic_t g_term_installed;

void rp_fault_writing(const char *final_path)
{
    if (!final_path) {
        g_writing = 0;
        return;
    }
    /* rpenc_write_file's temporary name (lib/rpenc.c) */
    snprintf(g_tmp_path, sizeof g_tmp_path, "%s.tmp.%ld", final_path, (long)getpid());
    __asm__ __volatile__("" ::: "memory");
    g_writing = 1;
}

/* Async-signal-safe: unlink, sigaction, raise. */
static void on_term(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    if (g_writing)
        unlink(g_tmp_path);
    struct sigaction *old = sig == SIGINT ? &g_old_int : &g_old_term;
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, si, uc);
    } else if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_IGN) {
        /* ignored before us: still ignored */
    } else if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL) {
        old->sa_handler(sig);
    } else {
        /* default action: restore it and re-raise; the signal is blocked
         * while we run, so it is delivered (and kills) when we return */
        real_sigaction(sig, old, NULL);
        raise(sig);
    }
    errno = saved;
}

static void install_term(void)
{
    for (int k = 0; k < 2; k++) {
        int sig = k ? SIGINT : SIGTERM;
        struct sigaction *old = k ? &g_old_int : &g_old_term;
        struct sigaction sa;
        if (real_sigaction(sig, NULL, old) != 0)
            continue;
        /* A program that ignores the signal, or handles it itself, keeps it
         * exactly as it was: we only step in front of the default action. */
        if ((old->sa_flags & SA_SIGINFO) || old->sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_term;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        real_sigaction(sig, &sa, NULL);
    }
    g_term_installed = 1;
}

/* ---- checkpoints and MPI_Abort ------------------------------------------------ */

void rp_fault_start(void)
{
    uint32_t secs = RP_DEFAULT_CHECKPOINT_S;
    const char *s = getenv("RP_CHECKPOINT");
    if (s && config_parse_u32(s, 0, RP_MAX_CHECKPOINT_S, &secs) != 0) {
        secs = RP_DEFAULT_CHECKPOINT_S;
        rp_warn(0, "RP_CHECKPOINT='%s' is not valid (expected an integer 0..%u, seconds "
                   "between checkpoints, 0 = only at MPI_Finalize); using %u",
                s, RP_MAX_CHECKPOINT_S, RP_DEFAULT_CHECKPOINT_S);
    }
    g_ckpt_ns = (int64_t)secs * 1000000000LL;
    g_last_write_ns = rp_now_ns();

    /* Who owns SIGPROF now?  If the sampler started, its handler. */
    struct sigaction cur;
    if (rp_rt.cfg.period_us && real_sigaction(SIGPROF, NULL, &cur) == 0) {
        void *h = handler_of(&cur);
        if (h != (void *)SIG_DFL && h != (void *)SIG_IGN)
            g_our_prof = h;
    }
    if (!g_term_installed)
        install_term();
}

void rp_fault_phase_end(void)
{
    if (!g_ckpt_ns || rp_rt.finalize_ns || !rp_rt.active)
        return;
    int64_t now = rp_now_ns();
    if (now - g_last_write_ns < g_ckpt_ns)
        return;
    if (output_write_rank(0) == 0)
        rp_fault_cnt.checkpoints++;
    else
        rp_fault_cnt.checkpoint_failures++;
    /* Count from the end of the write: a slow file system never turns
     * checkpoints into the main activity of the job. */
    g_last_write_ns = rp_now_ns();
}

void rp_fault_save(const char *why)
{
    if (!rp_rt.active)
        return;
    if (output_write_rank(0) != 0)
        rp_warn(1, "%s: could not save this rank's profile", why);
}

RP_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    if (rp_active()) {
        rp_enter(RP_FN_MPI_Abort);
        rp_fault_save("MPI_Abort");
    }
    return PMPI_Abort(comm, errorcode);
}

/* The Fortran binding, when the Fortran layer is built (lib/fortran.am):
 * mpi_abort_ & co. call this with the real binding found by rpf_real. */
#if defined(__has_include)
#if __has_include("gen_fortran.h")
#include "fortran.h"
#include "gen_fortran.h"
void rpf_MPI_Abort(int abi, MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierror)
{
    rpf_t_MPI_Abort *real = (rpf_t_MPI_Abort *)rpf_real(RP_FN_MPI_Abort, abi);
    if (rp_active()) {
        rp_enter(RP_FN_MPI_Abort);
        rp_fault_save("MPI_Abort");
    }
    real(comm, errorcode, ierror);
}
#endif
#endif
