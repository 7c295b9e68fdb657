/* wrap_p2p.c - point-to-point hooks and the hand-written p2p wrappers
 * (persistent start, request free/cancel).  Branch = send my
 * path-set (before the payload for sends, after the start for persistent
 * ones); join = receive the sender's, once the payload's status names it,
 * or while the payload is on its way when source and tag are known (paper
 * Fig. 3 lines 1-24); matched probes keep their message until its receive. */
#include <mpi.h>
#include "mpi/hooks.h"
#include "exchange/comm.h"
#include "exchange/proto.h"
#include "exchange/reqtab.h"
#include "mpi/fortran.h"

/* Branch before (early) or after the payload's call. */
static void branch(int dest, int tag, MPI_Comm comm, int early)
{
    if (rp_rt.local_paths)     /* MPI_THREAD_MULTIPLE: no exchange */
        return;
    rp_comm *c = comm_lookup(comm);
    if (!c) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    proto_branch(c, dest, tag, early);
}

void rp_hook_branch(int dest, int tag, MPI_Comm comm) { branch(dest, tag, comm, 1); }
void rp_hook_branch_after(int dest, int tag, MPI_Comm comm) { branch(dest, tag, comm, 0); }

/* MPI_TAG_UB, read once (the attribute is fixed for the job). */
static int tag_ub(void)
{
    static int ub = -1;   /* main thread (or a serialized caller) only */
    if (ub < 0) {
        int *v = NULL, flag = 0;
        PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag);
        ub = (flag && v) ? *v : 32767;   /* 32767: the least the standard allows */
    }
    return ub;
}

int rp_hook_branch_first(int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return 1;          /* nothing to send, before or after */
    rp_comm *c = comm_lookup(comm);
    if (!c) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return 1;
    }
    /* A set sent for a payload that then fails would be joined with the
     * next payload from us with that tag (and one is left over at the
     * end), so only calls whose arguments are plainly valid send first;
     * the others send after a successful call, as before. */
    if (c->inter || count < 0 || datatype == MPI_DATATYPE_NULL || tag < 0 || tag > tag_ub() ||
        ((dest < 0 || dest >= c->size) && dest != MPI_PROC_NULL))
        return 0;
    proto_branch(c, dest, tag, 1);
    return 1;
}

/* Payload bytes of a completed receive (recorded in path/trace modes). */
static uint32_t payload_bytes(const MPI_Status *st)
{
    int n = 0;
    if (!rp_mode->wants_bytes)
        return 0;
    if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        return 0;
    return (uint32_t)n;
}

/* A payload receive completed with status st (not cancelled). */
static void join_status(rp_comm *c, const MPI_Status *st)
{
    if (st->MPI_SOURCE == MPI_PROC_NULL)
        return;
    proto_join_from(c, st->MPI_SOURCE, st->MPI_TAG, payload_bytes(st));
}

void rp_hook_join(MPI_Status *st, MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = comm_lookup(comm);
    if (!c) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    join_status(c, st);
}

int rp_recv_overlap(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Status *st, int *rc)
{
    /* Path and trace modes record the payload's size with the join, which
     * is known only once the payload is in: they join after it. */
    if (rp_rt.local_paths || !rp_mode->recv_overlap || source == MPI_ANY_SOURCE ||
        source == MPI_PROC_NULL || tag == MPI_ANY_TAG)
        return 0;
    rp_comm *c = comm_lookup(comm);
    if (!c)
        return 0;
    /* Receive order is the payloads' order: the path-set receive matches
     * the same (source, tag) as the payload's, posted at the same time. */
    rp_prepost *pp = proto_prepost(c, source, tag);
    if (!pp)
        return 0;
    MPI_Request payload;
    int e = PMPI_Irecv(buf, count, datatype, source, tag, comm, &payload);
    if (e != MPI_SUCCESS) {
        proto_cancel_prepost(pp);   /* never matched: its set is for a later receive */
        *rc = e;
        return 1;
    }
    /* The sender sent the set first, so this returns before the payload is
     * in (or at once); the join overlaps the payload's transfer. */
    proto_join_prepost(pp, c, source, 0);
    *rc = PMPI_Wait(&payload, st);
    return 1;
}

/* ---- matched probes (MPI-3) ---------------------------------------------
 * MPI_Mprobe/Improbe take a message out of matching and MPI_Mrecv/Imrecv
 * receive it later through its handle, which does not name the
 * communicator.  The probe's wrapper keeps (message, communicator, source,
 * tag) here until the receive, which then joins as MPI_Recv/Irecv do.  The
 * join is at the receive, not the probe: for an intercommunicator the
 * sender sends the path-set after its payload call, which for a large or
 * synchronous payload completes only once the receive has begun.  Main
 * thread (or serialized callers) only, like every hook. */
