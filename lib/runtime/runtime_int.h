/* runtime_int.h - runtime functions shared between the MPI-layer files. */
#ifndef RP_RUNTIME_INT_H
#define RP_RUNTIME_INT_H

#include "exchange/comm.h"
#include "runtime/runtime.h"

/* Phase end: commit this rank's items on the selected paths, record the
 * phase's k costs, reset paths, buffer and sampling period
 * (rp_phase_book of the rank's own set, then rp_phase_restart). */
void rp_phase_end(void);
/* Book one ended phase: ps its final set (identical on every rank), items
 * its uncommitted items on this rank. */
void rp_phase_book(const rp_pathset *ps, const rp_itembuf *items);
/* Start the next phase: reset the rank's set, buffer, sampling period and
 * clock base; a checkpoint if one is due. */
void rp_phase_restart(void);
/* What the MPI layer hands the runtime at start-up: the names of its
 * functions (MPI pseudo-frames of the calling-context tree), the id of
 * MPI_Init (the event that starts the first task), and the clean-up of its
 * own state at MPI_Finalize (non-blocking collectives in flight, windows
 * and files never freed), run after the last phase and before the shadows go. */
typedef struct rp_mpi_layer {
    const char *(*fn_name)(int fn);
    int         fn_count;
    int         init_fn;
    void      (*finalize_nbc)(void);
    void      (*finalize_shadows)(void);
} rp_mpi_layer;

/* MPI_Init returned: set everything up (collective over MPI_COMM_WORLD). */
void rp_start(const rp_mpi_layer *m);
/* MPI_Finalize entered: end the last phase and write the rank file. */
void rp_finish(void);

/* output.c: choose/create the measurement directory (collective); 0 or -1. */
int  output_prepare(void);
/* Write this rank's file; 0 or -1 (warned). */
int  output_write(void);

#endif
