/* pingpong.c - point-to-point cost of rpprof per message, and its floor.
 *
 * Two ranks.  Every mode runs the same message pattern; they differ only in
 * which calls they make:
 *
 *   plain    blocking ping-pong of B bytes through PMPI_Send/PMPI_Recv.
 *            PMPI_* bypass a preloaded librpprof, so this is the
 *            uninstrumented cost even inside a profiled process.
 *   floor    plain + what any two-message profiler minimally must do: after
 *            each payload send an Isend of S bytes on an MPI_Comm_dup'd
 *            communicator (same tag; a bounded ring of requests reaped from
 *            the oldest with PMPI_Test once half full), and after each payload
 *            receive a PMPI_Recv of it from the status's source and tag.
 *   prof     the same ping-pong through MPI_Send/MPI_Recv: profiled when
 *            librpprof is preloaded, identical to plain otherwise.
 *   iplain   halo-style exchange: both ranks PMPI_Irecv + PMPI_Isend +
 *            PMPI_Waitall each iteration.
 *   ifloor   iplain + side Isend on the dup (ring as above) and a side Irecv
 *            pre-posted with the payload's source and tag, completed with
 *            PMPI_Wait after the payload's Waitall.
 *   iprof    the exchange through MPI_Irecv/MPI_Isend/MPI_Waitall.
 *
 * Because plain, floor and prof can run in one process, one mpirun measures
 * them interleaved (each repetition runs every mode once, in a rotated
 * order), so they share the launch's "fast"/"slow" mode (doc/performance.md).
 *
 * Time per message: blocking ping-pong = round trip / 2 (one-way latency);
 * exchange = time per iteration (each rank sends one and receives one).
 * Rank 0 times with CLOCK_MONOTONIC and prints, per mode and repetition,
 *     RAW <mode> <rep> <ns-per-message>
 * and per mode a summary line
 *     MODE <mode> bytes=B side=S iters=N reps=R median_ns=.. min_ns=.. max_ns=..
 *
 * usage: pingpong [-b B] [-s S] [-n N] [-r R] [-w W] [-m mode,mode,...]
 *        [-p] (phase: a profiled MPI_Barrier after each repetition)
 *        [-c NS] (compute: spin NS ns before every send, in every mode, so
 *        that samples land in tasks and paths carry summaries, as in codes
 *        that compute between messages)
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TAG 7
#define RING 64u        /* power of two, as in the runtime's pool */
#define MAXMODES 8

enum { M_PLAIN, M_FLOOR, M_PROF, M_IPLAIN, M_IFLOOR, M_IPROF, M__N };
static const char *const mode_names[M__N] = { "plain", "floor", "prof",
                                              "iplain", "ifloor", "iprof" };

static int rank, peer;
static char *sbuf, *rbuf;
static int nbytes, side_bytes;
static MPI_Comm dup_comm;

/* The floor's bounded ring of side sends. */
static MPI_Request ring_req[RING];
static uint8_t *ring_buf[RING];
static uint32_t ring_head, ring_n;
static uint8_t *side_rbuf;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void reap(void)
{
    while (ring_n) {
        int done = 0;
        PMPI_Test(&ring_req[ring_head], &done, MPI_STATUS_IGNORE);
        if (!done)
            return;
        ring_head = (ring_head + 1) & (RING - 1);
        ring_n--;
    }
}

static void side_send(int dest, int tag)
{
    if (ring_n * 2 >= RING)
        reap();
    if (ring_n == RING) {            /* never reached in practice: counted by nobody */
        PMPI_Wait(&ring_req[ring_head], MPI_STATUS_IGNORE);
        ring_head = (ring_head + 1) & (RING - 1);
        ring_n--;
    }
    uint32_t i = (ring_head + ring_n) & (RING - 1);
    ring_n++;
    PMPI_Isend(ring_buf[i], side_bytes, MPI_BYTE, dest, tag, dup_comm, &ring_req[i]);
}

static void side_recv(const MPI_Status *st)
{
    MPI_Status s2;
    PMPI_Recv(side_rbuf, side_bytes, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, dup_comm, &s2);
}

static void drain_ring(void)
{
    while (ring_n) {
        PMPI_Wait(&ring_req[ring_head], MPI_STATUS_IGNORE);
        ring_head = (ring_head + 1) & (RING - 1);
        ring_n--;
    }
}

static int64_t compute_ns;   /* -c */

/* Work before a send (-c): a spin on the clock. */
static void compute(void)
{
    if (compute_ns <= 0)
        return;
    int64_t end = now_ns() + compute_ns;
    while (now_ns() < end)
        ;
}

