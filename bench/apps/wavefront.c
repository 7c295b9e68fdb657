/* bench/apps/wavefront.c - proxy application: a pipelined sweep over a
 * 1-D chain of ranks.  Each iteration sweeps --blocks blocks (default 16),
 * alternately from rank 0 to rank P-1 and back: for each block a rank waits
 * for the upstream boundary with a blocking MPI_Recv, computes the block and
 * passes its boundary downstream with a blocking MPI_Send.  An
 * MPI_Allreduce of the sweep's residual ends every sweep.  Each event is
 * preceded by the --work-us work.  Options: bench/apps/common.h, plus
 * --blocks B (before the others). */
#include "common.h"

int main(int argc, char **argv)
{
    int blocks = 16;
    if (argc > 2 && !strcmp(argv[1], "--blocks")) {
        blocks = atoi(argv[2]);
        argv[2] = argv[0];
        argc -= 2, argv += 2;
        if (blocks < 1)
            usage(argv[0]);
    }
    app_parse(argc, argv);
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int m = opt.n; /* boundary length; a block is m x m cells */
    double *cell = calloc((size_t)blocks * m, sizeof *cell), *in = calloc(m, sizeof *in);
    if (!cell || !in)
        MPI_Abort(MPI_COMM_WORLD, 1);
    double res = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    for (long it = 0; it < opt.iters; it++) {
        const int fwd = (it & 1) == 0;
        const int up = fwd ? rank - 1 : rank + 1, down = fwd ? rank + 1 : rank - 1;
        const int has_up = up >= 0 && up < size, has_down = down >= 0 && down < size;
        double lres = 0;
        for (int b = 0; b < blocks; b++) {
            if (has_up) {
                work();
                EV(MPI_Recv(in, m, MPI_DOUBLE, up, b, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            } else {
                for (int k = 0; k < m; k++)
                    in[k] = 1.0 + 0.001 * ((it + k) % 7);
            }
            double *c = cell + (size_t)b * m;
            for (int row = 0; row < m; row++) /* the block's m rows in order */
                for (int k = 0; k < m; k++) {
                    double x = 0.5 * c[k] + 0.25 * in[k] + 0.25 * in[k > 0 ? k - 1 : k];
                    lres += (x - c[k]) * (x - c[k]);
                    c[k] = in[k] = x;
                }
            if (has_down) {
                work();
                EV(MPI_Send(in, m, MPI_DOUBLE, down, b, MPI_COMM_WORLD));
            }
        }
        work();
        EV(MPI_Allreduce(&lres, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    }
    double t_loop = app_now() - t0;

    double l = 0, s;
    for (int i = 0; i < blocks * m; i++)
        l += cell[i];
    MPI_Allreduce(&l, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    app_report("wavefront", s + res, t_loop, MPI_COMM_WORLD);
    free(cell), free(in);
    MPI_Finalize();
    return 0;
}
