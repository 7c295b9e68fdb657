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
#include "runtime/runtime.h"
#include "sampler/sample.h"
#include "core/config.h"
#include "runtime/fault.h"
#include "runtime/output.h"
#include "sampler/sigwrap.h"
#include "runtime/runtime_int.h"

rp_fault_counters rp_fault_cnt;


static int64_t g_ckpt_ns;          /* 0 = checkpoints off */
static int64_t g_last_write_ns;

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
    /* rpenc_write_file's temporary name (lib/format/rpenc.c) */
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
        sigwrap_real_sigaction(sig, old, NULL);
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
        if (sigwrap_real_sigaction(sig, NULL, old) != 0)
            continue;
        /* A program that ignores the signal, or handles it itself, keeps it
         * exactly as it was: we only step in front of the default action. */
        if ((old->sa_flags & SA_SIGINFO) || old->sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_term;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigwrap_real_sigaction(sig, &sa, NULL);
    }
    g_term_installed = 1;
}

/* ---- checkpoints and aborts ------------------------------------------------ */

void rp_fault_start(void)
{
    uint32_t secs = rp_rt.cfg.checkpoint_s;
    g_ckpt_ns = (int64_t)secs * 1000000000LL;
    g_last_write_ns = rp_now_ns();
    rp_rt.phase_start_ns = g_last_write_ns;
    rp_rt.ckpt_due_ns = g_ckpt_ns ? g_last_write_ns + g_ckpt_ns : 0;

    /* Who owns SIGPROF now?  If the sampler started, its handler. */
    if (rp_rt.cfg.period_us)
        sigwrap_guard_sigprof();
    if (!g_term_installed)
        install_term();
}

static void checkpoint(void)
{
    if (output_write_rank(0) == 0)
        rp_fault_cnt.checkpoints++;
    else
        rp_fault_cnt.checkpoint_failures++;
    /* Count from the end of the write: a slow file system never turns
     * checkpoints into the main activity of the job. */
    g_last_write_ns = rp_now_ns();
    rp_rt.ckpt_due_ns = g_last_write_ns + g_ckpt_ns;
}

void rp_fault_phase_end(void)
{
    int64_t now = rp_now_ns();
    rp_rt.phase_start_ns = now;
    if (!g_ckpt_ns || rp_rt.finalize_ns || !rp_rt.active)
        return;
    if (now - g_last_write_ns < g_ckpt_ns) {
        rp_rt.ckpt_due_ns = g_last_write_ns + g_ckpt_ns;
        return;
    }
    checkpoint();
}

void rp_fault_tick(int64_t now)
{
    if (!g_ckpt_ns || rp_rt.finalize_ns || !rp_rt.active || !rp_tls_main) {
        /* another thread's call, or shutting down: the main thread's next
         * event retries (never write from two threads) */
        if (!g_ckpt_ns || rp_rt.finalize_ns)
            rp_rt.ckpt_due_ns = 0;
        return;
    }
    if (now - g_last_write_ns < g_ckpt_ns) {
        rp_rt.ckpt_due_ns = g_last_write_ns + g_ckpt_ns;
        return;
    }
    checkpoint();
}

void rp_fault_save(const char *why)
{
    if (!rp_rt.active)
        return;
    if (output_write_rank(0) != 0)
        rp_warn(1, "%s: could not save this rank's profile", why);
}
