/* output.c - the measurement directory and this rank's file (or, at
 * MPI_Finalize of a job of RP_JOBFILE ranks or more, its entry of the job
 * file: lib/runtime/jobfile.c).
 *
 * Rank 0 chooses and creates the directory (RP_OUTPUT, else
 * rpprof-<exe>-<jobid> in the working directory, with a numeric suffix if
 * that name is taken) and broadcasts the name; a directory that cannot be
 * used is one clear error at MPI_Init and the job runs on unprofiled.
 *
 * Hostile surroundings (doc/robustness.md):
 *  - the directory is created with mode 0777 & ~umask, and opened with
 *    O_NOFOLLOW|O_DIRECTORY: a symbolic link planted where it should be (in
 *    a shared /tmp) is refused, never followed.  Every rank keeps that
 *    directory open and writes through /proc/self/fd/N/, so a directory
 *    swapped for a link after the check is not followed either.  A directory
 *    owned by someone else is refused if it is writable by everyone (or if we
 *    are root).
 *  - two jobs with the same RP_OUTPUT at the same time: rank 0 holds an
 *    flock on DIR/.rpprof.lock for the life of the job; a second job that
 *    finds it locked writes into DIR/job-<jobid> instead (rank 0 says so).
 *  - the rank file is rewritten at checkpoints and MPI_Abort (lib/runtime/fault.c):
 *    counter tail_lost = 1 marks a file not written at MPI_Finalize. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
#include "runtime/runtime.h"
#include "exchange/comm.h"
#include "format/rpfile.h"
#include "format/rpjob.h"
#include "runtime/runtime_int.h"
#include "modes/modes.h"
#include "runtime/fault.h"
#include "runtime/output.h"
#include "runtime/phasebatch.h"
#include "core/config.h"
#include "runtime/jobfile.h"
#include "sampler/sigwrap.h"
#include "core/show.h"
#include "core/warn.h"

/* The directory every rank writes into; set by output_prepare. */
static char out_dir[4096];
/* This rank's open descriptor of it (-1: write by name) and the prefix its
 * files are written through ("/proc/self/fd/N" or out_dir). */
static int out_fd = -1;
static char out_via[sizeof out_dir];
/* Rank 0: the lock that claims the directory for this job (kept open). */
static int lock_fd = -1;
/* This job's identity, drawn by rank 0 and broadcast with the directory's
 * name (output_prepare): every rank file and checkpoint carries it. */
static rp_jobid g_job;
/* RP_JOBFILE as rank 0 read it, broadcast with the directory: the job file
 * is collective, so every rank must decide alike whatever its own
 * environment says. */
static uint32_t g_jobfile, g_jobfile_io;   /* rank 0's RP_JOBFILE, RP_JOBFILE_IO */

static void exe_name(char *buf, size_t cap, int base_only)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) {
        snprintf(buf, cap, "app");
        return;
    }
    path[n] = '\0';
    const char *b = strrchr(path, '/');
    const char *s = base_only && b ? b + 1 : path;
    size_t len = strlen(s);
    if (len >= cap)             /* a long path is cut, never overflowed */
        len = cap - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
}

static void job_id(char *buf, size_t cap)
{
    static const char *const vars[] = { "SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID",
                                        "COBALT_JOBID", "FLUX_JOB_ID" };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            snprintf(buf, cap, "%s", v);
            for (char *c = buf; *c; c++)   /* keep it a single path component */
                if (*c == '/' || *c == ' ')
                    *c = '_';
            return;
        }
    }
    snprintf(buf, cap, "%ld", (long)getpid());   /* rank 0's pid */
}

/* 64 random bits, never 0: getrandom (non-blocking: an early-boot entropy
 * pool must not hang MPI_Init), else /dev/urandom, else time and pid. */
