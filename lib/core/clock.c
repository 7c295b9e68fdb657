/* clock.c - rp_now_ns(): the runtime's nanosecond clock.
 *
 * Every MPI call reads the clock twice (task end on entry, task start on
 * return), so its cost is on the path of every message.  clock_gettime
 * through the vDSO costs ~24 ns on the machines of doc/performance.md, a
 * bare rdtsc ~10 ns.  Where the TSC is a sound time base -- x86-64, the
 * kernel itself keeps time with it (clocksource "tsc", which the kernel
 * only picks when the TSC is invariant and synchronised), and the CPU says
 * constant_tsc and nonstop_tsc -- we read the TSC and scale it; elsewhere,
 * or with RP_TSC=0 (lib/runtime/config.c), we call clock_gettime(CLOCK_MONOTONIC).
 *
 * Scaling: ns = base_ns + (tsc - base_tsc) * mult / 2^32.  The rate is
 * measured against CLOCK_MONOTONIC from library load to MPI_Init's return
 * (at least 2 ms) and then
 * re-measured over the whole run at phase ends (at most once a second),
 * re-anchoring base_ns
 * to CLOCK_MONOTONIC.  The re-anchoring happens inside an MPI call (the
 * phase-ending collective), between a task's end and the next task's start,
 * so a small step there lands in MPI time, never in a task's cost.
 *
 * The parameters live in two slots and readers pick the slot named by one
 * aligned index, written last: a SIGPROF handler interrupting an update (on
 * the same thread) or a worker thread reading concurrently always sees a
 * complete set.  Only the main thread updates (rp_clock_init/_rebase).
 */
#define _GNU_SOURCE
#include "core/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

typedef struct clock_params {
    uint64_t base_tsc;
    int64_t  base_ns;
    uint64_t mult;       /* ns per tick, 32.32 fixed point */
} clock_params;

/* Owned by the main thread (writer); read by anyone, see above. */
static clock_params g_slot[2];
static volatile int g_cur;          /* slot readers use */
static int      g_use_tsc;          /* 0: clock_gettime */
static uint64_t g_start_tsc;        /* calibration anchor (first reading) */
static int64_t  g_start_ns;

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#if defined(__x86_64__)
static inline uint64_t read_tsc(void) { return __rdtsc(); }
#else
static inline uint64_t read_tsc(void) { return 0; }
#endif

#ifdef RP_SMPI
/* Under SimGrid's SMPI the ranks are simulated: a task's cost and a
 * phase's time must be simulated time, not the host time of a sequential
 * simulation.  PMPI_Wtime (SMPI's, with --cfg=smpi/wtime:0 so that reading
 * it injects no sleep) first charges the host CPU time this rank used since
 * its last SMPI call as simulated computation (smpi/simulate-computation),
 * then reads the simulated clock; so the profiler's own work between two
 * MPI calls is charged to the rank too.  Before MPI_Init and after
 * MPI_Finalize it reads the clock alone.  Declared here, not through
 * mpi.h: core is MPI-free, and this is one symbol of the SMPI build. */
extern double PMPI_Wtime(void) __attribute__((weak));
int64_t rp_now_ns(void)
{
    /* Weak: the tools, which share core but not SMPI, keep the host clock. */
    return PMPI_Wtime ? (int64_t)(PMPI_Wtime() * 1e9) : mono_ns();
}
#else
int64_t rp_now_ns(void)
{
    if (!g_use_tsc)
        return mono_ns();
    const clock_params *p = &g_slot[g_cur];
    uint64_t d = read_tsc() - p->base_tsc;
    return p->base_ns + (int64_t)(((unsigned __int128)d * p->mult) >> 32);
}

#endif

int rp_clock_is_tsc(void) { return g_use_tsc; }

/* Does this machine keep time with an invariant TSC? */
static int tsc_usable(void)
{
#if !defined(__x86_64__)
    return 0;
#else
    char src[64] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f)
        return 0;
    int ok = fgets(src, sizeof src, f) != NULL;
    fclose(f);
    if (!ok || strncmp(src, "tsc", 3) != 0 || (src[3] != '\n' && src[3] != 0))
        return 0;
    f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int constant = 0, nonstop = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;    /* all CPUs report the same flags */
    }
    fclose(f);
    return constant && nonstop;
#endif
}

/* Publish new parameters: fill the slot readers are not using, then flip. */
static void publish(uint64_t tsc, int64_t ns, uint64_t mult)
{
    int next = !g_cur;
    g_slot[next].base_tsc = tsc;
    g_slot[next].base_ns = ns;
    g_slot[next].mult = mult;
    __atomic_store_n(&g_cur, next, __ATOMIC_RELEASE);
}

/* Rate over [g_start, now]; 0 if the span is too short to trust. */
static uint64_t rate_since_start(uint64_t tsc, int64_t ns)
{
    uint64_t dt = tsc - g_start_tsc;
    int64_t dn = ns - g_start_ns;
    if (dt == 0 || dn < 1000000)
        return 0;
    return (uint64_t)(((unsigned __int128)(uint64_t)dn << 32) / dt);
}

/* The first calibration reading, at load time: two register reads, no
 * files (this also runs in mpirun or a shell the library is preloaded
 * into, which must stay untouched).  MPI_Init then gives a long span. */
__attribute__((constructor)) static void clock_anchor(void)
{
    g_start_ns = mono_ns();
    g_start_tsc = read_tsc();
}

void rp_clock_init(int want_tsc)
{
#ifdef RP_SMPI
    want_tsc = 0;   /* the simulated clock only; no 2 ms calibration spin */
#endif
    if (!want_tsc || !tsc_usable())
        return;
    /* At least 2 ms of span for the first rate (MPI_Init usually gave
     * more): 2 ms against a ~30 ns read error is 1.5e-5. */
    int64_t ns;
    uint64_t tsc;
    do {
        ns = mono_ns();
        tsc = read_tsc();
    } while (ns - g_start_ns < 2000000);
    uint64_t mult = rate_since_start(tsc, ns);
    if (mult == 0)
        return;
    publish(tsc, ns, mult);
    g_use_tsc = 1;
}

void rp_clock_rebase(void)
{
    /* At most once a second: a phase can be a few microseconds long, and
     * the rate measured over the run only improves slowly. */
    if (!g_use_tsc || rp_now_ns() - g_slot[g_cur].base_ns < 1000000000LL)
        return;
    int64_t ns = mono_ns();
    uint64_t tsc = read_tsc();
    uint64_t mult = rate_since_start(tsc, ns);
    if (mult)
        publish(tsc, ns, mult);
}
