/* bench/apps/common.h - shared by the proxy applications (stencil.c, cg.c,
 * wavefront.c): options, the calibrated compute loop, nanosleep work, and
 * the summary line.  See doc/performance.md.
 *
 * Options every C app takes:
 *   --iters N      fixed iteration count (never adapted to speed)
 *   --work-us W    work before every MPI event: W microseconds of the
 *                  calibrated loop (default 0: only the app's own arithmetic)
 *   --sleep        do the work with nanosleep(W us) instead of computing
 *                  (oversubscribed runs: sleeping ranks leave the cores free)
 *   --cal X        loop iterations per microsecond (from --calibrate); without
 *                  it every rank calibrates itself before MPI_Init
 *   --n N          size of the app's own arrays (default 32)
 *   --calibrate    print the loop's iterations per microsecond and exit
 *                  (no MPI; run the binary directly)
 *
 * Rank 0 prints two lines on stdout:
 *   checksum <app> <value>     identical with and without a profiler
 *   stats app=.. ranks=.. iters=.. loop_s=.. calls=.. events=..
 *         calls_per_rank_s=.. events_per_rank_s=.. work_us=.. sleep=0|1
 * "calls" counts every MPI call the timed loop makes (Irecv posting too);
 * "events" only the communicating ones (SPEC section 1).  loop_s is the
 * slowest rank's time from the barrier after MPI_Init to the end of the
 * last iteration. */
#ifndef BENCH_APPS_COMMON_H
#define BENCH_APPS_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

typedef struct app_opts {
    long iters;
    double work_us;
    int sleep;
    double cal; /* loop iterations per microsecond */
    int n;
} app_opts;

static app_opts opt = {100, 0.0, 0, 0.0, 32};
static long n_calls, n_events; /* MPI calls / events made by the timed loop */
volatile uint64_t app_sink;    /* keeps the work loop alive; not in checksums */

static double app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The compute loop: a dependent multiply-add chain (about 4 cycles an
 * iteration), so its speed does not depend on caches or vector units. */
__attribute__((noinline)) static uint64_t spin_loop(uint64_t n, uint64_t x)
{
    for (uint64_t i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

/* Iterations per microsecond: the best of several 20 ms trials (the fastest
 * is the one least disturbed by other jobs). */
static double calibrate(void)
{
    uint64_t n = 1000;
    double best = 0;
    for (;;) { /* grow n until one trial takes >= 20 ms */
        double t0 = app_now();
        app_sink ^= spin_loop(n, 1);
        double t = app_now() - t0;
        if (t >= 0.02) {
            best = n / (t * 1e6);
            break;
        }
        n *= 2;
    }
    for (int trial = 0; trial < 9; trial++) {
        double t0 = app_now();
        app_sink ^= spin_loop(n, trial);
        double t = app_now() - t0;
        if (n / (t * 1e6) > best)
            best = n / (t * 1e6);
    }
    return best;
}

/* The work done before every MPI event. */
static void work(void)
{
    if (opt.work_us <= 0)
        return;
    if (opt.sleep) {
        struct timespec req, rem;
        long ns = (long)(opt.work_us * 1000.0);
        req.tv_sec = ns / 1000000000L;
        req.tv_nsec = ns % 1000000000L;
        while (nanosleep(&req, &rem) != 0 && errno == EINTR)
            req = rem;
    } else {
        app_sink ^= spin_loop((uint64_t)(opt.work_us * opt.cal), app_sink);
    }
}

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [--iters N] [--work-us W] [--sleep] [--cal X] [--n N] | --calibrate\n",
            prog);
    exit(2);
}

/* Parses the options; --calibrate prints and exits before MPI_Init. */
static void app_parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--calibrate")) {
            printf("%.3f\n", calibrate());
            exit(0);
        } else if (!strcmp(a, "--sleep")) {
            opt.sleep = 1;
        } else if (!strcmp(a, "--iters") && v) {
            opt.iters = atol(v), i++;
        } else if (!strcmp(a, "--work-us") && v) {
            opt.work_us = atof(v), i++;
        } else if (!strcmp(a, "--cal") && v) {
            opt.cal = atof(v), i++;
        } else if (!strcmp(a, "--n") && v) {
            opt.n = atoi(v), i++;
        } else {
            usage(argv[0]);
        }
    }
    if (opt.iters < 1 || opt.n < 1 || opt.work_us < 0)
        usage(argv[0]);
    if (opt.sleep)
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); /* 1 ns instead of 50 us */
    else if (opt.work_us > 0 && opt.cal <= 0)
        opt.cal = calibrate();
}

/* Counting wrappers the apps call instead of MPI directly (EV: an event). */
#define CALL(x) (n_calls++, (x))
#define EV(x) (n_calls++, n_events++, (x))

/* Prints the checksum and the stats line (rank 0); collective. */
static void app_report(const char *app, double checksum, double t_loop, MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double tmax;
    long cnt[2] = {n_calls, n_events}, tot[2];
    MPI_Reduce(&t_loop, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    MPI_Reduce(cnt, tot, 2, MPI_LONG, MPI_SUM, 0, comm);
    if (rank == 0) {
        printf("checksum %s %.15e\n", app, checksum);
        printf("stats app=%s ranks=%d iters=%ld loop_s=%.6f calls=%ld events=%ld "
               "calls_per_rank_s=%.0f events_per_rank_s=%.0f work_us=%g sleep=%d\n",
               app, size, opt.iters, tmax, tot[0], tot[1], tot[0] / (size * tmax),
               tot[1] / (size * tmax), opt.work_us, opt.sleep);
        fflush(stdout);
    }
}

#endif
