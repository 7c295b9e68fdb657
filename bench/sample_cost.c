/* sample_cost.c - what one sample costs, against the floor in the same run.
 *
 * A CPU-bound loop runs at call depth ~20 for a fixed amount of work under
 * each configuration, interleaved, `reps` times:
 *   none      no timer
 *   empty     timer_create(CLOCK_MONOTONIC, SIGEV_THREAD_ID) + empty handler
 *             (the cost of signal delivery alone)
 *   bare      same timer + a handler that only calls unw_backtrace
 *             (the floor of any sampler of this design)
 *   full      rpprof's sampler (sample_start: unwind, CCT insert, item push,
 *             path-summary extension), task time
 *   full-mpi  the same with in_mpi > 0 (MPI samples: strip + pseudo-frame)
 *   full-cpu  rpprof's sampler on the CPU-time clock
 * Per-sample cost = (T_config - T_none of the same repeat) / signals taken,
 * from wall time and from the thread's CPU time (which includes the kernel's
 * signal delivery but not time lost to other processes on a shared
 * machine); the median over repeats is printed, with the time measured
 * inside the handler body where we can see it.
 *
 * Usage: sample_cost_bin [seconds-per-run (3)] [repeats (5)] [period-us (1000)]
 * Built by `make check` (bench/sample_cost_bin); doc/sampling.md has results. */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/itembuf.h"
#include "core/pathset.h"
#include "format/rpfile.h"
#include "runtime/runtime.h"
#include "sampler/sample.h"

#ifndef RP_SAMPLE_TIMING
#error "build with -DRP_SAMPLE_TIMING (sample.c too)"
#endif
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* ---- stub runtime ------------------------------------------------------------ */
rp_runtime rp_rt;
int64_t rp_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
const char *rp_fn_name(int fn) { return fn == 0 ? "MPI_Barrier" : "?"; }
int rp_fn_count(void) { return 1; }
void rp_warn(int all_ranks, const char *fmt, ...)
{
    (void)all_ranks;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- workload ------------------------------------------------------------------ */
static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t leaf(uint64_t iters)
{
    uint64_t x = 88172645463325252ull, h = 0;
    for (uint64_t i = 0; i < iters; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        h += x * 0x9E3779B97F4A7C15ull;
    }
    return h;
}

__attribute__((noinline)) static uint64_t rec(int depth, uint64_t iters)
{
    if (depth == 0)
        return leaf(iters);
    uint64_t r = rec(depth - 1, iters);
    __asm__ __volatile__("" ::: "memory");
    return r + (uint64_t)depth;
}

/* Many short visits to the leaf so stacks and leaf PCs vary a little. */
__attribute__((noinline)) static void work(uint64_t total_iters)
{
    const uint64_t chunk = 20000;
    for (uint64_t done = 0; done < total_iters; done += chunk)
        sink += rec(18, chunk);
}

/* ---- bare handlers ------------------------------------------------------------- */
static volatile uint64_t n_sig;
static int64_t bare_ns;
static uint64_t bare_frames;

static void h_empty(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)si; (void)uc;
    n_sig++;
}

static void h_bare(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)si; (void)uc;
    int e = errno;
    int64_t t = rp_now_ns();
    void *buf[280];
    int n = unw_backtrace(buf, 280);
    bare_frames += (uint64_t)(n > 0 ? n : 0);
    n_sig++;
    bare_ns += rp_now_ns() - t;
    errno = e;
}

static timer_t bare_timer;
static void bare_on(void (*h)(int, siginfo_t *, void *), long period_us)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = h;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_notify_thread_id = gettid();
    if (timer_create(CLOCK_MONOTONIC, &sev, &bare_timer) != 0) {
        perror("timer_create");
        exit(1);
    }
    struct itimerspec its = { { period_us / 1000000, (period_us % 1000000) * 1000 },
                              { period_us / 1000000, (period_us % 1000000) * 1000 } };
    timer_settime(bare_timer, 0, &its, NULL);
}
static void bare_off(void)
{
    timer_delete(bare_timer);
    signal(SIGPROF, SIG_IGN);   /* drop a pending one; sample_start accepts SIG_IGN */
}

/* ---- driver ---------------------------------------------------------------------- */
enum { M_NONE, M_EMPTY, M_BARE, M_FULL, M_FULL_MPI, M_FULL_CPU, M__N };
static const char *const mname[M__N] = { "none", "empty", "bare", "full", "full-mpi",
                                          "full-cpu" };

typedef struct result {
    double secs;       /* run time (wall) */
    double cpu;        /* run time (this thread's CPU time: robust to other load) */
    double sigs;       /* signals taken */
    double handler_us; /* mean time inside the handler body, where known */
    double frames;     /* mean frames from unw_backtrace (bare) */
} result;

