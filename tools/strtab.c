/* strtab.c - interning with an open-addressing hash table (linear probing,
 * load <= 1/2), so interning is O(1) expected however many names a large
 * merge produces. */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64-bit: simple, good enough for names and small keys. */
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

static int rehash(rp_strtab *t, uint32_t nslots)
{
    uint32_t *s = calloc(nslots, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t id = 0; id < t->n; id++) {
        uint64_t h = rp_hash_bytes(t->strs[id], strlen(t->strs[id]), 0);
        uint32_t i = (uint32_t)h & (nslots - 1);
        while (s[i])
            i = (i + 1) & (nslots - 1);
        s[i] = id + 1;
    }
    free(t->slots);
    t->slots = s;
    t->nslots = nslots;
    return 0;
}

int strtab_init(rp_strtab *t)
{
    memset(t, 0, sizeof *t);
    if (rehash(t, 64) != 0)
        return -1;
    return strtab_intern(t, "") == 0 ? 0 : -1;
}

uint32_t strtab_intern(rp_strtab *t, const char *s)
{
    size_t len = strlen(s);
    uint64_t h = rp_hash_bytes(s, len, 0);
    uint32_t i = (uint32_t)h & (t->nslots - 1);
    while (t->slots[i]) {
        uint32_t id = t->slots[i] - 1;
        if (strcmp(t->strs[id], s) == 0)
            return id;
        i = (i + 1) & (t->nslots - 1);
    }
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 64;
        char **n = realloc(t->strs, (size_t)cap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        t->strs = n;
        t->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return UINT32_MAX;
    memcpy(copy, s, len + 1);
    uint32_t id = t->n++;
    t->strs[id] = copy;
    t->slots[i] = id + 1;
    if ((uint64_t)t->n * 2 > t->nslots && rehash(t, t->nslots * 2) != 0) {
        t->n--;   /* roll back so the table stays consistent */
        t->slots[i] = 0;
        free(copy);
        return UINT32_MAX;
    }
    return id;
}

char **strtab_take(rp_strtab *t, uint32_t *n)
{
    char **s = t->strs;
    *n = t->n;
    t->strs = NULL;
    t->n = t->cap = 0;
    return s;
}

void strtab_free(rp_strtab *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        free(t->strs[i]);
    free(t->strs);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
