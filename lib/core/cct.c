/* cct.c - calling-context tree in a preallocated arena (see cct.h). */
#include "core/cct.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define cct_barrier() __asm__ __volatile__("" ::: "memory")

static size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

int cct_init(rp_cct *t, uint32_t cap, uint32_t n_metrics)
{
    memset(t, 0, sizeof *t);
    if (cap < 2)
        cap = 2;
    if (cap > CCT_MAX_CAP)
        cap = CCT_MAX_CAP;
    if (n_metrics == 0 || n_metrics > 4096) {
        errno = EINVAL;
        return -1;
    }
    /* Hash load factor <= 1/2: probes stay short even when full. */
    uint32_t hsize = 4;
    while (hsize < 2u * cap)
        hsize <<= 1;

    size_t nodes_b = round_up((size_t)cap * sizeof(rp_cct_node), 64);
    size_t hash_b = round_up((size_t)hsize * sizeof(uint32_t), 64);
    size_t met_b = round_up((size_t)cap * n_metrics * sizeof(int64_t), 64);
    size_t total = nodes_b + hash_b + met_b;
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    t->map = m;
    t->map_bytes = total;
    t->nodes = (rp_cct_node *)m;
    t->hash = (uint32_t *)((char *)m + nodes_b);
    t->metrics = (int64_t *)((char *)m + nodes_b + hash_b);
    t->cap = cap;
    t->hmask = hsize - 1;
    t->n_metrics = n_metrics;
    t->nodes[0].pc = 0;
    t->nodes[0].parent = CCT_NONE;
    t->nodes[0].depth = 0;
    cct_barrier();
    t->n = 1;
    return 0;
}

void cct_free(rp_cct *t)
{
    if (t->map)
        munmap(t->map, t->map_bytes);
    memset(t, 0, sizeof *t);
}

static inline uint32_t cct_hash(uint32_t parent, uintptr_t pc)
{
    uint64_t h = (uint64_t)pc * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)parent * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (uint32_t)h;
}

uint32_t cct_find(const rp_cct *t, uint32_t parent, uintptr_t pc)
{
    if (!t->hash)
        return CCT_NONE;
    uint32_t i = cct_hash(parent, pc) & t->hmask;
    for (;;) {
        uint32_t id = t->hash[i];
        if (id == 0)
            return CCT_NONE;
        const rp_cct_node *nd = &t->nodes[id];
        if (nd->pc == pc && nd->parent == parent)
            return id;
        i = (i + 1) & t->hmask;
    }
}

uint32_t cct_child(rp_cct *t, uint32_t parent, uintptr_t pc)
{
    if (!t->hash || parent >= t->n)
        return CCT_NONE;
    uint32_t i = cct_hash(parent, pc) & t->hmask;
    for (;;) {
        uint32_t id = t->hash[i];
        if (id == 0)
            break;
        const rp_cct_node *nd = &t->nodes[id];
        if (nd->pc == pc && nd->parent == parent)
            return id;
        i = (i + 1) & t->hmask;
    }
    uint32_t id = t->n;
    if (id >= t->cap) {
        t->full++;
        return CCT_NONE;
    }
    rp_cct_node *nd = &t->nodes[id];
    nd->pc = pc;
    nd->parent = parent;
    nd->depth = t->nodes[parent].depth + 1;
    /* The node's metrics are zero (fresh anonymous pages, never reused). */
    cct_barrier();
    t->n = id + 1;   /* publish: readers iterate over ids < n */
    cct_barrier();
    t->hash[i] = id;
    return id;
}

uint32_t cct_insert_path(rp_cct *t, const uintptr_t *pcs, uint32_t n,
                         uintptr_t extra_leaf)
{
    uint32_t node = CCT_ROOT;
    uint64_t full0 = t->full;
    for (uint32_t i = n; i-- > 0;) {
        uint32_t c = cct_child(t, node, pcs[i]);
        if (c == CCT_NONE)
            goto full;
        node = c;
    }
    if (extra_leaf) {
        uint32_t c = cct_child(t, node, extra_leaf);
        if (c == CCT_NONE)
            goto full;
        node = c;
    }
    return node;
full:
    /* Deepest existing prefix; one count per refused path. */
    t->full = full0 + 1;
    return node;
}

uint32_t cct_insert_path_cached(rp_cct *t, rp_cct_cache *c, const uintptr_t *pcs,
                                uint32_t n, uintptr_t extra_leaf)
{
    uint32_t node = CCT_ROOT;
    uint32_t d = 0;   /* depth reached, root first */
    uint64_t full0 = t->full;
    /* shared prefix with the cached path */
    uint32_t lim = c->n < n ? c->n : n;
    while (d < lim && c->pc[d] == pcs[n - 1 - d]) {
        node = c->node[d];
        d++;
    }
    for (; d < n; d++) {
        uint32_t ch = cct_child(t, node, pcs[n - 1 - d]);
        if (ch == CCT_NONE)
            goto full;
        node = ch;
        if (d < CCT_CACHE_DEPTH) {
            c->pc[d] = pcs[n - 1 - d];
            c->node[d] = ch;
        }
    }
    c->n = n < CCT_CACHE_DEPTH ? n : CCT_CACHE_DEPTH;
    if (extra_leaf) {
        uint32_t ch = cct_child(t, node, extra_leaf);
        if (ch == CCT_NONE) {
            t->full = full0 + 1;
            return node;
        }
        node = ch;
    }
    return node;
full:
    c->n = d < CCT_CACHE_DEPTH ? d : CCT_CACHE_DEPTH;
    t->full = full0 + 1;
    return node;
}
