/* rpfile.h - the per-rank measurement file (rank-NNNNN.rpp), written by the
 * runtime at MPI_Finalize and read back by rp-merge / rp-report.  The byte
 * layout, version 1, is specified in doc/formats.md.  Pure C, no MPI. */
#ifndef RP_RPFILE_H
#define RP_RPFILE_H

#include <stddef.h>
#include <stdint.h>
#include "core/phasestats.h"
#include "core/vocab.h"
#include "core/cct.h"

#define RP_FILE_MAGIC   "RPPROF\r\n"   /* 8 bytes; \r\n catches text-mode mangling */
#define RP_FILE_VERSION 2u   /* 2: PSUM entries carry the path weight (lw) */


typedef struct rp_counter {
    char     name[48];        /* e.g. "samples_dropped", "k_clamped" */
    uint64_t value;
} rp_counter;


/* ---- full paths (RP_MODE=path) and the trace baseline (RP_MODE=trace) ----
 * Events of a rank are numbered in order: event 0 is the return of MPI_Init,
 * event i (i >= 1) the i-th event (MPI call that ends a task).  Task i runs
 * from event i-1 to event i. */

/* One committed task of this rank. */
typedef struct rp_task {
    uint64_t phase;       /* phase it belongs to, 0-based */
    uint64_t event;       /* event that ends it (its number on this rank) */
    uint32_t idx;         /* path mode: index in the phase's task buffer */
    uint16_t start_fn;    /* MPI function id of the event that started it */
    uint16_t end_fn;      /* ... and of the event that ends it */
    int64_t  cost_ns;
    uint32_t callsite;    /* CCT node of end_fn's call site (pseudo-frame leaf), 0 = unknown */
    uint32_t msg_src;     /* world rank whose message, joined at start_fn, brought the
                             most critical path here; RP_NO_RANK if none */
    uint32_t msg_bytes;   /* that message's payload size */
    uint32_t reserved;
    uint64_t path_mask;   /* path mode: bit j set if the task is on selected path j
                             (j < 64); RP_TASK_EAGER if committed eagerly */
} rp_task;
#define RP_TASK_EAGER UINT64_MAX
/* PSUM flags bit 0: the summary overflowed (= RP_PATH_OVERFLOW of core). */
#define RP_PSUM_OVERFLOW 0x1u

/* One summary interval as stored (same meaning as rp_interval on the wire). */
typedef struct rp_fileiv {
    uint32_t rank;
    uint32_t low, high;
} rp_fileiv;

/* The selected path j of a phase (identical on every rank; written by all). */
typedef struct rp_pathsum {
    uint64_t   phase;
    uint32_t   path;      /* 0 = most critical */
    uint32_t   flags;     /* RP_PATH_OVERFLOW: summary overflowed, tail committed eagerly */
    int64_t    cost_ns;
    uint32_t   n_evicted;
    uint32_t   n_iv;      /* 0 in trace mode (costs only) */
    float      lw;        /* log2 of the paths it stands for (RP_SELECT=repr's
                             weighted levels; 0 otherwise) */
    rp_fileiv *iv;
    int64_t    covered_ns; /* RP_PSUM_OVERFLOW: the online cost when the summary
                              filled up, i.e. of the tasks its intervals hold
                              (PCOV section); -1 = not overflowed or unknown */
} rp_pathsum;

typedef struct rp_edge {
    uint32_t kind;        /* RP_EDGE_* */
    uint32_t bytes;       /* MSG: payload bytes; COLL: my rank in the communicator
                             + 1 (0: not recorded, older files) */
    uint64_t event;       /* my event where it joins (receive completion / collective) */
    uint32_t peer;        /* MSG: sender's world rank */
    uint32_t coll_kind;   /* COLL: RP_COLL_* */
    uint64_t peer_event;  /* MSG: sender's event number of the send */
    uint64_t coll_id;     /* COLL: instance id, equal on every member:
                             (communicator uid << 32) | collective number on it */
    uint32_t root;        /* COLL in/out: root's world rank; scan: my rank in the comm */
    uint32_t size;        /* COLL: members */
    uint32_t phase_end;   /* COLL: 1 if it ended a phase */
    uint32_t part;        /* COLL: RP_PART_* - which half of the collective this is */
} rp_edge;

/* The job a rank file belongs to (doc/formats.md, JOB section): agreed
 * by all ranks at MPI_Init.  id 0 = "job unknown" (a file from before the
 * section existed). */
#define RP_JOB_LAUNCHER_MAX 255u
typedef struct rp_jobid {
    uint64_t id;              /* 64 random bits drawn by rank 0; 0 = unknown */
    int64_t  start_ns;        /* rank 0's CLOCK_REALTIME at MPI_Init, ns since the epoch */
    char     launcher[RP_JOB_LAUNCHER_MAX + 1];  /* the launcher's job id as found in
                                 the environment ("VAR=value ..."), "" if none */
} rp_jobid;

