/* mkpathfiles - write synthetic path-mode and trace-mode rank files with
 * known tasks, path summaries and edges, for tests/tools/test_paths.sh.
 *
 *   mkpathfiles SCENARIO DIR
 *
 * Scenarios:
 *   assign-path   the course assignment's Fig. 1 program at 4 ranks,
 *                 RP_MODE=path, k=1: its critPath.out must be Fig. 2
 *   assign-trace  the same program, RP_MODE=trace, k=2, with the online
 *                 100 %/0 % costs the algorithm computes (2.4 s / 0.600002 s,
 *                 then 2.0 s / 30 us)
 *   assign-bad    as assign-trace but phase 1's online 100 % cost is off by 5 ms
 *   mixed-trace   4 ranks, one phase: Bcast (root 0), Isend 0->2 completed by
 *                 MPI_Wait, Scan over the sub-communicator {1, 3}, Reduce to
 *                 root 0, Finalize; longest 3.7 s, shortest 0.5 s (worked out
 *                 by hand in the comments below)
 *   mixed-path    the same program's two paths in path mode (k=2), the
 *                 longest one leaving rank 1 through the Reduce
 *   overflow-path mixed-path, but path 0's summary overflowed after rank 1's
 *                 three tasks (covered 3.5 s of 3.7 s; PCOV): --check must say
 *                 PARTIAL with 200 ms not rebuilt (exit 3)
 *   overflow-bad  the same with covered 3.4 s: the prefix disagrees (exit 1)
 *
 * Times are exact nanoseconds, so the checks compare exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/counters.h"
#include "core/phasestats.h"
#include "format/rpfile.h"

enum { F_INIT, F_SEND, F_RECV, F_BARRIER, F_FINALIZE, F_BCAST, F_REDUCE, F_SCAN, F_ISEND,
       F_WAIT, F_ALLREDUCE, F_N };
static char *names[F_N] = {"MPI_Init",     "MPI_Send",   "MPI_Recv",   "MPI_Barrier",
                           "MPI_Finalize", "MPI_Bcast",  "MPI_Reduce", "MPI_Scan",
                           "MPI_Isend",    "MPI_Wait",   "MPI_Allreduce"};

#define S(x)  ((int64_t)((x) * 1000000000.0 + 0.5))
#define US(x) ((int64_t)(x) * 1000)

/* one rank being built */
typedef struct rk {
    rp_rankdata d;
    rp_task     t[32];
    rp_edge     e[32];
    rp_pathsum  ps[8];
    rp_fileiv   iv[8][16];
    uint64_t    phase, idx;   /* current phase, task index within it */
    int         last_fn;      /* the function of the last event (F_INIT = 0 first) */
} rk;

static rk R[8];
static uint32_t NR, K, MODE;

static void init_ranks(uint32_t nranks, uint32_t k, uint32_t mode)
{
    NR = nranks;
    K = k;
    MODE = mode;
    memset(R, 0, sizeof R);
    for (uint32_t r = 0; r < nranks; r++) {
        rp_rankdata *d = &R[r].d;
        d->rank = r;
        d->nranks = nranks;
        d->k = k;
        d->mode = mode;
        d->summary_cap = 32;
        d->wall_ns = S(5);
        strcpy(d->exe, "/synthetic/mpi_assignment");
        strcpy(d->host, "synthetic");
        phasestats_init(&d->stats, k);
        d->n_mpi_names = F_N;
        d->mpi_names = names;
        d->n_nodes = 1;
        d->n_metrics = RP_MET_PATH0 + k;
        d->nodes = calloc(1, sizeof *d->nodes);
        d->metrics = calloc(d->n_metrics, sizeof *d->metrics);
        d->nodes[0] = (rp_cctnode){UINT32_MAX, RP_MOD_ROOT, 0};
        d->tasks = R[r].t;
        d->edges = R[r].e;
        d->pathsums = R[r].ps;
        d->n_events = 1;   /* MPI_Init's return */
    }
}

/* rank r's next task: cost, then the event (MPI function) that ends it.
 * Trace mode keeps every task; path mode only those with mask != 0. */