static uint64_t random_id(void)
{
    uint64_t v = 0;
#ifdef SYS_getrandom
    if (syscall(SYS_getrandom, &v, sizeof v, 1 /* GRND_NONBLOCK */) != (long)sizeof v)
        v = 0;
#endif
    if (!v) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
                v = 0;
            close(fd);
        }
    }
    if (!v) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        v = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 17) ^
            (uint64_t)(uintptr_t)&v;
        v ^= v >> 29;
        v *= 0xbf58476d1ce4e5b9ULL;
        v ^= v >> 32;
    }
    return v ? v : 1;
}

/* Rank 0: the job's identity (doc/robustness.md "Job identity"): random
 * bits, the start time, and whatever job id the launcher put in the
 * environment, as "VAR=value" words (cut to fit). */
static void job_draw(rp_jobid *j)
{
    static const char *const vars[] = {
        "SLURM_JOB_ID", "SLURM_STEP_ID", "PMIX_NAMESPACE", "OMPI_MCA_orte_ess_jobid",
        "OMPI_MCA_ess_base_jobid", "PMI_JOBID", "PMI_KVSNAME", "PALS_APID", "FLUX_JOB_ID",
        "PBS_JOBID", "LSB_JOBID", "COBALT_JOBID"};
    memset(j, 0, sizeof *j);
    j->id = random_id();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    j->start_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    size_t len = 0;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        int n = snprintf(j->launcher + len, sizeof j->launcher - len, "%s%s=%s",
                         len ? " " : "", vars[i], v);
        if (n < 0 || (size_t)n >= sizeof j->launcher - len) {
            j->launcher[len] = '\0';   /* does not fit: left out whole */
            continue;
        }
        len += (size_t)n;
    }
}

/* Open a directory without following a symbolic link in its last
 * component; -1 with errno (ELOOP/ENOTDIR for a link or a file). */
static int open_dir(const char *path)
{
    return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Is an existing directory safe to write into?  0, or -1 with a message. */
static int check_dir(int fd, const char *dir, char *msg, size_t msgcap)
{
    char path[RP_SHOW_LEN];
    rp_show(path, sizeof path, dir);
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(msg, msgcap, "measurement path '%s' is not a directory", path);
        return -1;
    }
    uid_t me = geteuid();
    if (sb.st_uid != me && ((sb.st_mode & S_IWOTH) || me == 0)) {
        snprintf(msg, msgcap, "measurement directory '%s' belongs to uid %u%s; refusing to "
                 "write into it (choose another RP_OUTPUT)", path, (unsigned)sb.st_uid,
                 (sb.st_mode & S_IWOTH) ? " and is writable by everyone" : "");
        return -1;
    }
    return 0;
}

/* Claim the open directory dfd for this job: 1 claimed (or locks not
 * supported), 0 held by a running job. */
static int claim(int dfd)
{
    int fd = openat(dfd, ".rpprof.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return 1;                /* cannot lock: carry on as before */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        return e == EWOULDBLOCK ? 0 : 1;
    }
    if (lock_fd >= 0)
        close(lock_fd);
    lock_fd = fd;
    return 1;
}

/* Rank 0: say in the lock file which job claimed the directory last
 * ("rpprof-job ID START_NS\n", doc/robustness.md "Job identity"): a job
 * that dies before any rank file is written still tells the tools that the
 * files there are an older job's. */
static void mark_job(const rp_jobid *j)
{
    if (lock_fd < 0)
        return;
    char line[96];
    int n = snprintf(line, sizeof line, "rpprof-job %016llx %lld\n", (unsigned long long)j->id,
                     (long long)j->start_ns);
    /* best effort: without it the tools go by the rank files alone */
    if (n > 0 && ftruncate(lock_fd, 0) == 0 && pwrite(lock_fd, line, (size_t)n, 0) != n)
        (void)ftruncate(lock_fd, 0);
}

