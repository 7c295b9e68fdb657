/* report_ranks.h - the per-rank view: for every rank its sampled task time,
 * sampled MPI time and sample count, read from the rank files (the merged
 * profile keeps sums over ranks only). */
#ifndef RP_REPORT_RANKS_H
#define RP_REPORT_RANKS_H

#include <stdint.h>
#include <stdio.h>

typedef struct rp_rankrow {
    uint32_t rank;
    char     host[64];
    int64_t  wall_ns;      /* MPI_Init return .. MPI_Finalize entry */
    int64_t  task_ns;      /* sampled time outside MPI (column RP_MET_RANK) */
    int64_t  mpi_ns;       /* sampled time inside MPI (column RP_MET_MPI) */
    uint64_t samples;      /* the rank's "samples" counter (task and MPI) */
} rp_rankrow;

/* Read the rank files of DIR (rankfiles.h) for ranks 0..nranks-1 (unreadable ones are left
 * out: the header already warns about them).  *out is malloc'd; returns
 * the number of rows or -1 on ENOMEM. */
int32_t ranks_load(const char *dir, uint32_t nranks, rp_rankrow **out);

/* Text: the ranks with the most and the least task time (top rows each),
 * with min / median / max over all ranks. */
void ranks_text(FILE *f, const rp_rankrow *r, uint32_t n, uint32_t top);
/* JSON: the array of every rank's row (no surrounding key). */
void ranks_json(FILE *f, const rp_rankrow *r, uint32_t n);

#endif
