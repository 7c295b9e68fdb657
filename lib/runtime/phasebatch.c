/* phasebatch.c - phase ends exchanged several at once (RP_PHASE_BATCH;
 * doc/design.md, "Phase ends in batches").
 *
 * A phase ends at every collective over MPI_COMM_WORLD, and its k paths
 * are decided by the path-allreduce of every rank's set (paper §4.3): a
 * butterfly or dissemination of ceil(log2 n) rounds, latency-bound, added
 * to every such collective.  Nothing in the next phase depends on that
 * decision: every rank restarts from one path of cost 0.  What needs it is
 * the booking (which items lie on the chosen paths, the phase's k costs),
 * and that can wait.  So each rank keeps its set and its uncommitted items
 * of up to RP_PHASE_BATCH ended phases, and the exchange runs once for all
 * of them, one message a round carrying every phase's set
 * (coll_allreduce_batch): each set meets only its own phase's sets, in the
 * same rounds and order as alone, so every phase is booked exactly as it
 * would have been at its end, in order.  Every rank counts the same world
 * collectives, so all exchange at the same one.
 *
 * Simulated at 4 096 ranks, one batch of 16 costs little more than one
 * exchange (the rounds are latency, not bytes), so the added time per
 * world collective falls about 16-fold (doc/performance.md, "At scale").
 *
 * Batches are for short phases.  The first phase is exchanged alone;
 * after each exchange every rank sets the next batch's size from the
 * batch's 100 % path costs (agreed by the exchange itself, so all choose
 * alike): as many phases as make RP_BATCH_SPAN_NS of
 * critical path at their mean, at least 1, at most RP_PHASE_BATCH.  A
 * phase of 100 ms or more is exchanged at its end: the exchange (about
 * 70 us at 4 096 simulated ranks) is then under 0.1 % of it anyway.
 *
 * What waits: the batch's phases' sets and items.  A rank file written
 * before they are booked (a checkpoint, MPI_Abort) lacks them, and says so
 * (counter phases_unbooked, warned): at most RP_PHASE_BATCH - 1 phases,
 * about RP_BATCH_SPAN_NS of critical path. */
#include <stdlib.h>
#include <string.h>
#include "core/config.h"
#include "core/counters.h"
#include "exchange/collpaths.h"
#include "runtime/phasebatch.h"
#include "runtime/runtime_int.h"

typedef struct pb_slot {
    rp_pathset wide;     /* the phase's set as the rounds join it (wide) */
    rp_pathset fin;      /* its final k (the rounds' set when not wide) */
    rp_itembuf items;    /* its uncommitted items: a copy of the used part */
} pb_slot;

/* Critical path a batch should span, at most (see above). */
#define RP_BATCH_SPAN_NS 100000000LL

static rp_state *g_st;
static pb_slot *g_slot;
static uint32_t g_max;   /* RP_PHASE_BATCH; 1 = off */
static uint32_t g_cap;   /* phases in the current batch, 1..g_max */
static uint32_t g_n;     /* ended phases held */

int phasebatch_init(rp_state *st, uint32_t batch)
{
    g_st = st;
    g_max = batch > 1 ? batch : 1;
    g_cap = 1;
    if (g_max == 1)
        return 0;
    g_slot = calloc(g_max, sizeof *g_slot);
    if (!g_slot)
        return -1;
    for (uint32_t i = 0; i < g_max; i++)
        if (pathset_init(&g_slot[i].fin, st->cfg.k, st->cfg.summary) != 0 ||
            (st->cfg.phase_k > st->cfg.k &&
             pathset_init(&g_slot[i].wide, st->cfg.phase_k, st->cfg.summary) != 0))
            return -1;
    return coll_batch_init(g_max);
}

int phasebatch_on(void) { return g_max > 1; }

uint32_t phasebatch_pending(void) { return g_n; }

int phasebatch_exchanges_next(void) { return g_max > 1 && g_n + 1 >= g_cap; }

/* This rank's longest paths of the held phases, summed (slots 0..n-1,
 * before the exchange: each set is sorted, p[0] the longest).  The
 * largest over the ranks is what the exchange agrees on; the phase's
 * longest path ends on some rank, whose set holds it (the 100 % path is
 * kept exactly), so that is the sum of the phases' 100 % path costs. */
static int64_t held_longest(uint32_t n, int wide)
{
    int64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        const rp_pathset *ps = wide ? &g_slot[i].wide : &g_slot[i].fin;
        if (ps->n)
            sum += ps->p[0].cost_ns;
    }
    return sum;
}

/* The next batch's size, from the summed 100 % path costs of the n phases
 * just exchanged, the same on every rank (not from the final sets: a set
 * a member failed to decode must not make members disagree on when to
 * exchange, which would deadlock them). */
static uint32_t next_cap(uint32_t n, int64_t longest)
{
    int64_t mean = longest / (int64_t)n;
    if (mean <= 0)
        return g_max;
    int64_t c = RP_BATCH_SPAN_NS / mean;
    return c < 1 ? 1 : c > (int64_t)g_max ? g_max : (uint32_t)c;
}

/* Keep the rank's set and items of the phase that just ended in slot s. */
static void keep(pb_slot *s, int wide)
{
    pathset_copy(wide ? &s->wide : &s->fin, &g_st->ps);
    const rp_itembuf *b = &g_st->items;
    if (b->n > s->items.cap) {
        rp_item *p = realloc(s->items.items, (size_t)b->n * sizeof *p);
        if (!p) {   /* the phase's samples are lost, visibly */
            rp_counters[RP_CNT_ALLOC_FAILURES]++;
            s->items.n = 0;
            g_st->items.dropped += b->n;
            return;
        }
        s->items.items = p;
        s->items.cap = b->n;
    }
    if (b->n)
        memcpy(s->items.items, b->items, (size_t)b->n * sizeof *b->items);
    s->items.n = b->n;
}

void phasebatch_end(rp_comm *c, int last)
{
    int wide = coll_phase_wide(c);
    keep(&g_slot[g_n++], wide);
    if (g_n == g_cap || last) {
        rp_pathset *work[RP_MAX_PHASE_BATCH], *out[RP_MAX_PHASE_BATCH];
        for (uint32_t i = 0; i < g_n; i++) {
            out[i] = &g_slot[i].fin;
            work[i] = wide ? &g_slot[i].wide : out[i];
        }
        int64_t longest = held_longest(g_n, wide);
        coll_allreduce_batch(c, work, out, g_n, &longest);
        if (g_n > 1)
            rp_counters[RP_CNT_PHASE_BATCHES]++;
        for (uint32_t i = 0; i < g_n; i++)
            rp_phase_book(&g_slot[i].fin, &g_slot[i].items);
        g_cap = next_cap(g_n, longest);
        g_n = 0;
    }
    rp_phase_restart();
}
