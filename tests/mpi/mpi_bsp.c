/* BSP loop (test b): I iterations; in each, rank r works
 * t_r = base * (1 + r) and then joins an MPI_Allreduce over MPI_COMM_WORLD.
 *
 * Every allreduce ends a phase, MPI_Finalize ends the last (empty) one:
 *   phases = I + 1
 *   per phase: 100 % = max_r t_r = base * P,  0 % = min_r t_r = base
 *   program:   100 % = I * base * P,          0 % = I * base
 *
 * With rotate 1 the work moves round the ranks: in iteration i rank r
 * works base * (1 + (r + i) % P), so each phase has the same imbalance but
 * its busiest rank is (P - 1 - i) % P (tests/mpi/test_pop.sh checks that
 * per-phase factors belong to their phase).
 *
 * usage: mpi_bsp [iterations [base_ms [rotate]]]   (defaults 4, 20 ms, 0)
 */
#include "rptest.h"

int main(int argc, char **argv)
{
    int me, np, it, iters = argc > 1 ? atoi(argv[1]) : 4;
    double base = argc > 2 ? atof(argv[2]) : 20.0;
    int rotate = argc > 3 ? atoi(argv[3]) : 0;
    long sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    for (it = 0; it < iters; it++) {
        long mine = (long)(me + 1) * (it + 1), all = 0;
        rpt_sleep_ms(base * (1 + (rotate ? (me + it) % np : me)));
        MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum += all;
    }
    if (me == 0) {
        printf("bsp np=%d iterations=%d sum=%ld\n", np, iters, sum);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
