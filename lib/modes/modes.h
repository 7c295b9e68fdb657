/* modes.h - what each RP_MODE does at the events the MPI layer and the
 * runtime see, behind one table of operations (no mode checks elsewhere):
 *   prof  - path profiles: samples on the selected paths (modes/prof.c)
 *   path  - k full paths: the tasks on the selected paths (modes/pathmode.c)
 *   trace - every task and every edge, the paper's BasePath and the oracle
 *           of rp-report --check (modes/pathmode.c)
 * Called from the main thread with in_mpi > 0. */
#ifndef RP_MODES_H
#define RP_MODES_H

#include <stdint.h>
#include "core/pathset.h"
#include "core/state.h"
#include "core/vocab.h"
#include "exchange/comm.h"
#include "exchange/proto.h"

struct rp_rankdata;

typedef struct rp_mode_ops {
    uint32_t        mode;          /* RP_MODE_* */
    const char     *name;          /* as RP_MODE spells it */
    rp_summary_mode summary;       /* what a full path-summary does */
    rp_comm_opts    comm;          /* uniform_uids, merge_inter (rank fields unused) */
    /* 1: a blocking receive may join the path-set while its payload is in
     * transit (the mode needs no payload size at the join) */
    int             recv_overlap;
    /* the mode's observer of point-to-point path-set messages, or NULL */
    const rp_msg_observer *msgs;
    /* 1: the mode records the payload size of each joined message */
    int             wants_bytes;
    /* 1: neighbourhood collectives are followed (trace mode cannot express
     * their edges: counted as unsupported there) */
    int             neighbors;
    /* 1: phase ends may be exchanged and booked several at once
     * (RP_PHASE_BATCH, lib/runtime/phasebatch.c): phase_end reads only its
     * arguments and the calling-context tree */
    int             batch_phases;

    /* st: the process state; init_fn: the function id of MPI_Init (the event
     * that starts the first task).  0, or -1 (no memory). */
    int      (*init)(rp_state *st, int init_fn);
    void     (*task_end)(int fn, int64_t cost_ns);   /* every event's entry */
    /* a collective on c joined paths (kind RP_COLL_*, root in c or -1) */
    void     (*coll)(rp_comm *c, int kind, int root, int phase_end);
    /* the two halves of a non-blocking collective: at the call (returns the
     * instance number to pass at completion) and at completion */
    uint64_t (*nbc_call)(rp_comm *c, int kind, int root);
    void     (*nbc_done)(rp_comm *c, int kind, int root, uint64_t no);
    /* phase end: commit what lies on the selected paths.  ps: the phase's
     * final set (identical on every rank), items: its uncommitted items
     * here; near[j]: the held path that report slot j shows
     * (select_nearest).  A mode without batch_phases is called before the
     * reset, with the rank's own set and buffer. */
    void     (*phase_end)(uint64_t phase, const uint8_t *near, const rp_pathset *ps,
                          const rp_itembuf *items);
    /* Finalize: hand the committed records to the rank file */
    void     (*export)(struct rp_rankdata *d);
} rp_mode_ops;

/* The table of mode RP_MODE_* `mode` (prof for an unknown value). */
const rp_mode_ops *mode_ops(uint32_t mode);

extern const rp_mode_ops rp_mode_prof, rp_mode_path, rp_mode_trace;

#endif
