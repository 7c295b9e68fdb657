/* runtime.c - the life cycle of the runtime inside one MPI process:
 * start at MPI_Init, phase ends, finish at MPI_Finalize. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
#include "hooks.h"
#include "commit.h"
#include "config.h"
#include "select.h"
#include "proto.h"
#include "reqtab.h"
#include "rpfile.h"
#include "runtime_int.h"
#include "pathmode.h"
#include "fault.h"     /* robustness: checkpoints, MPI_Abort, signals */

/* The process's runtime state (see runtime.h for who touches what). */
rp_runtime rp_rt;
__thread int rp_tls_main __attribute__((tls_model("initial-exec")));
uint64_t rp_counters[RP_CNT__N];
const char *const rp_counter_names[RP_CNT__N] = {
    [RP_CNT_MSGS_SENT] = "pathset_msgs_sent",
    [RP_CNT_MSGS_RECV] = "pathset_msgs_received",
    [RP_CNT_PS_BYTES_SENT] = "pathset_bytes_sent",
    [RP_CNT_PS_DECODE_ERRORS] = "pathset_decode_errors",
    [RP_CNT_POOL_GROW] = "send_pool_grown",
    [RP_CNT_POOL_WAIT] = "send_pool_waits",
    [RP_CNT_UNMATCHED_PS] = "pathset_unmatched",
    [RP_CNT_COLL_JOINS] = "collective_joins",
    [RP_CNT_COMMIT_CLIPPED] = "commit_clipped",
    [RP_CNT_ITEMS_DROPPED] = "items_dropped",
    [RP_CNT_K_CLAMPED] = "k_clamped",
    [RP_CNT_UNSUPPORTED] = "unsupported_calls",
    [RP_CNT_REQ_FREED_ACTIVE] = "requests_freed_active",
    [RP_CNT_CANCELLED] = "receives_cancelled",
    [RP_CNT_TASKS_EAGER] = "tasks_committed_eagerly",
    [RP_CNT_ALLOC_FAILURES] = "allocation_failures",
    [RP_CNT_CLOCK_TSC] = "ranks_clock_tsc",
    [RP_CNT_THREAD_LEVEL] = "mpi_thread_level",
    [RP_CNT_OTHER_THREAD_CALLS] = "mpi_calls_other_threads",
    [RP_CNT_LOCAL_PATHS] = "ranks_paths_local_only",
};

int rp_active_other(void)
{
    if (!rp_rt.active)
        return 0;
    __atomic_fetch_add(&rp_counters[RP_CNT_OTHER_THREAD_CALLS], 1, __ATOMIC_RELAXED);
    /* MPI_THREAD_MULTIPLE: calls may overlap the main thread's, whose state
     * (path-set, requests, pools) is not shared: pass through. */
    if (!rp_rt.any_thread || rp_rt.in_mpi)
        return 0;
    /* MPI_THREAD_SERIALIZED: the program orders its MPI calls, so this one
     * is the process's next event.  Raise in_mpi before the wrapper touches
     * the path-set, then wait out a main-thread SIGPROF handler that may
     * have begun extending it before it could see in_mpi (sample.c). */
    sample_other_enter();
    return 1;
}

void rp_warn(int all_ranks, const char *fmt, ...)
{
    if (!all_ranks && rp_rt.rank != 0)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(line, sizeof line, "rpprof[%u]: ", rp_rt.rank);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    if (len < sizeof line - 1)
        line[len++] = '\n';
    /* One write: lines from many ranks do not interleave mid-line. */
    ssize_t w = write(2, line, len);
    (void)w;
}

/* Report slot j (percentile 100 .. 0) shows held path select_nearest(j):
 * with fewer than k distinct paths one held path stands for several slots,
 * and its samples must reach each of those slots' columns. */
typedef struct slot_map {
    uint64_t slots[RP_MAX_K];   /* held path -> bit set of report slots */
} slot_map;

static void commit_to_slots(void *ctx, uint32_t path, const rp_item *item, uint32_t idx)
{
    const slot_map *m = ctx;
    for (uint64_t bits = m->slots[path]; bits; bits &= bits - 1)
        sample_commit_item(NULL, (uint32_t)__builtin_ctzll(bits), item, idx);
}

/* Report slot j -> held path, for n held paths (k is fixed for the run):
 * computed once per n, since phase ends can be very frequent. */
static uint8_t nearest_map[RP_MAX_K + 1][RP_MAX_K];
static uint8_t nearest_ready[RP_MAX_K + 1];

static const uint8_t *nearest_for(uint32_t n)
{
    uint32_t k = rp_rt.cfg.k;
    if (!nearest_ready[n]) {
        for (uint32_t j = 0; j < k; j++)
            nearest_map[n][j] = (uint8_t)select_nearest(j, k, n);
        nearest_ready[n] = 1;
    }
    return nearest_map[n];
}

