/* runtime.c - the life cycle of the runtime inside one MPI process:
 * start at MPI_Init, phase ends, finish at MPI_Finalize. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
#include "runtime/runtime.h"
#include "exchange/comm.h"
#include "exchange/collpaths.h"
#include "core/wire.h"
#include "exchange/mailbox.h"
#include "core/commit.h"
#include "core/config.h"
#include "core/select.h"
#include "exchange/proto.h"
#include "exchange/reqtab.h"
#include "format/rpfile.h"
#include "runtime/runtime_int.h"
#include "modes/modes.h"
#include "runtime/phasebatch.h"
#include "runtime/fault.h"     /* robustness: checkpoints, MPI_Abort, signals */

/* The process's runtime state (see runtime.h for who touches what). */
rp_runtime rp_rt;
static rp_mpi_layer g_mpi;   /* rp_start */
const rp_mode_ops *rp_mode = &rp_mode_prof;
__thread int rp_tls_main RP_TLS_IE;

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

void rp_phase_book(const rp_pathset *ps, const rp_itembuf *items)
{
    int64_t costs[RP_MAX_K];
    uint32_t k = rp_rt.cfg.k, n = ps->n <= k ? ps->n : k;
    const uint8_t *near = nearest_for(n);
    uint8_t wnear[RP_MAX_K];
    if (rp_rt.cfg.select == RP_SELECT_REPR && n) {
        /* weighted: the level map depends on the paths' weights */
        uint32_t map[RP_MAX_K];
        pathset_levels(ps, k, RP_SELECT_REPR, map);
        for (uint32_t j = 0; j < k; j++)
            wnear[j] = (uint8_t)map[j];
        near = wnear;
    }
    rp_mode->phase_end(rp_rt.nphases, near, ps, items);
    for (uint32_t j = 0; j < k; j++)
        costs[j] = n ? ps->p[near[j]].cost_ns : 0;
    phasestats_add(&rp_rt.stats, costs);
    rp_rt.nphases++;
}

void rp_phase_restart(void)
{
    pathset_reset(&rp_rt.ps);
    itembuf_reset(&rp_rt.items);
    if (rp_rt.cfg.period_us)
        sample_phase_reset();
    rp_fault_phase_end();   /* robustness: periodic checkpoint (lib/runtime/fault.c) */
    rp_clock_rebase();      /* inside the phase-ending call: MPI time */
}

void rp_phase_end(void)
{
    rp_phase_book(&rp_rt.ps, &rp_rt.items);
    rp_phase_restart();
}

/* Tear down after a failed start: the job goes on unprofiled. */
static void disable(void)
{
    rp_rt.active = 0;
    if (g_mpi.finalize_shadows)
        g_mpi.finalize_shadows();
    comm_shutdown();
}

