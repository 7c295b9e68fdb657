/* reqtab.c - open-addressing hash of tracked requests, keyed by the handle
 * bits.  Open MPI reuses request objects after completion, so an entry is
 * deleted when its (non-persistent) request completes or is freed.  The
 * table has fewer than four slots per entry ever live at once (256 at
 * least; deleted slots are reused or cleared at the next rehash); each
 * entry holds a reference to its communicator's entry (reqtab_set_comm),
 * dropped when it is deleted or its slot reused. */
#include "exchange/reqtab.h"

#include <stdlib.h>
#include <string.h>

/* Owned by this file; main thread only. */
static rp_req  *slots;
static uint32_t cap, live, used;   /* used = live + tombstones */

static uint32_t req_hash(MPI_Request r)
{
    uint64_t k = 0;
    memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
    k ^= k >> 31;
    k *= 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(k >> 32);
}

static int same_req(MPI_Request a, MPI_Request b) { return memcmp(&a, &b, sizeof a) == 0; }

uint32_t reqtab_count(void) { return live; }

rp_req *reqtab_find(MPI_Request r)
{
    if (!live)
        return NULL;
    for (uint32_t i = req_hash(r) & (cap - 1), n = 0; n < cap; n++, i = (i + 1) & (cap - 1)) {
        if (slots[i].state == 0)
            return NULL;
        if (slots[i].state == 1 && same_req(slots[i].handle, r))
            return &slots[i];
    }
    return NULL;
}

static int rehash(uint32_t ncap)
{
    rp_req *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (uint32_t i = 0; i < cap; i++) {
        if (slots[i].state != 1)
            continue;
        uint32_t j = req_hash(slots[i].handle) & (ncap - 1);
        while (ns[j].state)
            j = (j + 1) & (ncap - 1);
        ns[j] = slots[i];
    }
    free(slots);
    slots = ns;
    cap = ncap;
    used = live;
    return 0;
}

rp_req *reqtab_add(MPI_Request r)
{
    rp_req *old = reqtab_find(r);
    if (old) {                      /* a stale entry for a reused handle */
        comm_put(old->comm);
        memset(old, 0, sizeof *old);
        old->state = 1;
        old->handle = r;
        return old;
    }
    if ((used + 1) * 4 > cap * 3) {
        uint32_t ncap = cap ? cap : 256;
        while ((live + 1) * 2 > ncap)
            ncap *= 2;
        if (rehash(ncap) != 0)
            return NULL;
    }
    uint32_t i = req_hash(r) & (cap - 1);
    while (slots[i].state == 1)
        i = (i + 1) & (cap - 1);
    if (slots[i].state == 0)
        used++;
    memset(&slots[i], 0, sizeof slots[i]);
    slots[i].state = 1;
    slots[i].handle = r;
    live++;
    return &slots[i];
}

void reqtab_set_comm(rp_req *e, rp_comm *c)
{
    comm_hold(c);
    comm_put(e->comm);
    e->comm = c;
}

void reqtab_del(rp_req *e)
{
    comm_put(e->comm);
    e->comm = NULL;
    e->state = 2;
    live--;
    if (live == 0 && used > cap / 4) { /* clear tombstones while it is cheap */
        memset(slots, 0, cap * sizeof *slots);
        used = 0;
    }
}

void reqtab_foreach(void (*fn)(rp_req *e))
{
    for (uint32_t i = 0; i < cap; i++)
        if (slots[i].state == 1)
            fn(&slots[i]);
}
