/* prof.c - RP_MODE=prof, the default: path profiles (paper §6).  Samples
 * are items of the rank's buffer; at a phase end each rank commits its own
 * items that lie inside the selected summaries into the path columns of its
 * calling-context tree (lazy commit, paper Fig. 3 line 34). */
#include <string.h>
#include "core/commit.h"
#include "core/counters.h"
#include "core/select.h"
#include "modes/modes.h"
#include "sampler/sample.h"

static rp_state *g_st;

static int prof_init(rp_state *st, int init_fn)
{
    (void)init_fn;
    g_st = st;
    return 0;
}

/* Report slot j (percentile 100 .. 0) shows held path near[j]: with fewer
 * than k distinct paths one held path stands for several slots, and its
 * samples must reach each of those slots' columns. */
typedef struct slot_map {
    uint64_t slots[RP_MAX_K];   /* held path -> bit set of report slots */
    double   scale[RP_MAX_K];   /* held path -> weight factor (commit_path_attr) */
} slot_map;

static void commit_to_slots(void *ctx, uint32_t path, const rp_item *item, uint32_t idx)
{
    const slot_map *m = ctx;
    rp_item it = *item;
    it.value_ns = (int64_t)((double)item->value_ns * m->scale[path] + 0.5);
    for (uint64_t bits = m->slots[path]; bits; bits &= bits - 1)
        sample_commit_item(NULL, (uint32_t)__builtin_ctzll(bits), &it, idx);
}

static void prof_phase_end(uint64_t phase, const uint8_t *near, const rp_pathset *ps,
                           const rp_itembuf *items)
{
    (void)phase;
    slot_map map;
    memset(&map, 0, sizeof map);
    for (uint32_t j = 0; j < g_st->cfg.k; j++)
        map.slots[near[j]] |= 1ull << j;
    /* Every rank holds the identical set now: each scales its own items the
     * same way, and rank 0 alone books what no sample locates. */
    for (uint32_t i = 0; i < ps->n && i < RP_MAX_K; i++) {
        rp_path_attr a;
        commit_path_attr(&ps->p[i], &a);
        map.scale[i] = a.scale;
        if (g_st->rank == 0 && g_st->cfg.period_us > 0)   /* no sampling: no profile to book into */
            for (uint64_t bits = map.slots[i]; bits; bits &= bits - 1)
                for (uint32_t c = 1; c < RP_UNK_N; c++)
                    sample_commit_unknown((uint32_t)__builtin_ctzll(bits), c, a.unk_ns[c]);
    }
    uint64_t r = commit_phase(ps, g_st->rank, items, commit_to_slots, &map);
    rp_counters[RP_CNT_COMMIT_CLIPPED] += r >> 32;
}

/* Collectives are numbered on every communicator in every mode, so that a
 * non-blocking one's two halves agree whatever the mode. */
static void prof_coll(rp_comm *c, int kind, int root, int phase_end)
{
    (void)kind, (void)root, (void)phase_end;
    c->ncoll++;
}

static uint64_t prof_nbc_call(rp_comm *c, int kind, int root)
{
    (void)kind, (void)root;
    return c->ncoll++;
}

static void prof_nbc_done(rp_comm *c, int kind, int root, uint64_t no)
{
    (void)c, (void)kind, (void)root, (void)no;
}

static void prof_export(struct rp_rankdata *d) { (void)d; }

/* Task end: the sampler settles the finished task's unsampled time. */
static void prof_task_end(int fn, int64_t cost_ns)
{
    (void)fn;
    sample_task_end(cost_ns);
}

const rp_mode_ops rp_mode_prof = {
    .mode = RP_MODE_PROF, .name = "prof", .summary = RP_SUMMARY_PROF,
    .comm = { .uniform_uids = 0, .merge_inter = 1 },
    .recv_overlap = 1, .msgs = NULL, .wants_bytes = 0, .neighbors = 1, .batch_phases = 1,
    .init = prof_init, .task_end = prof_task_end, .coll = prof_coll,
    .nbc_call = prof_nbc_call, .nbc_done = prof_nbc_done,
    .phase_end = prof_phase_end, .export = prof_export,
};

const rp_mode_ops *mode_ops(uint32_t mode)
{
    switch (mode) {
    case RP_MODE_PATH:  return &rp_mode_path;
    case RP_MODE_TRACE: return &rp_mode_trace;
    default:            return &rp_mode_prof;
    }
}
