/* cct.h - a rank's calling-context tree, built inside the SIGPROF handler.
 *
 * Pure C: no MPI, no libunwind, no signals.  Nodes are keyed by a raw
 * program counter under a parent; node 0 is the root.  All storage is one
 * preallocated anonymous mapping (nodes, an open-addressing hash of
 * (parent, pc) -> node, and the metric columns), so insertion never
 * allocates and is async-signal-safe.
 *
 * Concurrency model: ONE writer at a time (the sampler's handler on the
 * main thread, or the main thread itself with the handler fenced off by the
 * caller).  Readers on the same thread may be interrupted by the writer:
 * a node is filled completely before `n` is bumped (with a compiler
 * barrier), so a reader that iterates over ids < cct_count() only ever
 * sees complete nodes.  The hash slot is written after publication; a
 * reader never consults the hash.
 *
 * Keys with CCT_PSEUDO_BIT set are pseudo-frames (e.g. the MPI function a
 * sample was taken in); user-space PCs on x86-64/aarch64 never set bit 63.
 */
#ifndef RP_CCT_H
#define RP_CCT_H

#include <stddef.h>
#include <stdint.h>

/* Internal to rpprof: never exported from librpprof.so. */
#pragma GCC visibility push(hidden)

#define CCT_ROOT        0u
#define CCT_NONE        UINT32_MAX
#define CCT_PSEUDO_BIT  ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))
#define CCT_DEFAULT_CAP (1u << 20)
#define CCT_MAX_CAP     (1u << 28)

typedef struct rp_cct_node {
    uintptr_t pc;      /* raw PC (leaf: exact; callers: return addresses) */
    uint32_t  parent;  /* CCT_NONE for the root */
    uint32_t  depth;   /* root = 0 */
} rp_cct_node;

typedef struct rp_cct {
    rp_cct_node *nodes;      /* [cap] */
    uint32_t    *hash;       /* [hmask + 1] node ids, 0 = empty slot */
    int64_t     *metrics;    /* [cap * n_metrics] */
    uint32_t     cap;        /* most nodes, root included */
    uint32_t     hmask;
    uint32_t     n_metrics;
    volatile uint32_t n;     /* published nodes (>= 1 once initialised) */
    uint64_t     full;       /* insertions refused: arena full (cct_full) */
    void        *map;        /* the one mapping */
    size_t       map_bytes;
} rp_cct;

/* Map storage for `cap` nodes (clamped to [2, CCT_MAX_CAP]) with
 * `n_metrics` int64 columns each; creates the root.  Pages are touched
 * lazily, so a large capacity costs address space, not memory.
 * 0, or -1 with errno. */
int  cct_init(rp_cct *t, uint32_t cap, uint32_t n_metrics);
void cct_free(rp_cct *t);

/* Child of `parent` keyed by pc: found or appended.  Returns its id, or
 * CCT_NONE (and t->full++) if it is absent and the arena is full.
 * Async-signal-safe. */
uint32_t cct_child(rp_cct *t, uint32_t parent, uintptr_t pc);
/* Look up without inserting; CCT_NONE if absent. */
uint32_t cct_find(const rp_cct *t, uint32_t parent, uintptr_t pc);

/* Insert a call path given leaf first (pcs[0] = leaf, pcs[n-1] = outermost
 * caller), optionally followed by one extra leaf key below pcs[0]
 * (`extra_leaf`, 0 = none; e.g. an MPI pseudo-frame).  Returns the node of
 * the deepest frame.  If the arena fills up part-way, the deepest existing
 * prefix is returned and t->full is incremented once.  Async-signal-safe. */
uint32_t cct_insert_path(rp_cct *t, const uintptr_t *pcs, uint32_t n,
                         uintptr_t extra_leaf);

/* The last path inserted, root first, so that the next insertion of a path
 * sharing a prefix (the common case: consecutive samples differ near the
 * leaf) compares PCs instead of probing the hash for every frame.  Nodes
 * are never removed, so a cache stays valid for the life of its tree.
 * One cache per writer context; zero-initialise before first use. */
#define CCT_CACHE_DEPTH 512
typedef struct rp_cct_cache {
    uint32_t  n;
    uintptr_t pc[CCT_CACHE_DEPTH];
    uint32_t  node[CCT_CACHE_DEPTH];
} rp_cct_cache;

/* cct_insert_path through a prefix cache (same result, fewer probes). */
uint32_t cct_insert_path_cached(rp_cct *t, rp_cct_cache *c, const uintptr_t *pcs,
                                uint32_t n, uintptr_t extra_leaf);

static inline uint32_t cct_count(const rp_cct *t) { return t->n; }
static inline int64_t *cct_metrics(rp_cct *t, uint32_t node)
{
    return t->metrics + (size_t)node * t->n_metrics;
}
/* metrics[node][col] += v; ignores out-of-range ids/columns. */
static inline void cct_add(rp_cct *t, uint32_t node, uint32_t col, int64_t v)
{
    if (node < t->n && col < t->n_metrics)
        t->metrics[(size_t)node * t->n_metrics + col] += v;
}

#pragma GCC visibility pop

/* ---- the tree as the rank file stores it (lib/format/rpfile.h) ---------- */
typedef struct rp_module {
    char    *path;            /* absolute path of the load module */
    uint8_t  build_id[64];
    uint32_t build_id_len;    /* 0 if the module had no NT_GNU_BUILD_ID */
} rp_module;

typedef struct rp_cctnode {
    uint32_t parent;          /* index of parent node; UINT32_MAX for the root */
    uint32_t module;          /* module index or RP_MOD_* */
    uint64_t offset;          /* return address - module load base (pc offset) */
} rp_cctnode;

/* What the sampler hands the runtime at Finalize for the rank file. */
typedef struct rp_cct_export {
    uint32_t    n_modules;
    rp_module  *modules;
    uint32_t    n_mpi_names;
    char      **mpi_names;    /* names for RP_MOD_MPI pseudo-frames */
    uint32_t    n_nodes;      /* node 0 is the root */
    uint32_t    n_metrics;    /* = RP_MET_PATH0 + k */
    rp_cctnode *nodes;
    int64_t    *metrics;      /* n_nodes * n_metrics, ns */
} rp_cct_export;

#endif
