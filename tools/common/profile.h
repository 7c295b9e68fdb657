/* profile.h - the merged profile (DIR/profile.rpm): the union of every
 * rank's calling-context tree, symbolised, with metrics summed over ranks.
 * Written by rp-merge, read by rp-report; layout in doc/formats.md. */
#ifndef RP_PROFILE_H
#define RP_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include "core/phasestats.h"
#include "format/rpfile.h"

#define RP_PROFILE_MAGIC   "RPMERGE\n"
#define RP_PROFILE_VERSION 2u   /* 2: varint STAT and NODE entries (issue 16) */

/* Kinds of symbols. */
enum {
    RP_SYM_FRAME = 0,     /* a machine address in a module */
    RP_SYM_MPI = 1,       /* MPI pseudo-frame: the function is the MPI call */
    RP_SYM_UNKNOWN = 2,   /* "<unknown>": time of evicted summary intervals */
};
/* Symbol flags. */
#define RP_SYMF_CALLSITE 0x1u  /* looked up at offset-1 (a return address) */
#define RP_SYMF_LINES    0x2u  /* source lines came from DWARF */
#define RP_SYMF_FALLBACK 0x4u  /* module missing / build-id mismatch: module+0xoff */

/* One source-level frame.  A machine address can stand for several when
 * the compiler inlined: frames[first .. first+n) go from the function the
 * address physically lies in (outermost) to the innermost inlined one. */
typedef struct rp_pframe {
    uint32_t func;   /* string id */
    uint32_t file;   /* string id ("" when unknown) */
    uint32_t line;   /* 0 when unknown */
} rp_pframe;

typedef struct rp_psym {
    uint32_t kind;       /* RP_SYM_* */
    uint32_t flags;      /* RP_SYMF_* */
    uint32_t module;     /* string id of the module path ("" for pseudo-frames) */
    uint64_t offset;     /* offset inside the module as recorded (not -1'd) */
    uint32_t first, n;   /* frames[first .. first+n), n >= 1 */
} rp_psym;

typedef struct rp_pnode {
    uint32_t parent;     /* UINT32_MAX for the root (node 0); else < own index */
    uint32_t sym;        /* index into syms; UINT32_MAX for the root */
} rp_pnode;

typedef struct rp_profile {
    uint32_t ranks_present, nranks;
    uint32_t k, mode, select, summary_cap, period_us, clock;
    uint32_t phase_k;   /* paths of the phase-end exchange (rank files'); 0: not recorded */
    int64_t  wall_ns;            /* max over ranks */
    char     exe[256];
    /* rp-merge --min-share (prune.h): contexts folded, the share in %
     * (version 2; 0 and 0 when nothing was folded or asked) */
    uint32_t n_folded;
    double   min_share_pct;

    uint32_t  n_missing;         /* ranks in 0..nranks-1 absent or unreadable */
    uint32_t *missing;
    /* In memory only (never in profile.rpm, which rp-merge writes from one
     * job): when the directory held rank files of several jobs, the one
     * merged (rankfiles_job_name) and the files of the others, left out
     * ("DIR/rank-NNNNN.rpp: job ..."); "" and 0 otherwise. */
    char      job[400];
    char      last_job[400];   /* the job that claimed the directory last when it
                                  left no rank file (rankfiles.h "stale"): the
                                  files are an older job's; "" otherwise */
    uint32_t  n_jobs;
    uint32_t  n_left_out;
    char    **left_out;

    rp_phasestats stats;         /* the path costs per phase (see merge.c) */

    uint32_t    n_counters;      /* summed over ranks */
    rp_counter *counters;

    uint32_t   n_strs;
    char     **strs;             /* string table; strs[0] is "" */
    uint32_t   n_frames;
    rp_pframe *frames;
    uint32_t   n_syms;
    rp_psym   *syms;

    uint32_t  n_nodes, n_metrics; /* n_metrics = 2 + k, columns as in rpfile.h */
    rp_pnode *nodes;
    int64_t  *metrics;            /* n_nodes * n_metrics, ns, exclusive */
} rp_profile;

int  profile_write(const char *path, const rp_profile *p);
/* Read and validate (same container and rigour as rank files).  0 or -1
 * with a one-line reason in err. */
int  profile_read(const char *path, rp_profile *p, char *err, size_t errlen);
void profile_free(rp_profile *p);
uint64_t profile_counter(const rp_profile *p, const char *name);
const char *profile_mode_name(uint32_t mode);
const char *profile_select_name(uint32_t sel);

#endif
