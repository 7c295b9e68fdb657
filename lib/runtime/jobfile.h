/* jobfile.h - writing the job's one file (job.rpj, format/rpjob.h) at
 * MPI_Finalize instead of a rank file per rank (RP_JOBFILE), with MPI-IO
 * or gathered to rank 0 (RP_JOBFILE_IO). */
#ifndef RP_JOBFILE_H
#define RP_JOBFILE_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

/* Where and with whom: passed in by output.c. */
typedef struct rp_jobout {
    const char *via;      /* directory prefix the files are written through */
    MPI_Comm    comm;     /* a shadow of MPI_COMM_WORLD (never the user's) */
    uint32_t    rank, nranks;
    int         gather;   /* RP_JOBFILE_IO=gather (rank 0's): rank 0 writes it all */
} rp_jobout;

/* Collective over o->comm, called by every rank with its encoded rank file
 * (buf NULL: this rank could not encode it).  Every rank takes the same
 * branches (each decision is a collective's result), so none can hang.
 * 1: the job file was written and renamed into place on every rank's
 * word; 0: it was not (partial file removed), and every rank must write
 * its own rank file; why then holds what failed (the same on every rank). */
int jobfile_write(const rp_jobout *o, const uint8_t *buf, size_t len, char *why, size_t whycap);

#endif
