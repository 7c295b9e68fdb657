/* pathset.h - a rank's set of up to k paths, each {cost, path-summary}.
 *
 * Pure C, no MPI.  The path-set is what travels at every branch (send) and
 * is merged at every join (receive completion, collective).  Paths are kept
 * sorted by cost, most critical first (index 0 = 100th percentile).
 */
#ifndef RP_PATHSET_H
#define RP_PATHSET_H

#include <stddef.h>
#include <stdint.h>

/* Most paths a set may keep: a join names its candidates in one byte and
 * its slots in one 64-bit mask (pathset.c), and k = 64 paths of the
 * summary's intervals already fill the eager limit. */
#define RP_PATHSET_MAX_K 64u

/* One interval of a path-summary: items low..high (inclusive) of the
 * uncommitted-item buffer of rank `rank` (path mode: of one epoch of it,
 * see rp_iv_key below).  8 bytes, as in the paper. */
typedef struct rp_interval {
    uint32_t rank;
    uint16_t low;
    uint16_t high;
} rp_interval;

/* A link (path mode, lib/core/chain.c): an interval whose rank has bit 31
 * set stands for segment low | high << 16 of the chain kept by rank
 * rank & ~RP_IV_LINK: the intervals that were before it, moved out when
 * the summary filled.  Only ever a summary's first interval; never in a
 * rank file (the phase end expands it).  Real ranks are below 2^31, and a
 * link carries no epoch (below). */
#define RP_IV_LINK 0x80000000u

static inline int rp_iv_is_link(const rp_interval *iv)
{
    return (iv->rank & RP_IV_LINK) != 0;
}

/* Task indices past 16 bits (path mode; doc/design.md "Full paths on long
 * phases").  An interval's low and high are 16 bits, so that an interval
 * stays 8 bytes on the wire, but a long phase holds more tasks a rank than
 * that.  Task i of a phase on rank r is the entry rank = r | (i >> 16) <<
 * RP_IV_EPOCH_SHIFT, low = high = i & 0xffff: bits 24..30 of the rank field
 * number the *epoch*, the 65 536-task block i lies in.  A path that runs
 * on one rank across an epoch's end opens a new interval (its rank field
 * differs), so summaries, chains and the wire need no other change, and
 * only the place that maps an interval to tasks decodes it (path mode's
 * phase end, which writes plain ranks and 32-bit indices to the rank
 * file).  Ranks must then be below 2^24: in a larger world path mode keeps
 * to epoch 0 and decodes nothing (rp_iv_decode's epochs = 0; pathmode.c),
 * as prof mode, whose items never pass 65 536, always does. */
#define RP_IV_EPOCH_SHIFT 24u
#define RP_IV_RANK_MASK   0x00ffffffu           /* the rank of a non-link entry */
#define RP_IV_EPOCHS      128u                  /* bits 24..30 */
#define RP_IV_MAX_RANKS   (RP_IV_RANK_MASK + 1u)

/* The rank field of task idx (< RP_IV_EPOCHS * 65536) of rank (< 2^24). */
static inline uint32_t rp_iv_key(uint32_t rank, uint32_t idx)
{
    return rank | (idx >> 16) << RP_IV_EPOCH_SHIFT;
}
/* Decoding a non-link interval: its rank, and its first and last tasks'
 * 32-bit indices. */
static inline uint32_t rp_iv_rank(const rp_interval *iv)
{
    return iv->rank & RP_IV_RANK_MASK;
}
static inline uint32_t rp_iv_lo(const rp_interval *iv)
{
    return (iv->rank >> RP_IV_EPOCH_SHIFT & (RP_IV_EPOCHS - 1u)) << 16 | iv->low;
}
static inline uint32_t rp_iv_hi(const rp_interval *iv)
{
    return (iv->rank >> RP_IV_EPOCH_SHIFT & (RP_IV_EPOCHS - 1u)) << 16 | iv->high;
}
/* A non-link interval as rank and tasks *lo..*hi: epochs decoded when
 * epochs is nonzero, else the field is the plain rank (any rank < 2^31). */
static inline void rp_iv_decode(const rp_interval *iv, int epochs, uint32_t *rank,
                                uint32_t *lo, uint32_t *hi)
{
    *rank = epochs ? rp_iv_rank(iv) : iv->rank;
    *lo = epochs ? rp_iv_lo(iv) : iv->low;
    *hi = epochs ? rp_iv_hi(iv) : iv->high;
}
/* Is iv well formed as a summary's interval number pos: a link (first
 * only), or an interval with low <= high?  (Every reader of summaries
 * from another rank checks this.) */