/* One iteration of a mode. */
static void iter(int mode)
{
    MPI_Status st;
    MPI_Request rq[3];
    MPI_Status sts[3];
    switch (mode) {
    case M_PLAIN:
        if (rank == 0) {
            compute();
            PMPI_Send(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            PMPI_Recv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
        } else {
            PMPI_Recv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
            compute();
            PMPI_Send(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
        }
        break;
    case M_FLOOR:
        if (rank == 0) {
            compute();
            PMPI_Send(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            side_send(peer, TAG);
            PMPI_Recv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
            side_recv(&st);
        } else {
            PMPI_Recv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
            side_recv(&st);
            compute();
            PMPI_Send(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            side_send(peer, TAG);
        }
        break;
    case M_PROF:
        if (rank == 0) {
            compute();
            MPI_Send(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            MPI_Recv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
            compute();
            MPI_Send(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
        }
        break;
    case M_IPLAIN:
        PMPI_Irecv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &rq[0]);
        compute();
        PMPI_Isend(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &rq[1]);
        PMPI_Waitall(2, rq, sts);
        break;
    case M_IFLOOR:
        PMPI_Irecv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &rq[0]);
        PMPI_Irecv(side_rbuf, side_bytes, MPI_BYTE, peer, TAG, dup_comm, &rq[2]);
        compute();
        PMPI_Isend(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &rq[1]);
        side_send(peer, TAG);
        PMPI_Waitall(2, rq, sts);
        PMPI_Wait(&rq[2], &st);
        break;
    case M_IPROF:
        MPI_Irecv(rbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &rq[0]);
        compute();
        MPI_Isend(sbuf, nbytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, sts);
        break;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: pingpong [-b bytes] [-s side-bytes] [-n iters] [-r reps] "
                        "[-w warmup] [-m plain,floor,prof,iplain,ifloor,iprof] [-p] [-c compute-ns]\n");
}

int main(int argc, char **argv)
{
    int iters = 20000, reps = 11, warm = 2000, phases = 0, size;
    int modes[MAXMODES], nmodes = 0;
    const char *mode_arg = "plain,floor,prof";
    nbytes = 8;
    side_bytes = 88;

    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);

    int opt;
    while ((opt = getopt(argc, argv, "b:s:n:r:w:m:pc:")) != -1) {
        switch (opt) {
        case 'b': nbytes = atoi(optarg); break;
        case 's': side_bytes = atoi(optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'r': reps = atoi(optarg); break;
        case 'w': warm = atoi(optarg); break;
        case 'm': mode_arg = optarg; break;
        case 'p': phases = 1; break;
        case 'c': compute_ns = atoll(optarg); break;
        default: usage(); PMPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (size != 2 || nbytes < 0 || side_bytes < 1 || iters < 1 || reps < 1 || warm < 0) {
        usage();
        if (rank == 0 && size != 2)
            fprintf(stderr, "pingpong: needs exactly 2 ranks\n");
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *ma = strdup(mode_arg);
    for (char *tok = strtok(ma, ","); tok; tok = strtok(NULL, ",")) {
        int m;
        for (m = 0; m < M__N && strcmp(tok, mode_names[m]); m++)
            ;
        if (m == M__N || nmodes == MAXMODES) {
            usage();
            PMPI_Abort(MPI_COMM_WORLD, 2);
        }
        modes[nmodes++] = m;
    }
    free(ma);
    peer = 1 - rank;

    sbuf = malloc(nbytes ? (size_t)nbytes : 1);
    rbuf = malloc(nbytes ? (size_t)nbytes : 1);
    side_rbuf = malloc((size_t)side_bytes);
    memset(sbuf, 1, nbytes ? (size_t)nbytes : 1);
    for (uint32_t i = 0; i < RING; i++) {
        ring_buf[i] = malloc((size_t)side_bytes);
        memset(ring_buf[i], 2, (size_t)side_bytes);
        ring_req[i] = MPI_REQUEST_NULL;
    }
    /* The dup goes around the profiler (PMPI) so that it is not registered. */
    PMPI_Comm_dup(MPI_COMM_WORLD, &dup_comm);

    int64_t *res = calloc((size_t)nmodes * (size_t)reps, sizeof *res);

    /* Warm-up of every mode (connections, free lists, the profiler's pool). */
    for (int m = 0; m < nmodes; m++) {
        for (int i = 0; i < warm; i++)
            iter(modes[m]);
        drain_ring();
        PMPI_Barrier(MPI_COMM_WORLD);
    }

    for (int r = 0; r < reps; r++) {
        for (int j = 0; j < nmodes; j++) {
            int m = (j + r) % nmodes;               /* rotate the order */
            PMPI_Barrier(MPI_COMM_WORLD);
            int64_t t0 = now_ns();
            for (int i = 0; i < iters; i++)
                iter(modes[m]);
            int64_t t1 = now_ns();
            drain_ring();
            int blocking = modes[m] == M_PLAIN || modes[m] == M_FLOOR || modes[m] == M_PROF;
            res[(size_t)m * (size_t)reps + (size_t)r] =
                (t1 - t0) / (blocking ? 2LL * iters : (int64_t)iters);
        }
        if (phases)
            MPI_Barrier(MPI_COMM_WORLD);            /* profiled: ends a phase */
    }

    if (rank == 0) {
        for (int m = 0; m < nmodes; m++)
            for (int r = 0; r < reps; r++)
                printf("RAW %s %d %lld\n", mode_names[modes[m]], r,
                       (long long)res[(size_t)m * (size_t)reps + (size_t)r]);
        for (int m = 0; m < nmodes; m++) {
            int64_t *v = &res[(size_t)m * (size_t)reps];
            qsort(v, (size_t)reps, sizeof *v, cmp_i64);
            printf("MODE %s bytes=%d side=%d iters=%d reps=%d median_ns=%lld min_ns=%lld "
                   "max_ns=%lld\n",
                   mode_names[modes[m]], nbytes, side_bytes, iters, reps,
                   (long long)v[reps / 2], (long long)v[0], (long long)v[reps - 1]);
        }
        fflush(stdout);
    }
    PMPI_Comm_free(&dup_comm);
    MPI_Finalize();
    return 0;
}
