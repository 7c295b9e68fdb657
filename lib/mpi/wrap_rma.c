/* wrap_rma.c - one-sided communication (doc/design.md, "One-sided").
 *
 * Window creation is collective over its communicator, so each window gets
 * its own shadow (one duplicate of that communicator) right there, in the
 * same order on every member.  MPI_Win_fence is the only synchronisation
 * joined: every member's RMA data of the epoch is visible after it, so all
 * members join all (the path-allreduce of the blocking collectives, on the
 * window's shadow, after the real fence returned).  The other
 * synchronisation calls are events without a join, counted as not
 * followed (kind `rma_sync`), and the RMA calls are local MPI time (kind
 * `local`).
 *
 * Windows and their shadows: lib/mpi/shadowtab.c. */
#include <mpi.h>
#include "mpi/hooks.h"
#include "mpi/shadowtab.h"
#include "runtime/runtime_int.h"

static rp_shadowtab wins;

void rp_hook_win_new(MPI_Comm comm, MPI_Win win)
{
    if (rp_rt.local_paths)   /* MPI_THREAD_MULTIPLE: no collective of ours */
        return;
    if (!shadowtab_add(&wins, comm, &win, sizeof win)) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        rp_warn(1, "could not shadow a new window; its fences are not joined");
    }
}

void rp_hook_win_free(MPI_Win win) { shadowtab_del(&wins, &win, sizeof win); }

void rp_hook_win_fence(MPI_Win win)
{
    if (rp_rt.local_paths)
        return;
    rp_shadow_ent *w = shadowtab_find(&wins, &win, sizeof win);
    if (!w) {
        /* Created where we did not see it (another thread, or a creation
         * call we do not wrap): pass through, visibly. */
        static int warned;
        rp_counters[RP_CNT_UNSUPPORTED]++;
        if (!warned++)
            rp_warn(0, "MPI_Win_fence on a window whose creation was not seen; not joined");
        return;
    }
    if (w->c)   /* NULL: a window over one process */
        rp_join_all_on(w->c);
}

/* Post/start/complete/wait/test and lock/unlock order ranks (an origin
 * waits for a target's post, a lock for another rank's unlock), but the
 * paths do not follow them: no path-set travels, so time spent waiting
 * there stays MPI time on the waiting rank.  Counted, so every report view
 * warns (doc/coverage.md). */
void rp_hook_rma_sync(void)
{
    rp_counters[RP_CNT_RMA_SYNC_UNFOLLOWED]++;
}

/* At MPI_Finalize: windows the program never freed. */
void rp_rma_finalize(void) { shadowtab_clear(&wins); }
