/* sigwrap.h - the interposed sigaction()/signal() that keep SIGPROF ours
 * until the program asks for it (sigwrap.c). */
#ifndef RP_SIGWRAP_H
#define RP_SIGWRAP_H

#include <signal.h>
#include <stdint.h>

/* The real sigaction (libc's), for our own handlers. */
int  sigwrap_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
/* The sampler has installed its SIGPROF handler: from now on a program
 * that sets SIGPROF takes it over (sampling stops, once). */
void sigwrap_guard_sigprof(void);
/* 1 once the program took SIGPROF over. */
int  sigwrap_app_took_sigprof(void);
/* us during which the program kept SIGPROF from the sampler: blocked in the
 * thread that called MPI_Init (beyond one period per block), or ignored
 * (SIG_IGN); counter sigprof_blocked_us. */
uint64_t sigwrap_sigprof_blocked_us(void);
/* Say so on stderr, once, when that time is not 0 (every rank). */
void sigwrap_warn_blocked(void);

#endif
