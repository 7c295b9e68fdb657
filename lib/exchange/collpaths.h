/* collpaths.h - joining path-sets over a communicator (collpaths.c). */
#ifndef RP_COLLPATHS_H
#define RP_COLLPATHS_H

#include "core/state.h"
#include "exchange/comm.h"

/* The tag of the profiler's own collective traffic on a `coll` shadow. */
#define RP_TAG_COLL 1

/* st: the state whose path-set the exchanges read and join; allocates the
 * phase-end exchange's wide set (st->cfg.phase_k paths).  0, or -1 (out of
 * memory). */
int  collpaths_init(rp_state *st);
/* Broadcast root's set over c->coll; members replace theirs with it
 * (replace = 1) or join it. */
void coll_bcast_set(rp_comm *c, int root, int replace);
/* MPI_Bcast(buf, count, dt, root, comm) that also carries root's set to
 * the members, who join it (c: comm's entry, an intracommunicator of more
 * than one member): 1 if it ran the broadcast, its result in *rc; 0 if
 * the data is too large for that (every member returns 0 alike) and the
 * caller runs the program's broadcast and the separate exchange. */
int coll_bcast_carry(rp_comm *c, void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
                     int *rc);
/* One exchange round: send my set to dst, join the one from src
 * (MPI_PROC_NULL: none). */
void coll_exchange(rp_comm *c, int dst, int src);
/* Rounds from_d, 2*from_d, ... of the all-to-all exchange, then the
 * broadcast where one is needed: every member ends with the same set.
 * phase_end: the exchange ends a phase, and works on the wide set (k
 * chosen after the last round).  from_d is 1, or 2 when round 1 ran
 * overlapped with the user's call: first[0..first_len) is then the set
 * this member sent in it, and got[0..got_len) the one it received (not
 * yet joined). */
void coll_allreduce_paths_from(rp_comm *c, int phase_end, int from_d, const uint8_t *first,
                               uint32_t first_len, const uint8_t *got, int got_len);
/* The whole path-allreduce (from_d = 1). */
void coll_allreduce_paths(rp_comm *c, int phase_end);
/* Does the phase-end exchange on c work on wide sets (RP_PHASE_K paths,
 * the final k chosen after the last round)? */
int  coll_phase_wide(const rp_comm *c);
/* Buffers for batches of up to nmax sets (coll_allreduce_batch): 0, or -1
 * without memory.  At start-up, so that a batch never fails on one member
 * alone. */
int  coll_batch_init(uint32_t nmax);
/* The phase-end exchange of n phases at once (n <= coll_batch_init's
 * nmax): work[i] phase i's set as the rounds join it, out[i] the k-path
 * set it ends as (the same set when not wide: coll_phase_wide).  Each set
 * meets only its counterparts, in the same rounds and order as alone, so
 * every member ends with the sets each phase would have had on its own;
 * one message a round carries all n, and *max, which every member ends
 * with as the largest of all members' values. */
void coll_allreduce_batch(rp_comm *c, rp_pathset *const *work, rp_pathset *const *out,
                          uint32_t n, int64_t *max);
/* 1 if every member of c passes the same v (collective over c->coll), 0
 * if not; 1 also if the check itself fails (MPI errors on the shadows are
 * fatal unless the user changed the handler: nothing to decide then). */
int coll_all_equal(rp_comm *c, uint64_t v);

/* Every member's len bytes at mine, concatenated in rank order, into a
 * malloc'ed *all of *all_len bytes (collective over c->coll; the phase-end
 * walk of path mode's chains, lib/modes/pathmode.c).  0, or -1 on every
 * member alike (a member out of memory, or more than INT_MAX bytes): then
 * *all is NULL. */
int coll_allgather_bytes(rp_comm *c, const uint8_t *mine, size_t len, uint8_t **all,
                         size_t *all_len);

#endif
