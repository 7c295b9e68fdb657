/* mpi_threads.c - MPI_THREAD_MULTIPLE: while the main thread runs its own
 * allreduce/ring loop on MPI_COMM_WORLD, NTHREADS pthreads per rank run
 * rings and allreduces concurrently, each on its own duplicate of
 * MPI_COMM_WORLD (made by the main thread, in the same order on every rank,
 * before the threads start) with its own tag.  Thread t of every rank talks
 * only to thread t of the others, so the program is correct MPI whatever
 * the interleaving.  Output is printed by rank 0 after the threads joined,
 * in thread order, and depends only on the arithmetic.
 *
 * Hostile thread life cycles (unless the third argument is 0): a thread
 * started before MPI_Init that runs until after MPI_Finalize, short-lived
 * threads that end early (by return and by pthread_exit) while the others
 * communicate, and 300 threads alive at once (more than the profiler's
 * 256 slots).  None of them changes the output.
 *
 * Cross pairings (fourth argument 1): a worker thread's send received by
 * the peer's main thread, and a barrier on MPI_COMM_WORLD entered by the
 * main thread on even ranks and by a worker on odd ranks.  Correct MPI
 * under MPI_THREAD_MULTIPLE; under rpprof's full path exchange
 * (RP_MULTIPLE=main) the main thread's side would wait for a path-set
 * the worker never sends, so this checks the default (RP_MULTIPLE=local).
 *
 * usage: mpi_threads [iterations [threads [hostile [cross]]]] */
#include <mpi.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAXT 8

typedef struct job {
    int      t, iters, me, np;
    MPI_Comm comm;
    uint64_t result;
} job;

__attribute__((noinline)) static uint64_t spin(uint64_t x, long n)
{
    for (long i = 0; i < n; i++)
        x = x * 2862933555777941757ULL + 3037000493ULL;
    return x;
}

static uint64_t ring_and_reduce(MPI_Comm comm, int me, int np, int tag, int iters, uint64_t seed)
{
    uint64_t acc = seed;
    for (int it = 0; it < iters; it++) {
        uint64_t out = spin(acc + (uint64_t)it, 20000), in = 0, sum = 0;
        MPI_Sendrecv(&out, 1, MPI_UINT64_T, (me + 1) % np, tag, &in, 1, MPI_UINT64_T,
                     (me + np - 1) % np, tag, comm, MPI_STATUS_IGNORE);
        MPI_Allreduce(&in, &sum, 1, MPI_UINT64_T, MPI_SUM, comm);
        acc ^= sum;
    }
    return acc;
}

static void *worker(void *p)
{
    job *j = p;
    j->result = ring_and_reduce(j->comm, j->me, j->np, 100 + j->t, j->iters,
                                (uint64_t)(j->t + 1) * 0x9e3779b97f4a7c15ULL);
    return NULL;
}

/* ---- cross pairings ------------------------------------------------------- */
typedef struct cross_job {
    int      me, np, what;   /* what: 0 = send to the next rank, 1 = barrier */
    uint64_t value;
} cross_job;

