/* hooks.h - what every MPI wrapper calls: the event bracket (task end on
 * entry, task start on return) and one hook per kind of call.  The
 * generated wrappers (gen_wrap.c) and the hand-written ones (wrap_*.c) are
 * thin adapters around these. */
#ifndef RP_HOOKS_H
#define RP_HOOKS_H

#include <limits.h>
#include <mpi.h>
#include "runtime/runtime.h"
#include "mpi/gen_fnids.h"
#include "exchange/reqtab.h"
#include "modes/modes.h"
#include "format/rpfile.h"
#include "runtime/runtime_int.h"
#include "runtime/fault.h"

/* wrap_init.c: this layer as the runtime sees it. */
extern const rp_mpi_layer rp_mpi_self;
/* wrap_init.c: 0 if the running MPI is not the one this library was built
 * for (message printed once); the caller then does not start the runtime. */
int rp_mpi_matches(void);
/* wrap_rma.c, wrap_io.c: free the shadows of windows never freed and of
 * files never closed (at MPI_Finalize). */
void rp_rma_finalize(void);
void rp_io_finalize(void);
/* wrap_coll.c: all members of shadow c join all (a window's fence, a
 * file's collective operation: wrap_rma.c, wrap_io.c); never a phase end. */
void rp_join_all_on(rp_comm *c);
/* wrap_coll.c: a non-blocking collective over all members of shadow c
 * started with user request req: joined at its completion. */
void rp_hook_nbc_on(rp_comm *c, MPI_Request req);


/* Profile this call?  Not before MPI_Init / after MPI_Finalize, and not
 * when we are already inside a wrapper: an MPI whose Fortran binding calls
 * the C MPI_* symbol must not count the call twice.  The main thread's path
 * is the same loads and branches as before threads were handled. */
static inline int rp_active(void)
{
    if (__builtin_expect(rp_tls_main, 1))
        return rp_rt.active && !rp_rt.in_mpi;
    return rp_active_other();
}

#define rp_compiler_barrier() __asm__ __volatile__("" ::: "memory")

/* Entry of an event: the running task ends here.  in_mpi is raised first so
 * a SIGPROF arriving from now on leaves the path-set alone. */
static inline void rp_enter(int fn)
{
    rp_rt.in_mpi = 1;
    rp_compiler_barrier();
    rp_rt.cur_fn = fn;
    int64_t now = rp_now_ns();
    rp_rt.mpi_enter_ns = now;
    int64_t cost = now - rp_rt.task_start_ns;
    if (cost < 0)
        cost = 0;
    pathset_add_cost(&rp_rt.ps, cost);
    rp_rt.task_total_ns += cost;
    rp_mode->task_end(fn, cost);
    /* A long phase never reaches the phase-end checkpoint: write one here
     * (issue 13; one compare on every event). */
    if (__builtin_expect(rp_rt.ckpt_due_ns != 0 && now >= rp_rt.ckpt_due_ns, 0))
        rp_fault_tick(now);
}

/* Return of an event: the next task starts now. */
static inline void rp_leave(void)
{
    /* The sampler slowed its timer for a waiting call (issue 16); restored
     * while in_mpi is still raised, so no task sample sees the slow timer. */
    if (__builtin_expect(rp_rt.timer_backoff, 0))
        sample_mpi_leave();
    /* atomic (a plain 8-byte store on x86-64): worker threads' handlers
     * read it to tag their samples with the current task */
    __atomic_store_n(&rp_rt.task_start_ns, rp_now_ns(), __ATOMIC_RELAXED);
    rp_compiler_barrier();
    rp_rt.in_mpi = 0;
}

/* Purely local calls (receive posting, persistent set-up) are not events:
 * the task goes on, but a sample inside them is MPI time. */
static inline void rp_enter_local(int fn)
{
    rp_rt.in_mpi = 1;
    rp_compiler_barrier();
    rp_rt.cur_fn = fn;
    rp_rt.mpi_enter_ns = rp_now_ns();
}
static inline void rp_leave_local(void)
{
    rp_compiler_barrier();
    rp_rt.in_mpi = 0;
}

