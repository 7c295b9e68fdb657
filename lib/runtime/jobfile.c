/* jobfile.c - every rank's rank file in one job file (RP_JOBFILE,
 * format/rpjob.h, doc/formats.md "Job file").
 *
 * Thousands of ranks each creating a file is the pattern parallel file
 * systems handle worst (one metadata operation per rank on one directory);
 * one shared file written with MPI-IO costs one create.  Each rank holds
 * only its own encoded file: an exclusive scan of the sizes gives its
 * offset, a gather of (size, CRC) gives rank 0 the index.  The file is
 * written as job.rpj.tmp and renamed once every rank's write succeeded, so
 * a reader never sees a torn job file.  RP_JOBFILE_IO=gather (the default
 * of a build for SMPI, whose MPI-IO stores nothing) has rank 0 write it
 * with POSIX I/O instead, taking the parts over MPI one rank at a time.
 *
 * Only PMPI_ entry points: the profiler never enters its own wrappers. */
#define _GNU_SOURCE
#include "runtime/jobfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "format/crc32.h"
#include "format/rpjob.h"

/* the gather's go and data messages on the profiler's shadow communicator,
 * after every path-set exchange has ended */
#define RP_TAG_JOBFILE 0x4a4f
/* RP_JOBFILE_IO=gather: ranks asked for their part ahead of the one being
 * received (write_gather) */
#define GATHER_AHEAD 16u

/* Rank 0's part: the index to write, its entries tiling the data up to
 * total bytes (NULL on failure). */
static uint8_t *build_index(const rp_jobout *o, const uint64_t *lencrc, uint64_t total)
{
    uint32_t n = o->nranks;
    uint64_t start = rpjob_data_start(n);
    rp_jobentry *e = calloc(n, sizeof *e);
    uint8_t *idx = malloc((size_t)start);
    if (!e || !idx) {
        free(e);
        free(idx);
        return NULL;
    }
    uint64_t at = start;
    for (uint32_t i = 0; i < n; i++) {
        e[i].offset = at;
        e[i].length = lencrc[2 * i];
        e[i].rank = i;
        e[i].crc = (uint32_t)lencrc[2 * i + 1];
        at += e[i].length;
    }
    rpjob_encode_index(idx, e, n, total);
    free(e);
    return idx;
}

/* MIN of a flag over the job: the value every rank decides by. */
static int agree(int ok, MPI_Comm comm)
{
    int all = 0;
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return 0;   /* the same failure everywhere, or MPI is broken anyway */
    return all;
}

static int wrote_all(MPI_Status *st, size_t want)
{
    int got = 0;
    return PMPI_Get_count(st, MPI_BYTE, &got) == MPI_SUCCESS && got >= 0 &&
           (size_t)got == want;
}

/* RP_JOBFILE_IO=mpiio: every rank writes its part at its offset, one
 * collective write.  -1: the file could not be opened or rank 0 has no
 * index (why set, nothing written); else this rank's write succeeded (1)
 * or not (0). */
