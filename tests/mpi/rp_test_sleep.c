/* rp_test_sleep.c - wall-clock "work" for the Fortran test programs
 * (tests/mpi_ring_f*.f*), the same as rpt_sleep_ms() in tests/mpi/rptest.h:
 * an absolute-deadline clock_nanosleep, restarted when SIGPROF sampling
 * interrupts it, so the work holds its length on an oversubscribed machine.
 *
 *     call rp_test_sleep(seconds)      ! double precision, any Fortran
 */
#include <errno.h>
#include <time.h>

void rp_test_sleep_(const double *seconds);

void rp_test_sleep_(const double *seconds)
{
    struct timespec t;
    long long ns;
    if (*seconds <= 0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &t);
    ns = (long long)(*seconds * 1e9);
    t.tv_sec += (time_t)(ns / 1000000000LL);
    t.tv_nsec += (long)(ns % 1000000000LL);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
        ;
}
