/* bench/coll_after_barrier.c - IMB's way of timing a collective, and the
 * whole loop: each iteration is MPI_Barrier (not timed by IMB) and then the
 * timed operation (0: Bcast from rank 0, 1: Allreduce, 2: Barrier) of LEN
 * bytes.  Prints, for the last of three repetitions, the members' mean time
 * in the operation ("op") and the whole iteration ("loop"), in us.  Where a
 * profiler spends time between the barrier and the operation, or leaves the
 * members further apart after the barrier, IMB charges it to the operation;
 * the loop shows what the program pays.  Used by bench/peers_coll.sh.
 *
 *   coll_after_barrier ITERS OP [LEN] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: coll_after_barrier ITERS OP(0 bcast, 1 allreduce, 2 barrier) [LEN]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int me, n, it = atoi(argv[1]), op = atoi(argv[2]), len = argc > 3 ? atoi(argv[3]) : 8;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (len < 4)
        len = 4;
    char *buf = calloc((size_t)len, 1), *rb = calloc((size_t)len, 1);
    double t_op = 0, t_loop = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t = 0, t0loop = MPI_Wtime();
        for (int i = 0; i < it; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (op == 0)
                MPI_Bcast(buf, len, MPI_CHAR, 0, MPI_COMM_WORLD);
            else if (op == 1)
                MPI_Allreduce(buf, rb, len / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            else
                MPI_Barrier(MPI_COMM_WORLD);
            t += MPI_Wtime() - t0;
        }
        t_loop = (MPI_Wtime() - t0loop) / it * 1e6;
        t_op = t / it * 1e6;
    }
    double sum[2], mine[2] = { t_op, t_loop };
    MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("op %.3f loop %.3f\n", sum[0] / n, sum[1] / n);
    free(buf);
    free(rb);
    MPI_Finalize();
    return 0;
}
