/* mailbox.h - path-sets between ranks that share a node, through shared
 * memory instead of a second MPI message (doc/design.md, "The mailbox").
 *
 * One single-producer single-consumer ring per ordered pair of ranks of a
 * node (sender s, receiver r), in an MPI-3 shared window.  The sender
 * appends each point-to-point path-set, tagged with the payload's
 * communicator key and tag, *before* its payload call; the receiver, once
 * the payload's status names (source, tag), takes the oldest unconsumed
 * entry with that key and tag.  MPI's non-overtaking rule orders messages
 * of one (sender, communicator, tag) in the order receives match them, so
 * that entry is the payload's set, exactly as the side message on the
 * shadow communicator would have been.
 *
 * Fallback: a set that does not fit (ring full), or one sent after its
 * payload call, goes as the side message (lib/exchange/proto.c), and the
 * pair stays on side messages until the receiver has consumed every one of
 * them.  Then, per (key, tag), the unconsumed sets are ring entries (older)
 * followed by side messages (newer), and a receiver that finds no ring
 * entry knows its set is a side message.  Main thread (or serialized
 * callers) only; never in a signal handler. */
#ifndef RP_MAILBOX_H
#define RP_MAILBOX_H

#include <mpi.h>
#include <stdint.h>
#include "core/pathset.h"

typedef struct rp_mbox_opts {
    uint32_t enable;      /* RP_MAILBOX: 0 = side messages only */
    uint32_t ring_bytes;  /* RP_MAILBOX_BYTES per sender, 0 = automatic */
    uint32_t node_split;  /* RP_MAILBOX_NODE: ranks per mailbox group (tests), 0 = the node */
    uint32_t arena;       /* 1: beside each ring an arena of path summaries sent by name */
} rp_mbox_opts;

/* Set up (collective over world, a duplicate of MPI_COMM_WORLD whose
 * errors return; every rank gets the same answer).  1: the mailbox is on;
 * 0: off (disabled on some rank, or the window could not be made: side
 * messages then carry everything). */
int      mbox_init(const rp_mbox_opts *o, MPI_Comm world, uint32_t world_rank, uint32_t nranks);
/* Is the mailbox on (for this job)? */
int      mbox_on(void);
/* The mailbox index of world rank w, or -1 when it is not in this rank's
 * group (another node). */
int      mbox_peer(uint32_t w);
/* Room for a set of up to max_len bytes to peer dst, or NULL: send it as a
 * side message and call mbox_side_sent(dst). */
uint8_t *mbox_reserve(int dst, uint32_t max_len);
/* Publish the reserved entry: len bytes, for a payload with comm key and tag. */
void     mbox_commit(int dst, uint64_t key, int32_t tag, uint32_t len);
/* A set for peer dst (on a mailbox communicator) went as a side message. */
void     mbox_side_sent(int dst);
/* The oldest unconsumed entry from peer src with (key, tag), or NULL (then
 * its set is a side message).  *len: its bytes; mbox_consume(src, entry)
 * after the join. */
const uint8_t *mbox_find(int src, uint64_t key, int32_t tag, uint32_t *len);
void     mbox_consume(int src, const uint8_t *entry);
/* Summaries by name (wire.h, rp_wire_refs; doc/design.md "The mailbox").
 * Beside each ring the sender keeps an arena of summaries, each written
 * once per name and kept until the receiver has consumed every entry that
 * named it.  Is it on? */
int      mbox_arena_on(void);
/* Sender, between mbox_reserve(dst) and mbox_commit: make path p's
 * summary (named p->sid) readable by dst until it has consumed the
 * reserved entry.  0 and its locator in *ref (*wrote: 1 if it was written
 * now, 0 if already there), or -1 (arena full: send it in the set). */
int      mbox_place(int dst, const rp_path *p, uint32_t *ref, int *wrote);
/* Receiver, while the entry that named it is unconsumed: hdr's summary
 * fields and hdr->iv (pointing into shared memory, valid until then) for
 * the summary named sid at locator ref in src's arena; 0, or -1 if it is
 * not there or malformed. */
int      mbox_record(int src, uint64_t sid, uint32_t ref, rp_path *hdr, uint32_t iv_cap);
/* A side message from peer src (on a mailbox communicator) was consumed. */
void     mbox_side_consumed(int src);
/* At MPI_Finalize, after the last join: count what nobody consumed, free the
 * window (collective over the node's group).  Returns the count. */
uint64_t mbox_finalize(void);

#endif
