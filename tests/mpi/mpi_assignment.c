/* The example program of Fig. 1 of the course assignment
 * (seeds/004: "CSc 522 Program #2: MPI critical-path profiler"), 4 ranks.
 *
 * Phase 1 (ends at MPI_Barrier): a pipeline 0 -> 1 -> 2 -> 3, each rank
 * sleeping 0.6 s:   critical 4 * 0.6 = 2.4 s,  least critical 0.6 s.
 * Phase 2 (ends at MPI_Finalize): rank 0 sleeps 1.6 s, sends to 1, which
 * sleeps 0.4 s:     critical 1.6 + 0.4 = 2.0 s, least critical ~0 (ranks 2, 3).
 * Program: 100 % = 4.4 s (Fig. 2 prints the last 0.4 s edge rounded to "0"),
 *            0 % = 0.6 s, 2 phases.
 *
 * usage: mpi_assignment [scale]   (sleeps are multiplied by scale, default 1)
 */
#include "rptest.h"
#include <unistd.h>

static double scale = 1.0;

static void work_us(long us)
{
    rpt_sleep_ms(scale * (double)us / 1000.0);
}

int main(int argc, char **argv)
{
    int me, np, tag = 0, x = 42, y = 0;
    MPI_Status status;

    if (argc > 1)
        scale = atof(argv[1]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 4) {
        if (me == 0)
            fprintf(stderr, "mpi_assignment: needs exactly 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    if (me == 0) {
        work_us(600000);
        MPI_Send(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
    } else if (me != 3) {
        MPI_Recv(&y, 1, MPI_INT, me - 1, tag, MPI_COMM_WORLD, &status);
        work_us(600000);
        MPI_Send(&x, 1, MPI_INT, me + 1, tag, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 2, tag, MPI_COMM_WORLD, &status);
        work_us(600000);
    }

    MPI_Barrier(MPI_COMM_WORLD);

    if (me == 0) {
        work_us(1600000);
        MPI_Send(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
    } else if (me == 1) {
        MPI_Recv(&y, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &status);
        work_us(400000);
    }

    if (me == 1) {
        printf("assignment y=%d\n", y);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
