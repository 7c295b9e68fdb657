/* ranks.h - the per-rank view: for every rank its sampled task time,
 * sampled MPI time and sample count, read from the rank files (the merged
 * profile keeps sums over ranks only). */
#ifndef RP_REPORT_RANKS_H
#define RP_REPORT_RANKS_H

#include <stdint.h>
#include <stdio.h>
#include "format/rpfile.h"

typedef struct rp_rankrow {
    uint32_t rank;
    char     host[64];
    int64_t  wall_ns;      /* MPI_Init return .. MPI_Finalize entry */
    /* exact (counter task_time_ns: the sum of the rank's task costs; MPI =
     * wall - task) when the file has it, else the sampled columns
     * RP_MET_RANK and RP_MET_MPI (older files) */
    int      exact;
    int64_t  task_ns;      /* time outside MPI event calls */
    int64_t  mpi_ns;       /* time inside them, waiting included */
    uint64_t samples;      /* the rank's "samples" counter (task and MPI) */
    int64_t  path0_ns;     /* sampled time of the critical (100 %) path on this rank */
    int      has_cpu;      /* the rank file has the two counters below */
    int64_t  cpu_ns;       /* main_thread_cpu_us: CPU time of the MPI thread */
    uint64_t invol_csw;    /* main_thread_involuntary_switches */
    uint32_t host_cpus;    /* host_cpus_online: CPUs online on its host (0: not recorded) */
} rp_rankrow;

/* A rank whose MPI thread had less CPU time than this share of its (wall-
 * clock) task time was descheduled while computing: CPU time covers the
 * tasks plus whatever MPI spent on the CPU, so a running rank has at least
 * its task time.  Its task time, and any imbalance it shows, is partly
 * waiting for a CPU. */
#define RP_RANK_CPU_LOW 0.8

/* Read the rank files of DIR (rankfiles.h) for ranks 0..nranks-1 (unreadable ones are left
 * out: the header already warns about them).  *out is malloc'd; returns
 * the number of rows or -1 on ENOMEM. */
int32_t ranks_load(const char *dir, uint32_t nranks, rp_rankrow **out);
/* One rank file's row (what ranks_load makes of each file it keeps). */
void ranks_row(const rp_rankdata *d, rp_rankrow *x);

/* Ranks sharing CPUs, said once in the header of every view: hosts with
 * more ranks than CPUs online (host_cpus_online), and ranks with less CPU
 * time than RP_RANK_CPU_LOW of their task time (descheduled).  1 with a
 * one-line account in buf (what was seen, and what it means for the
 * numbers), 0 when neither was seen. */
int report_oversubscribed(const rp_rankrow *r, uint32_t n, char *buf, size_t len);

/* Text: the ranks with the most and the least task time (top rows each),
 * with min / median / max over all ranks. */
void ranks_text(FILE *f, const rp_rankrow *r, uint32_t n, uint32_t top);
/* JSON: the array of every rank's row (no surrounding key). */
void ranks_json(FILE *f, const rp_rankrow *r, uint32_t n);

#endif