static int write_mpiio(const rp_jobout *o, const char *tmp, const uint8_t *idx, uint64_t total,
                       uint64_t off, const uint8_t *buf, size_t len, char *why, size_t whycap)
{
    uint32_t n = o->nranks;
    int root = o->rank == 0;
    MPI_File fh;
    /* Errors must come back to us, whatever the program made the default
     * for files (MPI_FILE_NULL's handler, which a new file inherits):
     * ERRORS_RETURN for our open, the program's handler restored after. */
    MPI_Errhandler user_eh = MPI_ERRHANDLER_NULL;
    int have_eh = PMPI_File_get_errhandler(MPI_FILE_NULL, &user_eh) == MPI_SUCCESS;
    if (have_eh)
        PMPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    int opened = PMPI_File_open(o->comm, tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                                MPI_INFO_NULL, &fh) == MPI_SUCCESS;
    if (have_eh) {
        PMPI_File_set_errhandler(MPI_FILE_NULL, user_eh);
        PMPI_Errhandler_free(&user_eh);
    }
    /* [0]: opened here, [1]: rank 0 has its index; MIN over the job */
    int mine_ok[2] = {opened, !root || idx != NULL}, all_ok[2] = {0, 0};
    if (PMPI_Allreduce(mine_ok, all_ok, 2, MPI_INT, MPI_MIN, o->comm) != MPI_SUCCESS)
        all_ok[0] = all_ok[1] = 0;
    if (!all_ok[0] || !all_ok[1]) {
        /* Closing is collective: when some rank's open failed it would not
         * join, so a handle opened elsewhere is left to MPI_Finalize rather
         * than risk a hang (every rank opened or none, with the MPI
         * libraries tested). */
        if (all_ok[0])
            PMPI_File_close(&fh);
        if (root)
            (void)unlink(tmp);
        snprintf(why, whycap, "%s", all_ok[0] ? "rank 0 could not allocate the index"
                                              : "MPI_File_open failed on a rank");
        return -1;
    }
    int w = PMPI_File_set_size(fh, (MPI_Offset)total) == MPI_SUCCESS;
    MPI_Status st;
    if (root) {
        size_t ib = (size_t)rpjob_data_start(n);
        w = w && ib <= (size_t)INT_MAX &&
            PMPI_File_write_at(fh, 0, (void *)idx, (int)ib, MPI_BYTE, &st) == MPI_SUCCESS &&
            wrote_all(&st, ib);
    }
    /* Collective: every rank joins whatever happened above. */
    int wr = PMPI_File_write_at_all(fh, (MPI_Offset)off, (void *)buf, (int)len, MPI_BYTE, &st);
    w = w && wr == MPI_SUCCESS && wrote_all(&st, len);
    return PMPI_File_close(&fh) == MPI_SUCCESS && w;
}

