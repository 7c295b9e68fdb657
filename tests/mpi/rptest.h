/* Helpers shared by the MPI test programs (tests/mpi_*.c).
 *
 *  - rpt_sleep_ms(): wall-clock "work" that holds its timing when ranks
 *    oversubscribe the cores and when SIGPROF sampling interrupts it
 *    (absolute-deadline clock_nanosleep, restarted on EINTR).
 *  - rpt_out()/rpt_flush(): deterministic output.  Each rank appends lines
 *    to a private buffer; rpt_flush() gathers the buffers to rank 0, which
 *    prints them in rank order with one write, so the byte stream does not
 *    depend on scheduling or on how mpirun forwards stdout.
 *  - rpt_hash(): FNV-1a checksum of received data.
 *  - RPT_CHECK(): a failed check prints to stderr and aborts the job, so a
 *    wrong result never looks like a pass.
 *  - rpt_mpi3_main(): the whole main of an MPI-4 test program under an
 *    MPI-3 library: one line saying what is missing.
 */
#ifndef RPTEST_H
#define RPTEST_H

#include <mpi.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline void rpt_sleep_ms(double ms)
{
    struct timespec t;
    long long ns;
    if (ms <= 0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &t);
    ns = (long long)(ms * 1e6);
    t.tv_sec += (time_t)(ns / 1000000000LL);
    t.tv_nsec += (long)(ns % 1000000000LL);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
        ;
}

static inline uint32_t rpt_hash(const void *p, size_t n)
{
    const unsigned char *c = (const unsigned char *)p;
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= c[i];
        h *= 16777619u;
    }
    return h;
}

static char *rpt_buf;
static size_t rpt_len, rpt_cap;

static void rpt_out(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void rpt_out(const char *fmt, ...)
{
    va_list ap;
    int n;
    for (;;) {
        size_t room = rpt_cap - rpt_len;
        va_start(ap, fmt);
        n = vsnprintf(rpt_buf ? rpt_buf + rpt_len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0)
            abort();
        if ((size_t)n < room) {
            rpt_len += (size_t)n;
            return;
        }
        rpt_cap = rpt_cap ? 2 * rpt_cap + (size_t)n : 4096 + (size_t)n;
        rpt_buf = (char *)realloc(rpt_buf, rpt_cap);
        if (!rpt_buf)
            abort();
    }
}

#define RPT_CHECK(cond)                                                         \
    do {                                                                        \
        if (!(cond)) {                                                          \
            int rpt_r_;                                                         \
            MPI_Comm_rank(MPI_COMM_WORLD, &rpt_r_);                             \
            fprintf(stderr, "rank %d: CHECK FAILED %s:%d: %s\n", rpt_r_,       \
                    __FILE__, __LINE__, #cond);                                 \
            fflush(stderr);                                                     \
            MPI_Abort(MPI_COMM_WORLD, 3);                                       \
        }                                                                       \
    } while (0)

/* Gather every rank's buffer to rank 0 and print it there, in rank order. */
static __attribute__((unused)) void rpt_flush(void)
{
    int me, np, i, len = (int)rpt_len, total = 0;
    int *lens = NULL, *displs = NULL;
    char *all = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (me == 0) {
        lens = (int *)calloc((size_t)np, sizeof *lens);
        displs = (int *)calloc((size_t)np, sizeof *displs);
        RPT_CHECK(lens && displs);
    }
    MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) {
        for (i = 0; i < np; i++) {
            displs[i] = total;
            total += lens[i];
        }
        all = (char *)malloc((size_t)total + 1);
        RPT_CHECK(all);
    }
    MPI_Gatherv(rpt_buf ? rpt_buf : "", len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0,
                MPI_COMM_WORLD);
    if (me == 0) {
        fwrite(all, 1, (size_t)total, stdout);
        fflush(stdout);
        free(all);
        free(lens);
        free(displs);
    }
    free(rpt_buf);
    rpt_buf = NULL;
    rpt_len = rpt_cap = 0;
}

/* The main of an MPI-4 test program (prog) under an MPI-3 library: rank 0
 * says the library lacks `what`; the test scripts compare only that. */
static int rpt_mpi3_main(int argc, char **argv, const char *prog, const char *what)
    __attribute__((unused));
static int rpt_mpi3_main(int argc, char **argv, const char *prog, const char *what)
{
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        printf("%s: MPI_VERSION %d < 4, no %s\n", prog, MPI_VERSION, what);
    MPI_Finalize();
    return 0;
}

#endif
