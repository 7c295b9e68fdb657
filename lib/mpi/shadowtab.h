/* shadowtab.h - MPI objects made collectively over a communicator (windows,
 * files) and the shadow each gets at its creation (lib/exchange/comm.c's
 * comm_shadow_new): a small table keyed by the handle's bytes.
 *
 * An object over one process gets no shadow (nothing to join, and MPICH
 * has only 2048 communicator ids a process: a code that keeps many files
 * open over MPI_COMM_SELF would run out of them): its entry's c is NULL.
 * Objects are few at a time: a linear search.  Touched only by the
 * profiled thread. */
#ifndef RP_SHADOWTAB_H
#define RP_SHADOWTAB_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>
#include "exchange/comm.h"

typedef struct rp_shadow_ent {
    uint8_t  key[16];   /* the handle's bytes, zero-padded */
    rp_comm *c;         /* NULL: a one-process object, nothing to join */
} rp_shadow_ent;

/* Objects alive now: n <= cap, and cap at most twice the most ever alive
 * at once (8 at least).  The table holds its shadows' owner references
 * (comm.h, "Lifetime"): a shadow whose object is freed while a non-blocking
 * exchange on it is still in flight (a file closed before its non-blocking
 * collective completed, which is erroneous) loses its communicator at the
 * free and its entry when that exchange completes. */
typedef struct rp_shadowtab {
    rp_shadow_ent *e;
    uint32_t       n, cap;
} rp_shadowtab;

/* The object `key` (a handle of `len` <= 16 bytes) was just created over
 * comm: give it a shadow.  Collective over comm: every member calls it, in
 * the same order, and every member gets a shadow or none (then NULL and
 * nothing is stored: its synchronisations are not joined).  An entry under
 * the same key is an object freed where we did not see it (a failed free
 * that released the handle all the same): replaced. */
rp_shadow_ent *shadowtab_add(rp_shadowtab *t, MPI_Comm comm, const void *key, size_t len);
/* The entry of object key, or NULL when its creation was not seen. */
rp_shadow_ent *shadowtab_find(const rp_shadowtab *t, const void *key, size_t len);
/* The object is freed: let go of its shadow and forget it (unknown: nothing). */
void           shadowtab_del(rp_shadowtab *t, const void *key, size_t len);
/* MPI_Finalize: the shadows of objects never freed. */
void           shadowtab_clear(rp_shadowtab *t);

#endif
