/* unwind.c - the sampler's stack walking (SPEC section 3): which code is
 * MPI's or rpprof's own (executable ranges found once at start), a fault
 * guard around libunwind (a corrupt stack ends the sample, not the job),
 * and the async-signal-safe unwind of an interrupted context.  Split out of
 * sample.c; the counters it bumps are the sampler's (rp_sample_cnt).
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <dlfcn.h>
#include <link.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "core/tls.h"
#include "sampler/sample.h"
#include "sampler/unwind.h"

#define barrier() __asm__ __volatile__("" ::: "memory")

/* rpprof's own executable text (empty when linked into the main program). */
static uintptr_t g_self_lo, g_self_hi;

/* Executable ranges of MPI-stack libraries, found at start. */
#define RP_MAX_MPI_RANGES 128
static struct { uintptr_t lo, hi; } g_mpi_rng[RP_MAX_MPI_RANGES];
static int g_n_mpi_rng;


/* Unwind fault guard. */
static __thread volatile sig_atomic_t g_in_unwind
    RP_TLS_IE;
/* Per thread: worker threads unwind in their own handlers concurrently. */
static __thread sigjmp_buf g_unwind_jmp RP_TLS_IE;
static struct sigaction g_old_segv, g_old_bus;


void sample_set_self_range(uintptr_t lo, uintptr_t hi)
{
    g_self_lo = lo;
    g_self_hi = hi;
}

static inline int in_self(uintptr_t pc) { return pc >= g_self_lo && pc < g_self_hi; }

static inline int in_mpi_lib(uintptr_t pc)
{
    for (int i = 0; i < g_n_mpi_rng; i++)
        if (pc >= g_mpi_rng[i].lo && pc < g_mpi_rng[i].hi)
            return 1;
    return 0;
}

/* ---- module ranges (start time, normal context) ------------------------- */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Libraries whose frames are "inside MPI" when they sit at the leaf end of
 * an MPI sample (Open MPI, MPICH and their transports). */
static int is_mpi_lib_name(const char *path)
{
    static const char *const pfx[] = {
        "libmpi", "libopen-pal", "libopen-rte", "libopen-orted", "libpmix",
        "libpmi", "mca_", "libmca_", "libucp", "libucs", "libuct", "libucm",
        "libfabric", "libpsm", "libhcoll", "libmpich", "libmpl", "libhwloc",
        "libevent", "libibverbs", "librdmacm", "libxpmem", "libknem",
        "libcuda", "libnccl", "libze_", NULL
    };
    const char *b = base_name(path);
    for (int i = 0; pfx[i]; i++)
        if (strncmp(b, pfx[i], strlen(pfx[i])) == 0)
            return 1;
    return 0;
}

int sample_is_mpi_lib(const char *path) { return is_mpi_lib_name(path); }

void sample_warm_thread(void)
{
    /* libunwind's per-thread cache and lazy set-up, outside any handler */
    void *buf[64];
    (void)unw_backtrace(buf, 64);
}

static int ranges_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t self_pc = (uintptr_t)data;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    int contains_self = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr, b = a + ph->p_memsz;
        if (a < lo) lo = a;
        if (b > hi) hi = b;
        if (self_pc >= a && self_pc < b)
            contains_self = 1;
    }
    if (hi == 0)
        return 0;
    if (contains_self) {
        /* The sampler linked into the main program (tests, benchmarks):
         * never strip the program's own frames. */
        if (name[0] != '\0') {
            g_self_lo = lo;
            g_self_hi = hi;
        }
    } else if (name[0] && is_mpi_lib_name(name) && g_n_mpi_rng < RP_MAX_MPI_RANGES) {
        g_mpi_rng[g_n_mpi_rng].lo = lo;
        g_mpi_rng[g_n_mpi_rng].hi = hi;
        g_n_mpi_rng++;
    }
    return 0;
}

void unwind_find_ranges(void)
{
    g_n_mpi_rng = 0;
    dl_iterate_phdr(ranges_cb, (void *)(uintptr_t)&unwind_find_ranges);
}

/* ---- unwinding ------------------------------------------------------------ */

/* SIGSEGV/SIGBUS during our unwind: jump back into the SIGPROF handler.
 * Anything else is handed to whoever had the signal before us.  The guard
 * is installed once, at sample_start: installing it around every unwind
 * would cost four sigaction calls (~1.1 us here) per sample. */
