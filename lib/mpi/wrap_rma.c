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
 * Windows are few (created once, fenced many times): a small array with a
 * linear search keyed by the handle's bits, owned by this file and touched
 * only by the profiled thread. */
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "mpi/hooks.h"
#include "exchange/comm.h"
#include "exchange/collpaths.h"
#include "runtime/runtime_int.h"

typedef struct {
    MPI_Win  win;
    rp_comm *c;
} rp_win;

static rp_win  *wins;
static uint32_t nwins, capwins;

static int same_win(MPI_Win a, MPI_Win b) { return memcmp(&a, &b, sizeof a) == 0; }

static rp_win *win_find(MPI_Win w)
{
    for (uint32_t i = 0; i < nwins; i++)
        if (same_win(wins[i].win, w))
            return &wins[i];
    return NULL;
}

void rp_hook_win_new(MPI_Comm comm, MPI_Win win)
{
    if (rp_rt.local_paths)   /* MPI_THREAD_MULTIPLE: no collective of ours */
        return;
    /* Room first: the shadow is collective, and comm_shadow_new makes all
     * members agree; a rank that could not store it must not take part
     * in a different way from the others. */
    if (nwins == capwins) {
        uint32_t ncap = capwins ? capwins * 2 : 8;
        rp_win *n = realloc(wins, ncap * sizeof *n);
        if (n) {
            wins = n;
            capwins = ncap;
        }
    }
    rp_comm *c = NULL;
    if (nwins < capwins)
        c = comm_shadow_new(comm);
    else {
        /* Out of memory for the table: still take part in the agreement
         * so that the others learn it (they would otherwise join at every
         * fence and wait for us). */
        MPI_Comm dup;
        if (PMPI_Comm_dup(comm, &dup) == MPI_SUCCESS) {
            int ok = 0, all = 0;
            PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, dup);
            PMPI_Comm_free(&dup);
        }
    }
    if (!c) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        rp_warn(1, "could not shadow a new window; its fences are not joined");
        return;
    }
    wins[nwins].win = win;
    wins[nwins].c = c;
    nwins++;
}

void rp_hook_win_free(MPI_Win win)
{
    rp_win *w = win_find(win);
    if (!w)
        return;
    comm_shadow_free(w->c);
    *w = wins[--nwins];
}

void rp_hook_win_fence(MPI_Win win)
{
    if (rp_rt.local_paths)
        return;
    rp_win *w = win_find(win);
    if (!w) {
        /* Created where we did not see it (another thread, or a creation
         * call we do not wrap): pass through, visibly. */
        static int warned;
        rp_counters[RP_CNT_UNSUPPORTED]++;
        if (!warned++)
            rp_warn(0, "MPI_Win_fence on a window whose creation was not seen; not joined");
        return;
    }
    coll_allreduce_paths(w->c, 0);
    rp_mode->coll(w->c, RP_COLL_ALL, -1, 0);
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
void rp_rma_finalize(void)
{
    for (uint32_t i = 0; i < nwins; i++)
        comm_shadow_free(wins[i].c);
    nwins = 0;
    free(wins);
    wins = NULL;
    capwins = 0;
}
