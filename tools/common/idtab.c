/* idtab.c - see idtab.h. */
#include "common/idtab.h"

#include <stdlib.h>
#include <string.h>

int idtab_init(rp_idtab *t, uint32_t n)
{
    uint32_t nslots = 64;
    while (nslots < 2 * (uint64_t)n && nslots < (1u << 31))
        nslots *= 2;
    t->slots = calloc(nslots, sizeof *t->slots);
    t->nslots = t->slots ? nslots : 0;
    t->n = 0;
    return t->slots ? 0 : -1;
}

void idtab_free(rp_idtab *t)
{
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint32_t *probe(const rp_idtab *t, uint64_t hash, rp_idtab_eq eq, const void *ctx)
{
    uint32_t mask = t->nslots - 1, i = (uint32_t)hash & mask;
    while (t->slots[i] && !eq(ctx, t->slots[i] - 1))
        i = (i + 1) & mask;
    return &t->slots[i];
}

uint32_t idtab_find(const rp_idtab *t, uint64_t hash, rp_idtab_eq eq, const void *ctx)
{
    uint32_t *s = probe(t, hash, eq, ctx);
    return *s ? *s - 1 : UINT32_MAX;
}

uint32_t idtab_intern(rp_idtab *t, uint64_t hash, rp_idtab_eq eq, const void *ctx, uint32_t id)
{
    uint32_t *s = probe(t, hash, eq, ctx);
    if (!*s) {
        *s = id + 1;
        t->n++;
    }
    return *s - 1;
}

int idtab_reserve(rp_idtab *t, rp_idtab_hash hash, const void *ctx)
{
    if (2 * ((uint64_t)t->n + 1) <= t->nslots)
        return 0;
    if (t->nslots >= (1u << 31))
        return -1;
    uint32_t nslots = t->nslots * 2, mask = nslots - 1;
    uint32_t *s = calloc(nslots, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t j = 0; j < t->nslots; j++) {
        if (!t->slots[j])
            continue;
        uint32_t i = (uint32_t)hash(ctx, t->slots[j] - 1) & mask;
        while (s[i])
            i = (i + 1) & mask;
        s[i] = t->slots[j];
    }
    free(t->slots);
    t->slots = s;
    t->nslots = nslots;
    return 0;
}

uint64_t rp_hash_bytes(const void *p, size_t n, uint64_t seed)
{
    const uint8_t *b = p;
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h ^ (h >> 29);
}