static void *cross_worker(void *p)
{
    cross_job *c = p;
    if (c->what == 0) {
        uint64_t v = spin((uint64_t)c->me + 77, 1000);
        MPI_Send(&v, 1, MPI_UINT64_T, (c->me + 1) % c->np, 55, MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return NULL;
}

static void cross(int me, int np)
{
    pthread_t th;
    cross_job c = { me, np, 0, 0 };
    uint64_t got = 0;
    if (pthread_create(&th, NULL, cross_worker, &c) != 0)
        abort();
    MPI_Recv(&got, 1, MPI_UINT64_T, (me + np - 1) % np, 55, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pthread_join(th, NULL);
    if (me % 2) {
        cross_job b = { me, np, 1, 0 };
        if (pthread_create(&th, NULL, cross_worker, &b) != 0)
            abort();
        pthread_join(th, NULL);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    uint64_t sum = 0;
    MPI_Reduce(&got, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("cross: %016llx\n", (unsigned long long)sum);
}

/* ---- hostile life cycles -------------------------------------------------- */
static volatile int g_stop_bg;
static uint64_t g_bg_sink;

/* Started before MPI_Init, stopped after MPI_Finalize. */
static void *background(void *p)
{
    (void)p;
    struct timespec ts = { 0, 1000000 };
    while (!g_stop_bg) {
        g_bg_sink = spin(g_bg_sink, 50000);
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void *short_lived(void *p)
{
    uint64_t *r = p;
    *r = spin(*r, 30000);
    if (*r & 1)
        pthread_exit(NULL);   /* the other way out */
    return NULL;
}

static void spawn_short(int n)
{
    pthread_t th[16];
    uint64_t v[16];
    for (int i = 0; i < n && i < 16; i++) {
        v[i] = (uint64_t)i;
        if (pthread_create(&th[i], NULL, short_lived, &v[i]) != 0)
            abort();
    }
    for (int i = 0; i < n && i < 16; i++)
        pthread_join(th[i], NULL);
}

#define CROWD 300
static pthread_barrier_t g_crowd_bar;
static sem_t g_crowd_go[CROWD];   /* members leave one at a time */
static void *crowd_member(void *p)
{
    int i = (int)(intptr_t)p;
    pthread_barrier_wait(&g_crowd_bar);
    /* Leave in turn: 300 threads ending at once on 2 cores make a convoy in
     * UCX's munmap/madvise hooks (MPICH + UCX, with or without rpprof, see
     * doc/sampling.md "Threads"); this test is about the slot table. */
    while (sem_wait(&g_crowd_go[i]) != 0)
        ;
    return NULL;
}

/* CROWD threads alive at once (small stacks: 300 x 8 MiB is a lot of
 * address space on a small machine). */
static void crowd(void)
{
    static pthread_t th[CROWD];
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 256 * 1024);
    pthread_barrier_init(&g_crowd_bar, NULL, CROWD + 1);
    for (int i = 0; i < CROWD; i++)
        sem_init(&g_crowd_go[i], 0, 0);
    for (int i = 0; i < CROWD; i++)
        if (pthread_create(&th[i], &at, crowd_member, (void *)(intptr_t)i) != 0)
            abort();
    pthread_barrier_wait(&g_crowd_bar);
    for (int i = 0; i < CROWD; i++) {
        sem_post(&g_crowd_go[i]);
        pthread_join(th[i], NULL);
        sem_destroy(&g_crowd_go[i]);
    }
    pthread_barrier_destroy(&g_crowd_bar);
    pthread_attr_destroy(&at);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 40;
    int nt = argc > 2 ? atoi(argv[2]) : 2;
    int hostile = argc > 3 ? atoi(argv[3]) : 1;
    int do_cross = argc > 4 ? atoi(argv[4]) : 0;
    int provided, me, np;
    pthread_t bg;
    if (hostile && pthread_create(&bg, NULL, background, NULL) != 0)
        return 3;
    if (nt < 1 || nt > MAXT)
        nt = 2;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        /* the test script turns this line into a SKIP */
        printf("MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Finalize();
        g_stop_bg = 1;
        if (hostile)
            pthread_join(bg, NULL);
        return 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    job jobs[MAXT];
    pthread_t th[MAXT];
    for (int t = 0; t < nt; t++) {
        jobs[t] = (job){ t, iters, me, np, MPI_COMM_NULL, 0 };
        MPI_Comm_dup(MPI_COMM_WORLD, &jobs[t].comm);
    }
    for (int t = 0; t < nt; t++)
        if (pthread_create(&th[t], NULL, worker, &jobs[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    if (hostile) {
        spawn_short(8);
        crowd();
        spawn_short(8);
    }
    uint64_t mainres = ring_and_reduce(MPI_COMM_WORLD, me, np, 7, iters, 42);
    for (int t = 0; t < nt; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < nt; t++)
        MPI_Comm_free(&jobs[t].comm);
    if (do_cross)
        cross(me, np);
    if (me == 0) {
        printf("threads np=%d threads=%d iterations=%d\n", np, nt, iters);
        printf("main: %016llx\n", (unsigned long long)mainres);
        for (int t = 0; t < nt; t++)
            printf("thread %d: %016llx\n", t, (unsigned long long)jobs[t].result);
    }
    MPI_Finalize();
    if (hostile) {
        spawn_short(4);       /* after MPI_Finalize: nothing of ours runs */
        g_stop_bg = 1;
        pthread_join(bg, NULL);
    }
    return 0;
}
