/* collective.c - cost of rpprof per collective, and its floor.
 *
 * Operations: MPI_Allreduce of 8 bytes (one double, MPI_SUM), MPI_Barrier,
 * MPI_Bcast of 8 bytes from rank 0.  Modes:
 *
 *   plain     the collective through PMPI_* (bypasses a preloaded librpprof).
 *   floor     plain + what the runtime's design minimally adds, on an
 *             MPI_Comm_dup'd communicator, all through PMPI:
 *               all-to-all (Allreduce, Barrier): a dissemination exchange,
 *               ceil(log2 n) rounds of PMPI_Sendrecv of S bytes (round d
 *               sends to me+2^d, receives from me-2^d), then a PMPI_Bcast
 *               of C bytes from rank 0;
 *               rooted from root (Bcast): a PMPI_Bcast of C bytes.
 *   floor512  floor with the broadcast fixed at 512 bytes (the runtime's
 *             first broadcast chunk, whatever the set's size).
 *   prof      the collective through MPI_*: profiled when librpprof is
 *             preloaded, identical to plain otherwise.
 *
 * Every repetition runs every (operation, mode) once, modes in a rotated
 * order, so all share the launch's fast/slow mode.  Time per operation: the
 * slowest rank's loop time / N.  Rank 0 prints
 *     RAW <op> <mode> <rep> <ns-per-op>
 *     MODE <op> <mode> ranks=n side=S bcast=C iters=N reps=R median_ns=.. min_ns=.. max_ns=..
 *
 * usage: collective [-o allreduce,barrier,bcast] [-m plain,floor,floor512,prof]
 *                   [-s S] [-c C] [-n N] [-r R] [-w W]
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { O_ALLREDUCE, O_BARRIER, O_BCAST, O__N };
static const char *const op_names[O__N] = { "allreduce", "barrier", "bcast" };
enum { M_PLAIN, M_FLOOR, M_FLOOR512, M_PROF, M__N };
static const char *const mode_names[M__N] = { "plain", "floor", "floor512", "prof" };

static int rank, size, side_bytes = 88, bcast_bytes = -1;
static MPI_Comm dup_comm;
static uint8_t *ssbuf, *srbuf, *bcbuf;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void dissemination(void)
{
    for (int d = 1; d < size; d <<= 1)
        PMPI_Sendrecv(ssbuf, side_bytes, MPI_BYTE, (rank + d) % size, 1, srbuf, side_bytes,
                      MPI_BYTE, (rank - d + size) % size, 1, dup_comm, MPI_STATUS_IGNORE);
}

static void one(int op, int mode)
{
    double x = 1.0, y = 0.0;
    int cb = mode == M_FLOOR512 ? 512 : bcast_bytes;
    switch (mode) {
    case M_PLAIN:
    case M_FLOOR:
    case M_FLOOR512:
        if (op == O_ALLREDUCE)
            PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else if (op == O_BARRIER)
            PMPI_Barrier(MPI_COMM_WORLD);
        else
            PMPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (mode == M_PLAIN)
            break;
        if (op != O_BCAST)
            dissemination();
        PMPI_Bcast(bcbuf, cb, MPI_BYTE, 0, dup_comm);
        break;
    case M_PROF:
        if (op == O_ALLREDUCE)
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else if (op == O_BARRIER)
            MPI_Barrier(MPI_COMM_WORLD);
        else
            MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        break;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int parse_list(const char *arg, const char *const *names, int n, int *out, int max)
{
    int cnt = 0;
    char *s = strdup(arg);
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        int i;
        for (i = 0; i < n && strcmp(tok, names[i]); i++)
            ;
        if (i == n || cnt == max) {
            free(s);
            return -1;
        }
        out[cnt++] = i;
    }
    free(s);
    return cnt;
}

int main(int argc, char **argv)
{
    int iters = 5000, reps = 11, warm = 500, opt;
    const char *op_arg = "allreduce,barrier,bcast", *mode_arg = "plain,floor,prof";
    int ops[O__N], modes[M__N], nops, nmodes;

    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    while ((opt = getopt(argc, argv, "o:m:s:c:n:r:w:")) != -1) {
        switch (opt) {
        case 'o': op_arg = optarg; break;
        case 'm': mode_arg = optarg; break;
        case 's': side_bytes = atoi(optarg); break;
        case 'c': bcast_bytes = atoi(optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'r': reps = atoi(optarg); break;
        case 'w': warm = atoi(optarg); break;
        default: goto bad;
        }
    }
    if (bcast_bytes < 0)
        bcast_bytes = side_bytes;
    nops = parse_list(op_arg, op_names, O__N, ops, O__N);
    nmodes = parse_list(mode_arg, mode_names, M__N, modes, M__N);
    if (nops < 1 || nmodes < 1 || side_bytes < 1 || bcast_bytes < 1 || iters < 1 || reps < 1 ||
        warm < 0)
        goto bad;

    ssbuf = calloc(1, (size_t)side_bytes);
    srbuf = calloc(1, (size_t)side_bytes);
    bcbuf = calloc(1, (size_t)(bcast_bytes > 512 ? bcast_bytes : 512));
    PMPI_Comm_dup(MPI_COMM_WORLD, &dup_comm);

    size_t ncell = (size_t)nops * (size_t)nmodes;
    int64_t *res = calloc(ncell * (size_t)reps, sizeof *res);

    for (int o = 0; o < nops; o++)
        for (int m = 0; m < nmodes; m++)
            for (int i = 0; i < warm; i++)
                one(ops[o], modes[m]);

    for (int r = 0; r < reps; r++)
        for (int o = 0; o < nops; o++)
            for (int j = 0; j < nmodes; j++) {
                int m = (j + r) % nmodes;
                PMPI_Barrier(MPI_COMM_WORLD);
                int64_t t0 = now_ns();
                for (int i = 0; i < iters; i++)
                    one(ops[o], modes[m]);
                int64_t per = (now_ns() - t0) / iters, worst = 0;
                PMPI_Reduce(&per, &worst, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
                res[((size_t)o * (size_t)nmodes + (size_t)m) * (size_t)reps + (size_t)r] = worst;
            }

    if (rank == 0) {
        for (int o = 0; o < nops; o++)
            for (int m = 0; m < nmodes; m++)
                for (int r = 0; r < reps; r++)
                    printf("RAW %s %s %d %lld\n", op_names[ops[o]], mode_names[modes[m]], r,
                           (long long)res[((size_t)o * (size_t)nmodes + (size_t)m) *
                                              (size_t)reps + (size_t)r]);
        for (int o = 0; o < nops; o++)
            for (int m = 0; m < nmodes; m++) {
                int64_t *v = &res[((size_t)o * (size_t)nmodes + (size_t)m) * (size_t)reps];
                qsort(v, (size_t)reps, sizeof *v, cmp_i64);
                printf("MODE %s %s ranks=%d side=%d bcast=%d iters=%d reps=%d median_ns=%lld "
                       "min_ns=%lld max_ns=%lld\n",
                       op_names[ops[o]], mode_names[modes[m]], size, side_bytes,
                       modes[m] == M_FLOOR512 ? 512 : bcast_bytes, iters, reps,
                       (long long)v[reps / 2], (long long)v[0], (long long)v[reps - 1]);
            }
        fflush(stdout);
    }
    PMPI_Comm_free(&dup_comm);
    MPI_Finalize();
    return 0;
bad:
    if (rank == 0)
        fprintf(stderr, "usage: collective [-o allreduce,barrier,bcast] "
                        "[-m plain,floor,floor512,prof] [-s bytes] [-c bcast-bytes] "
                        "[-n iters] [-r reps] [-w warmup]\n");
    PMPI_Abort(MPI_COMM_WORLD, 2);
    return 2;
}
