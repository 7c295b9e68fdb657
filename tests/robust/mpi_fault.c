/* mpi_fault - a job in which one rank fails after some phases
 * (tests/robust/test_fault.sh).
 *
 *   mpi_fault MODE VICTIM NPHASES PHASE_MS [NOCKPT]
 *
 * Every rank runs phases of PHASE_MS ms of work (nanosleep) each ended by
 * MPI_Barrier.  After NPHASES completed phases, rank VICTIM fails by MODE:
 *   none    nobody fails: NPHASES phases, then MPI_Finalize
 *   segv    writes through a null pointer (SIGSEGV)
 *   abort   MPI_Abort(MPI_COMM_WORLD, 3)
 *   term    raise(SIGTERM)
 *   hang    every rank keeps running phases forever (for a timeout's SIGTERM)
 * With NOCKPT=1 the victim sets RP_CHECKPOINT=0 before MPI_Init (it finds
 * its rank in the launcher's environment), so it never checkpoints and, but
 * for MPI_Abort, leaves no file at all.  With RPT_RSS set, rank 0 also
 * prints the largest peak resident set (VmHWM) over the ranks before
 * MPI_Finalize (the scale test compares it with and without rpprof). */
#include <signal.h>
#include "../mpi/rptest.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: mpi_fault none|segv|abort|term|hang VICTIM NPHASES PHASE_MS [NOCKPT]\n");
        return 2;
    }
    const char *mode = argv[1];
    int victim = atoi(argv[2]);
    int nphases = atoi(argv[3]);
    double ms = atof(argv[4]);
    if (argc > 5 && atoi(argv[5])) {
        const char *r = getenv("OMPI_COMM_WORLD_RANK");
        if (!r)
            r = getenv("PMI_RANK");
        if (r && atoi(r) == victim)
            setenv("RP_CHECKPOINT", "0", 1);
    }
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int p = 0; strcmp(mode, "hang") == 0 || p < nphases; p++) {
        rpt_sleep_ms(ms * (1 + rank % 3) / 2);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == victim) {
        if (strcmp(mode, "segv") == 0) {
            volatile int *volatile nowhere = NULL;
            *nowhere = 1;
        } else if (strcmp(mode, "abort") == 0) {
            MPI_Abort(MPI_COMM_WORLD, 3);
        } else if (strcmp(mode, "term") == 0) {
            raise(SIGTERM);
        }
    }
    if (strcmp(mode, "none") != 0)
        MPI_Barrier(MPI_COMM_WORLD);       /* the others wait for the victim */
    if (rank == 0)
        printf("fault %s: %d ranks, %d phases\n", mode, size, nphases);
    if (getenv("RPT_RSS")) {
        long kb = 0, max = 0;
        char line[256];
        FILE *f = fopen("/proc/self/status", "r");
        while (f && fgets(line, sizeof line, f))
            if (sscanf(line, "VmHWM: %ld", &kb) == 1)
                break;
        if (f)
            fclose(f);
        MPI_Reduce(&kb, &max, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            fprintf(stderr, "max VmHWM %ld kB\n", max);
    }
    MPI_Finalize();
    return 0;
}
