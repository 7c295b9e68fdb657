/* itembuf.h - a rank's buffer of uncommitted items for the current phase:
 * samples {cct node, weight} in prof mode, tasks in path mode.  Indices are
 * 16 bits (paper §5), so capacity is at most 65536.  Push is
 * async-signal-safe (no allocation after init).  Pure C. */
#ifndef RP_ITEMBUF_H
#define RP_ITEMBUF_H

#include <stdint.h>

#define RP_ITEMBUF_MAX 65536u

typedef struct rp_item {
    uint32_t node;     /* CCT node id (sample's context, or task's call site) */
    uint32_t aux;      /* mode-specific: path mode message bytes/source index */
    int64_t  value_ns; /* sample weight or task cost */
} rp_item;

typedef struct rp_itembuf {
    rp_item *items;
    uint32_t n;        /* items pushed this phase */
    uint32_t cap;      /* capacity, <= RP_ITEMBUF_MAX */
    uint64_t dropped;  /* pushes refused because the buffer was full (all phases) */
} rp_itembuf;

int  itembuf_init(rp_itembuf *b, uint32_t cap);  /* 0, or -1 */
void itembuf_free(rp_itembuf *b);
/* Index of the new item, or -1 (and dropped++) when full. */
int32_t itembuf_push(rp_itembuf *b, uint32_t node, uint32_t aux, int64_t value_ns);
void itembuf_reset(rp_itembuf *b);           /* phase start */

#endif
