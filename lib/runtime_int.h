/* runtime_int.h - runtime functions shared between the MPI-layer files. */
#ifndef RP_RUNTIME_INT_H
#define RP_RUNTIME_INT_H

#include "comm.h"

/* Phase end: commit this rank's items on the selected paths, record the
 * phase's k costs, reset paths, buffer and sampling period. */
void rp_phase_end(void);
/* Dissemination path-allreduce (+ broadcast) over c. */
void rp_coll_allreduce_paths(rp_comm *c);
/* wrap_rma.c: free the shadows of windows never freed (at MPI_Finalize). */
void rp_rma_finalize(void);
/* MPI_Init returned: set everything up (collective over MPI_COMM_WORLD). */
void rp_start(void);
/* MPI_Finalize entered: end the last phase and write the rank file. */
void rp_finish(void);

/* output.c: choose/create the measurement directory (collective); 0 or -1. */
int  output_prepare(void);
/* Write this rank's file; 0 or -1 (warned). */
int  output_write(void);

#endif