void rp_phase_end(void)
{
    int64_t costs[RP_MAX_K];
    uint32_t k = rp_rt.cfg.k, n = rp_rt.ps.n <= k ? rp_rt.ps.n : k;
    const uint8_t *near = nearest_for(n);
    if (rp_rt.cfg.mode == RP_MODE_PROF) {
        slot_map map;
        memset(&map, 0, sizeof map);
        for (uint32_t j = 0; j < k; j++)
            map.slots[near[j]] |= 1ull << j;
        uint64_t r = commit_phase(&rp_rt.ps, rp_rt.rank, &rp_rt.items,
                                  commit_to_slots, &map);
        rp_counters[RP_CNT_COMMIT_CLIPPED] += r >> 32;
    } else {
        pathmode_phase_end(rp_rt.nphases);
    }
    for (uint32_t j = 0; j < k; j++)
        costs[j] = n ? rp_rt.ps.p[near[j]].cost_ns : 0;
    phasestats_add(&rp_rt.stats, costs);
    rp_rt.nphases++;
    pathset_reset(&rp_rt.ps);
    itembuf_reset(&rp_rt.items);
    if (rp_rt.cfg.period_us)
        sample_phase_reset();
    rp_fault_phase_end();   /* robustness: periodic checkpoint (lib/fault.c) */
    rp_clock_rebase();      /* inside the phase-ending call: MPI time */
}

/* Tear down after a failed start: the job goes on unprofiled. */
static void disable(void)
{
    rp_rt.active = 0;
    rp_rma_finalize();
    comm_shutdown();
}

void rp_start(void)
{
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    rp_rt.rank = (uint32_t)rank;
    rp_rt.nranks = (uint32_t)size;
    rp_tls_main = 1;
    config_load(&rp_rt.cfg, rank == 0);
    rp_clock_init((int)rp_rt.cfg.tsc);
    rp_counters[RP_CNT_CLOCK_TSC] = (uint64_t)rp_clock_is_tsc();
    if (rp_rt.cfg.k != rp_rt.cfg.k_asked)
        rp_counters[RP_CNT_K_CLAMPED] = 1;
    rp_rt.max_wire = (uint32_t)pathset_max_wire_bytes(rp_rt.cfg.k, rp_rt.cfg.summary);

    if (comm_register(MPI_COMM_WORLD) != 0 || comm_register(MPI_COMM_SELF) != 0) {
        rp_warn(0, "cannot duplicate MPI_COMM_WORLD; profiling disabled");
        return;
    }
    int ok = pathset_init(&rp_rt.ps, rp_rt.cfg.k, rp_rt.cfg.summary) == 0 &&
             itembuf_init(&rp_rt.items, rp_rt.cfg.buffer) == 0 &&
             phasestats_init(&rp_rt.stats, rp_rt.cfg.k) == 0 &&
             proto_init(rp_rt.max_wire + (rp_rt.cfg.mode == RP_MODE_TRACE ? RP_TRACE_PREFIX : 0)) == 0 &&
             (rp_rt.cfg.mode == RP_MODE_PROF || pathmode_init() == 0);
    /* Everyone must agree, or collectives of ours would not match. */
    int all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_world()->coll);
    if (!all_ok) {
        rp_warn(0, "out of memory setting up; profiling disabled");
        disable();
        return;
    }
    if (output_prepare() != 0) {
        disable();
        return;
    }
    pathset_reset(&rp_rt.ps);
    rp_rt.rng = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)rank << 17);
    rp_rt.active = 1;
    /* Always started: the calling-context tree also names the call sites of
     * path and trace modes; the timer runs only with a period. */
    if (sample_start(&rp_rt.cfg) != 0)
        rp_rt.cfg.period_us = 0;
    rp_rt.init_ns = rp_now_ns();
    rp_rt.task_start_ns = rp_rt.init_ns;
    rp_fault_start();       /* robustness: RP_CHECKPOINT, SIGTERM, SIGPROF (lib/fault.c) */
}

void rp_finish(void)
{
    /* The caller did rp_enter: the last task ended at MPI_Finalize entry. */
    rp_rt.finalize_ns = rp_rt.mpi_enter_ns;
    rp_coll_allreduce_paths(comm_world());
    pathmode_coll(comm_world(), RP_COLL_ALL, -1, 1);
    rp_phase_end();
    if (rp_rt.cfg.period_us)
        sample_stop();
    rp_nbc_finalize();
    proto_finalize();
    rp_counters[RP_CNT_ITEMS_DROPPED] = rp_rt.items.dropped;
    output_write();
    rp_rt.active = 0;
    rp_rma_finalize();
    comm_shutdown();
}
