/* strtab.c - interning through the tools' hash index (idtab.h), so
 * interning is O(1) expected however many names a large merge produces. */
#include "common/strtab.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const rp_strtab *t;
    const char      *s;
} lookup;

static int str_eq(const void *ctx, uint32_t id)
{
    const lookup *l = ctx;
    return strcmp(l->t->strs[id], l->s) == 0;
}

static uint64_t str_hash(const void *ctx, uint32_t id)
{
    const rp_strtab *t = ctx;
    return rp_hash_bytes(t->strs[id], strlen(t->strs[id]), 0);
}

int strtab_init(rp_strtab *t)
{
    memset(t, 0, sizeof *t);
    if (idtab_init(&t->index, 32) != 0)
        return -1;
    return strtab_intern(t, "") == 0 ? 0 : -1;
}

uint32_t strtab_intern(rp_strtab *t, const char *s)
{
    size_t len = strlen(s);
    uint64_t h = rp_hash_bytes(s, len, 0);
    lookup l = {t, s};
    uint32_t id = idtab_find(&t->index, h, str_eq, &l);
    if (id != UINT32_MAX)
        return id;
    if (idtab_reserve(&t->index, str_hash, t) != 0)
        return UINT32_MAX;
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
    id = t->n++;
    t->strs[id] = copy;
    return idtab_intern(&t->index, h, str_eq, &l, id);
}

char **strtab_take(rp_strtab *t, uint32_t *n)
{
    char **s = t->strs;
    *n = t->n;
    t->strs = NULL;
    t->n = t->cap = 0;
    idtab_free(&t->index);
    return s;
}

void strtab_free(rp_strtab *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        free(t->strs[i]);
    free(t->strs);
    idtab_free(&t->index);
    memset(t, 0, sizeof *t);
}
