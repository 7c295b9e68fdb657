/* mpi_io.c - MPI-IO under the profiler (tests/mpi/test_onesided.sh).
 *
 *   mpi_io            every wrapped MPI-IO function once or more, each rank
 *                     printing what it read back (the semantic test:
 *                     identical output with and without the profiler)
 *   mpi_io errors     calls that fail on every member (a file's errors
 *                     return by default): opening a missing file read-only,
 *                     a view with an unknown data representation, reading
 *                     past the end; each rank prints what failed
 *   mpi_io self M     every rank keeps M files open over MPI_COMM_SELF at
 *                     once (file per process), writes each collectively,
 *                     then closes them: a one-process file needs no shadow,
 *                     and MPICH has only 2048 communicator ids a process
 *                     (ROMIO takes one a file; a shadow a file would run out
 *                     at ~1020)
 *   mpi_io path T     five epochs, each ended by a collective file
 *                     operation of a different kind: open, write_all,
 *                     iread_at_all + Wait, a split write_all_begin/_end,
 *                     close.  In epoch j rank j % P works 5*T ms, the
 *                     others T ms.  Each of those joins all members, so the
 *                     100 % path is 5 * 5T; a missing join loses at least 4T.
 *
 * The file lives in $TMPDIR (else /tmp), named after rank 0's pid, and is
 * deleted at the end.
 */
#include <unistd.h>
#include "rptest.h"

#define N 4   /* ints a rank writes at a time */

static int me, np;
static char path[512];