static uint64_t task(uint32_t r, int64_t cost, int end_fn, uint64_t mask, uint32_t msg_src,
                     uint32_t bytes)
{
    rk *x = &R[r];
    rp_rankdata *d = &x->d;
    uint64_t ev = d->n_events++;
    int start_fn = x->last_fn;
    x->last_fn = end_fn;
    if (MODE == RP_MODE_TRACE || mask) {
        rp_task *t = &x->t[d->n_tasks++];
        memset(t, 0, sizeof *t);
        t->phase = x->phase;
        t->event = ev;
        t->idx = MODE == RP_MODE_PATH ? (uint32_t)x->idx : 0;
        t->start_fn = (uint16_t)start_fn;
        t->end_fn = (uint16_t)end_fn;
        t->cost_ns = cost;
        t->msg_src = msg_src;
        t->msg_bytes = bytes;
        t->path_mask = MODE == RP_MODE_PATH ? mask : 0;
    }
    x->idx++;
    return ev;
}

static void msg_edge(uint32_t r, uint64_t ev, uint32_t peer, uint64_t peer_ev, uint32_t bytes)
{
    if (MODE != RP_MODE_TRACE)
        return;
    rp_edge *e = &R[r].e[R[r].d.n_edges++];
    memset(e, 0, sizeof *e);
    e->kind = RP_EDGE_MSG;
    e->event = ev;
    e->peer = peer;
    e->peer_event = peer_ev;
    e->bytes = bytes;
}

static void coll_edge(uint32_t r, uint64_t ev, uint64_t id, uint32_t kind, uint32_t root,
                      uint32_t size, int phase_end)
{
    if (phase_end) {
        R[r].phase++;
        R[r].idx = 0;
    }
    if (MODE != RP_MODE_TRACE)
        return;
    rp_edge *e = &R[r].e[R[r].d.n_edges++];
    memset(e, 0, sizeof *e);
    e->kind = RP_EDGE_COLL;
    e->event = ev;
    e->coll_id = id;
    e->coll_kind = kind;
    e->root = root;
    e->size = size;
    e->phase_end = (uint32_t)phase_end;
}

/* every rank gets the same path summaries */
static void pathsum(uint64_t phase, uint32_t path, int64_t cost, const rp_fileiv *iv,
                    uint32_t niv)
{
    for (uint32_t r = 0; r < NR; r++) {
        rk *x = &R[r];
        uint32_t i = x->d.n_pathsums++;
        rp_pathsum *p = &x->ps[i];
        memset(p, 0, sizeof *p);
        p->phase = phase;
        p->path = path;
        p->cost_ns = cost;
        p->n_iv = MODE == RP_MODE_PATH ? niv : 0;
        memcpy(x->iv[i], iv, niv * sizeof *iv);
        p->iv = x->iv[i];
    }
}

/* phase statistics: the k costs of a phase, on every rank */
static void phase_costs(const int64_t *c)
{
    for (uint32_t r = 0; r < NR; r++)
        phasestats_add(&R[r].d.stats, c);
}

/* Every counter of lib/core/counters.def on rank 0, row i = i+1, so the
 * views that read rank files (dot, critpath, --check) can be checked to
 * warn about each loss counter. */
static void all_counters(void)
{
    static rp_counter all[RP_CNT__N];
    for (uint32_t i = 0; i < RP_CNT__N; i++) {
        snprintf(all[i].name, sizeof all[i].name, "%s", rp_counter_table[i].name);
        all[i].value = i + 1;
    }
    R[0].d.counters = all;
    R[0].d.n_counters = RP_CNT__N;
}

static int write_all(const char *dir)
{
    for (uint32_t r = 0; r < NR; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank-%05u.rpp", dir, r);
        char err[256];
        if (rpfile_validate(&R[r].d, err, sizeof err) != 0) {
            fprintf(stderr, "mkpathfiles: rank %u invalid: %s\n", r, err);
            return 1;
        }
        if (rpfile_write(path, &R[r].d) != 0) {
            perror(path);
            return 1;
        }
        phasestats_free(&R[r].d.stats);
        free(R[r].d.nodes);
        free(R[r].d.metrics);
    }
    return 0;
}

/* The assignment's Fig. 1 program.  Event numbers per rank:
 *   rank 0: 1 Send->1, 2 Barrier, 3 Send->1, 4 Finalize
 *   rank 1: 1 Recv<-0, 2 Send->2, 3 Barrier, 4 Recv<-0, 5 Finalize
 *   rank 2: 1 Recv<-1, 2 Send->3, 3 Barrier, 4 Finalize
 *   rank 3: 1 Recv<-2, 2 Barrier, 3 Finalize
 * Phase 0 longest: 0.6 * 4 = 2.4 s along 0 -> 1 -> 2 -> 3; shortest
 * 0.600002 s (rank 3: 2 us, then the min-join keeps its own 2 us, + 0.6 s).
 * Phase 1 longest: rank 0's 1.6 s, the message, rank 1's 0.4 s = 2.0 s;
 * shortest: rank 3's 30 us. */
