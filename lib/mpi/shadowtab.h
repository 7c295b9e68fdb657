/* shadowtab.h - MPI objects made collectively over a communicator (windows,
 * files) and the shadow each gets at its creation (lib/exchange/comm.c's
 * comm_shadow_new): a small table keyed by the handle's bytes.
 *
 * Objects are few (opened once, synchronised many times): a linear search.
 * Touched only by the profiled thread. */
#ifndef RP_SHADOWTAB_H
#define RP_SHADOWTAB_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>
#include "exchange/comm.h"

typedef struct rp_shadow_ent {
    uint8_t  key[16];   /* the handle's bytes, zero-padded */
    rp_comm *c;
} rp_shadow_ent;

typedef struct rp_shadowtab {
    rp_shadow_ent *e;
    uint32_t       n, cap;
} rp_shadowtab;

/* The object `key` (a handle of `len` <= 16 bytes) was just created over
 * comm: give it a shadow.  Collective over comm: every member calls it, in
 * the same order, and every member gets a shadow or none (then -1 and
 * nothing is stored: its synchronisations are not joined). */
int      shadowtab_add(rp_shadowtab *t, MPI_Comm comm, const void *key, size_t len);
/* The shadow of object key, or NULL when its creation was not seen. */
rp_comm *shadowtab_find(const rp_shadowtab *t, const void *key, size_t len);
/* The object is freed: free its shadow and forget it (unknown: nothing). */
void     shadowtab_del(rp_shadowtab *t, const void *key, size_t len);
/* MPI_Finalize: the shadows of objects never freed. */
void     shadowtab_clear(rp_shadowtab *t);

#endif
