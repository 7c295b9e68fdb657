/* mpi_hostile - an application that does what profilers dislike
 * (tests/robust/test_hostile.sh).
 *
 *   mpi_hostile sigaction|signal   installs its own SIGPROF handler after
 *                                  MPI_Init and profiles itself with
 *                                  setitimer(ITIMER_PROF, 20 ms) for 300 ms of
 *                                  CPU: it must get its ~15 signals, no more
 *                                  (our sampler must stop), and see SIG_DFL as
 *                                  the disposition it replaced
 *   mpi_hostile fork               fork()s children that exit() / _exit(), and
 *                                  calls system() and popen() on every rank
 *   mpi_hostile initialized        MPI_Initialized / MPI_Finalized before
 *                                  MPI_Init and after MPI_Finalize
 * Output (rank 0, deterministic) is the same with and without rpprof. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../mpi/rptest.h"

static volatile sig_atomic_t hits;
static void on_prof(int sig) { (void)sig; hits++; }
static void on_prof_info(int sig, siginfo_t *si, void *uc) { (void)si; (void)uc; (void)sig; hits++; }

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int own_sigprof(int use_signal)
{
    int old_dfl;
    if (use_signal) {
        sighandler_t o = signal(SIGPROF, on_prof);
        old_dfl = o == SIG_DFL;
    } else {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_prof_info;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGPROF, &sa, &old);
        old_dfl = !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL;
    }
    struct itimerval it = { { 0, 20000 }, { 0, 20000 } }, off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_PROF, &it, NULL);
    double t0 = cpu_s();
    volatile double x = 0;
    while (cpu_s() - t0 < 0.3)
        for (int i = 0; i < 10000; i++)
            x += i * 0.5;
    setitimer(ITIMER_PROF, &off, NULL);
    /* 300 ms / 20 ms = 15 ticks; rpprof's 1 kHz timer would add ~300 */
    int ok = hits >= 3 && hits <= 40 && old_dfl;
    if (!ok)
        fprintf(stderr, "mpi_hostile: SIGPROF hits %d (expected 3..40), old disposition %s\n",
                (int)hits, old_dfl ? "SIG_DFL" : "not SIG_DFL");
    return ok;
}

static int forks(int rank)
{
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        pid_t p = fork();
        if (p == 0) {
            rpt_sleep_ms(20);
            if (k == 0)
                exit(0);     /* runs atexit handlers and destructors */
            _exit(0);
        }
        int st;
        if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            ok = 0;
    }
    if (system("true") != 0)
        ok = 0;
    FILE *f = popen("echo hello", "r");
    char line[64] = "";
    if (!f || !fgets(line, sizeof line, f) || strcmp(line, "hello\n") != 0)
        ok = 0;
    if (f && pclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "mpi_hostile: rank %d: fork/system/popen failed\n", rank);
    return ok;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int flag = -1, flag2 = -1, ok = 1, all = 0, rank, size;
    if (strcmp(mode, "initialized") == 0) {
        MPI_Initialized(&flag);
        MPI_Finalized(&flag2);
        if (flag != 0 || flag2 != 0)
            ok = 0;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rpt_sleep_ms(20);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(mode, "sigaction") == 0 || strcmp(mode, "signal") == 0)
        ok = own_sigprof(strcmp(mode, "signal") == 0);
    else if (strcmp(mode, "fork") == 0)
        ok = forks(rank);
    for (int p = 0; p < 3; p++) {
        rpt_sleep_ms(10 * (rank + 1));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("hostile %s: %d ranks: %s\n", mode, size, all ? "ok" : "FAILED");
        fflush(stdout);
    }
    MPI_Finalize();
    if (strcmp(mode, "initialized") == 0) {
        MPI_Initialized(&flag);
        MPI_Finalized(&flag2);
        if (rank == 0)
            printf("after MPI_Finalize: initialized=%d finalized=%d\n", flag, flag2);
    }
    return all ? 0 : 1;
}
