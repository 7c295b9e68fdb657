/* shadowtab.c - windows' and files' shadows (shadowtab.h). */
#include <stdlib.h>
#include <string.h>
#include "mpi/shadowtab.h"

static void key_of(uint8_t out[16], const void *key, size_t len)
{
    memset(out, 0, 16);
    memcpy(out, key, len < 16 ? len : 16);
}

rp_shadow_ent *shadowtab_find(const rp_shadowtab *t, const void *key, size_t len)
{
    uint8_t k[16];
    key_of(k, key, len);
    for (uint32_t i = 0; i < t->n; i++)
        if (memcmp(t->e[i].key, k, 16) == 0)
            return &t->e[i];
    return NULL;
}

static void ent_free(rp_shadow_ent *e)
{
    rp_comm *c = e->c;
    e->c = NULL;
    comm_shadow_free(c);   /* (an exchange in flight keeps the entry) */
}

rp_shadow_ent *shadowtab_add(rp_shadowtab *t, MPI_Comm comm, const void *key, size_t len)
{
    /* a handle an object just got cannot belong to a live one */
    shadowtab_del(t, key, len);
    int size = 0;
    PMPI_Comm_size(comm, &size);
    /* Room first: the shadow is collective, and comm_shadow_new makes all
     * members agree; a rank that could not store it must not take part
     * in a different way from the others. */
    if (t->n == t->cap) {
        uint32_t ncap = t->cap ? t->cap * 2 : 8;
        rp_shadow_ent *n = realloc(t->e, ncap * sizeof *n);
        if (n) {
            t->e = n;
            t->cap = ncap;
        }
    }
    if (t->n == t->cap) {
        /* Out of memory for the table: still take part in the agreement
         * so that the others learn it (they would otherwise join at every
         * synchronisation and wait for us). */
        if (size > 1)
            comm_shadow_refuse(comm);
        return NULL;
    }
    rp_comm *c = NULL;
    if (size > 1 && !(c = comm_shadow_new(comm)))
        return NULL;
    rp_shadow_ent *e = &t->e[t->n++];
    key_of(e->key, key, len);
    e->c = c;
    return e;
}

void shadowtab_del(rp_shadowtab *t, const void *key, size_t len)
{
    rp_shadow_ent *e = shadowtab_find(t, key, len);
    if (!e)
        return;
    ent_free(e);
    *e = t->e[--t->n];
}

void shadowtab_clear(rp_shadowtab *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        ent_free(&t->e[i]);
    free(t->e);
    memset(t, 0, sizeof *t);
}