typedef struct rp_rankdata {
    uint32_t rank, nranks;
    uint32_t k;               /* paths kept (after clamping) */
    uint32_t mode;            /* RP_MODE_* */
    uint32_t select;          /* rp_select_mode */
    uint32_t summary_cap;     /* intervals per path-summary */
    uint32_t period_us;       /* sampling period asked for; 0 = no sampling */
    uint32_t clock;           /* RP_CLOCK_* */
    uint32_t phase_k;         /* paths of the phase-end exchange (RP_PHASE_K in effect;
                               * k: not widened); 0: not recorded (older file) */
    int64_t  wall_ns;         /* MPI_Init return .. MPI_Finalize entry on this rank */
    char     exe[256];        /* argv[0] / /proc/self/exe of the profiled program */
    char     host[64];
    rp_jobid job;             /* JOB section; job.id 0: absent (older file) */

    rp_phasestats stats;      /* per-percentile phase statistics (k slots) */

    uint32_t    n_counters;
    rp_counter *counters;

    uint32_t    n_modules;
    rp_module  *modules;

    uint32_t    n_mpi_names;
    char      **mpi_names;    /* names for RP_MOD_MPI pseudo-frames */

    uint32_t    n_nodes;      /* node 0 is the root */
    uint32_t    n_metrics;    /* = RP_MET_PATH0 + k */
    rp_cctnode *nodes;
    int64_t    *metrics;      /* n_nodes * n_metrics, ns */

    /* path and trace modes (empty in prof mode) */
    uint64_t    n_events;     /* events on this rank, MPI_Init's return included */
    uint64_t    n_tasks;
    rp_task    *tasks;        /* committed tasks, in event order */
    uint32_t    n_pathsums;
    rp_pathsum *pathsums;     /* per phase, per selected path: phase-major */
    uint64_t    n_edges;
    rp_edge    *edges;        /* trace mode only, in event order */
    /* path mode: this rank's computation (the sum of its task costs) in
     * each completed phase, phase q at [q]; the per-phase POP factors of
     * rp-report read it (PCMP section).  0 entries: not recorded (another
     * mode, or an older file) */
    uint64_t    n_phase_comp;
    int64_t    *phase_comp;
} rp_rankdata;

/* Write atomically (PATH.tmp.<pid>, fsync, rename).  0 or -1 with errno. */
int  rpfile_write(const char *path, const rp_rankdata *d);
/* The bytes rpfile_write would write, END included, into a malloc'd *buf
 * (the job file's entries, lib/runtime/jobfile.c).  0 or -1 with errno. */
int  rpfile_encode(const rp_rankdata *d, uint8_t **buf, size_t *len);
/* Read and validate everything (magic, version, section bounds, CRC, ids,
 * parent links acyclic and in range, sizes bounded by the file size).
 * 0 on success; -1 with a one-line reason in err (naming the problem, not
 * the file: the caller prefixes the path).  PATH may also name an entry
 * of a job file, "DIR/job.rpj#N" (format/rpjob.h): the same checks run on
 * that entry's bytes. */
int  rpfile_read(const char *path, rp_rankdata *d, char *err, size_t errlen);
void rpfile_free(rp_rankdata *d);   /* frees what rpfile_read allocated */
/* Only the job of PATH (its JOB section), without reading the rest: the
 * container's header and section headers are walked with seeks, no CRC
 * check (rpfile_read does that).  0 with *job filled (id 0: the file has
 * no JOB section, "job unknown"); -1 with a reason in err if the file
 * cannot be walked.  PATH may name a job file's entry as for rpfile_read. */
int  rpfile_read_job(const char *path, rp_jobid *job, char *err, size_t errlen);
/* How many rpfile_read (*full) and rpfile_read_job (*job) calls this
 * process has made, each one open of a file: rp-report's RP_REPORT_READS
 * says them, so a test can catch a file read twice. */
void rpfile_read_counts(uint64_t *full, uint64_t *job);
/* Same job?  Two unknown jobs compare equal. */
int  rpfile_same_job(const rp_jobid *a, const rp_jobid *b);
/* Look up a counter; 0 if absent. */
uint64_t rpfile_counter(const rp_rankdata *d, const char *name);
/* The semantic checks rpfile_read applies after decoding (k, metric
 * columns, ids, parent links, string lengths); rpfile_write applies them
 * too, so a file that would be rejected is never written.  0 or -1 with a
 * reason in err. */
int  rpfile_validate(const rp_rankdata *d, char *err, size_t errlen);

#endif