#define RP_MPROBED_MAX 64
typedef struct mprobed {
    MPI_Message msg;
    MPI_Comm comm;
    int source, tag;
} mprobed;
static mprobed g_mprobed[RP_MPROBED_MAX];
static uint32_t g_n_mprobed;

/* The entry of msg, taken out of the table; 0 if none. */
static int mprobed_take(MPI_Message msg, mprobed *out)
{
    for (uint32_t i = 0; i < g_n_mprobed; i++)
        if (g_mprobed[i].msg == msg) {
            *out = g_mprobed[i];
            g_mprobed[i] = g_mprobed[--g_n_mprobed];
            return 1;
        }
    return 0;
}

void rp_hook_mprobe(MPI_Message msg, const MPI_Status *st, MPI_Comm comm)
{
    if (rp_rt.local_paths || msg == MPI_MESSAGE_NO_PROC || msg == MPI_MESSAGE_NULL ||
        st->MPI_SOURCE == MPI_PROC_NULL)
        return;
    mprobed old;
    (void)mprobed_take(msg, &old);   /* a handle received elsewhere and reused */
    if (!comm_lookup(comm) || g_n_mprobed == RP_MPROBED_MAX) {
        rp_counters[RP_CNT_UNSUPPORTED]++;   /* its path-set stays unmatched */
        return;
    }
    g_mprobed[g_n_mprobed++] = (mprobed){ msg, comm, st->MPI_SOURCE, st->MPI_TAG };
}

/* A matched receive of msg: its probe's entry, taken out of the table; 0
 * when there is nothing to join (no exchange, the no-process message) or
 * the probe was not seen (counted). */
static int mprobed_claim(MPI_Message msg, mprobed *e)
{
    if (rp_rt.local_paths || msg == MPI_MESSAGE_NO_PROC)
        return 0;
    if (!mprobed_take(msg, e)) {
        rp_counters[RP_CNT_UNSUPPORTED]++;   /* probed where we did not see it */
        return 0;
    }
    return 1;
}

void rp_hook_mrecv(MPI_Message msg, const MPI_Status *st)
{
    mprobed e;
    if (!mprobed_claim(msg, &e))
        return;
    rp_comm *c = comm_lookup(e.comm);
    if (c)
        join_status(c, st);
}

void rp_hook_imrecv(MPI_Message msg, MPI_Request req)
{
    mprobed e;
    if (mprobed_claim(msg, &e))
        rp_hook_irecv(req, e.source, e.tag, e.comm, 0);
}

/* Pre-post only when source and tag are both known: then the path-set
 * receive matches in exactly the payload's order.  Wildcards wait for the
 * status. */
static void maybe_prepost(rp_req *e)
{
    if (e->peer != MPI_ANY_SOURCE && e->peer != MPI_PROC_NULL && e->tag != MPI_ANY_TAG)
        e->pp = proto_prepost(e->comm, e->peer, e->tag);
}

/* Track a receive request (rp_hook_irecv, rp_hook_isendrecv), pre-posted
 * unless persistent.  nostatus: its completion's status is not to be read
 * (MPI_Isendrecv). */
static void track_recv(MPI_Request req, int source, int tag, MPI_Comm comm, int persistent,
                       int nostatus)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = comm_lookup(comm);
    if (!c) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    /* An MPI_PROC_NULL receive has nothing to join.  Not tracked: MPICH 4.0
     * returns one shared predefined handle for all of them (and for other
     * requests complete at creation), so it is no key for our table. */
    if (source == MPI_PROC_NULL && !persistent)
        return;
    rp_req *e = reqtab_add(req);
    if (!e)
        return;
    e->kind = RQ_RECV;
    e->persistent = (uint8_t)persistent;
    e->nostatus = (uint8_t)nostatus;
    e->peer = source;
    e->tag = tag;
    reqtab_set_comm(e, c);
    if (!persistent) {
        e->active = 1;
        maybe_prepost(e);
    }
}

void rp_hook_irecv(MPI_Request req, int source, int tag, MPI_Comm comm, int persistent)
{
    track_recv(req, source, tag, comm, persistent, 0);
}

void rp_hook_isendrecv(MPI_Request req, int source, int tag, MPI_Comm comm)
{
    /* MPICH 4.0.2's MPI_Isendrecv leaves the status it completes with unset
     * (source 0, tag 0, count 0, or whatever the caller's status held), so
     * nothing is read from it: a known source and tag pre-post as an
     * MPI_Irecv does and join from the posted source, the message's size
     * recorded as 0 (unknown).  A wildcard receive's sender cannot be told
     * at all: that join is missing (counted), the sender's path-set stays
     * queued, and the next receive from that sender with that tag joins it
     * instead of its own (every later one a set behind; one is left over
     * at the end, pathset_unmatched). */
    if (source == MPI_PROC_NULL || rp_rt.local_paths)
        return;   /* nothing sent to us / no exchange at all */
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    track_recv(req, source, tag, comm, 0, 1);
}

