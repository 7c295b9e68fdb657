/* wrap_pcontrol.c - MPI_Pcontrol (C and Fortran bindings), as users of
 * mpiP expect: level 0 pauses sampling attribution, any other level resumes
 * it (levels above 1 mean nothing more here).  Not an event: the task goes
 * on and its cost, so every path cost, is measured as usual; only where its
 * time lies is not recorded while paused (lib/sampler/sample.c, counter
 * samples_paused; doc/report.md).  The call always reaches the MPI library,
 * which may pass it to another PMPI tool. */
#include <mpi.h>
#include "mpi/hooks.h"
#include "mpi/fortran.h"
#include "mpi/gen_fortran.h"

/* Not rp_active(): a pause is a flag for the sampler, set from whatever
 * thread and whenever the program asks (the sampler only reads it while
 * profiling is on). */
static void set_level(int level)
{
    rp_rt.paused = level == 0;
}

RP_EXPORT int MPI_Pcontrol(const int level, ...)
{
    set_level(level);
    return PMPI_Pcontrol(level);
}

/* The Fortran binding: MPI_PCONTROL(LEVEL), no variadic part and - unlike
 * every other call - no IERROR in any binding.  The generated entry points
 * have the table's shape (level, ierror), so `ierror` here is whatever the
 * register held: never read or written, only passed on to the real entry
 * point, which takes (level) and ignores it (extra arguments are harmless in
 * the C calling convention). */
void rpf_MPI_Pcontrol(int abi, MPI_Fint *level, MPI_Fint *ierror)
{
    rpf_t_MPI_Pcontrol *real = (rpf_t_MPI_Pcontrol *)rpf_real(RP_FN_MPI_Pcontrol, abi);
    if (level)
        set_level((int)*level);
    real(level, ierror);
}
