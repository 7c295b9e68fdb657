/* reqtab.h - what we remember about user requests: receives (to join when
 * they complete) and persistent sends (to branch at every MPI_Start).
 * Untracked requests (plain non-blocking sends) cost one failed lookup. */
#ifndef RP_REQTAB_H
#define RP_REQTAB_H

#include <mpi.h>
#include <stdint.h>
#include "exchange/comm.h"
#include "exchange/proto.h"

/* RQ_UNFOLLOWED: an MPI-4 persistent collective or partitioned request,
 * whose starts are only counted (unfollowed_starts). */
enum { RQ_RECV = 1, RQ_PSEND = 2, RQ_NBC = 3, RQ_UNFOLLOWED = 4 };
struct rp_nbc;   /* a non-blocking collective's path exchange (wrap_coll.c) */

typedef struct rp_req {
    MPI_Request   handle;
    uint8_t       state;       /* 0 empty, 1 used, 2 deleted (tombstone) */
    uint8_t       kind;        /* RQ_* */
    uint8_t       persistent;
    uint8_t       active;      /* persistent: started and not yet completed */
    uint8_t       nostatus;    /* the completion's status is not to be read
                                * (MPICH 4.0.2's MPI_Isendrecv leaves it unset) */
    int           peer;        /* source (receive) or dest (send) as given */
    int           tag;
    rp_comm      *comm;        /* set by reqtab_set_comm (holds a reference) */
    rp_prepost   *pp;          /* pre-posted path-set receive, or NULL */
    struct rp_nbc *nbc;        /* RQ_NBC: the path exchange in flight */
} rp_req;

rp_req  *reqtab_find(MPI_Request r);
rp_req  *reqtab_add(MPI_Request r);     /* NULL if out of memory */
/* e refers to communicator entry c from now on (a reference held until
 * it is deleted or its slot reused). */
void     reqtab_set_comm(rp_req *e, rp_comm *c);
void     reqtab_del(rp_req *e);
uint32_t reqtab_count(void);            /* live entries */
/* Visit every live entry (for MPI_Finalize clean-up). */
void     reqtab_foreach(void (*fn)(rp_req *e));

#endif
