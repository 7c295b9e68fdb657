/* rankfiles.h - the rank files of a measurement directory
 * (rank-<digits>.rpp, 5 or more digits, and the entries of its job file
 * job.rpj, format/rpjob.h), found once for every tool.
 *
 * A job file's entry N is listed as the path "DIR/job.rpj#N" with rank N;
 * rpfile_read and rpfile_read_job read it like a rank file.  A directory
 * holding both: every file and entry joins the choice of the job below;
 * when a rank of the job kept is both in the job file and a rank file (a
 * checkpoint that the job file, written at MPI_Finalize, supersedes), the
 * job file's entry is listed and the rank file is not. */
#ifndef RP_RANKFILES_H
#define RP_RANKFILES_H

#include <stddef.h>
#include <stdint.h>
#include "format/rpfile.h"

/* One job per report (doc/robustness.md "Job identity"): when DIR's rank
 * files belong to more than one job (their JOB sections differ; a file
 * without one is "job unknown"), the newest job is kept: the job that
 * claimed DIR last if it has files (DIR/.rpprof.lock names it), else the
 * one with a known identity and the latest start time; equal start times
 * (or no known job) go to the job with more files, then to the newest
 * file's mtime.  The files of the other jobs are left out.  A file whose job
 * cannot be read stays in the list (its reader says what is wrong). */
typedef struct rp_jobpick {
    uint32_t  n_jobs;       /* distinct jobs among the files (0: no file) */
    rp_jobid  job;          /* the job kept */
    uint32_t  n_kept;       /* its files */
    uint32_t  n_left;       /* files of other jobs, left out */
    char    **left;         /* their paths "DIR/name" */
    uint32_t *left_ranks;   /* and the ranks their names say */
    char    **left_job;     /* and a name of each one's job (rankfiles_job_name) */
    /* The job that claimed DIR last (its rank 0 wrote its identity into
     * DIR/.rpprof.lock at MPI_Init; start_ns and id only, launcher "").  When
     * it has rank files it is the job kept, whatever the start times say;
     * stale = 1: it has none (it died before writing any), so every file
     * is an older job's. */
    int       have_last;
    rp_jobid  last;
    int       stale;
    /* Listing failed (-1, errno EBADMSG) because DIR's job file fails its
     * checks: "DIR/job.rpj: reason". */
    char      err[512];
} rp_jobpick;

/* The rank files of DIR of its newest job, sorted by rank: ranks[i] and
 * the malloc'd path "DIR/name" paths[i] (rankfiles_free frees them).
 * pick, when not NULL, says which job was kept and what was left out
 * (rankfiles_pick_free frees it).  0, or -1 with errno (and pick->err for
 * a bad job file). */
int rankfiles_list_job(const char *dir, uint32_t **ranks, char ***paths, uint32_t *n,
                       rp_jobpick *pick);
/* The same without the account of the choice. */
int rankfiles_list(const char *dir, uint32_t **ranks, char ***paths, uint32_t *n);
void rankfiles_free(uint32_t *ranks, char **paths, uint32_t n);
void rankfiles_pick_free(rp_jobpick *pick);
/* "job 1f2e3d4c5b6a7980 started 2025-01-31 12:00:00 UTC (SLURM_JOB_ID=12)",
 * or "job unknown (files from before job identities)". */
void rankfiles_job_name(const rp_jobid *j, char *buf, size_t cap);

/* Newest mtime (ns) of DIR's rank files and job file, 0 if none; -1 if
 * DIR unreadable.  *count: how many rank files there are, plus 1 for a job
 * file (not opened). */
int64_t rankfiles_newest(const char *dir, uint32_t *count);

#endif