void rp_hook_psend_init(MPI_Request req, int dest, int tag, MPI_Comm comm)
{
    if (rp_rt.local_paths)
        return;
    rp_comm *c = comm_lookup(comm);
    if (!c) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return;
    }
    rp_req *e = reqtab_add(req);
    if (!e)
        return;
    e->kind = RQ_PSEND;
    e->persistent = 1;
    e->peer = dest;
    e->tag = tag;
    reqtab_set_comm(e, c);
}

/* MPI-4 persistent collectives and partitioned communication: their
 * partners are of the same form (no path-set is awaited), and their
 * synchronisation is not followed: each start is counted.  (Following a
 * persistent collective as an MPI-3 non-blocking one, an exchange started
 * at each MPI_Start, crashed MPICH 4.0.2: its persistent MPI_Allgather at 4
 * ranks faults on its fourth start while an MPI_Iallgather on another
 * communicator is in flight, without the profiler too; doc/design.md,
 * "MPI-4".) */
void rp_hook_unfollowed_init(MPI_Request req)
{
    if (rp_rt.local_paths || req == MPI_REQUEST_NULL)
        return;
    rp_req *e = reqtab_add(req);
    if (e) {
        e->kind = RQ_UNFOLLOWED;
        e->persistent = 1;
    }
}

/* ---- completion of tracked requests (used by wrap_wait.c) -------------- */

/* Join a completed receive that was not pre-posted.  MPI lets a program
 * free the communicator with the receive in flight, and the shadows went
 * with the free: a mailbox peer's set is still in the mailbox, which needs
 * no shadow (proto_join_freed); otherwise the join is not made. */
static void join_late(rp_req *e, int src, int tag, uint32_t bytes)
{
    if (e->comm->live || e->comm == comm_world())
        proto_join_from(e->comm, src, tag, bytes);
    else
        proto_join_freed(e->comm, src, tag, bytes);
}

/* `e` completed with status st (a real status, never IGNORE). */
void rp_req_completed(rp_req *e, MPI_Status *st)
{
    if (e->persistent && !e->active)
        return;                  /* waiting on an inactive persistent request */
    if (e->kind == RQ_RECV) {
        int cancelled = 0;
        if (!e->nostatus)
            PMPI_Test_cancelled(st, &cancelled);
        if (cancelled) {
            rp_counters[RP_CNT_CANCELLED]++;
            if (e->pp)
                proto_cancel_prepost(e->pp);
        } else if (e->peer == MPI_PROC_NULL) {
            /* nothing was sent, so nothing to join.  Decided by the posted
             * source, not the status: MPICH 4.0 completes an MPI_PROC_NULL
             * MPI_Irecv with status.MPI_SOURCE = 0, not MPI_PROC_NULL, and
             * joining from rank 0 would wait forever. */
        } else if (e->pp && e->nostatus) {
            /* the posted source (never a wildcard here); the size unknown: 0 */
            proto_join_prepost(e->pp, e->comm, e->peer, 0);
        } else if (e->nostatus) {
            /* a mailbox peer (never pre-posted): the posted source and tag */
            join_late(e, e->peer, e->tag, 0);
        } else if (e->pp) {
            proto_join_prepost(e->pp, e->comm, st->MPI_SOURCE, payload_bytes(st));
        } else if (st->MPI_SOURCE != MPI_PROC_NULL) {
            join_late(e, st->MPI_SOURCE, st->MPI_TAG, payload_bytes(st));
        }
        e->pp = NULL;
    } else if (e->kind == RQ_NBC) {
        rp_nbc_complete(e->nbc, 1);
        e->nbc = NULL;
    }
    if (e->persistent)
        e->active = 0;
    else
        reqtab_del(e);
}

/* ---- hand-written wrappers --------------------------------------------- */

/* Start one tracked persistent request (after PMPI_Start succeeded). */
static void started(rp_req *e)
{
    /* A persistent request outlives its communicator's MPI_Comm_free (the
     * request keeps the communicator, and the entry, alive), but the
     * shadows went with the free: such a start is not followed (counted),
     * and its receive's completion joins nothing (the live test in
     * rp_req_completed).  It used to go to a freed shadow, whose error
     * aborted the job. */
    if (e->kind == RQ_RECV && !e->comm->live && e->comm != comm_world()) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        e->active = 1;
        return;
    }
    if (e->kind == RQ_RECV) {
        e->active = 1;
        maybe_prepost(e);
    } else if (e->kind == RQ_UNFOLLOWED) {
        e->active = 1;
        rp_counters[RP_CNT_UNFOLLOWED_STARTS]++;
    }
}