static result run_one(int m, uint64_t iters, long period_us)
{
    result r = { 0, 0, 0, 0, 0 };
    uint64_t sig0 = 0;
    int64_t h0 = 0;
    uint64_t hn0 = 0;
    n_sig = 0;
    bare_ns = 0;
    bare_frames = 0;
    switch (m) {
    case M_EMPTY: bare_on(h_empty, period_us); break;
    case M_BARE: bare_on(h_bare, period_us); break;
    case M_FULL: case M_FULL_MPI: case M_FULL_CPU:
        itembuf_reset(&rp_rt.items);
        pathset_reset(&rp_rt.ps);
        rp_rt.cfg.period_us = (uint32_t)period_us;
        rp_rt.cfg.clock = m == M_FULL_CPU ? RP_CLOCK_CPU : RP_CLOCK_WALL;
        rp_rt.in_mpi = m == M_FULL_MPI ? 1 : 0;
        rp_rt.mpi_enter_ns = rp_now_ns();
        rp_rt.task_start_ns = rp_now_ns();
        sig0 = rp_sample_cnt.samples;
        h0 = rp_sample_handler_ns;
        hn0 = rp_sample_handler_n;
        if (sample_start(&rp_rt, rp_fn_name, rp_fn_count()) != 0) {
            fprintf(stderr, "sample_start failed\n");
            exit(1);
        }
        break;
    default: break;
    }
    struct timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    int64_t t0 = rp_now_ns();
    work(iters);
    int64_t t1 = rp_now_ns();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    r.cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
    switch (m) {
    case M_EMPTY: case M_BARE:
        bare_off();
        r.sigs = (double)n_sig;
        if (m == M_BARE && n_sig) {
            r.handler_us = (double)bare_ns / 1e3 / (double)n_sig;
            r.frames = (double)bare_frames / (double)n_sig;
        }
        break;
    case M_FULL: case M_FULL_MPI: case M_FULL_CPU:
        sample_stop();
        r.sigs = (double)(rp_sample_cnt.samples - sig0);
        if (rp_sample_handler_n > hn0)
            r.handler_us = (double)(rp_sample_handler_ns - h0) / 1e3 /
                           (double)(rp_sample_handler_n - hn0);
        rp_rt.in_mpi = 0;
        break;
    default: break;
    }
    r.secs = (double)(t1 - t0) / 1e9;
    return r;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 3.0;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    long period_us = argc > 3 ? atol(argv[3]) : 1000;
    if (secs <= 0 || reps < 1 || reps > 99 || period_us < 10) {
        fprintf(stderr, "usage: %s [seconds] [repeats] [period-us]\n", argv[0]);
        return 2;
    }

    memset(&rp_rt, 0, sizeof rp_rt);
    rp_rt.cfg.k = 5;
    rp_rt.cfg.buffer = 65536;
    rp_rt.cfg.mode = RP_MODE_PROF;
    rp_rt.rng = 1;
    if (itembuf_init(&rp_rt.items, 65535) != 0 || pathset_init(&rp_rt.ps, 5, 32) != 0)
        return 1;
    pathset_reset(&rp_rt.ps);
    rp_rt.active = 1;

    /* calibrate: iterations for `secs` seconds without a timer */
    uint64_t it = 1000000;
    for (;;) {
        int64_t a = rp_now_ns();
        work(it);
        double dt = (double)(rp_now_ns() - a) / 1e9;
        if (dt > 0.2) {
            it = (uint64_t)((double)it * secs / dt);
            break;
        }
        it *= 4;
    }

    result res[M__N][100];
    for (int r = 0; r < reps; r++)
        for (int m = 0; m < M__N; m++) {
            int mm = (m + r) % M__N;   /* rotate the order every repeat */
            res[mm][r] = run_one(mm, it, period_us);
        }

    printf("period %ld us, %.1f s per run, %d interleaved repeats, medians\n",
           period_us, secs, reps);
    printf("%-9s %7s %7s %8s | %9s %9s | %9s %9s | %10s\n", "config", "wall s",
           "cpu s", "signals", "wall ovh%", "us/sample", "cpu ovh%", "us/sample",
           "in handler");
    for (int m = 0; m < M__N; m++) {
        double t[100], u[100], s[100], c[100], o[100], h[100], oc[100], cc[100];
        for (int r = 0; r < reps; r++) {
            t[r] = res[m][r].secs;
            u[r] = res[m][r].cpu;
            oc[r] = 100.0 * (res[m][r].cpu - res[M_NONE][r].cpu) / res[M_NONE][r].cpu;
            cc[r] = res[m][r].sigs > 0
                        ? (res[m][r].cpu - res[M_NONE][r].cpu) * 1e6 / res[m][r].sigs
                        : 0;
            s[r] = res[m][r].sigs;
            h[r] = res[m][r].handler_us;
            o[r] = 100.0 * (res[m][r].secs - res[M_NONE][r].secs) / res[M_NONE][r].secs;
            c[r] = res[m][r].sigs > 0
                       ? (res[m][r].secs - res[M_NONE][r].secs) * 1e6 / res[m][r].sigs
                       : 0;
        }
        double fr = res[m][0].frames;
        printf("%-9s %7.3f %7.3f %8.0f | %9.2f %9.2f | %9.2f %9.2f |", mname[m],
               median(t, reps), median(u, reps), median(s, reps),
               m ? median(o, reps) : 0.0, m ? median(c, reps) : 0.0,
               m ? median(oc, reps) : 0.0, m ? median(cc, reps) : 0.0);
        if (m == M_BARE || m >= M_FULL)
            printf(" %7.2f us", median(h, reps));
        if (m == M_BARE)
            printf("  (%.0f frames)", fr);
        printf("\n");
    }
    rp_cct *t = sample_cct();
    printf("cct nodes %u, unwind failures %llu, truncated %llu, overruns %llu\n",
           t ? cct_count(t) : 0, (unsigned long long)rp_sample_cnt.unwind_failures,
           (unsigned long long)rp_sample_cnt.stacks_truncated,
           (unsigned long long)rp_sample_cnt.timer_overruns);
    return 0;
}
