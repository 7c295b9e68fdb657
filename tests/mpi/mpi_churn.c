/* Handle churn (issue 33, item 2): create and free communicators, windows,
 * files or requests in a loop and report how much each rank's resident
 * memory grew between the end of a warm-up and the end of the loop.
 *
 *   mpi_churn comm ITERS WARM   MPI_Comm_dup + MPI_Allreduce + MPI_Comm_free;
 *                               every 16th iteration something else on the
 *                               duplicate instead (see comm_iter): a split,
 *                               and the orders MPI allows but that leave
 *                               operations in flight at the free
 *   mpi_churn win ITERS WARM    MPI_Win_create + two fences + MPI_Win_free
 *   mpi_churn file ITERS WARM   MPI_File_open + a collective write + close
 *   mpi_churn req ITERS WARM    persistent and non-blocking requests on a
 *                               duplicate, freed with it
 *
 * Each rank prints "churn KIND iters=N warm_kb=A end_kb=B growth_kb=B-A"
 * (VmRSS from /proc/self/status, after WARM iterations and after ITERS), in
 * rank order.  The checks on the numbers are tests/mpi/test_churn.sh's.
 * Any number of ranks >= 2. */
#include "rptest.h"
#include <unistd.h>

static int me, np;

static long rss_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

/* One communicator created and freed.  Mostly a duplicate and a blocking
 * collective on it; every 16th iteration one of the erroneous-looking but
 * legal orders: the communicator freed while a non-blocking collective or
 * a receive on it is still in flight (MPI defers the free until they
 * complete), or a split of the duplicate freed before the duplicate. */
static void comm_iter(long i)
{
    MPI_Comm dup, sub;
    MPI_Request r[2];
    int v = me + 1, sum = 0, got = -1;
    int right = (me + 1) % np, left = (me + np - 1) % np;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    switch (i % 16) {
    case 5: /* free with a non-blocking collective in flight */
        MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, dup, &r[0]);
#ifdef OPEN_MPI
        /* Open MPI 4.1's libnbc crashes in the MPI_Wait (NULL communicator
         * in mca_pml_ob1_isend, without the profiler too): wait first. */
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Comm_free(&dup);
#else
        MPI_Comm_free(&dup);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
#endif
        RPT_CHECK(sum == np * (np + 1) / 2);
        return;
    case 9: /* free with a receive (known source: pre-posted set) in flight */
        MPI_Irecv(&got, 1, MPI_INT, left, 7, dup, &r[0]);
        MPI_Isend(&v, 1, MPI_INT, right, 7, dup, &r[1]);
        MPI_Comm_free(&dup);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        RPT_CHECK(got == left + 1);
        return;
    case 13: /* a split (reversed order) and a broadcast on it */
        MPI_Comm_split(dup, 0, np - me, &sub);
        got = me == np - 1 ? (int)(i & 0xffff) : -1;
        MPI_Bcast(&got, 1, MPI_INT, 0, sub);
        RPT_CHECK(got == (int)(i & 0xffff));
        MPI_Comm_free(&sub);
        break;
    default:
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, dup);
        RPT_CHECK(sum == np * (np + 1) / 2);
    }
    MPI_Comm_free(&dup);
}

static void win_iter(long i)
{
    static int buf[4];
    MPI_Win w;
    int v = (int)i;
    MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_fence(0, w);
    MPI_Put(&v, 1, MPI_INT, (me + 1) % np, 0, 1, MPI_INT, w);
    MPI_Win_fence(0, w);
    RPT_CHECK(buf[0] == v);
    MPI_Win_free(&w);
}

static char file_path[4096];

static void file_iter(long i)
{
    MPI_File fh;
    MPI_Request r;
    int v = (int)i;
    RPT_CHECK(MPI_File_open(MPI_COMM_WORLD, file_path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    if (i % 2)
        MPI_File_write_at_all(fh, (MPI_Offset)me * (MPI_Offset)sizeof v, &v, 1, MPI_INT,
                              MPI_STATUS_IGNORE);
    else {
        MPI_File_iwrite_at_all(fh, (MPI_Offset)me * (MPI_Offset)sizeof v, &v, 1, MPI_INT, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&fh);
}

/* Requests: persistent ones on a duplicate (held across the communicator's
 * free, started after it, freed last), and a plain non-blocking exchange. */
static void req_iter(long i)
{
    MPI_Comm dup;
    MPI_Request p[2], r[2];
    int out = (int)i, in = -1, x = -1;
    int right = (me + 1) % np, left = (me + np - 1) % np;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Recv_init(&in, 1, MPI_INT, left, 3, dup, &p[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 3, dup, &p[1]);
    MPI_Comm_free(&dup);
    MPI_Startall(2, p);
    MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
    RPT_CHECK(in == out);
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&out, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    RPT_CHECK(x == out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 4 || np < 2) {
        if (me == 0)
            fprintf(stderr, "usage: mpi_churn comm|win|file|req ITERS WARM (>= 2 ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *kind = argv[1];
    long iters = atol(argv[2]), warm = atol(argv[3]);
    void (*iter)(long) = NULL;
    if (strcmp(kind, "comm") == 0)
        iter = comm_iter;
    else if (strcmp(kind, "win") == 0)
        iter = win_iter;
    else if (strcmp(kind, "req") == 0)
        iter = req_iter;
    else if (strcmp(kind, "file") == 0) {
        iter = file_iter;
        const char *dir = getenv("TMPDIR");
        if (me == 0)
            snprintf(file_path, sizeof file_path, "%s/mpi_churn.%ld", dir ? dir : "/tmp",
                     (long)getpid());
        MPI_Bcast(file_path, (int)sizeof file_path, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    RPT_CHECK(iter && warm >= 0 && warm <= iters);
    long warm_kb = -1;
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        if (i == warm)
            warm_kb = rss_kb();
        iter(i);
    }
    if (warm == iters)
        warm_kb = rss_kb();
    long end_kb = rss_kb();
    double dt = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (iter == file_iter && me == 0)
        unlink(file_path);
    rpt_out("churn %s iters=%ld warm_kb=%ld end_kb=%ld growth_kb=%ld seconds=%.1f\n", kind, iters,
            warm_kb, end_kb, end_kb - warm_kb, dt);
    rpt_flush();
    MPI_Finalize();
    return 0;
}
