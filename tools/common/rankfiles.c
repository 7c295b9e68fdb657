/* rankfiles.c - finding a measurement directory's rank files
 * (rank-<digits>.rpp, and the entries of a job file job.rpj, named
 * "DIR/job.rpj#N"), for rp-merge, rp-report and the full-path reader. */
#define _GNU_SOURCE
#include "common/rankfiles.h"
#include "format/rpjob.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


typedef struct rankfile {
    uint32_t rank;
    char    *name;
} rankfile;

/* "rank-<digits>.rpp" exactly; other files (profile.rpm, *.tmp.*) ignored. */
static int parse_rank_name(const char *s, uint32_t *rank)
{
    if (strncmp(s, "rank-", 5) != 0)
        return 0;
    const char *p = s + 5;
    uint64_t v = 0;
    int nd = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return 0;
        p++;
        nd++;
    }
    if (nd == 0 || strcmp(p, ".rpp") != 0)
        return 0;
    *rank = (uint32_t)v;
    return 1;
}

/* PATH's modification time in ns; 0 if it cannot be stat'ed. */
static int64_t mtime_ns(const char *path)
{
    struct stat sb;
    if (!path || stat(path, &sb) != 0)
        return 0;
    return (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
}

static int is_entry(const char *name)
{
    return strncmp(name, RP_JOBFILE_NAME "#", sizeof RP_JOBFILE_NAME) == 0;
}

static int cmp_rankfile(const void *a, const void *b)
{
    const rankfile *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Is there a job file in DIR?  1 with its path in *path (malloc'd). */
static int has_jobfile(const char *dir, char **path)
{
    struct stat sb;
    *path = NULL;
    if (asprintf(path, "%s/%s", dir, RP_JOBFILE_NAME) < 0) {
        *path = NULL;
        return 0;
    }
    if (lstat(*path, &sb) == 0)
        return 1;
    free(*path);
    *path = NULL;
    return 0;
}

/* The rank files of DIR and, with jobs, the entries of its job file (as
 * "job.rpj#N"; a job file that fails its checks: -1, errno EBADMSG and the
 * reason in joberr).  Without jobs the job file is not read (counting). */
static int list_files(const char *dir, int jobs, rankfile **out, uint32_t *n, char *joberr,
                      size_t joberrlen)
{
    *out = NULL;
    *n = 0;
    rp_jobentry *je = NULL;
    uint32_t nje = 0;
    char *jpath;
    if (jobs && has_jobfile(dir, &jpath)) {
        char why[300];
        int rc = rpjob_read_index(jpath, &je, &nje, why, sizeof why);
        if (rc != 0) {
            if (joberr)
                snprintf(joberr, joberrlen, "%s: %s", jpath, why);
            free(jpath);
            errno = EBADMSG;
            return -1;
        }
        free(jpath);
    }
    DIR *d = opendir(dir);
    if (!d) {
        free(je);
        return -1;
    }
    rankfile *v = NULL;
    uint32_t cnt = 0, cap = 0;
    struct dirent *e;
    uint32_t next_job = 0;
    for (;;) {
        uint32_t r;
        char jname[64];
        const char *name;
        if (next_job < nje) {
            r = je[next_job].rank;
            snprintf(jname, sizeof jname, "%s#%u", RP_JOBFILE_NAME, next_job++);
            name = jname;
        } else if ((e = readdir(d)) != NULL) {
            if (!parse_rank_name(e->d_name, &r))
                continue;
            name = e->d_name;
        } else {
            break;
        }
        if (cnt == cap) {
            cap = cap ? cap * 2 : 64;
            rankfile *nv = realloc(v, cap * sizeof *nv);
            if (!nv)
                goto oom;
            v = nv;
        }
        v[cnt].rank = r;
        v[cnt].name = strdup(name);
        if (!v[cnt].name)
            goto oom;
        cnt++;
    }
    closedir(d);
    free(je);
    if (cnt > 1)
        qsort(v, cnt, sizeof *v, cmp_rankfile);
    *out = v;
    *n = cnt;
    return 0;
oom:
    closedir(d);
    free(je);
    for (uint32_t i = 0; i < cnt; i++)
        free(v[i].name);
    free(v);
    errno = ENOMEM;
    return -1;
}

void rankfiles_job_name(const rp_jobid *j, char *buf, size_t cap)
{
    if (!j->id) {
        snprintf(buf, cap, "job unknown (files written before jobs were identified)");
        return;
    }
    char when[64] = "?";
    time_t t = (time_t)(j->start_ns / 1000000000);
    struct tm tm;
    if (j->start_ns > 0 && gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    snprintf(buf, cap, "job %016llx started %s%s%s%s", (unsigned long long)j->id, when,
             j->launcher[0] ? " (" : "", j->launcher, j->launcher[0] ? ")" : "");
}

void rankfiles_pick_free(rp_jobpick *pick)
{
    if (!pick)
        return;
    for (uint32_t i = 0; i < pick->n_left; i++) {
        free(pick->left[i]);
        if (pick->left_job)
            free(pick->left_job[i]);
    }
    free(pick->left);
    free(pick->left_ranks);
    free(pick->left_job);
    memset(pick, 0, sizeof *pick);
}

typedef struct jobgroup {
    rp_jobid job;
    uint32_t files;
    int64_t  newest_mtime;
} jobgroup;

/* DIR/.rpprof.lock: "rpprof-job ID START_NS" (lib/runtime/output.c); 1 if
 * read, 0 if absent, empty (an older library, or no flock) or not that. */
static int read_last_job(const char *dir, rp_jobid *j)
{
    memset(j, 0, sizeof *j);
    char *path;
    if (asprintf(&path, "%s/.rpprof.lock", dir) < 0)
        return 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    free(path);
    struct stat sb;
    if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
        close(fd);
        return 0;
    }
    if (fd < 0)
        return 0;
    char buf[128];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    unsigned long long id;
    long long start;
    if (sscanf(buf, "rpprof-job %16llx %lld", &id, &start) != 2 || id == 0)
        return 0;
    j->id = id;
    j->start_ns = start;
    return 1;
}

/* Is a newer than b?  (rankfiles.h: the rule) */
static int newer(const jobgroup *a, const jobgroup *b)
{
    if ((a->job.id != 0) != (b->job.id != 0))
        return a->job.id != 0;
    if (a->job.start_ns != b->job.start_ns)
        return a->job.start_ns > b->job.start_ns;
    if (a->files != b->files)
        return a->files > b->files;
    if (a->newest_mtime != b->newest_mtime)
        return a->newest_mtime > b->newest_mtime;
    return a->job.id > b->job.id;
}

int rankfiles_list_job(const char *dir, uint32_t **ranks, char ***paths, uint32_t *n,
                       rp_jobpick *pick)
{
    rankfile *v;
    uint32_t cnt;
    *ranks = NULL;
    *paths = NULL;
    *n = 0;
    if (pick)
        memset(pick, 0, sizeof *pick);
    if (list_files(dir, 1, &v, &cnt, pick ? pick->err : NULL, pick ? sizeof pick->err : 0) != 0)
        return -1;
    uint32_t *r = malloc((cnt ? cnt : 1) * sizeof *r);
    char **p = calloc(cnt ? cnt : 1, sizeof *p);
    int *grp = malloc((cnt ? cnt : 1) * sizeof *grp);       /* -1: job unreadable */
    jobgroup *g = malloc((cnt ? cnt : 1) * sizeof *g);
    uint32_t ng = 0;
    int ok = r && p && grp && g;
    rp_jobid fj;
    int have_fj = 0;
    char *jobfile_path = NULL;
    if (asprintf(&jobfile_path, "%s/%s", dir, RP_JOBFILE_NAME) < 0)
        jobfile_path = NULL;
    for (uint32_t i = 0; i < cnt; i++) {
        if (ok) {
            r[i] = v[i].rank;
            ok = asprintf(&p[i], "%s/%s", dir, v[i].name) >= 0;
            if (!ok)
                p[i] = NULL;
        }
        if (!ok)
            continue;
        rp_jobid j;
        char err[256];
        grp[i] = -1;
        /* a job file's entries are all of one job: its first entry says */
        int entry = is_entry(v[i].name);
        if (entry && have_fj) {
            j = fj;
        } else if (rpfile_read_job(p[i], &j, err, sizeof err) != 0) {
            continue;
        } else if (entry) {
            fj = j;
            have_fj = 1;
        }
        int64_t mt = mtime_ns(entry ? jobfile_path : p[i]);
        uint32_t k = 0;
        while (k < ng && !rpfile_same_job(&g[k].job, &j))
            k++;
        if (k == ng) {
            g[ng].job = j;
            g[ng].files = 0;
            g[ng].newest_mtime = 0;
            ng++;
        }
        g[k].files++;
        if (mt > g[k].newest_mtime)
            g[k].newest_mtime = mt;
        grp[i] = (int)k;
    }
    uint32_t best = 0;
    for (uint32_t k = 1; ok && k < ng; k++)
        if (newer(&g[k], &g[best]))
            best = k;
    /* The job that claimed DIR last, if it left files, whatever the clocks say. */
    rp_jobid last;
    int have_last = ok && ng && read_last_job(dir, &last), last_has_files = 0;
    for (uint32_t k = 0; have_last && k < ng; k++)
        if (g[k].job.id == last.id && g[k].job.start_ns == last.start_ns) {
            best = k;
            last_has_files = 1;
        }
    /* Keep the newest job's files (and those whose job is unreadable). */
    uint32_t w = 0, i = 0, dups = 0;
    uint32_t *kept_at = malloc((cnt ? cnt : 1) * sizeof *kept_at);   /* v's index */
    ok = ok && kept_at;
    int listed = ok;
    for (; ok && i < cnt; i++) {
        if (grp[i] < 0 || (uint32_t)grp[i] == best) {
            /* the same rank of the same job in the job file and a rank
             * file (a checkpoint, "job.rpj#" sorts first): the job file's
             * entry, written at MPI_Finalize, is the one kept */
            if (w && r[w - 1] == r[i] && is_entry(v[kept_at[w - 1]].name) &&
                !is_entry(v[i].name) && grp[i] == grp[kept_at[w - 1]]) {
                free(p[i]);
                dups += grp[i] >= 0;
                continue;
            }
            kept_at[w] = i;
            r[w] = r[i];
            p[w++] = p[i];
            continue;
        }
        if (pick) {
            uint32_t m = pick->n_left;
            char **nl = realloc(pick->left, (m + 1) * sizeof *nl);
            if (nl)
                pick->left = nl;
            uint32_t *nr = realloc(pick->left_ranks, (m + 1) * sizeof *nr);
            if (nr)
                pick->left_ranks = nr;
            char **nj = realloc(pick->left_job, (m + 1) * sizeof *nj);
            if (nj)
                pick->left_job = nj;
            char name[400];
            rankfiles_job_name(&g[grp[i]].job, name, sizeof name);
            char *jn = nl && nr && nj ? strdup(name) : NULL;
            if (!jn) {
                ok = 0;
                free(p[i]);
                continue;
            }
            pick->left[m] = p[i];
            pick->left_ranks[m] = r[i];
            pick->left_job[m] = jn;
            pick->n_left++;
        } else {
            free(p[i]);
        }
    }
    if (ok && pick && ng) {
        pick->n_jobs = ng;
        pick->job = g[best].job;
        pick->n_kept = g[best].files - dups;
        pick->have_last = have_last;
        if (have_last)
            pick->last = last;
        pick->stale = have_last && !last_has_files;
    }
    free(grp);
    free(g);
    free(kept_at);
    free(jobfile_path);
    for (uint32_t j = 0; j < cnt; j++)
        free(v[j].name);
    free(v);
    if (!ok) {
        /* listing failed: p[0..cnt) untouched; choosing failed at i - 1:
         * p[0..w) kept, p[i..cnt) not yet looked at */
        for (uint32_t j = 0; p && j < cnt; j++)
            if (!listed || j < w || j >= i)
                free(p[j]);
        free(p);
        free(r);
        rankfiles_pick_free(pick);
        errno = ENOMEM;
        return -1;
    }
    *ranks = r;
    *paths = p;
    *n = w;
    return 0;
}

int rankfiles_list(const char *dir, uint32_t **ranks, char ***paths, uint32_t *n)
{
    return rankfiles_list_job(dir, ranks, paths, n, NULL);
}

int64_t rankfiles_newest(const char *dir, uint32_t *count)
{
    rankfile *v;
    uint32_t n;
    *count = 0;
    if (list_files(dir, 0, &v, &n, NULL, 0) != 0)
        return -1;
    int64_t newest = 0;
    char *jp;
    if (has_jobfile(dir, &jp)) {
        newest = mtime_ns(jp);
        free(jp);
        *count = 1;   /* the job file counts as one */
    }
    for (uint32_t i = 0; i < n; i++) {
        char *path;
        if (asprintf(&path, "%s/%s", dir, v[i].name) >= 0) {
            int64_t t = mtime_ns(path);
            if (t > newest)
                newest = t;
            free(path);
        }
        free(v[i].name);
    }
    free(v);
    *count += n;
    return newest;
}


void rankfiles_free(uint32_t *ranks, char **paths, uint32_t n)
{
    for (uint32_t i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
    free(ranks);
}