/* Rank 0: create (or accept) the directory; "" + message on failure. */
static int make_dir(char *msg, size_t msgcap)
{
    int dfd = -1;
    char sd[RP_SHOW_LEN];   /* out_dir as messages show it (show.h) */
    if (rp_rt.cfg.output[0]) {
        snprintf(out_dir, sizeof out_dir, "%s", rp_rt.cfg.output);
        /* RP_OUTPUT=dir/ names the same directory as dir */
        for (size_t n = strlen(out_dir); n > 1 && out_dir[n - 1] == '/'; n--)
            out_dir[n - 1] = '\0';
        if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            snprintf(msg, msgcap, "cannot create RP_OUTPUT directory '%s': %s",
                     rp_show(sd, sizeof sd, out_dir), strerror(e));
            return -1;
        }
    } else {
        char exe[128], job[64];
        exe_name(exe, sizeof exe, 1);
        job_id(job, sizeof job);
        int made = 0;
        for (int i = 0; i < 1000 && !made; i++) {
            if (i == 0)
                snprintf(out_dir, sizeof out_dir, "rpprof-%s-%s", exe, job);
            else
                snprintf(out_dir, sizeof out_dir, "rpprof-%s-%s.%d", exe, job, i);
            if (mkdir(out_dir, 0777) == 0)
                made = 1;
            else if (errno != EEXIST)
                break;
        }
        if (!made) {
            int e = errno;
            snprintf(msg, msgcap, "cannot create measurement directory '%s': %s",
                     rp_show(sd, sizeof sd, out_dir), strerror(e));
            return -1;
        }
    }
    /* Never follow a link planted where our directory should be. */
    dfd = open_dir(out_dir);
    if (dfd < 0) {
        int e = errno;
        rp_show(sd, sizeof sd, out_dir);
        errno = e;
        struct stat lsb;
        if (lstat(out_dir, &lsb) == 0 && S_ISLNK(lsb.st_mode))
            snprintf(msg, msgcap, "measurement path '%s' is a symbolic link; not followed "
                     "(choose another RP_OUTPUT)", sd);
        else if (errno == ELOOP || errno == ENOTDIR)
            snprintf(msg, msgcap, "measurement path '%s' is not a directory", sd);
        else
            snprintf(msg, msgcap, "cannot open measurement directory '%s': %s", sd,
                     strerror(e));
        return -1;
    }
    if (check_dir(dfd, out_dir, msg, msgcap) != 0)
        goto fail;
    if (faccessat(dfd, ".", W_OK | X_OK, AT_EACCESS) != 0 && access(out_dir, W_OK | X_OK) != 0) {
        int e = errno;
        snprintf(msg, msgcap, "measurement directory '%s' is not writable: %s",
                 rp_show(sd, sizeof sd, out_dir), strerror(e));
        goto fail;
    }
    if (!claim(dfd)) {
        /* Another job is writing here right now: take DIR/job-<jobid>. */
        char job[64], sub[128], base[sizeof out_dir];
        job_id(job, sizeof job);
        snprintf(base, sizeof base, "%s", out_dir);
        int made = 0;
        for (int i = 0; i < 1000 && !made; i++) {
            if (i == 0)
                snprintf(sub, sizeof sub, "job-%s", job);
            else
                snprintf(sub, sizeof sub, "job-%s.%d", job, i);
            if (mkdirat(dfd, sub, 0777) == 0)
                made = 1;
            else if (errno != EEXIST)
                break;
        }
        int sfd = made ? openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
        if (sfd < 0) {
            int e = errno;
            snprintf(msg, msgcap, "measurement directory '%s' is in use by another job and "
                     "no job-%s subdirectory could be made: %s", rp_show(sd, sizeof sd, base),
                     job, strerror(e));
            goto fail;
        }
        close(dfd);
        dfd = sfd;
        int n = snprintf(out_dir, sizeof out_dir, "%s/%s", base, sub);
        if (n < 0 || (size_t)n >= sizeof out_dir) {
            snprintf(msg, msgcap, "measurement path too long");
            goto fail;
        }
        claim(dfd);
        char sb[RP_SHOW_LEN];
        rp_warn(0, "RP_OUTPUT '%s' is in use by another running job; this job writes into '%s'",
                rp_show(sb, sizeof sb, base), rp_show(sd, sizeof sd, out_dir));
    }
    mark_job(&g_job);
    close(dfd);
    return 0;