static void name_file(void)
{
    if (me == 0) {
        const char *d = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/rp_mpi_io_%ld.dat", d && *d ? d : "/tmp", (long)getpid());
    }
    MPI_Bcast(path, (int)sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static void fill(int *v, int tag)
{
    for (int i = 0; i < N; i++)
        v[i] = tag * 1000 + me * 10 + i;
}

static int sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* Each rank's block i of N ints sits at offset (i * np + me) * N ints. */
static MPI_Offset at(int i) { return (MPI_Offset)(i * np + me) * N * (MPI_Offset)sizeof(int); }

static void semantic(void)
{
    MPI_File fh;
    MPI_Status st;
    MPI_Request rq[4];
    int w[N], r[N];
    RPT_CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    MPI_File_set_size(fh, 0);
    MPI_File_preallocate(fh, (MPI_Offset)np * 16 * N * (MPI_Offset)sizeof(int));
    MPI_File_set_info(fh, MPI_INFO_NULL);
    MPI_File_set_atomicity(fh, 0);

    /* explicit offsets: blocks 0..3, blocking and not, independent and collective */
    fill(w, 1);
    MPI_File_write_at(fh, at(0), w, N, MPI_INT, &st);
    fill(w, 2);
    MPI_File_write_at_all(fh, at(1), w, N, MPI_INT, &st);
    fill(w, 3);
    MPI_File_iwrite_at(fh, at(2), w, N, MPI_INT, &rq[0]);
    MPI_Wait(&rq[0], &st);
    fill(w, 4);
    MPI_File_iwrite_at_all(fh, at(3), w, N, MPI_INT, &rq[0]);
    MPI_Wait(&rq[0], &st);
    fill(w, 5);
    MPI_File_write_at_all_begin(fh, at(4), w, N, MPI_INT);
    MPI_File_write_at_all_end(fh, w, &st);
    MPI_File_sync(fh);
    int tot = 0;
    MPI_File_read_at(fh, at(0), r, N, MPI_INT, &st);
    tot += sum(r, N);
    MPI_File_read_at_all(fh, at(1), r, N, MPI_INT, &st);
    tot += sum(r, N);
    MPI_File_iread_at(fh, at(2), r, N, MPI_INT, &rq[0]);
    MPI_Wait(&rq[0], &st);
    tot += sum(r, N);
    MPI_File_iread_at_all(fh, at(3), r, N, MPI_INT, &rq[0]);
    MPI_Waitall(1, rq, &st);
    tot += sum(r, N);
    MPI_File_read_at_all_begin(fh, at(4), r, N, MPI_INT);
    MPI_File_read_at_all_end(fh, r, &st);
    tot += sum(r, N);
    rpt_out("rank %d explicit offsets: %d\n", me, tot);

    /* individual file pointers through a view of this rank's blocks */
    MPI_Datatype blk;
    MPI_Type_vector(8, N, np * N, MPI_INT, &blk);
    MPI_Type_commit(&blk);
    MPI_File_set_view(fh, (MPI_Offset)me * N * (MPI_Offset)sizeof(int), MPI_INT, blk, "native",
                      MPI_INFO_NULL);
    MPI_Type_free(&blk);
    MPI_File_set_view(fh, (MPI_Offset)me * N * (MPI_Offset)sizeof(int), MPI_INT, MPI_INT,
                      "native", MPI_INFO_NULL);
    int first[N];
    MPI_File_read(fh, first, N, MPI_INT, &st);   /* my block 0: the view starts there */
    int c0 = 0;
    MPI_Get_count(&st, MPI_INT, &c0);
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    fill(w, 6);
    MPI_File_seek(fh, at(5), MPI_SEEK_SET);
    MPI_File_write(fh, w, N, MPI_INT, &st);
    fill(w, 7);
    MPI_File_seek(fh, at(6), MPI_SEEK_SET);
    MPI_File_write_all(fh, w, N, MPI_INT, &st);
    fill(w, 8);
    MPI_File_seek(fh, at(7), MPI_SEEK_SET);
    MPI_File_iwrite(fh, w, N, MPI_INT, &rq[0]);
    MPI_Wait(&rq[0], &st);
    fill(w, 9);
    MPI_File_seek(fh, at(8), MPI_SEEK_SET);
    MPI_File_iwrite_all(fh, w, N, MPI_INT, &rq[0]);
    MPI_Wait(&rq[0], &st);
    fill(w, 10);
    MPI_File_seek(fh, at(9), MPI_SEEK_SET);
    MPI_File_write_all_begin(fh, w, N, MPI_INT);
    MPI_File_write_all_end(fh, w, &st);
    MPI_File_sync(fh);
    tot = 0;
    for (int i = 5; i <= 9; i++) {
        MPI_File_seek(fh, at(i), MPI_SEEK_SET);
        switch (i) {
        case 5: MPI_File_read(fh, r, N, MPI_INT, &st); break;
        case 6: MPI_File_read_all(fh, r, N, MPI_INT, &st); break;
        case 7:
            MPI_File_iread(fh, r, N, MPI_INT, &rq[0]);
            MPI_Wait(&rq[0], &st);
            break;
        case 8:
            MPI_File_iread_all(fh, r, N, MPI_INT, &rq[0]);
            MPI_Wait(&rq[0], &st);
            break;
        default:
            MPI_File_read_all_begin(fh, r, N, MPI_INT);
            MPI_File_read_all_end(fh, r, &st);
        }
        tot += sum(r, N);
    }
    rpt_out("rank %d individual pointers: %d (first read %d ints, %d)\n", me, tot, c0,
            sum(first, N));

    /* shared file pointer, past everything written so far */
    MPI_File_seek_shared(fh, (MPI_Offset)np * 16 * N * (MPI_Offset)sizeof(int), MPI_SEEK_SET);
    fill(w, 11);
    MPI_File_write_ordered(fh, w, N, MPI_INT, &st);
    fill(w, 12);
    MPI_File_write_ordered_begin(fh, w, N, MPI_INT);
    MPI_File_write_ordered_end(fh, w, &st);
    MPI_Barrier(MPI_COMM_WORLD);   /* every shared write done before the next */
    if (me == 0) {
        fill(w, 13);
        MPI_File_write_shared(fh, w, N, MPI_INT, &st);
        fill(w, 14);
        MPI_File_iwrite_shared(fh, w, N, MPI_INT, &rq[0]);
        MPI_Wait(&rq[0], &st);
    }
    MPI_File_sync(fh);
    MPI_File_seek_shared(fh, (MPI_Offset)np * 16 * N * (MPI_Offset)sizeof(int), MPI_SEEK_SET);
    MPI_File_read_ordered(fh, r, N, MPI_INT, &st);
    int ord = sum(r, N);
    MPI_File_read_ordered_begin(fh, r, N, MPI_INT);
    MPI_File_read_ordered_end(fh, r, &st);
    ord += sum(r, N);
    MPI_Barrier(MPI_COMM_WORLD);
    int shr = 0;
    if (me == 0) {
        MPI_File_read_shared(fh, r, N, MPI_INT, &st);
        shr += sum(r, N);
        MPI_File_iread_shared(fh, r, N, MPI_INT, &rq[0]);
        MPI_Wait(&rq[0], &st);
        shr += sum(r, N);
    }
    rpt_out("rank %d shared pointer: ordered %d, shared %d\n", me, ord, shr);
    MPI_File_close(&fh);
    RPT_CHECK(fh == MPI_FILE_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
}

static void paths(double t)
{
    MPI_File fh;
    MPI_Status st;
    MPI_Request rq;
    int w[N], r[N];
    fill(w, 1);
    rpt_sleep_ms(me == 0 % np ? 5 * t : t);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    rpt_sleep_ms(me == 1 % np ? 5 * t : t);
    MPI_File_write_at_all(fh, at(0), w, N, MPI_INT, &st);
    rpt_sleep_ms(me == 2 % np ? 5 * t : t);
    MPI_File_iread_at_all(fh, at(0), r, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    rpt_sleep_ms(me == 3 % np ? 5 * t : t);
    MPI_File_write_at_all_begin(fh, at(1), w, N, MPI_INT);
    MPI_File_write_at_all_end(fh, w, &st);
    rpt_sleep_ms(me == 4 % np ? 5 * t : t);
    MPI_File_close(&fh);
    rpt_out("rank %d read back %d\n", me, sum(r, N));
    if (me == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
}

/* Failing calls return (MPI_ERRORS_RETURN, the default for files): the
 * profiler joins a failed collective one on every member alike, so nothing
 * waits; a failed open creates no shadow on any member. */
static void errors(void)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    int cls = -1, rc, v = me;
    char missing[560];
    snprintf(missing, sizeof missing, "%s.missing", path);
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_Error_class(rc, &cls);
    rpt_out("rank %d open missing: %s, class %s\n", me, rc == MPI_SUCCESS ? "ok" : "failed",
            cls == MPI_ERR_NO_SUCH_FILE || cls == MPI_ERR_FILE || cls == MPI_ERR_IO ? "file/io" : "other");
    RPT_CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                            &fh) == MPI_SUCCESS);
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-representation", MPI_INFO_NULL);
    rpt_out("rank %d bad view: %s\n", me, rc == MPI_SUCCESS ? "ok" : "failed");
    MPI_File_write_at_all(fh, at(0), &v, 1, MPI_INT, &st);
    /* (how much a read past the end returns differs between MPI-IO
     * implementations: only that it returns is printed) */
    rc = MPI_File_read_at_all(fh, at(1000), &v, 1, MPI_INT, &st);
    rpt_out("rank %d read past the end returned\n", me);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
}

static void self_files(int m)
{
    MPI_File *f = calloc((size_t)m, sizeof *f);
    RPT_CHECK(f);
    long sum = 0;
    for (int i = 0; i < m; i++) {
        char name[600];
        snprintf(name, sizeof name, "%s.self%d.%d", path, me, i);
        RPT_CHECK(MPI_File_open(MPI_COMM_SELF, name,
                                MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                                MPI_INFO_NULL, &f[i]) == MPI_SUCCESS);
    }
    for (int i = 0; i < m; i++) {
        int v = i + me, r = -1;
        MPI_File_write_at_all(f[i], 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_read_at_all(f[i], 0, &r, 1, MPI_INT, MPI_STATUS_IGNORE);
        sum += r;
    }
    for (int i = 0; i < m; i++)
        MPI_File_close(&f[i]);
    free(f);
    MPI_Comm d;
    RPT_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &d) == MPI_SUCCESS);   /* ids left for the program */
    MPI_Comm_free(&d);
    rpt_out("rank %d self files %d: sum %ld\n", me, m, sum);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    name_file();
    if (argc > 2 && strcmp(argv[1], "path") == 0)
        paths(atof(argv[2]));
    else if (argc > 1 && strcmp(argv[1], "errors") == 0)
        errors();
    else if (argc > 2 && strcmp(argv[1], "self") == 0)
        self_files(atoi(argv[2]));
    else
        semantic();
    rpt_flush();
    MPI_Finalize();
    return 0;
}