static int g_guard_on;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    if (g_in_unwind) {
        g_in_unwind = 0;
        siglongjmp(g_unwind_jmp, 1);
    }
    struct sigaction *old = sig == SIGBUS ? &g_old_bus : &g_old_segv;
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, si, uc);
    } else if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL &&
               old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    } else {
        /* Give the signal back its old action; the faulting instruction is
         * re-executed and the fault takes its default course (core dump
         * with the right state). */
        sigaction(sig, old, NULL);
    }
}

void unwind_guard_install(void)
{
    if (g_guard_on)
        return;
    struct sigaction sa, cur;
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        int sig = k ? SIGBUS : SIGSEGV;
        struct sigaction *old = k ? &g_old_bus : &g_old_segv;
        if (sigaction(sig, NULL, &cur) != 0) {
            ok = 0;
            continue;
        }
        *old = cur;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fault;
        /* keep an alternate signal stack if the program asked for one */
        sa.sa_flags = SA_SIGINFO | (cur.sa_flags & SA_ONSTACK);
        sigemptyset(&sa.sa_mask);
        if (sigaction(sig, &sa, NULL) != 0)
            ok = 0;
    }
    g_guard_on = ok;
}

void unwind_guard_remove(void)
{
    struct sigaction cur;
    for (int k = 0; k < 2; k++) {
        int sig = k ? SIGBUS : SIGSEGV;
        if (sigaction(sig, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == on_fault)
            sigaction(sig, k ? &g_old_bus : &g_old_segv, NULL);
    }
    g_guard_on = 0;
}

/* Unwind the interrupted context into out[] (leaf first).  The frames of
 * the handler and the signal trampoline are dropped by locating the
 * interrupted PC; out[0] is that PC (exact), the rest return addresses.
 * Returns the number of frames (>= 1 when uc gives a PC). */
int unwind_take_stack(const ucontext_t *uc, uintptr_t *out)
{
    enum { CAP = RP_SAMPLE_MAX_DEPTH + RP_SAMPLE_MAX_SKIP };
    void *buf[CAP];
    volatile int n = 0;
    if (sigsetjmp(g_unwind_jmp, 0) == 0) {
        g_in_unwind = 1;
        barrier();
        n = unw_backtrace(buf, CAP);
        barrier();
        g_in_unwind = 0;
    } else {
        /* Faulted part-way (rare): the fault signal is still blocked in
         * this frame; unblock it for the rest of the handler. */
        sigset_t ss;
        sigemptyset(&ss);
        sigaddset(&ss, SIGSEGV);
        sigaddset(&ss, SIGBUS);
        sigprocmask(SIG_UNBLOCK, &ss, NULL);
        n = -1;
    }

    uintptr_t rip = 0;
#if defined(__x86_64__)
    if (uc)
        rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    if (uc)
        rip = (uintptr_t)uc->uc_mcontext.pc;
#endif
    int start = -1;
    if (n > 0 && rip) {
        int lim = n < RP_SAMPLE_MAX_SKIP ? n : RP_SAMPLE_MAX_SKIP;
        for (int i = 0; i < lim; i++)
            if ((uintptr_t)buf[i] == rip) {
                start = i;
                break;
            }
    }
    if (start < 0) {
        /* Lost the interrupted frame (or faulted): keep the exact leaf. */
        __atomic_fetch_add(&rp_sample_cnt.unwind_failures, 1, __ATOMIC_RELAXED);
        if (!rip)
            return 0;
        out[0] = rip;
        return 1;
    }
    int m = n - start;
    if (n == CAP)
        __atomic_fetch_add(&rp_sample_cnt.stacks_truncated, 1, __ATOMIC_RELAXED);
    if (m > RP_SAMPLE_MAX_DEPTH)
        m = RP_SAMPLE_MAX_DEPTH;
    for (int i = 0; i < m; i++)
        out[i] = (uintptr_t)buf[start + i];
    /* libunwind may report a final 0 (end of chain): drop it. */
    while (m > 1 && out[m - 1] == 0)
        m--;
    return m;
}

/* Index of the first frame (leaf first) that is user code in an MPI sample:
 * everything up to and including the outermost frame in rpprof's text,
 * then any further MPI-library frames (e.g. Fortran bindings calling our C
 * wrappers).  Without an rpprof frame, strip leading MPI-library frames. */
int unwind_mpi_user_start(const uintptr_t *pcs, int n)
{
    int cut = -1;
    if (g_self_hi > g_self_lo)
        for (int i = 0; i < n; i++)
            if (in_self(pcs[i]))
                cut = i;
    while (cut + 1 < n && in_mpi_lib(pcs[cut + 1]))
        cut++;
    return cut + 1;
}

