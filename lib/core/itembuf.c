/* itembuf.c - a rank's buffer of uncommitted items for the current phase.
 *
 * Storage comes from an anonymous private mmap so the buffer can be set up
 * before (or independently of) the process's malloc, and never moves:
 * itembuf_push runs in the SIGPROF handler and only writes into it.
 */
#include <sys/mman.h>
#include <string.h>

#include "core/itembuf.h"

static size_t itembuf_bytes(uint32_t cap)
{
    return (size_t)cap * sizeof(rp_item);
}

int itembuf_init(rp_itembuf *b, uint32_t cap)
{
    memset(b, 0, sizeof *b);
    if (cap == 0 || cap > RP_ITEMBUF_MAX)
        return -1;
    void *m = mmap(NULL, itembuf_bytes(cap), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    b->items = m;
    b->cap = cap;
    return 0;
}

void itembuf_free(rp_itembuf *b)
{
    if (b->items)
        munmap(b->items, itembuf_bytes(b->cap));
    memset(b, 0, sizeof *b);
}

int32_t itembuf_push(rp_itembuf *b, uint32_t node, uint32_t aux, int64_t value_ns)
{
    if (b->n >= b->cap) {
        b->dropped++;
        return -1;
    }
    uint32_t i = b->n;
    b->items[i].node = node;
    b->items[i].aux = aux;
    b->items[i].value_ns = value_ns;
    b->n = i + 1;  /* publish after the item is complete */
    return (int32_t)i;
}

void itembuf_reset(rp_itembuf *b)
{
    b->n = 0;  /* dropped is a whole-run counter */
}