/* Point-to-point (wrap_p2p.c). */
/* Send the path-set of a message to dest, before the payload's call
 * (MPI_Sendrecv, MPI_Isendrecv). */
void rp_hook_branch(int dest, int tag, MPI_Comm comm);
/* The same after the payload's call succeeded (rp_hook_branch_first
 * declined): never through the mailbox. */
void rp_hook_branch_after(int dest, int tag, MPI_Comm comm);
/* A large-count call's count as the hooks' int: only its sign and whether
 * it is plainly valid matter to them. */
static inline int rp_count_int(MPI_Count c)
{
    return c < 0 ? -1 : c > INT_MAX ? INT_MAX : (int)c;
}

/* The same before the payload's send call, so the receiver may join it
 * while the payload is still on its way: 1 if done (or nothing to do), 0
 * if the arguments might make the call fail -- then the caller sends it
 * with rp_hook_branch_after after a successful call. */
int  rp_hook_branch_first(int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
/* A blocking receive whose path-set can be joined while the payload is
 * still on its way (known source and tag, prof mode): does the whole
 * receive and join, sets *rc and returns 1; 0 when the caller should do
 * PMPI_Recv and rp_hook_join itself. */
int  rp_recv_overlap(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Status *st, int *rc);
void rp_hook_join(MPI_Status *st, MPI_Comm comm);
void rp_hook_irecv(MPI_Request req, int source, int tag, MPI_Comm comm, int persistent);
/* MPI_Isendrecv[_replace][_c] (MPI-4): the receive part, as rp_hook_irecv,
 * but a wildcard source or tag is not joined (counted as unsupported). */
void rp_hook_isendrecv(MPI_Request req, int source, int tag, MPI_Comm comm);
/* Matched probes (MPI-3): a probe matched message msg (status st) on comm;
 * its matched receive completed with status st (join), or posted request
 * req (tracked as a receive from the probe's source and tag).  msg as the
 * probe returned it, before the receive set it to MPI_MESSAGE_NULL. */
void rp_hook_mprobe(MPI_Message msg, const MPI_Status *st, MPI_Comm comm);
void rp_hook_mrecv(MPI_Message msg, const MPI_Status *st);
void rp_hook_imrecv(MPI_Message msg, MPI_Request req);
void rp_hook_psend_init(MPI_Request req, int dest, int tag, MPI_Comm comm);
/* Collectives (wrap_coll.c). */
void rp_hook_coll_all(MPI_Comm comm);
/* All-to-all collectives post their first exchange round before the user's
 * call (rp_hook_coll_all_start) and complete it in rp_hook_coll_all, or
 * withdraw it when the user's call failed (rp_hook_coll_abort). */
void rp_hook_coll_all_start(MPI_Comm comm);
void rp_hook_coll_abort(void);
/* MPI_Barrier: 1 if the path exchange itself was the barrier (every member
 * leaves it only after all entered), so the caller makes no PMPI_Barrier;
 * 0 if the caller brackets PMPI_Barrier with the two hooks above. */
int  rp_hook_barrier(MPI_Comm comm);
/* MPI_Bcast: 1 if the broadcast ran carrying the root's path-set (its
 * result in *rc), so the caller makes no PMPI_Bcast; 0 if the caller
 * brackets PMPI_Bcast with the rooted hooks below. */
int  rp_hook_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, int *rc);
void rp_hook_coll_scan(MPI_Comm comm);
void rp_hook_coll_in(int root, MPI_Comm comm);
void rp_hook_coll_out(int root, MPI_Comm comm);
/* Rooted collectives on small communicators post the sets' transfers
 * before the user's call (rp_hook_coll_{in,out}_start) and complete them
 * in rp_hook_coll_{in,out}, or withdraw them when the call failed. */