fail:
    close(dfd);
    return -1;
}

/* Every rank: open the directory rank 0 chose and write through it. */
static void open_out_dir(void)
{
    snprintf(out_via, sizeof out_via, "%s", out_dir);
    if (out_fd >= 0)
        close(out_fd);
    out_fd = open_dir(out_dir);
    if (out_fd < 0)
        return;                  /* the write will fail and say why */
    char via[64];
    snprintf(via, sizeof via, "/proc/self/fd/%d", out_fd);
    struct stat a, b;
    if (stat(via, &a) == 0 && fstat(out_fd, &b) == 0 && a.st_ino == b.st_ino &&
        a.st_dev == b.st_dev)
        snprintf(out_via, sizeof out_via, "%s", via);
}

int output_prepare(void)
{
    char msg[4400] = "";
    int status = 0;
    rp_jobid job;
    memset(&job, 0, sizeof job);
    if (rp_rt.rank == 0) {
        job_draw(&g_job);
        job = g_job;
        status = make_dir(msg, sizeof msg);
    }
    /* The job's identity travels with the directory's name: no collective
     * of its own (the shadow communicator's one broadcast of rp_start). */
    struct { int status; uint32_t jobfile, jobfile_io; char dir[sizeof out_dir]; rp_jobid job; } pkt;
    memset(&pkt, 0, sizeof pkt);
    pkt.status = status;
    pkt.jobfile = rp_rt.cfg.jobfile;
    pkt.jobfile_io = rp_rt.cfg.jobfile_io;
    memcpy(pkt.dir, out_dir, sizeof out_dir);
    pkt.job = job;
    PMPI_Bcast(&pkt, (int)sizeof pkt, MPI_BYTE, 0, comm_world()->coll);
    if (pkt.status != 0) {
        rp_warn(0, "error: %s; the job runs on without profiling", msg);
        return -1;
    }
    memcpy(out_dir, pkt.dir, sizeof out_dir);
    out_dir[sizeof out_dir - 1] = '\0';
    g_job = pkt.job;
    g_jobfile = pkt.jobfile;
    g_jobfile_io = pkt.jobfile_io;
    g_job.launcher[sizeof g_job.launcher - 1] = '\0';
    open_out_dir();
    return 0;
}

static void add_counter(rp_rankdata *d, const char *name, uint64_t v)
{
    rp_counter *c = &d->counters[d->n_counters++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->value = v;
}

/* Peak resident set of this process in KiB (VmHWM), 0 if unknown. */
static uint64_t peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

/* Free what sample_export allocated into d (the path-mode arrays and the
 * phase statistics are shared with the runtime and stay). */
static void free_export(rp_rankdata *d)
{
    free(d->counters);
    for (uint32_t i = 0; d->modules && i < d->n_modules; i++)
        free(d->modules[i].path);
    free(d->modules);
    for (uint32_t i = 0; d->mpi_names && i < d->n_mpi_names; i++)
        free(d->mpi_names[i]);
    free(d->mpi_names);
    free(d->nodes);
    free(d->metrics);
}

/* The job file, with this rank's data d (valid: it passed the reader's
 * checks).  1 written; 0 not: d's jobfile_fallback counter is set, and the
 * caller writes the rank file as without RP_JOBFILE. */
static int try_jobfile(rp_rankdata *d, int valid)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    if (valid && rpfile_encode(d, &buf, &len) != 0)
        buf = NULL;
    rp_jobout o = { out_via, comm_world()->coll, rp_rt.rank, rp_rt.nranks,
                    g_jobfile_io == RP_JOBFILE_GATHER };
    char why[128];
    int done = jobfile_write(&o, buf, len, why, sizeof why);
    free(buf);
    if (done)
        return 1;
    rp_counters[RP_CNT_JOBFILE_FALLBACK] = 1;
    for (uint32_t i = 0; i < d->n_counters; i++)
        if (strcmp(d->counters[i].name, rp_counter_table[RP_CNT_JOBFILE_FALLBACK].name) == 0)
            d->counters[i].value = 1;
    char sd[RP_SHOW_LEN];
    rp_warn(0, "could not write the job file %s/%s (%s); every rank writes its own rank "
            "file instead (counter jobfile_fallback)", rp_show(sd, sizeof sd, out_dir),
            RP_JOBFILE_NAME, why);
    return 0;
}

