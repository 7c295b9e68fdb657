/* comm.h - the private shadow communicators of every user communicator.
 * Path-sets of point-to-point messages travel on `p2p` with the payload's
 * tag (so they match in the payload's order); the profiler's collective
 * exchanges use `coll`, so they can never meet a user tag. */
#ifndef RP_COMM_H
#define RP_COMM_H

#include <mpi.h>
#include <stdint.h>

/* Lifetime.  An entry is reference-counted: its owner (the table, for a
 * user communicator; the window's or file's shadow table, or the
 * intercommunicator's entry for `merged`, for a stand-alone shadow) holds
 * one reference while the object lives, and so does everything that may
 * still use the entry after the object's free: each tracked request
 * (lib/exchange/reqtab.c), each non-blocking collective's exchange in
 * flight, a collective's receives posted before the user's call
 * (wrap_coll.c).  MPI lets a program free a communicator while operations
 * on it are pending; the free releases the shadows at once (MPI defers
 * that free too) and the owner's reference, and the entry itself goes
 * with the last reference.  So memory is bounded by the handles alive at
 * a time, not by all ever made.  Main thread only, never in a signal
 * handler. */
typedef struct rp_comm {
    MPI_Comm user;
    MPI_Comm p2p;
    MPI_Comm coll;
    int      size;         /* local group size */
    int      rank;         /* my rank in the local group */
    int      inter;        /* intercommunicator: collectives joined on `merged` */
    int      spans_world;  /* intracommunicator over all of MPI_COMM_WORLD */
    int      live;         /* 0 once freed: shadows gone, out of the table */
    uint32_t refs;         /* holders of this entry (see "Lifetime" above);
                              freed when the last lets go */
    uint32_t uid;          /* trace mode: the same on every member (leader's
                              world rank << 12 | leader's creation count) */
    uint64_t ncoll;        /* collectives joined on it so far */
    /* The same on every member (leader's world rank << 32 | leader's
     * creation count; 0 for MPI_COMM_WORLD): names the communicator in the
     * mailbox (exchange/mailbox.h).  mbkey_ok: it does (an intracommunicator
     * whose key every member agreed on). */
    uint64_t mbkey;
    int      mbkey_ok;
    struct rp_comm *merged; /* inter: both groups merged (stand-alone entry),
                               or NULL (then its collectives are not joined) */
    int     *world;        /* world rank of each (remote, for inter) rank; lazy */
    int      world_n;
} rp_comm;

/* What the layers above decide for every shadow (set once, at start-up). */
typedef struct rp_comm_opts {
    uint32_t rank, nranks;  /* in MPI_COMM_WORLD */
    int uniform_uids;       /* give each communicator the same uid on every
                               member (trace mode: the checker matches
                               collective instances by it); costs a Bcast */
    int merge_inter;        /* merge the groups of an intercommunicator so its
                               collectives can be joined */
    int mbox_keys;          /* agree on a mailbox key for each intracommunicator
                               (comm_set_mbox_keys); costs a Bcast */
} rp_comm_opts;

void     comm_init(const rp_comm_opts *opt);
/* From now on, agree on mailbox keys for new communicators (the mailbox is
 * on: every rank calls this, or none). */
void     comm_set_mbox_keys(int on);
/* Create the shadows of comm (collective over comm).  0, -1 (failed), or
 * 1: not shadowed because it has members outside MPI_COMM_WORLD. */
int      comm_register(MPI_Comm comm);
/* The entry of a user communicator, or NULL if we never saw it created. */
rp_comm *comm_lookup(MPI_Comm comm);
/* Free the shadows of comm (collective over comm). */
void     comm_unregister(MPI_Comm comm);
rp_comm *comm_world(void);
/* World rank of rank r of c (the remote group's for an intercommunicator). */
uint32_t comm_world_rank(rp_comm *c, int r);
/* Call fn on every live communicator entry. */
void comm_foreach(void (*fn)(rp_comm *c));
/* A stand-alone shadow for a window (wrap_rma.c): an entry whose `coll`
 * (and `user`) is one duplicate of comm, not in the table.  Collective over
 * comm; every member gets an entry or every member gets NULL (they agree
 * with an allreduce on the duplicate), so later exchanges never wait for a
 * member that has none. */
rp_comm *comm_shadow_new(MPI_Comm comm);
/* This member's part of comm_shadow_new when it cannot keep a shadow (no
 * memory for its table): the others learn it and get NULL too. */
void     comm_shadow_refuse(MPI_Comm comm);
/* The same for an intracommunicator we created ourselves (no duplicate:
 * the entry takes it over). */
rp_comm *comm_shadow_take(MPI_Comm mine);
/* The owner lets go of stand-alone shadow c (NULL: nothing): its
 * communicator is freed now, the entry with its last reference. */
void     comm_shadow_free(rp_comm *c);
/* Take / drop one reference to c (NULL: nothing); the last drop frees it. */
void     comm_hold(rp_comm *c);
void     comm_put(rp_comm *c);
/* Free every shadow (at MPI_Finalize). */
void     comm_shutdown(void);

#endif