static inline int rp_iv_ok(const rp_interval *iv, uint32_t pos)
{
    return rp_iv_is_link(iv) ? pos == 0 : iv->low <= iv->high;
}

/* Path flags. */
#define RP_PATH_OVERFLOW 0x1u  /* path mode: summary full, the tail is not in it */

typedef struct rp_path {
    int64_t      cost_ns;    /* sum of task costs along the path */
    uint16_t     n_iv;       /* used intervals */
    uint16_t     flags;      /* RP_PATH_* */
    uint32_t     n_evicted;  /* prof mode: intervals opened but not kept (reservoir) */
    /* Prof mode, in us (sample weights are whole timer intervals, multiples
     * of 1 us; saturating): weight of every task sample taken on the path,
     * and the part of it whose item the full sample buffer refused.  They
     * travel with the path like cost_ns, so after a phase-end allreduce
     * every rank knows how much of the cost was sampled, located or lost
     * (doc/design.md "Attribution").  Path mode uses the same 8 bytes for
     * the path's cost in ns when its summary filled up (RP_PATH_OVERFLOW;
     * low half in sampled_us, high half in dropped_us; lib/modes/pathmode.c),
     * so the tools can check the rebuilt prefix against it. */
    uint32_t     sampled_us;
    uint32_t     dropped_us;
    /* How many paths of the activity graph this path stands for (issue 14):
     * w * 2^set->wexp.  Under RP_SELECT=repr a kept path is a point mass of
     * its own paths (itself and its exact duplicates); what was dropped
     * around it lives in the set's sketch.  Path counts pass any float's
     * range in long phases, hence the set's common exponent; a float, and
     * every rank does the same arithmetic in the same order, so all members
     * of a collective hold identical sets. */
    float        w;
    rp_interval *iv;         /* storage owned by the set, capacity = set->iv_cap */
    /* The summary's name (wire.h, "by reference"): nonzero, it names this
     * path's n_iv, iv, flags, n_evicted, sampled_us and dropped_us exactly,
     * job-wide, so a rank holding a path of that name holds its summary
     * and a set between ranks of a node can carry the name instead
     * (lib/exchange/mailbox.c).  0: unnamed.  Whatever changes one of those
     * fields clears it (pathset_extend, pathset_add_sample, path mode's
     * overflow); copies keep it. */
    uint64_t     sid;
} rp_path;

typedef struct rp_pathset {
    uint32_t     k_cap;   /* k: most paths kept */
    uint32_t     iv_cap;  /* intervals per path-summary */
    uint32_t     n;       /* paths held now, 1..k_cap (0 only before reset) */
    rp_path     *p;       /* k_cap paths, sorted by cost descending */
    rp_interval *store;   /* k_cap * iv_cap intervals */
    uint16_t    *repr_tab; /* select_repr_table(k_cap) */
    int32_t      wexp;    /* the paths' weights are p[i].w * 2^wexp */
    /* The sketch (RP_SELECT=repr, issue 14): in each gap between two
     * consecutive kept paths at most one cost-only point, standing for the
     * sk_w[i] * 2^wexp paths dropped in that gap, at their mean cost
     * sk_cost[i] (descending; strictly inside its gap when the gap is 2 ns
     * wide or more, so the cost names the gap).  A join takes that weight
     * as spread evenly over the widest interval centred on the mean inside
     * the gap (pathset.c "the weighted join"); without it the weight
     * between two kept paths lumps onto them and the levels next to the
     * ends drift towards the median (doc/accuracy.md). */
    uint32_t     n_sk;
    int64_t     *sk_cost;
    float       *sk_w;
} rp_pathset;

/* Selection statistic (RP_SELECT). */
/* RP_SELECT: REPR weighs each path by the number of paths it stands for
 * and keeps the k at evenly spaced weighted quantiles (the default);
 * PAPER is the paper's unweighted rule (k at evenly spaced positions of
 * the sorted candidates); TOPK the ceil(k/2) longest and floor(k/2)
 * shortest. */
typedef enum { RP_SELECT_REPR = 0, RP_SELECT_TOPK = 1, RP_SELECT_PAPER = 2 } rp_select_mode;
/* Summary overflow rule (depends on RP_MODE). */
typedef enum { RP_SUMMARY_PROF = 0, RP_SUMMARY_PATH = 1 } rp_summary_mode;


/* Allocate storage for k paths of iv_cap intervals; 0 on success, -1 on ENOMEM
 * or k outside 1..RP_PATHSET_MAX_K.
 * The set starts with zero paths; call pathset_reset. */