static void assignment(uint32_t mode, int64_t skew)
{
    init_ranks(4, mode == RP_MODE_PATH ? 1 : 2, mode);
    uint64_t P = 1;   /* path-mode mask of path 0 */
    uint64_t B = 0xB0, F = 0xF0;
    /* phase 0 */
    task(0, S(0.6), F_SEND, P, RP_NO_RANK, 0);                    /* 0:1 */
    task(0, US(10), F_BARRIER, 0, RP_NO_RANK, 0);                 /* 0:2 */
    task(1, US(5), F_RECV, 0, RP_NO_RANK, 0);                     /* 1:1 */
    msg_edge(1, 1, 0, 1, 4);
    task(1, S(0.6), F_SEND, P, 0, 4);                             /* 1:2 */
    task(1, US(7), F_BARRIER, 0, RP_NO_RANK, 0);                  /* 1:3 */
    task(2, US(4), F_RECV, 0, RP_NO_RANK, 0);                     /* 2:1 */
    msg_edge(2, 1, 1, 2, 4);
    task(2, S(0.6), F_SEND, P, 1, 4);                             /* 2:2 */
    task(2, US(6), F_BARRIER, 0, RP_NO_RANK, 0);                  /* 2:3 */
    task(3, US(2), F_RECV, 0, RP_NO_RANK, 0);                     /* 3:1 */
    msg_edge(3, 1, 2, 2, 4);
    task(3, S(0.6), F_BARRIER, P, 2, 4);                          /* 3:2 */
    coll_edge(0, 2, B, RP_COLL_ALL, 0, 4, 1);
    coll_edge(1, 3, B, RP_COLL_ALL, 0, 4, 1);
    coll_edge(2, 3, B, RP_COLL_ALL, 0, 4, 1);
    coll_edge(3, 2, B, RP_COLL_ALL, 0, 4, 1);
    /* phase 1 */
    task(0, S(1.6), F_SEND, P, RP_NO_RANK, 0);                    /* 0:3 */
    task(0, US(20), F_FINALIZE, 0, RP_NO_RANK, 0);                /* 0:4 */
    task(1, US(3), F_RECV, 0, RP_NO_RANK, 0);                     /* 1:4 */
    msg_edge(1, 4, 0, 3, 4);
    task(1, S(0.4), F_FINALIZE, P, 0, 4);                         /* 1:5 */
    task(2, US(50), F_FINALIZE, 0, RP_NO_RANK, 0);                /* 2:4 */
    task(3, US(30), F_FINALIZE, 0, RP_NO_RANK, 0);                /* 3:3 */
    coll_edge(0, 4, F, RP_COLL_ALL, 0, 4, 1);
    coll_edge(1, 5, F, RP_COLL_ALL, 0, 4, 1);
    coll_edge(2, 4, F, RP_COLL_ALL, 0, 4, 1);
    coll_edge(3, 3, F, RP_COLL_ALL, 0, 4, 1);

    rp_fileiv p0[] = {{0, 0, 0}, {1, 1, 1}, {2, 1, 1}, {3, 1, 1}};
    rp_fileiv p1[] = {{0, 0, 0}, {1, 1, 1}};
    pathsum(0, 0, S(2.4), p0, 4);
    if (K > 1)
        pathsum(0, 1, S(0.6) + US(2), NULL, 0);
    pathsum(1, 0, S(2.0) + skew, p1, 2);
    if (K > 1)
        pathsum(1, 1, US(30), NULL, 0);
    int64_t c0[2] = {S(2.4), S(0.6) + US(2)}, c1[2] = {S(2.0) + skew, US(30)};
    phase_costs(c0);
    phase_costs(c1);
}

/* mixed: see the header.  Event numbers: every rank has
 *   1 Bcast (root 0), 2 (rank 0: Isend->2; rank 2: Wait; ranks 1, 3: Scan),
 *   3 Reduce (root 0), 4 Finalize.
 * Longest (max-joins): rank 1 works 3.0 s before the Bcast (which does not
 * reach the root), 0.3 s to the Scan, 0.2 s to the Reduce -> root 0 joins
 * 3.5 s, + 0.2 s = 3.7 s at Finalize.  Rank 3's Scan joins rank 1's 3.3 s
 * (3.4 s at the Reduce), rank 2's Wait joins rank 0's 1.5 s (1.8 s).
 * Shortest (min-joins): rank 3: 0.2 + 0.1 (Scan: min(0.3, 1.3)) + 0.1 =
 * 0.4 at the Reduce, 0.5 s at Finalize; root 0 joins min(1.6, 1.5, 0.6,
 * 0.4) = 0.4, 0.6 s at Finalize: the shortest is 0.5 s. */
