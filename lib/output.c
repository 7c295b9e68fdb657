/* output.c - the measurement directory and this rank's file.
 *
 * Rank 0 chooses and creates the directory (RP_OUTPUT, else
 * rpprof-<exe>-<jobid> in the working directory, with a numeric suffix if
 * that name is taken) and broadcasts the name; a directory that cannot be
 * used is one clear error at MPI_Init and the job runs on unprofiled. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <mpi.h>
#include "hooks.h"
#include "rpfile.h"
#include "runtime_int.h"
#include "pathmode.h"

/* The directory every rank writes into; set by output_prepare. */
static char out_dir[4096];

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

/* Rank 0: create (or accept) the directory; "" + message on failure. */
static int make_dir(char *msg, size_t msgcap)
{
    struct stat sb;
    if (rp_rt.cfg.output[0]) {
        snprintf(out_dir, sizeof out_dir, "%s", rp_rt.cfg.output);
        if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
            snprintf(msg, msgcap, "cannot create RP_OUTPUT directory '%s': %s", out_dir,
                     strerror(errno));
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
            snprintf(msg, msgcap, "cannot create measurement directory '%s': %s", out_dir,
                     strerror(errno));
            return -1;
        }
    }
    /* Never follow a link planted where our directory should be. */
    if (lstat(out_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(msg, msgcap, "measurement path '%s' is not a directory", out_dir);
        return -1;
    }
    if (access(out_dir, W_OK | X_OK) != 0) {
        snprintf(msg, msgcap, "measurement directory '%s' is not writable: %s", out_dir,
                 strerror(errno));
        return -1;
    }
    return 0;
}

int output_prepare(void)
{
    char msg[4400] = "";
    int status = 0;
    if (rp_rt.rank == 0)
        status = make_dir(msg, sizeof msg);
    struct { int status; char dir[sizeof out_dir]; } pkt;
    memset(&pkt, 0, sizeof pkt);
    pkt.status = status;
    memcpy(pkt.dir, out_dir, sizeof out_dir);
    PMPI_Bcast(&pkt, (int)sizeof pkt, MPI_BYTE, 0, comm_world()->coll);
    if (pkt.status != 0) {
        rp_warn(0, "error: %s; the job runs on without profiling", msg);
        return -1;
    }
    memcpy(out_dir, pkt.dir, sizeof out_dir);
    out_dir[sizeof out_dir - 1] = '\0';
    return 0;
}

static void add_counter(rp_rankdata *d, const char *name, uint64_t v)
{
    rp_counter *c = &d->counters[d->n_counters++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->value = v;
}

int output_write(void)
{
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
    d.wall_ns = rp_rt.finalize_ns - rp_rt.init_ns;
    exe_name(d.exe, sizeof d.exe, 0);
    gethostname(d.host, sizeof d.host - 1);
    d.stats = rp_rt.stats;

    pathmode_export(&d);
    /* The sampler fills the tree, modules and its own counters. */
    if (sample_export(&d) != 0)
        rp_warn(1, "could not export the calling-context tree; paths only");
    rp_counter *all = realloc(d.counters, (d.n_counters + RP_CNT__N) * sizeof *all);
    if (!all) {
        rp_warn(1, "out of memory writing the rank file");
        return -1;
    }
    d.counters = all;
    for (int i = 0; i < RP_CNT__N; i++)
        add_counter(&d, rp_counter_names[i], rp_counters[i]);

    char path[sizeof out_dir + 32];
    snprintf(path, sizeof path, "%s/rank-%05u.rpp", out_dir, rp_rt.rank);
    int rc = rpfile_write(path, &d);
    if (rc != 0)
        rp_warn(1, "cannot write %s: %s", path, strerror(errno));
    else if (rp_rt.rank == 0 && !getenv("RP_QUIET"))
        rp_warn(0, "profile written to %s/ (rp-report %s)", out_dir, out_dir);
    return rc;
}