int  pathset_init(rp_pathset *ps, uint32_t k, uint32_t iv_cap);
void pathset_free(rp_pathset *ps);
/* Phase start: exactly one path of cost 0 with an empty summary. */
void pathset_reset(rp_pathset *ps);
/* Task end: add the finished task's cost to every path. */
void pathset_add_cost(rp_pathset *ps, int64_t cost_ns);
/* A new uncommitted item at buffer index idx on rank `rank` (the
 * interval's rank field, rp_iv_key): extend every path's summary
 * (summary_push).  rng: caller-owned xorshift state, used
 * only by the prof-mode overflow rule.  Async-signal-safe. */
void pathset_extend(rp_pathset *ps, uint32_t rank, uint16_t idx,
                    rp_summary_mode mode, uint64_t *rng);
/* A task sample of weight w_ns on this rank: every path's sampled_us grows
 * by it, and dropped_us too when its item was refused (buffer full).
 * Async-signal-safe. */
void pathset_add_sample(rp_pathset *ps, int64_t w_ns, int refused);
/* Does p carry anything beyond its cost and weight (intervals, flags,
 * evictions, sample weights)?  Only such a summary is worth a name. */
static inline int pathset_has_summary(const rp_path *p)
{
    return (p->n_iv | p->flags | p->n_evicted | p->sampled_us | p->dropped_us) != 0;
}
/* hdr takes p's summary: its fields, and its intervals by pointer (not
 * copied).  What a resolver of names gives for a path it holds (wire.h). */
static inline void pathset_summary_of(rp_path *hdr, const rp_path *p)
{
    hdr->n_iv = p->n_iv;
    hdr->flags = p->flags;
    hdr->n_evicted = p->n_evicted;
    hdr->sampled_us = p->sampled_us;
    hdr->dropped_us = p->dropped_us;
    hdr->iv = p->iv;
}
/* Name every unnamed path of ps that has a summary: *next, then *next + 1,
 * ...  (the caller's counter; its high bits make names unique per rank). */
void pathset_name(rp_pathset *ps, uint64_t *next);
/* The held path named sid (nonzero), or -1. */
int  pathset_find_sid(const rp_pathset *ps, uint64_t sid);
/* Copy src into dst (same or larger capacities). */
void pathset_copy(rp_pathset *dst, const rp_pathset *src);


/* Join: mine <- select_k(mine U in).  Exact duplicates (same cost, flags,
 * evictions and intervals) are dropped; ties are broken deterministically
 * by the summary contents, so every rank selects identically. */
void pathset_join(rp_pathset *mine, const rp_pathset *in, rp_select_mode sel);

/* dst <- the dst->k_cap paths that rule sel keeps of src alone (src may hold
 * more: the phase-end exchange's wide set, lib/exchange/collpaths.c); a
 * copy when src fits.  Deterministic: equal srcs give equal dsts. */
void pathset_select_from(rp_pathset *dst, const rp_pathset *src, rp_select_mode sel);

/* Join an encoded set straight from the received bytes: the same result as
 * pathset_decode into a scratch set followed by pathset_join, with the same
 * checks, but only the intervals of paths that are picked are copied (the
 * receiver's work on every message).  buf must be 4-byte aligned (the
 * runtime's receive buffers are malloc'ed, slots 8-byte multiples).
 * Returns 0, or -1 for a malformed buffer (mine unchanged). */
int pathset_join_wire(rp_pathset *mine, const void *buf, size_t len, rp_select_mode sel);

/* pathset_join_wire, REF paths (summaries by name) resolved through refs
 * (wire.h, pathset_encode_refs). */
struct rp_wire_refs;
struct rp_wire_set;
int pathset_join_wire_refs(rp_pathset *mine, const void *buf, size_t len, rp_select_mode sel,
                           const struct rp_wire_refs *refs);
/* Join a parsed set (wire.h, pathset_wire_parse) into mine: the second
 * half of pathset_join_wire. */
void pathset_join_parsed(rp_pathset *mine, const struct rp_wire_set *ws, rp_select_mode sel);

/* The cost a report shows at each of k evenly spaced percentiles
 * (out[0] = 100 %, out[k-1] = 0 %), from the held path pathset_levels
 * names. */
void pathset_percentile_costs(const rp_pathset *ps, uint32_t k, rp_select_mode sel,
                              int64_t *out);
/* Which held path each report level j of k shows (map[j]): path j when
 * the set holds k paths (a join puts its k paths at the k levels); with
 * fewer, by weighted quantile under repr, by nearest position otherwise
 * (select_levels). */
void pathset_levels(const rp_pathset *ps, uint32_t k, rp_select_mode sel, uint32_t *map);

#endif
