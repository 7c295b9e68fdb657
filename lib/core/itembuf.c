/* itembuf.c - a rank's buffer of uncommitted items for the current phase.
 *
 * Storage comes from an anonymous private mmap so the buffer can be set up
 * before (or independently of) the process's malloc.  itembuf_push runs in
 * the SIGPROF handler (prof mode) and only writes into it; only
 * itembuf_push_grow (path mode, main thread) and itembuf_reset move or
 * unmap it, and those never run where a handler may push.
 */
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>

#include "core/itembuf.h"

static size_t itembuf_bytes(uint32_t cap)
{
    return (size_t)cap * sizeof(rp_item);
}

static rp_item *map_items(uint32_t cap)
{
    void *m = mmap(NULL, itembuf_bytes(cap), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

int itembuf_init_max(rp_itembuf *b, uint32_t cap, uint32_t max)
{
    memset(b, 0, sizeof *b);
    if (cap == 0 || cap > RP_ITEMBUF_MAX || max < cap || max > RP_TASKBUF_MAX)
        return -1;
    if (!(b->items = map_items(cap)))
        return -1;
    b->cap = b->cap0 = cap;
    b->max = max;
    return 0;
}

int itembuf_init(rp_itembuf *b, uint32_t cap)
{
    return itembuf_init_max(b, cap, cap);
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

int32_t itembuf_push_grow(rp_itembuf *b, uint32_t node, uint32_t aux, int64_t value_ns)
{
    if (b->n >= b->cap && b->cap < b->max) {
        uint32_t ncap = b->cap <= b->max / 2 ? b->cap * 2 : b->max;
        rp_item *m = map_items(ncap);
        if (!m) {
            b->grow_failed++;
            b->dropped++;
            return -1;
        }
        memcpy(m, b->items, itembuf_bytes(b->n));
        munmap(b->items, itembuf_bytes(b->cap));
        b->items = m;
        b->cap = ncap;
    }
    return itembuf_push(b, node, aux, value_ns);
}

void itembuf_limit(rp_itembuf *b, uint32_t max)
{
    b->max = max < b->cap0 ? b->cap0 : max;
}

void itembuf_reset(rp_itembuf *b)
{
    b->n = 0;  /* dropped is a whole-run counter */
    /* Give back what a long phase grew: unmap the tail past cap0 (in
     * place, no copy), when cap0 ends on a page (it does when the buffer
     * can grow: cap0 is then RP_ITEMBUF_MAX items, 1 MiB). */
    long page = sysconf(_SC_PAGESIZE);
    size_t keep = itembuf_bytes(b->cap0);
    if (b->cap > b->cap0 && page > 0 && keep % (size_t)page == 0 &&
        munmap((char *)b->items + keep, itembuf_bytes(b->cap) - keep) == 0)
        b->cap = b->cap0;
}
