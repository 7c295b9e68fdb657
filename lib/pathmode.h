/* pathmode.h - RP_MODE=path (k full paths, lazy commit of the tasks on the
 * selected paths) and RP_MODE=trace (every task and every message and
 * collective edge committed eagerly: the paper's BasePath, the oracle for
 * the offline checker).  Called only from the MPI layer (main thread,
 * in_mpi > 0). */
#ifndef RP_PATHMODE_H
#define RP_PATHMODE_H

#include <stdint.h>
#include <mpi.h>
#include "comm.h"

/* Bytes the trace-mode prefix adds to a point-to-point path-set message:
 * the sender's world rank (u32) and event number (u64). */
#define RP_TRACE_PREFIX 12u

int  pathmode_init(void);
/* Event entry (task end): the task that ends at function fn with cost_ns. */
void pathmode_task_end(int fn, int64_t cost_ns);
/* Number of the current event (the one being executed). */
uint64_t pathmode_event(void);
/* A point-to-point path-set from world rank `src` (sender's event
 * `src_event` in trace mode) carrying `bytes` of payload was joined;
 * `from_msg` says whether it brought the most critical path. */
void pathmode_msg_joined(uint32_t src, uint64_t src_event, uint32_t bytes, int from_msg);
/* A collective on c joined paths (kind RP_COLL_*, root in c or -1). */
void pathmode_coll(rp_comm *c, int kind, int root, int phase_end);
/* The two halves of a non-blocking collective: at the call (returns the
 * instance number to pass at completion) and at completion. */
uint64_t pathmode_nbc_call(rp_comm *c, int kind, int root);
void pathmode_nbc_done(rp_comm *c, int kind, int root, uint64_t no);
/* Phase end: commit (path) / record costs (trace) before the reset. */
void pathmode_phase_end(uint64_t phase);
/* Hand the committed data to the rank file. */
struct rp_rankdata;
void pathmode_export(struct rp_rankdata *d);

#endif