static void mixed(uint32_t mode)
{
    init_ranks(4, 2, mode);
    uint64_t A = 0x100000000ull | 1, Bc = 0x100000000ull | 2, C = 0x200000000ull | 1,
             F = 0x100000000ull | 3;
    uint64_t P0 = 1, P1 = 2;   /* path-mode masks */
    /* path 0 (3.7 s): rank 1 tasks 1..3 (idx 0..2), rank 0 task 4 (idx 3)
     * path 1 (0.5 s): rank 3 tasks 1..4 (idx 0..3) */
    task(0, S(1.0), F_BCAST, 0, RP_NO_RANK, 0);
    task(0, S(0.5), F_ISEND, 0, RP_NO_RANK, 0);
    task(0, S(0.1), F_REDUCE, 0, RP_NO_RANK, 0);
    task(0, S(0.2), F_FINALIZE, P0, RP_NO_RANK, 0);
    task(1, S(3.0), F_BCAST, P0, RP_NO_RANK, 0);
    task(1, S(0.3), F_SCAN, P0, RP_NO_RANK, 0);
    task(1, S(0.2), F_REDUCE, P0, RP_NO_RANK, 0);
    task(1, S(0.1), F_FINALIZE, 0, RP_NO_RANK, 0);
    task(2, S(0.1), F_BCAST, 0, RP_NO_RANK, 0);
    task(2, S(0.2), F_WAIT, 0, RP_NO_RANK, 0);
    task(2, S(0.3), F_REDUCE, 0, RP_NO_RANK, 0);
    task(2, S(0.1), F_FINALIZE, 0, RP_NO_RANK, 0);
    task(3, S(0.2), F_BCAST, P1, RP_NO_RANK, 0);
    task(3, S(0.1), F_SCAN, P1, RP_NO_RANK, 0);
    task(3, S(0.1), F_REDUCE, P1, RP_NO_RANK, 0);
    task(3, S(0.1), F_FINALIZE, P1, RP_NO_RANK, 0);
    for (uint32_t r = 0; r < 4; r++) {
        coll_edge(r, 1, A, RP_COLL_OUT, 0, 4, 0);
        if (r == 1 || r == 3)
            coll_edge(r, 2, C, RP_COLL_SCAN, r == 1 ? 0 : 1, 2, 0);
        if (r == 2)
            msg_edge(2, 2, 0, 2, 8);
        coll_edge(r, 3, Bc, RP_COLL_IN, 0, 4, 0);
        coll_edge(r, 4, F, RP_COLL_ALL, 0, 4, 1);
    }
    rp_fileiv p0[] = {{1, 0, 2}, {0, 3, 3}};
    rp_fileiv p1[] = {{3, 0, 3}};
    pathsum(0, 0, S(3.7), p0, 2);
    pathsum(0, 1, S(0.5), p1, 1);
    int64_t c[2] = {S(3.7), S(0.5)};
    phase_costs(c);
}

/* Path 0's summary filled up after its first interval (rank 1, idx 0..2,
 * 3.5 s); rank 0's task idx 3 stays committed as a tail candidate. */
static void overflow(int64_t covered)
{
    mixed(RP_MODE_PATH);
    for (uint32_t r = 0; r < NR; r++) {
        rp_pathsum *p = &R[r].ps[0];
        p->flags = RP_PSUM_OVERFLOW;
        p->n_iv = 1;
        p->covered_ns = covered;
        R[r].ps[1].covered_ns = -1;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mkpathfiles SCENARIO DIR\n");
        return 2;
    }
    const char *s = argv[1];
    if (!strcmp(s, "assign-path"))
        assignment(RP_MODE_PATH, 0);
    else if (!strcmp(s, "assign-trace"))
        assignment(RP_MODE_TRACE, 0);
    else if (!strcmp(s, "assign-bad"))
        assignment(RP_MODE_TRACE, 5000000);
    else if (!strcmp(s, "mixed-trace"))
        mixed(RP_MODE_TRACE);
    else if (!strcmp(s, "mixed-path"))
        mixed(RP_MODE_PATH);
    else if (!strcmp(s, "overflow-path"))
        overflow(S(3.5));
    else if (!strcmp(s, "overflow-bad"))
        overflow(S(3.4));
    else if (!strcmp(s, "losses-path")) {
        mixed(RP_MODE_PATH);
        all_counters();
    }
    else {
        fprintf(stderr, "mkpathfiles: unknown scenario '%s'\n", s);
        return 2;
    }
    return write_all(argv[2]);
}
