/* phasebatch.h - phase ends exchanged several at once (phasebatch.c). */
#ifndef RP_PHASEBATCH_H
#define RP_PHASEBATCH_H

#include <stdint.h>
#include "core/state.h"
#include "exchange/comm.h"

/* Batches of `batch` phases (1: off) over st's sets and buffers.  0, or
 * -1 without memory (at start-up, agreed by all ranks). */
int  phasebatch_init(rp_state *st, uint32_t batch);
/* 1 if phase ends are batched. */
int  phasebatch_on(void);
/* Ended phases held, not yet exchanged and booked. */
uint32_t phasebatch_pending(void);
/* 1 if the next phase end runs the exchange (the batch is then full). */
int  phasebatch_exchanges_next(void);
/* The phase ended at an all-to-all collective over c (a communicator
 * spanning MPI_COMM_WORLD): keep it; if the batch is full, or last (the
 * job's last phase, at MPI_Finalize), exchange every held phase's set over
 * c and book them in order.  Then the next phase starts. */
void phasebatch_end(rp_comm *c, int last);

#endif
