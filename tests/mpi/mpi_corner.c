/* Corner cases users hit with other tools; the printed results must be
 * identical with and without the profiler:
 *  - zero-count messages (blocking and non-blocking)
 *  - MPI_Buffer_attach by the application, MPI_Bsend / MPI_Ibsend
 *  - MPI_IN_PLACE with MPI_DATATYPE_NULL (Gather at the root)
 *  - MPI_ERRORS_RETURN: erroneous calls return their error class through
 *    the wrappers (invalid rank, invalid tag, invalid root, invalid count)
 *  - MPI_Cancel of a receive that never matches */
#include "rptest.h"

static int err_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    int me, np, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int right = (me + 1) % np, left = (me - 1 + np) % np;

    /* zero-count messages */
    MPI_Status st;
    MPI_Request r[2];
    int cnt = -1;
    MPI_Sendrecv(NULL, 0, MPI_INT, right, 1, NULL, 0, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    rpt_out("rank %d zero sendrecv from %d count %d\n", me, st.MPI_SOURCE, cnt);
    MPI_Irecv(NULL, 0, MPI_BYTE, left, 2, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(NULL, 0, MPI_BYTE, right, 2, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    rpt_out("rank %d zero isend/irecv done\n", me);

    /* application-attached buffer: Bsend and Ibsend */
    int bsz = 4 * (MPI_BSEND_OVERHEAD + (int)sizeof(int));
    char *bbuf = malloc((size_t)bsz);
    MPI_Buffer_attach(bbuf, bsz);
    int a = 100 + me, b = 200 + me, ra = 0, rb = 0;
    MPI_Bsend(&a, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Ibsend(&b, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Recv(&ra, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&rb, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    void *det;
    int dsz;
    MPI_Buffer_detach(&det, &dsz);
    rpt_out("rank %d bsend got %d ibsend got %d detached %d %s\n", me, ra, rb, dsz,
            det == bbuf ? "same" : "other");
    free(bbuf);

    /* MPI_IN_PLACE with MPI_DATATYPE_NULL at the root of a gather */
    int *all = calloc((size_t)np, sizeof *all);
    all[0] = 7;
    if (me == 0)
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(&me, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    if (me == 0) {
        int s = 0;
        for (int i = 0; i < np; i++)
            s += all[i];
        rpt_out("rank 0 in-place gather sum %d\n", s);
    }
    free(all);

    /* error codes pass through unchanged */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rpt_out("rank %d send to invalid rank: class %d\n", me,
            err_class(MPI_Send(&v, 1, MPI_INT, np + 5, 0, MPI_COMM_WORLD)));
    rpt_out("rank %d recv invalid tag: class %d\n", me,
            err_class(MPI_Recv(&v, 1, MPI_INT, left, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE)));
    rpt_out("rank %d isend negative count: class %d\n", me,
            err_class(MPI_Isend(&v, -1, MPI_INT, right, 0, MPI_COMM_WORLD, &r[0])));
    rpt_out("rank %d bcast invalid root: class %d\n", me,
            err_class(MPI_Bcast(&v, 1, MPI_INT, np + 3, MPI_COMM_WORLD)));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* a receive that never matches, cancelled */
    int flag = 0;
    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], &st);
    MPI_Test_cancelled(&st, &flag);
    rpt_out("rank %d cancelled %d\n", me, flag);

    MPI_Barrier(MPI_COMM_WORLD);
    rpt_flush();
    MPI_Finalize();
    return 0;
}
