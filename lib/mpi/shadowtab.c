/* shadowtab.c - windows' and files' shadows (shadowtab.h). */
#include <stdlib.h>
#include <string.h>
#include "mpi/shadowtab.h"

static void key_of(uint8_t out[16], const void *key, size_t len)
{
    memset(out, 0, 16);
    memcpy(out, key, len < 16 ? len : 16);
}

static rp_shadow_ent *find(const rp_shadowtab *t, const void *key, size_t len)
{
    uint8_t k[16];
    key_of(k, key, len);
    for (uint32_t i = 0; i < t->n; i++)
        if (memcmp(t->e[i].key, k, 16) == 0)
            return &t->e[i];
    return NULL;
}

int shadowtab_add(rp_shadowtab *t, MPI_Comm comm, const void *key, size_t len)
{
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
    rp_comm *c = NULL;
    if (t->n < t->cap)
        c = comm_shadow_new(comm);
    else {
        /* Out of memory for the table: still take part in the agreement
         * so that the others learn it (they would otherwise join at every
         * synchronisation and wait for us). */
        MPI_Comm dup;
        if (PMPI_Comm_dup(comm, &dup) == MPI_SUCCESS) {
            int ok = 0, all = 0;
            PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, dup);
            PMPI_Comm_free(&dup);
        }
    }
    if (!c)
        return -1;
    key_of(t->e[t->n].key, key, len);
    t->e[t->n].c = c;
    t->n++;
    return 0;
}

rp_comm *shadowtab_find(const rp_shadowtab *t, const void *key, size_t len)
{
    rp_shadow_ent *e = find(t, key, len);
    return e ? e->c : NULL;
}

void shadowtab_del(rp_shadowtab *t, const void *key, size_t len)
{
    rp_shadow_ent *e = find(t, key, len);
    if (!e)
        return;
    comm_shadow_free(e->c);
    *e = t->e[--t->n];
}

void shadowtab_clear(rp_shadowtab *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        comm_shadow_free(t->e[i].c);
    free(t->e);
    memset(t, 0, sizeof *t);
}