void rp_start(const rp_mpi_layer *m)
{
    g_mpi = *m;
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    rp_rt.rank = (uint32_t)rank;
    rp_warn_set_rank(rp_rt.rank);
    rp_rt.nranks = (uint32_t)size;
    rp_tls_main = 1;
    config_load(&rp_rt.cfg, rank == 0);
    rp_clock_init((int)rp_rt.cfg.tsc);
    rp_counters[RP_CNT_CLOCK_TSC] = (uint64_t)rp_clock_is_tsc();
    if (rp_rt.cfg.k != rp_rt.cfg.k_asked)
        rp_counters[RP_CNT_K_CLAMPED] = 1;
    rp_rt.max_wire = (uint32_t)pathset_max_wire_bytes(rp_rt.cfg.k, rp_rt.cfg.summary);
    rp_rt.coll_wire = (uint32_t)pathset_max_wire_bytes(rp_rt.cfg.phase_k, rp_rt.cfg.summary);

    rp_mode = mode_ops(rp_rt.cfg.mode);
    rp_rt.sum_mode = rp_mode->summary;
    rp_comm_opts co = rp_mode->comm;
    co.rank = rp_rt.rank;
    co.nranks = rp_rt.nranks;
    comm_init(&co);
    if (comm_register(MPI_COMM_WORLD) != 0 || comm_register(MPI_COMM_SELF) != 0) {
        rp_warn(0, "cannot duplicate MPI_COMM_WORLD; profiling disabled");
        return;
    }
    /* Path-sets between ranks of a node go through shared memory, except
     * under MPI_THREAD_MULTIPLE (paths local, or other threads' messages
     * unordered with the main thread's). */
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    /* Summaries by name where they change rarely: prof mode's change only
     * at samples; path and trace modes' at every task (RP_MAILBOX_REFS=all
     * for tests). */
    uint32_t arena = rp_rt.cfg.mailbox_refs == 2 ||
                     (rp_rt.cfg.mailbox_refs == 1 && rp_rt.cfg.mode == RP_MODE_PROF);
    rp_mbox_opts mo = { rp_rt.cfg.mailbox && level != MPI_THREAD_MULTIPLE,
                        rp_rt.cfg.mailbox_bytes, rp_rt.cfg.mailbox_node, arena };
    if (mbox_init(&mo, comm_world()->coll, rp_rt.rank, rp_rt.nranks)) {
        comm_set_mbox_keys(1);
        rp_counters[RP_CNT_MBOX_RANKS] = 1;
    }
    int ok = pathset_init(&rp_rt.ps, rp_rt.cfg.k, rp_rt.cfg.summary) == 0 &&
             itembuf_init_max(&rp_rt.items,
                              rp_rt.cfg.buffer < RP_ITEMBUF_MAX ? rp_rt.cfg.buffer : RP_ITEMBUF_MAX,
                              rp_rt.cfg.buffer) == 0 &&
             phasestats_init(&rp_rt.stats, rp_rt.cfg.k) == 0 &&
             proto_init(&rp_rt, rp_rt.max_wire, rp_mode->msgs) == 0 &&
             collpaths_init(&rp_rt) == 0 &&
             phasebatch_init(&rp_rt, rp_mode->batch_phases ? rp_rt.cfg.phase_batch : 1) == 0 &&
             rp_mode->init(&rp_rt, g_mpi.init_fn) == 0;
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
    if (sample_start(&rp_rt, g_mpi.fn_name, g_mpi.fn_count) != 0)
        rp_rt.cfg.period_us = 0;
    rp_rt.init_ns = rp_now_ns();
    rp_rt.task_start_ns = rp_rt.init_ns;
    rp_fault_start();       /* robustness: RP_CHECKPOINT, SIGTERM, SIGPROF (lib/runtime/fault.c) */
}

void rp_finish(void)
{
    /* The caller did rp_enter: the last task ended at MPI_Finalize entry. */
    rp_rt.finalize_ns = rp_rt.mpi_enter_ns;
    /* Under MPI_THREAD_MULTIPLE (local paths) a world collective called
     * from another thread ends no phase on its rank, so the ranks' phase
     * numbers can part; their last phases are then different stretches of
     * time, and joining them would splice one rank's timeline onto
     * another's (a "longest path" longer than the run).  Then each rank
     * keeps its own, and says so. */
    if (!rp_rt.local_paths && phasebatch_on()) {
        /* the last phase, and those still held, in one exchange */
        rp_mode->coll(comm_world(), RP_COLL_ALL, -1, 1);
        phasebatch_end(comm_world(), 1);
    } else {
        if (!rp_rt.local_paths || coll_all_equal(comm_world(), rp_rt.nphases))
            coll_allreduce_paths(comm_world(), 1);
        else
            rp_counters[RP_CNT_PHASES_MISALIGNED] = 1;
        rp_mode->coll(comm_world(), RP_COLL_ALL, -1, 1);
        rp_phase_end();
    }
    if (rp_rt.cfg.period_us)
        sample_stop();
    if (g_mpi.finalize_nbc)
        g_mpi.finalize_nbc();
    proto_finalize();
    rp_counters[RP_CNT_ITEMS_DROPPED] = rp_rt.items.dropped;
    output_write();
    rp_rt.active = 0;
    if (g_mpi.finalize_shadows)
        g_mpi.finalize_shadows();
    comm_shutdown();
}
