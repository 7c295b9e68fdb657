/* proto.h - the path-set protocol: path-sets travel as separate small
 * messages on the shadow communicator (the paper's two-message scheme).
 * Sends use a bounded, lazily reaped pool so they never block; receives are
 * either pre-posted (known source and tag) or made once the payload's
 * status names the sender. */
#ifndef RP_PROTO_H
#define RP_PROTO_H

#include <mpi.h>
#include <stdint.h>
#include "exchange/comm.h"
#include "core/state.h"

typedef struct rp_prepost {
    MPI_Request        req;
    uint8_t           *buf;
    struct rp_prepost *next;   /* free list / orphan list */
} rp_prepost;

/* A mode that watches point-to-point path-set messages (path and trace
 * modes, lib/modes): what it puts in front of each set and what it learns
 * at each join.  NULL for none (prof mode). */
typedef struct rp_msg_observer {
    uint32_t prefix_bytes;                 /* bytes before the encoded set */
    uint64_t (*event)(void);               /* the sender's current event number */
    /* a set from world rank src (sent at src_event) carrying `bytes` of
     * payload was joined; from_msg: it brought the most critical path */
    void (*joined)(uint32_t src, uint64_t src_event, uint32_t bytes, int from_msg);
} rp_msg_observer;

/* st: the state whose path-set travels; max_wire: the largest encoded set
 * (the collectives' scratch buffers hold st->coll_wire, the phase-end
 * exchange's wide set); obs: the mode's observer or NULL.  0, or -1 (out
 * of memory). */
int  proto_init(rp_state *st, uint32_t max_wire, const rp_msg_observer *obs);
/* Branch: send my path-set to dest (rank in c) with the payload's tag;
 * through the mailbox (exchange/mailbox.h) when dest shares this node and
 * `early` (the payload's call has not begun), else as a side message. */
void proto_branch(rp_comm *c, int dest, int tag, int early);
/* Send my path-set, without prefix, to dest of comm (a shadow) with tag,
 * from the same pool (collectives).  0, or -1 if the Isend failed. */
int  proto_send_set(MPI_Comm comm, int dest, int tag);
/* Join with the path-set that src sent with tag: from the mailbox, or a
 * blocking receive of the side message (the sender sent it before or right
 * after the payload we already have); `bytes` is the
 * payload's size (recorded in path and trace modes). */
void proto_join_from(rp_comm *c, int src, int tag, uint32_t bytes);
/* The same for a receive that completed after the user freed c (its
 * shadows are gone): from the mailbox if its set is there; a side message
 * can no longer be received (counted in pathset_unmatched; nothing for a
 * peer that is not a mailbox peer, whose set was pre-posted or is lost). */
void proto_join_freed(rp_comm *c, int src, int tag, uint32_t bytes);
/* Pre-post the path-set receive of a payload receive with known source and
 * tag; NULL for a mailbox peer (its set is looked for at completion). */
rp_prepost *proto_prepost(rp_comm *c, int src, int tag);
/* The payload (from rank src of c, `bytes` long) arrived: complete the
 * pre-posted receive and join. */
void proto_join_prepost(rp_prepost *p, rp_comm *c, int src, uint32_t bytes);
/* The payload was cancelled or came from MPI_PROC_NULL: withdraw it. */
void proto_cancel_prepost(rp_prepost *p);
/* The user freed an active request: we cannot join any more; withdraw at
 * Finalize (the path-set may still arrive and must be consumed). */
void proto_orphan_prepost(rp_prepost *p);
/* Join with an encoded set (collectives); counts decode errors. */
void proto_join_buffer(const uint8_t *buf, int len, int replace);
/* The same into ps (the phase-end exchange's wide set, or the rank's). */
void proto_join_into(rp_pathset *ps, const uint8_t *buf, int len, int replace);
/* Scratch buffers of st->coll_wire bytes for collectives. */
uint8_t *proto_sendbuf(void);
uint8_t *proto_recvbuf(void);
/* MPI_Finalize: complete or cancel everything still in flight, drain
 * unreceived path-sets (counted), close the mailbox (collective over the
 * node).  Never blocks indefinitely. */
void proto_finalize(void);

#endif