int output_write_rank(int final)
{
    /* ended phases still waiting for their exchange (checkpoint, abort) */
    rp_counters[RP_CNT_PHASES_UNBOOKED] = phasebatch_pending();
    rp_rankdata d;
    memset(&d, 0, sizeof d);
    d.rank = rp_rt.rank;
    d.nranks = rp_rt.nranks;
    d.k = rp_rt.cfg.k;
    d.mode = rp_rt.cfg.mode;
    d.select = rp_rt.cfg.select;
    d.summary_cap = rp_rt.cfg.summary;
    d.period_us = rp_rt.cfg.period_us;
    d.clock = rp_rt.cfg.clock;
    d.phase_k = rp_rt.cfg.phase_k;
    /* a checkpoint or an abort: the run so far */
    int64_t end = final ? rp_rt.finalize_ns : rp_now_ns();
    d.wall_ns = end > rp_rt.init_ns ? end - rp_rt.init_ns : 0;
    exe_name(d.exe, sizeof d.exe, 0);
    gethostname(d.host, sizeof d.host - 1);
    d.job = g_job;
    d.stats = rp_rt.stats;

    rp_mode->export(&d);
    /* The sampler fills the tree, modules and its own counters. */
    rp_cct_export ex;
    memset(&ex, 0, sizeof ex);
    if (sample_export(&ex, d.k, rp_counters) != 0)
        rp_warn(1, "could not export the calling-context tree; paths only");
    d.n_modules = ex.n_modules;
    d.modules = ex.modules;
    d.n_mpi_names = ex.n_mpi_names;
    d.mpi_names = ex.mpi_names;
    d.n_nodes = ex.n_nodes;
    d.n_metrics = ex.n_metrics;
    d.nodes = ex.nodes;
    d.metrics = ex.metrics;
    if (!final)
        rp_counters[RP_CNT_ITEMS_DROPPED] = rp_rt.items.dropped;
    /* doc/robustness.md */
    rp_counters[RP_CNT_PEAK_RSS_KB] = peak_rss_kb();
    /* CPU time and involuntary switches of this (the MPI) thread: a rank
     * whose wall time far exceeds its CPU time waited for a CPU, which the
     * report must not present as computation (doc/report.md) */
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
        rp_counters[RP_CNT_CPU_US] =
            (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec +
            (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
        rp_counters[RP_CNT_INVOL_CSW] = (uint64_t)ru.ru_nivcsw;
    }
    /* ranks per host against this: the report's oversubscription line */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    rp_counters[RP_CNT_HOST_CPUS] = ncpu > 0 ? (uint64_t)ncpu : 0;
    rp_counters[RP_CNT_TASK_NS] = rp_rt.task_total_ns > 0 ? (uint64_t)rp_rt.task_total_ns : 0;
    rp_counters[RP_CNT_CHECKPOINTS] = rp_fault_cnt.checkpoints + (final ? 0 : 1);
    rp_counters[RP_CNT_CHECKPOINT_FAILURES] = rp_fault_cnt.checkpoint_failures;
    rp_counters[RP_CNT_TAIL_LOST] = final ? 0 : 1;
    /* Partial file written inside a phase (issue 13): how long that phase
     * had run and this rank's most critical path cost in it so far (a local
     * view: the phase's selection has not run; its samples are in the
     * whole-rank profile only). */
    int64_t open = !final && rp_rt.phase_start_ns ? end - rp_rt.phase_start_ns : 0;
    rp_counters[RP_CNT_OPEN_PHASE_NS] = open > 0 ? (uint64_t)open : 0;
    rp_counters[RP_CNT_OPEN_PHASE_COST_NS] =
        !final && rp_rt.ps.n > 0 && rp_rt.ps.p[0].cost_ns > 0 ? (uint64_t)rp_rt.ps.p[0].cost_ns : 0;
    rp_counters[RP_CNT_APP_SIGPROF] = (uint64_t)sigwrap_app_took_sigprof();
    /* the program kept SIGPROF from the sampler (sigwrap.c): counted and said */
    rp_counters[RP_CNT_SIGPROF_BLOCKED_US] = sigwrap_sigprof_blocked_us();
    sigwrap_warn_blocked();
    /* Every row of the counter table (lib/core/counters.def), in its order. */
    rp_counter *all = calloc(RP_CNT__N, sizeof *all);
    int in_job = final && g_jobfile && rp_rt.nranks >= g_jobfile;
    if (!all) {
        rp_warn(1, "out of memory writing the rank file");
        if (in_job)   /* the job file is collective: join it, with nothing */
            (void)try_jobfile(&d, 0);
        free_export(&d);
        return -1;
    }
    free(d.counters);
    d.counters = all;
    d.n_counters = 0;
    for (int i = 0; i < RP_CNT__N; i++)
        add_counter(&d, rp_counter_table[i].name, rp_counters[i]);

    char path[sizeof out_via + 32], shown[sizeof out_dir + 32];
    snprintf(path, sizeof path, "%s/rank-%05u.rpp", out_via, rp_rt.rank);
    char sd[RP_SHOW_LEN];
    snprintf(shown, sizeof shown, "%s/rank-%05u.rpp", rp_show(sd, sizeof sd, out_dir),
             rp_rt.rank);
    /* Our own data failing the reader's checks is a bug of ours: say which
     * check, rather than a bare EINVAL from the writer. */
    char why[256];
    int valid = rpfile_validate(&d, why, sizeof why) == 0;
    if (!valid)
        rp_warn(1, "cannot write %s: internal error: %s", shown, why);
    /* At MPI_Finalize of a large enough job: one job file (jobfile.c).
     * Collective, so every rank gets here, valid data or not. */
    if (in_job && try_jobfile(&d, valid)) {
        /* this rank's checkpoint, if any, is superseded by the job file */
        (void)unlink(path);
        free_export(&d);
        if (rp_rt.rank == 0 && !getenv("RP_QUIET")) {
            char sa[RP_SHOW_LEN];
            rp_warn(0, "profile written to %s/%s (%s; rp-report %s)", sd, RP_JOBFILE_NAME,
                    g_jobfile_io == RP_JOBFILE_GATHER ? "gathered by rank 0" : "MPI-IO",
                    rp_show_arg(sa, sizeof sa, out_dir));
        }
        return 0;
    }
    if (!valid) {
        free_export(&d);
        errno = EINVAL;
        return -1;
    }
    rp_fault_writing(path);
    int rc = rpfile_write(path, &d);
    int saved = errno;
    rp_fault_writing(NULL);
    free_export(&d);
    if (rc != 0)
        rp_warn(1, "cannot write %s: %s", shown, strerror(saved));
    else if (final && rp_rt.rank == 0 && !getenv("RP_QUIET"))
    {
        /* the directory escaped, and quoted for the shell in the command
         * line offered (show.h) */
        char sa[RP_SHOW_LEN];
        rp_warn(0, "profile written to %s/ (rp-report %s)", sd,
                rp_show_arg(sa, sizeof sa, out_dir));
    }
    errno = saved;
    return rc;
}

int output_write(void)
{
    return output_write_rank(1);
}
