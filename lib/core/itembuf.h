/* itembuf.h - a rank's buffer of uncommitted items for the current phase:
 * samples {cct node, weight} in prof mode, tasks in path mode.  Prof mode
 * indexes items in 16 bits (paper §5), so its capacity is at most
 * RP_ITEMBUF_MAX and never changes: push is async-signal-safe (no
 * allocation after init).  Path mode's tasks are pushed on the main
 * thread only, and a long phase may hold up to RP_TASKBUF_MAX of them (the
 * summaries name them by epoch, pathset.h rp_iv_key): itembuf_push_grow
 * maps more as the phase needs it, and the phase start gives it back.
 * Pure C. */
#ifndef RP_ITEMBUF_H
#define RP_ITEMBUF_H

#include <stdint.h>

#define RP_ITEMBUF_MAX 65536u
/* Path mode's bound: RP_IV_EPOCHS (pathset.h) epochs of 65 536 tasks. */
#define RP_TASKBUF_MAX (1u << 23)

typedef struct rp_item {
    uint32_t node;     /* CCT node id (sample's context, or task's call site) */
    uint32_t aux;      /* mode-specific: path mode message bytes/source index */
    int64_t  value_ns; /* sample weight or task cost */
} rp_item;

typedef struct rp_itembuf {
    rp_item *items;
    uint32_t n;        /* items pushed this phase */
    uint32_t cap;      /* items mapped now, <= max */
    uint32_t cap0;     /* items mapped at init (<= RP_ITEMBUF_MAX); a phase start maps back to it */
    uint32_t max;      /* most items a phase: cap0, or up to RP_TASKBUF_MAX (itembuf_push_grow) */
    uint64_t dropped;  /* pushes refused because the buffer was full (all phases) */
    uint64_t grow_failed; /* of those, refused because mapping more failed (all phases) */
} rp_itembuf;

/* cap items, never more (prof mode).  0, or -1. */
int  itembuf_init(rp_itembuf *b, uint32_t cap);
/* cap items now (1..RP_ITEMBUF_MAX), growing to max (cap..RP_TASKBUF_MAX)
 * by itembuf_push_grow.  0, or -1. */
int  itembuf_init_max(rp_itembuf *b, uint32_t cap, uint32_t max);
void itembuf_free(rp_itembuf *b);
/* Index of the new item, or -1 (and dropped++) when full.
 * Async-signal-safe: never maps memory. */
int32_t itembuf_push(rp_itembuf *b, uint32_t node, uint32_t aux, int64_t value_ns);
/* itembuf_push, mapping more (twice as much, up to max) when the mapped
 * part is full: the items move.  Not async-signal-safe; main thread only
 * (path mode, where nothing samples).  -1 (dropped++) when max items are
 * held or the mapping failed (grow_failed++ too). */
int32_t itembuf_push_grow(rp_itembuf *b, uint32_t node, uint32_t aux, int64_t value_ns);
/* Lower max (not below cap0): a bound found after init. */
void itembuf_limit(rp_itembuf *b, uint32_t max);
/* Phase start: empty, and unmap what a long phase grew past cap0. */
void itembuf_reset(rp_itembuf *b);

#endif