/* all of n bytes at offset at, through short writes and signals */
static int pwrite_all(int fd, const uint8_t *p, size_t n, uint64_t at)
{
    while (n > 0) {
        ssize_t k = pwrite(fd, p, n, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        p += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return 1;
}

/* RP_JOBFILE_IO=gather: rank 0 writes the whole file with POSIX I/O,
 * taking each rank's part in rank order over o->comm (a go message, then
 * the part).  It holds one part at a time, and a rank sends only when
 * asked: GATHER_AHEAD ranks are asked ahead of the part being received,
 * so the round trips overlap while the parts in flight stay bounded (at
 * 4 096 SMPI ranks: 71.5 ms of simulated time one at a time, 38.7 ms with
 * 16 or 64 ahead, where the bytes into rank 0 bound it).  For MPI
 * libraries whose MPI-IO writes nothing real (SMPI simulates storage) or
 * cannot open the file system.  Returns as write_mpiio; rank 0 alone
 * decides whether the file can be made, and tells the others before
 * anyone sends. */
static int write_gather(const rp_jobout *o, const char *tmp, const uint8_t *idx,
                        const uint64_t *lencrc, const uint8_t *buf, size_t len, char *why,
                        size_t whycap)
{
    uint32_t n = o->nranks;
    int root = o->rank == 0, fd = -1, ok = 1;
    uint8_t *part = NULL;
    if (root) {
        uint64_t most = 1;
        for (uint32_t i = 1; i < n; i++)
            if (lencrc[2 * i] > most)
                most = lencrc[2 * i];
        part = most <= (uint64_t)INT_MAX ? malloc((size_t)most) : NULL;
        if (idx && part)
            fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
        ok = fd >= 0;
    }
    if (PMPI_Bcast(&ok, 1, MPI_INT, 0, o->comm) != MPI_SUCCESS)
        ok = 0;
    if (!ok) {
        if (root) {
            if (fd >= 0)
                close(fd);
            (void)unlink(tmp);
            free(part);
        }
        snprintf(why, whycap, "rank 0 could not create it or allocate its buffers");
        return -1;
    }
    if (!root) {
        int go = 0;
        return PMPI_Recv(&go, 1, MPI_INT, 0, RP_TAG_JOBFILE, o->comm, MPI_STATUS_IGNORE) ==
                   MPI_SUCCESS &&
               PMPI_Send((void *)buf, (int)len, MPI_BYTE, 0, RP_TAG_JOBFILE, o->comm) ==
                   MPI_SUCCESS;
    }
    uint64_t at = rpjob_data_start(n);
    int w = pwrite_all(fd, idx, (size_t)at, 0) && pwrite_all(fd, buf, len, at);
    at += len;
    /* every rank is asked and heard, whatever failed before: each waits for it */
    int go = 1, asked = 1;
    for (uint32_t i = 1; i < n && i <= GATHER_AHEAD; i++)
        asked = PMPI_Send(&go, 1, MPI_INT, (int)i, RP_TAG_JOBFILE, o->comm) == MPI_SUCCESS && asked;
    for (uint32_t i = 1; i < n; i++) {
        size_t li = (size_t)lencrc[2 * i];
        MPI_Status st;
        int got = PMPI_Recv(part, (int)li, MPI_BYTE, (int)i, RP_TAG_JOBFILE, o->comm, &st) ==
                      MPI_SUCCESS &&
                  wrote_all(&st, li);
        if (i + GATHER_AHEAD < n)
            asked = PMPI_Send(&go, 1, MPI_INT, (int)(i + GATHER_AHEAD), RP_TAG_JOBFILE,
                              o->comm) == MPI_SUCCESS && asked;
        w = w && asked && got && pwrite_all(fd, part, li, at);
        at += li;
    }
    free(part);
    return close(fd) == 0 && w;
}

int jobfile_write(const rp_jobout *o, const uint8_t *buf, size_t len, char *why, size_t whycap)
{
    char tmp[4200], fin[4200];
    snprintf(tmp, sizeof tmp, "%s/%s.tmp", o->via, RP_JOBFILE_NAME);
    snprintf(fin, sizeof fin, "%s/%s", o->via, RP_JOBFILE_NAME);
    uint32_t n = o->nranks;
    int root = o->rank == 0;
    /* a stale temporary file of a killed job: removed before anyone opens
     * it (the first collective below orders this before every open) */
    if (root)
        (void)unlink(tmp);
    uint64_t *lencrc = root ? malloc((size_t)n * 2 * sizeof *lencrc) : NULL;
    /* An entry is one MPI write of an int count. */
    int ok = buf && len <= (size_t)INT_MAX && (!root || lencrc);
    uint64_t mine[2] = {ok ? (uint64_t)len : 0,
                        ok ? rp_crc32_update(0, buf, len) : 0};
    uint64_t bad = !ok, sums[2] = {0, 0}, in[2] = {bad, mine[0]};
    if (PMPI_Allreduce(in, sums, 2, MPI_UINT64_T, MPI_SUM, o->comm) != MPI_SUCCESS ||
        sums[0] != 0) {
        free(lencrc);
        snprintf(why, whycap, "a rank could not encode its data or allocate the index");
        return 0;
    }
    uint64_t off = 0;   /* this rank's part's offset: MPI-IO's writers need it */
    if (!o->gather)
        PMPI_Exscan(&mine[0], &off, 1, MPI_UINT64_T, MPI_SUM, o->comm);
    if (root)
        off = 0;   /* Exscan leaves rank 0's result undefined */
    off += rpjob_data_start(n);
    PMPI_Gather(mine, 2, MPI_UINT64_T, lencrc, 2, MPI_UINT64_T, 0, o->comm);
    uint64_t total = rpjob_data_start(n) + sums[1];
    uint8_t *idx = root ? build_index(o, lencrc, total) : NULL;
    /* o->gather is rank 0's setting on every rank: all take one branch */
    int w = o->gather ? write_gather(o, tmp, idx, lencrc, buf, len, why, whycap)
                      : write_mpiio(o, tmp, idx, total, off, buf, len, why, whycap);
    free(lencrc);
    free(idx);
    if (w < 0)
        return 0;   /* nothing written anywhere; why says what failed */
    int all_w = agree(w, o->comm), renamed = 0;
    if (root && all_w)
        renamed = rename(tmp, fin) == 0;
    if (root && !renamed)
        (void)unlink(tmp);
    if (PMPI_Bcast(&renamed, 1, MPI_INT, 0, o->comm) != MPI_SUCCESS)
        renamed = 0;   /* rank 0 knows better; the rank files follow anyway */
    if (!renamed) {
        snprintf(why, whycap, "%s", all_w ? "renaming it into place failed"
                                          : "a write to it failed or came up short");
        return 0;
    }
    return 1;
}
