/* examples/ring.c - a token circulates around the ranks; each rank computes
 * before passing it on, so the work is strictly sequential and the 100 %
 * path spans every rank (its cost is about the wall time), while the 0 %
 * path holds a single rank's work per round.
 *
 *   mpirun -np 4 rp-run ./ring && rp-report rpprof-ring-*
 *
 * usage: ring [rounds [work-per-hop]]   (defaults 3, 20000000)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* the computation done before passing the token on */
static __attribute__((noinline)) double work(long n, double x)
{
    long i;
    for (i = 0; i < n; i++)
        x = x * 0.999999 + 1e-6 * (double)(i & 7);
    return x;
}

int main(int argc, char **argv)
{
    int me, np, round, rounds;
    long n;
    double token = 1.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    rounds = argc > 1 ? atoi(argv[1]) : 3;
    n = argc > 2 ? atol(argv[2]) : 20000000L;

    for (round = 0; round < rounds; round++) {
        if (np > 1 && (me != 0 || round > 0))
            MPI_Recv(&token, 1, MPI_DOUBLE, (me + np - 1) % np, round, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        token = work(n, token);
        if (np > 1 && !(me == np - 1 && round == rounds - 1))
            MPI_Send(&token, 1, MPI_DOUBLE, (me + 1) % np,
                     me == np - 1 ? round + 1 : round, MPI_COMM_WORLD);
    }
    if (me == np - 1)
        printf("ring: %d ranks, %d rounds, token %.6f\n", np, rounds, token);
    MPI_Finalize();
    return 0;
}