/* ---- binding-neutral bodies (C here, Fortran in fortran.c) -------------
 * MPI_Start[all] and MPI_Request_free do the same around the real call in
 * every binding; only the handle type differs, so the body reads handles
 * through `at` (C: the array itself; Fortran: PMPI_Request_f2c). */

MPI_Request rp_handle_c(const void *reqs, int i)
{
    return ((const MPI_Request *)reqs)[i];
}

/* Before starting n persistent requests: a started send is an event (the
 * path branches), anything else a local call.  Returns what rp_start_leave
 * needs to know. */
int rp_start_enter(int fn, int n, const void *reqs, rp_handle_at at)
{
    int any_send = 0;
    for (int i = 0; i < n && !any_send; i++) {
        rp_req *e = reqtab_find(at(reqs, i));
        any_send = e && e->kind == RQ_PSEND;
    }
    if (!any_send) {
        rp_enter_local(fn);
        return 0;
    }
    rp_enter(fn);
    /* A started send's set goes before the start, as a send's before its
     * payload (the mailbox takes only those: lib/exchange/mailbox.h); if
     * the start then fails, the next set to that peer and tag is one behind,
     * as after a cancelled send. */
    for (int i = 0; i < n; i++) {
        rp_req *e = reqtab_find(at(reqs, i));
        if (!e || e->kind != RQ_PSEND)
            continue;
        if (e->comm->live || e->comm == comm_world())
            proto_branch(e->comm, e->peer, e->tag, 1);
        else
            rp_counters[RP_CNT_UNSUPPORTED]++;
    }
    return 1;
}

/* After the real call (ok: it succeeded).  Persistent handles do not change,
 * so they are read again here. */
void rp_start_leave(int event, int ok, int n, const void *reqs, rp_handle_at at)
{
    if (ok)
        for (int i = 0; i < n; i++) {
            rp_req *e = reqtab_find(at(reqs, i));
            if (e)
                started(e);
        }
    if (event)
        rp_leave();
    else
        rp_leave_local();
}

RP_EXPORT int MPI_Start(MPI_Request *request)
{
    if (!rp_active())
        return PMPI_Start(request);
    int ev = rp_start_enter(RP_FN_MPI_Start, 1, request, rp_handle_c);
    int rc = PMPI_Start(request);
    rp_start_leave(ev, rc == MPI_SUCCESS, 1, request, rp_handle_c);
    return rc;
}

RP_EXPORT int MPI_Startall(int count, MPI_Request array_of_requests[])
{
    if (!rp_active())
        return PMPI_Startall(count, array_of_requests);
    int ev = rp_start_enter(RP_FN_MPI_Startall, count, array_of_requests, rp_handle_c);
    int rc = PMPI_Startall(count, array_of_requests);
    rp_start_leave(ev, rc == MPI_SUCCESS, count, array_of_requests, rp_handle_c);
    return rc;
}

/* The user frees tracked request e. */
static void req_freed(rp_req *e)
{
    if (e->pp) {                 /* an active receive: it can't be joined now */
        proto_orphan_prepost(e->pp);
        e->pp = NULL;
    }
    if (e->kind == RQ_RECV && e->active)
        rp_counters[RP_CNT_REQ_FREED_ACTIVE]++;
    if (e->kind == RQ_NBC && e->nbc) {    /* completes at Finalize at the latest */
        rp_nbc_complete(e->nbc, 0);
        e->nbc = NULL;
    }
    reqtab_del(e);
}

/* Before the real MPI_Request_free of handle h (any binding); the call is
 * local, so rp_leave_local() follows it. */
void rp_request_free_enter(MPI_Request h)
{
    rp_enter_local(RP_FN_MPI_Request_free);
    rp_req *e = reqtab_find(h);
    if (e)
        req_freed(e);
}

RP_EXPORT int MPI_Request_free(MPI_Request *request)
{
    if (!rp_active())
        return PMPI_Request_free(request);
    rp_request_free_enter(*request);
    int rc = PMPI_Request_free(request);
    rp_leave_local();
    return rc;
}

RP_EXPORT int MPI_Cancel(MPI_Request *request)
{
    /* Nothing to do now: the completion (Wait/Test) sees the cancellation
     * in the status and withdraws the pre-posted path-set receive. */
    return PMPI_Cancel(request);
}
