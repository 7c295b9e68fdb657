/* sleepwrap.c - keep sleeps whole under wall-clock sampling.
 *
 * SIGPROF from the wall-clock timer interrupts nanosleep, clock_nanosleep,
 * usleep and sleep (SA_RESTART does not apply to them: they return EINTR or
 * the time left), which would change what the profiled program does.  These
 * interposers forward to the real functions and, when a call was cut short
 * while our SIGPROF handler ran during it (rp_sample_sigcount changed) on
 * the thread our timer signals, sleep again until the original deadline.
 * Interruptions by other signals are returned to the caller as before.
 * When both our signal and another one land in the same sleep we cannot
 * tell them apart and resume (see doc/sampling.md).
 *
 * Deadlines are absolute (CLOCK_MONOTONIC, or the caller's clock for
 * clock_nanosleep), so repeated interruptions do not stretch the sleep.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampler/dlnext.h"
#include "sampler/sample.h"

#define RP_EXPORT_SYM __attribute__((visibility("default")))

typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *,
                                  struct timespec *);

static nanosleep_fn       real_nanosleep;
static clock_nanosleep_fn real_clock_nanosleep;

__attribute__((constructor)) static void sleepwrap_init(void)
{
    real_nanosleep = (nanosleep_fn)rp_dlnext("nanosleep");
    real_clock_nanosleep = (clock_nanosleep_fn)rp_dlnext("clock_nanosleep");
}

static int do_nanosleep(const struct timespec *req, struct timespec *rem)
{
    if (real_nanosleep)
        return real_nanosleep(req, rem);
    return (int)syscall(SYS_nanosleep, req, rem);
}

/* Returns an error number, like clock_nanosleep itself. */
static int do_clock_nanosleep(clockid_t c, int flags, const struct timespec *req,
                              struct timespec *rem)
{
    if (real_clock_nanosleep)
        return real_clock_nanosleep(c, flags, req, rem);
    long r = syscall(SYS_clock_nanosleep, c, flags, req, rem);
    return r == 0 ? 0 : errno;
}

static int on_sampled_thread(void)
{
    pid_t t = sample_main_tid();
    return t != 0 && t == gettid();
}

static void ts_add(struct timespec *a, const struct timespec *b)
{
    a->tv_sec += b->tv_sec;
    a->tv_nsec += b->tv_nsec;
    if (a->tv_nsec >= 1000000000L) {
        a->tv_nsec -= 1000000000L;
        a->tv_sec++;
    }
}

/* b - a, clamped at 0 */
static struct timespec ts_left(const struct timespec *deadline, const struct timespec *now)
{
    struct timespec r = { 0, 0 };
    if (now->tv_sec > deadline->tv_sec ||
        (now->tv_sec == deadline->tv_sec && now->tv_nsec >= deadline->tv_nsec))
        return r;
    r.tv_sec = deadline->tv_sec - now->tv_sec;
    r.tv_nsec = deadline->tv_nsec - now->tv_nsec;
    if (r.tv_nsec < 0) {
        r.tv_nsec += 1000000000L;
        r.tv_sec--;
    }
    return r;
}

/* Sleep until `deadline` on `clk` (absolute), resuming after our signals.
 * First attempt already made by the caller.  Returns 0 or an errno value;
 * on EINTR by someone else, *rem (if given) is the time left. */
static int resume_until(clockid_t clk, const struct timespec *deadline,
                        struct timespec *rem)
{
    for (;;) {
        uint32_t before = rp_sample_sigcount;
        int e = do_clock_nanosleep(clk, TIMER_ABSTIME, deadline, NULL);
        if (e != EINTR)
            return e;
        if (rp_sample_sigcount != before)
            continue;   /* ours again */
        if (rem) {
            struct timespec now;
            clock_gettime(clk, &now);
            *rem = ts_left(deadline, &now);
        }
        return EINTR;
    }
}

static int nanosleep_impl(const struct timespec *req, struct timespec *rem)
{
    struct timespec start;
    int have_start = 0;
    if (req && req->tv_nsec >= 0 && req->tv_nsec < 1000000000L && req->tv_sec >= 0)
        have_start = clock_gettime(CLOCK_MONOTONIC, &start) == 0;
    uint32_t before = rp_sample_sigcount;
    struct timespec left;
    int rc = do_nanosleep(req, &left);
    if (rc == 0 || errno != EINTR)
        return rc;
    if (rp_sample_sigcount == before || !have_start || !on_sampled_thread()) {
        if (rem)
            *rem = left;
        errno = EINTR;
        return -1;
    }
    /* Linux measures nanosleep on CLOCK_MONOTONIC. */
    struct timespec deadline = start;
    ts_add(&deadline, req);
    int e = resume_until(CLOCK_MONOTONIC, &deadline, rem);
    if (e == 0)
        return 0;
    errno = e;
    return -1;
}

RP_EXPORT_SYM int nanosleep(const struct timespec *req, struct timespec *rem)
{
    return nanosleep_impl(req, rem);
}

RP_EXPORT_SYM int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
                                  struct timespec *rem)
{
    struct timespec start;
    int rel = !(flags & TIMER_ABSTIME);
    int have_start = 0;
    if (rel && req && req->tv_nsec >= 0 && req->tv_nsec < 1000000000L && req->tv_sec >= 0)
        have_start = clock_gettime(clk, &start) == 0;
    uint32_t before = rp_sample_sigcount;
    struct timespec left;
    int e = do_clock_nanosleep(clk, flags, req, rel ? &left : NULL);
    if (e != EINTR)
        return e;
    if (rp_sample_sigcount == before || !on_sampled_thread() || (rel && !have_start)) {
        if (rel && rem)
            *rem = left;
        return EINTR;
    }
    if (!rel)
        return resume_until(clk, req, NULL);
    struct timespec deadline = start;
    ts_add(&deadline, req);
    e = resume_until(clk, &deadline, rem);
    if (e == EINVAL) {
        /* A clock without absolute sleeps: continue relatively. */
        struct timespec r = left;
        for (;;) {
            before = rp_sample_sigcount;
            e = do_clock_nanosleep(clk, 0, &r, &left);
            if (e != EINTR || rp_sample_sigcount == before)
                break;
            r = left;
        }
        if (e == EINTR && rem)
            *rem = left;
    }
    return e;
}

RP_EXPORT_SYM int usleep(useconds_t usec)
{
    struct timespec ts = { (time_t)(usec / 1000000u), (long)(usec % 1000000u) * 1000L };
    return nanosleep_impl(&ts, NULL);
}

RP_EXPORT_SYM unsigned int sleep(unsigned int seconds)
{
    struct timespec ts = { (time_t)seconds, 0 }, rem = { 0, 0 };
    int saved = errno;
    if (nanosleep_impl(&ts, &rem) < 0) {
        if (errno != EINTR)
            return seconds;   /* cannot happen for valid input */
        /* glibc rounds the unslept time to the nearest second */
        return (unsigned int)rem.tv_sec + (rem.tv_nsec >= 500000000L);
    }
    errno = saved;
    return 0;
}