void rp_hook_coll_out_start(int root, MPI_Comm comm);
void rp_hook_coll_in_start(int root, MPI_Comm comm);
void rp_hook_coll_rooted_abort(void);
/* Non-blocking collectives (wrap_coll.c): kind RP_COLL_*, root or -1. */
void rp_hook_nbc(int kind, int root, MPI_Comm comm, MPI_Request req);
/* MPI-4 persistent collectives and partitioned communication (wrap_p2p.c):
 * request req was set up; its starts are counted, not followed. */
void rp_hook_unfollowed_init(MPI_Request req);
/* Neighbourhood collectives (wrap_coll.c): join the in-neighbours' sets.
 * The non-blocking ones go through rp_hook_nbc with this kind (never
 * written to a file: the trace format has no neighbourhood edges). */
#define RP_NBC_NEIGHBOR 16
void rp_hook_neighbor(MPI_Comm comm);
/* One-sided communication (wrap_rma.c). */
void rp_hook_win_new(MPI_Comm comm, MPI_Win win);
void rp_hook_win_free(MPI_Win win);
void rp_hook_win_fence(MPI_Win win);
/* A general active- or passive-target synchronisation: not followed, counted. */
void rp_hook_rma_sync(void);
/* MPI-IO (wrap_io.c): file fh was opened over comm (it gets a shadow, and
 * all join all); a collective operation on fh returned, successfully or
 * not (all join all); fh (its handle before the call) was closed (all
 * join all; its shadow goes if the call freed the handle, which ROMIO
 * does even when it fails); a non-blocking collective one was started
 * (joined at completion). */
void rp_hook_file_open(MPI_Comm comm, MPI_File fh);
void rp_hook_file_coll(MPI_File fh);
void rp_hook_file_close(MPI_File fh, int freed);
void rp_hook_file_nbc(MPI_File fh, MPI_Request req);
/* Communicators (comm.c). */
void rp_hook_comm_new(MPI_Comm comm);
void rp_hook_comm_free(MPI_Comm comm);

/* ---- request completion (defined in this folder) ------------------------ */
/* A tracked request completed with status st (never MPI_STATUS_IGNORE):
 * join a receive's path-set, forget a non-persistent request.  wrap_p2p.c */
void rp_req_completed(rp_req *e, MPI_Status *st);
/* wrap_coll.c: complete a non-blocking collective's path exchange and join
 * (join = 0: the user freed the request; just finish and forget). */
void rp_nbc_complete(struct rp_nbc *x, int join);
/* At Finalize: finish exchanges whose requests the user freed. */
void rp_nbc_finalize(void);

/* Used by the Fortran bindings (fortran.c): */
/* wrap_wait.c: copy the C handles of count Fortran requests into the
 * Wait/Test snapshot; 1 if any is tracked (then rp_wait_complete is valid). */
int  rp_wait_snapshot_f(int count, const MPI_Fint freqs[]);
/* wrap_wait.c: snapshot entry i completed with C status st (never IGNORE). */
void rp_wait_complete(int i, MPI_Status *st);
/* wrap_p2p.c: binding-neutral bodies of MPI_Start[all] and MPI_Request_free.
 * A binding reads its handles through an rp_handle_at (C: rp_handle_c). */
typedef MPI_Request (*rp_handle_at)(const void *reqs, int i);
MPI_Request rp_handle_c(const void *reqs, int i);
/* Around the real start of n persistent requests: enter returns whether the
 * call is an event (a send starts) and must be passed to leave; ok: the
 * call succeeded. */
int  rp_start_enter(int fn, int n, const void *reqs, rp_handle_at at);
void rp_start_leave(int event, int ok, int n, const void *reqs, rp_handle_at at);
/* Before the real MPI_Request_free of C handle h; rp_leave_local() after. */
void rp_request_free_enter(MPI_Request h);

/* Name of the MPI function with generated id fn ("MPI_Send") and how many
 * there are (generated: gen_wrappers.c). */
const char *rp_fn_name(int fn);
int rp_fn_count(void);

#endif
