/* wrap_init.c - MPI_Init, MPI_Init_thread, MPI_Finalize.  A process that
 * never calls MPI_Init (mpirun itself, a shell the library was preloaded
 * into) never activates anything. */
#include "config.h"   /* RP_HAVE_MPI_SESSIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mpi/hooks.h"
#include "mpi/launcher.h"
#include "runtime/runtime_int.h"
#include "exchange/reqtab.h"

/* The shadows of windows and files the program never freed. */
static void finalize_shadows(void)
{
    rp_rma_finalize();
    rp_io_finalize();
}

/* This layer as the runtime sees it (runtime_int.h). */
const rp_mpi_layer rp_mpi_self = {
    .fn_name = rp_fn_name, .fn_count = RP_FN__COUNT, .init_fn = RP_FN_MPI_Init,
    .finalize_nbc = rp_nbc_finalize, .finalize_shadows = finalize_shadows,
};

/* A library built for one MPI preloaded into a program of another (Open MPI
 * handles are pointers, MPICH's are ints) would break the job at its first
 * call with "Invalid communicator".  Where librpprof.so is the trampolines
 * of lib/mpi/shim.c, this library is loaded only when the process runs the
 * MPI it was built for (or no MPI could be told apart); this check is for
 * the rest (configure --disable-shim, other CPUs).  The MPI that really runs answers
 * MPI_Get_library_version (resolved to the program's library); if it
 * positively names the other family, rpprof steps aside: no rp_start, every
 * wrapper passes straight through, and one message says why.  Returns 1 if
 * the library matches (or cannot tell). */
int rp_mpi_matches(void)
{
    static int known = -1;   /* asked once: Fortran init may call the C one */
    if (known >= 0)
        return known;
    known = 1;
    static char v[16384];   /* MPICH's MPI_MAX_LIBRARY_VERSION_STRING is 8192 */
    int len = 0;
    if (PMPI_Get_library_version(v, &len) != MPI_SUCCESS)
        return known;
    v[sizeof v - 1] = 0;
#if defined(OPEN_MPI)
    const char *built = "Open MPI";
    int other = strstr(v, "MPICH") || strstr(v, "Intel(R) MPI") || strstr(v, "MVAPICH");
#elif defined(MPICH_VERSION)
    const char *built = "MPICH";
    int other = strstr(v, "Open MPI") != NULL;
#else
    const char *built = "?";
    int other = 0;
#endif
    if (!other)
        return known;
    known = 0;
    /* Stepping aside means every wrapper passes its arguments straight on.
     * That works when this library's handles are at least as wide as the
     * running MPI's (Open MPI's pointers carry MPICH's ints unchanged); the
     * other way round the wrappers would cut Open MPI's pointers to 32 bits
     * and the job would crash at its next call: stop it here, clearly. */
    int pass = sizeof(MPI_Comm) >= sizeof(void *);
    if (rp_launcher_rank0()) {
        char *nl = strchr(v, '\n');
        if (nl)
            *nl = 0;
        if (pass)
            fprintf(stderr, "rpprof: this librpprof.so was built for %s but the program runs "
                            "\"%.80s\"; rpprof is disabled for this run (build rpprof with the "
                            "program's MPI: configure MPICC=...)\n", built, v);
        else
            fprintf(stderr, "rpprof: this librpprof.so was built for %s but the program runs "
                            "\"%.80s\"; its wrappers cannot pass that MPI's handles on, so the "
                            "job stops here (remove librpprof.so from LD_PRELOAD, or build "
                            "rpprof with the program's MPI: configure MPICC=...)\n", built, v);
        fflush(stderr);
    }
    if (!pass)
        _exit(1);
    return known;
}

#ifdef RP_HAVE_MPI_SESSIONS
/* MPI-4 sessions: the runtime starts in MPI_Init/MPI_Init_thread, with
 * MPI_COMM_WORLD, so a program that starts MPI by MPI_Session_init alone
 * writes no profile, and communicators made from a session have no shadow
 * (their calls are counted, unsupported_calls).  Say so once, on the
 * launcher's rank 0, rather than leave an empty result unexplained. */
RP_EXPORT int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    static int told;
    int rc;
    if (rp_active()) {   /* MPI_Init came first: local MPI time */
        rp_enter_local(RP_FN_MPI_Session_init);
        rc = PMPI_Session_init(info, errhandler, session);
        rp_leave_local();
    } else {
        rc = PMPI_Session_init(info, errhandler, session);
    }
    if (rc == MPI_SUCCESS && rp_launcher_rank0() && !__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED)) {
        fprintf(stderr, "rpprof: MPI_Session_init: MPI-4 sessions are not profiled; only a "
                        "program that calls MPI_Init or MPI_Init_thread is (its communicators "
                        "from MPI_COMM_WORLD are followed, those made from a session are not)\n");
        fflush(stderr);
    }
    return rc;
}
#endif

RP_EXPORT int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS && rp_mpi_matches())
        rp_start(&rp_mpi_self);
    return rc;
}

RP_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS && rp_mpi_matches()) {
        rp_start(&rp_mpi_self);
        /* The thread that called MPI_Init_thread carries the process's
         * tasks; other threads' samples are charged to them, their MPI
         * calls pass straight through and are counted (doc/design.md). */
        rp_counters[RP_CNT_THREAD_LEVEL] = (uint64_t)(*provided > 0 ? *provided : 0);
        if (*provided == MPI_THREAD_SERIALIZED)
            rp_rt.any_thread = 1;   /* any thread's call is an event */
        if (*provided == MPI_THREAD_MULTIPLE && rp_rt.active) {
            if (rp_rt.cfg.multiple == 0) {
                rp_rt.local_paths = 1;
                rp_counters[RP_CNT_LOCAL_PATHS] = 1;
                rp_warn(0, "MPI_THREAD_MULTIPLE: paths are followed within each rank only, "
                           "joined across ranks at MPI_Finalize (RP_MULTIPLE=main if only the "
                           "thread that initialised MPI communicates)");
            } else {
                rp_warn(0, "MPI_THREAD_MULTIPLE with RP_MULTIPLE=main: MPI calls from other "
                           "threads are not events and must not pair with another rank's "
                           "main thread (counted in mpi_calls_other_threads)");
            }
        }
    }
    return rc;
}

RP_EXPORT int MPI_Finalize(void)
{
    if (!rp_active())
        return PMPI_Finalize();
    rp_enter(RP_FN_MPI_Finalize);
    rp_finish();
    rp_rt.in_mpi = 0;
    return PMPI_Finalize();
}
