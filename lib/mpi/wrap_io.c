/* wrap_io.c - MPI-IO (doc/design.md, "MPI-IO"; doc/coverage.md).
 *
 * Opening a file is collective over its communicator, so each file gets a
 * shadow (one duplicate of that communicator) right there, in the same
 * order on every member, as a window does (wrap_rma.c).  The collective
 * file operations -- open and close, the view, size and atomicity,
 * sync, the collective data accesses and the ends of the split ones --
 * may synchronise the members (ROMIO's two-phase I/O exchanges data among
 * them): all members join all there, with the path-allreduce on the
 * file's shadow after the real call returned; the non-blocking ones
 * (MPI_File_iread_all, ...) with the non-blocking exchange of MPI_Iallgather,
 * joined at completion.  None ends a phase (as a fence does not).  The
 * independent accesses are events without a join: their time is MPI time,
 * never task time (SPEC §1).
 *
 * Touched only by the profiled thread. */
#include <mpi.h>
#include "mpi/hooks.h"
#include "mpi/shadowtab.h"
#include "runtime/runtime_int.h"

static rp_shadowtab files;

void rp_hook_file_open(MPI_Comm comm, MPI_File fh)
{
    rp_counters[RP_CNT_MPIIO_FILES]++;
    if (rp_rt.local_paths)   /* MPI_THREAD_MULTIPLE: no collective of ours */
        return;
    rp_shadow_ent *e = shadowtab_add(&files, comm, &fh, sizeof fh);
    if (!e) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        rp_warn(1, "could not shadow a file opened with MPI_File_open; its collective "
                   "operations are not joined");
        return;
    }
    if (e->c)            /* opening is collective */
        rp_join_all_on(e->c);
}

/* The entry of fh, or NULL (counted, one warning) when its opening was
 * not seen (another thread, before MPI_Init returned) or could not be
 * shadowed (warned then). */
static rp_shadow_ent *file_entry(MPI_File fh)
{
    if (rp_rt.local_paths)
        return NULL;
    rp_shadow_ent *e = shadowtab_find(&files, &fh, sizeof fh);
    if (!e) {
        static int warned;
        rp_counters[RP_CNT_UNSUPPORTED]++;
        if (!warned++)
            rp_warn(0, "a collective MPI-IO call on a file without a shadow (its opening "
                       "was not seen, or could not be shadowed); not joined");
    }
    return e;
}

void rp_hook_file_coll(MPI_File fh)
{
    rp_shadow_ent *e = file_entry(fh);
    if (e && e->c)
        rp_join_all_on(e->c);
}

void rp_hook_file_close(MPI_File fh, int freed)
{
    rp_shadow_ent *e = file_entry(fh);
    if (!e)
        return;
    if (e->c)
        rp_join_all_on(e->c);
    if (freed)
        shadowtab_del(&files, &fh, sizeof fh);
}

void rp_hook_file_nbc(MPI_File fh, MPI_Request req)
{
    rp_shadow_ent *e = file_entry(fh);
    if (e && e->c)
        rp_hook_nbc_on(e->c, req);
}

/* At MPI_Finalize: files the program never closed. */
void rp_io_finalize(void) { shadowtab_clear(&files); }
