/* mkrankfiles - write synthetic rank files for the tools' tests, and print
 * on stdout, as JSON, what rp-merge / rp-report must make of them.
 *
 *   mkrankfiles DIR NRANKS [--k K] [--extra N] [--skip R] [--corrupt R]
 *                          [--truncate R] [--bad-version R] [--all-counters 1]
 *                          [--trace 1] [--path 1] [--pop 1]
 *
 * --all-counters 1 writes every counter of lib/core/counters.def, row i with
 * the value i+1 on every rank (task_time_ns: the rank's wall time), and
 * lists the table's loss counters in the expectations ("loss_counters",
 * "info_counters") so a test can check that
 * every report view warns about each of them, whatever the table holds.
 * --trace 1 marks the files RP_MODE=trace and adds every phase's path
 * summaries (costs only, as the phase statistics: no tasks), so the views
 * that read per-phase path costs (--what-if) have them; the expectations
 * list them as "phase_cost_ns".  --path 1 does the same as RP_MODE=path
 * (summaries without intervals, and no tasks).
 * --pop 1 gives the files known POP factors (tools/report/pop.h): every rank
 * computes 1 s (counter task_time_ns) but the last 2 s, the run lasts 3 s
 * (the largest wall time; the others end a little earlier) and the critical
 * path costs 2.5 s (phases of 1, 0.75 and 0.75 s): at 4 ranks LB 0.625,
 * CommE 0.667, SerE 0.8, TE 0.833, PE 0.417.  The expectations hold them
 * as "pop".  With --trace 1 or --path 1 the computation is also given per
 * phase, 0.4, 0.3, 0.3 s a rank but 0.9, 0.6, 0.5 s on the last: trace
 * mode as one task per phase, path mode as the PCMP section, so the two
 * modes' per-phase factors must agree; "pop" then holds them as
 * "per_phase" (at 4 ranks LB 0.583, 0.625, 0.7 and SerE 0.9, 0.8, 0.667).
 *
 * Frames point into this very program, at real addresses of the functions
 * below (offset = address - load bias from dl_iterate_phdr), so the
 * symbolisation of function, file, line, call sites (offset-1) and inlined
 * frames is checked against the truth.  Trees differ between ranks (order,
 * shape, MPI name tables) so that the union is exercised.  Every metric is
 * a whole number of microseconds so sums can be compared exactly with
 * rp-report's folded output. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/counters.h"
#include "core/phasestats.h"
#include "format/rpfile.h"

#define NOINLINE __attribute__((noinline, used))
#define INLINE static inline __attribute__((always_inline))

/* The functions whose addresses the synthetic trees use.  The test finds
 * the expected line of each by its "@line:" marker comment. */
volatile int rp_test_sink;
NOINLINE void rp_test_compute(void) { rp_test_sink += 3; rp_test_sink *= 5; } /* @line:rp_test_compute */
NOINLINE void rp_test_leaf_b(void) { rp_test_sink -= 7; rp_test_sink ^= 1; } /* @line:rp_test_leaf_b */
NOINLINE uintptr_t rp_test_callee(void) { return (uintptr_t)__builtin_return_address(0); }
NOINLINE uintptr_t rp_test_caller(void)
{
    uintptr_t r = rp_test_callee(); /* @line:rp_test_caller */
    rp_test_sink += 1;   /* keeps the call from becoming a tail jump */
    return r;
}
INLINE uintptr_t rp_test_inl(void)
{
    uintptr_t r = rp_test_callee(); /* @line:rp_test_inl */
    rp_test_sink += 2;
    return r;
}
NOINLINE uintptr_t rp_test_outer(void)
{
    uintptr_t r = rp_test_inl(); /* @line:rp_test_outer */
    rp_test_sink += 4;
    return r;
}

static int all_counters;   /* --all-counters */
static int trace_mode;     /* --trace */
static int path_mode;      /* --path */
static int pop_mode;       /* --pop */

/* Slot j's cost in phase q (identical on all ranks). */
static int64_t phase_cost(uint32_t q, uint32_t j)
{
    static const int64_t pop_phase[3] = {1000000000, 750000000, 750000000};
    if (pop_mode)
        return pop_phase[q] / 10 * (10 - (int64_t)j);
    return (int64_t)(10 - j) * 1000000 * (q + 1);
}
/* --pop: rank r's computation in phase q (the last rank's is the largest
 * in each phase, whose critical path phase_cost(q, 0) exceeds it). */
static int64_t pop_comp(uint32_t r, uint32_t nranks, uint32_t q)
{
    static const int64_t most[3] = {900000000, 600000000, 500000000};
    static const int64_t rest[3] = {400000000, 300000000, 300000000};
    return r + 1 == nranks ? most[q] : rest[q];
}

/* Named like rpprof's own frames (a Fortran wrapper and the request table
 * it calls): the report must fold them into one "MPI_Send [rpprof
 * wrapper]" row, never show them as computation. */
NOINLINE void rpf_MPI_Send(void) { rp_test_sink += 11; rp_test_sink *= 3; }
NOINLINE void reqtab_find(void) { rp_test_sink -= 13; rp_test_sink ^= 5; }

static uintptr_t load_bias;
static uint8_t build_id[64];
static uint32_t build_id_len;

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    /* the first object is the main program */
    load_bias = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            const uint8_t *name = p + sizeof *n;
            const uint8_t *desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
                n->n_descsz <= sizeof build_id) {
                memcpy(build_id, desc, n->n_descsz);
                build_id_len = n->n_descsz;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 1;
}

static uint64_t off_of(uintptr_t a) { return (uint64_t)(a - load_bias); }

/* ---- building one rank's tree ---------------------------------------------- */

typedef struct builder {
    rp_rankdata d;
    uint32_t cap;
} builder;

static uint32_t add_node(builder *b, uint32_t parent, uint32_t module, uint64_t offset)
{
    if (b->d.n_nodes == b->cap) {
        b->cap *= 2;
        b->d.nodes = realloc(b->d.nodes, b->cap * sizeof *b->d.nodes);
        b->d.metrics = realloc(b->d.metrics, (size_t)b->cap * b->d.n_metrics * sizeof(int64_t));
        if (!b->d.nodes || !b->d.metrics) {
            perror("mkrankfiles");
            exit(1);
        }
    }
    uint32_t id = b->d.n_nodes++;
    b->d.nodes[id] = (rp_cctnode){parent, module, offset};
    memset(b->d.metrics + (size_t)id * b->d.n_metrics, 0, b->d.n_metrics * sizeof(int64_t));
    return id;
}

/* Expected totals, per column, over the ranks that are written intact. */
static int64_t *want_col;       /* [2+k] */
static int64_t want_fn[16][64];  /* [function][column] */
enum { F_COMPUTE, F_LEAF_B, F_CALLER, F_INL, F_MPI_WAIT, F_GONE, F_BADBID, F_UNKNOWN, F_WRAP,
       F_N };
static const char *const fn_name[F_N] = {"rp_test_compute", "rp_test_leaf_b", "rp_test_caller",
                                         "rp_test_inl", "MPI_Wait", "libgone.so [no symbols]",
                                         NULL, "<unknown>", "MPI_Send [rpprof wrapper]"};

static void put(builder *b, uint32_t node, uint32_t col, int64_t us, int fn, int count)
{
    b->d.metrics[(size_t)node * b->d.n_metrics + col] += us * 1000;
    if (count) {
        want_col[col] += us * 1000;
        if (fn >= 0)
            want_fn[fn][col] += us * 1000;
    }
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static void build_rank(builder *b, uint32_t r, uint32_t nranks, uint32_t k, uint32_t extra,
                       const char *self, int count)
{
    memset(b, 0, sizeof *b);
    rp_rankdata *d = &b->d;
    d->rank = r;
    d->nranks = nranks;
    d->k = k;
    d->mode = RP_MODE_PROF;
    d->select = 0;
    d->summary_cap = 32;
    d->period_us = 1000;
    d->clock = RP_CLOCK_WALL;
    d->wall_ns = 2000000000ll + (int64_t)r * 1000;
    if (pop_mode)   /* rank 0 lasts longest: the runtime is the largest wall time */
        d->wall_ns = 3000000000ll - (int64_t)r * 1000000;
    snprintf(d->exe, sizeof d->exe, "%.255s", self);
    snprintf(d->host, sizeof d->host, "node%u", r / 4);

    if (phasestats_init(&d->stats, k) != 0)
        exit(1);
    int64_t cost[64];
    static rp_pathsum psum[3 * 64];
    if (trace_mode || path_mode) {
        d->mode = trace_mode ? RP_MODE_TRACE : RP_MODE_PATH;
        d->pathsums = psum;
        d->n_pathsums = 3 * k;
    }
    if (pop_mode && (trace_mode || path_mode)) {
        /* each phase's computation: trace mode one task a phase (ending at
         * event q + 1), path mode the per-phase record */
        static rp_task task[3];
        static int64_t pcomp[3];
        for (uint32_t q = 0; q < 3; q++) {
            task[q] = (rp_task){.phase = q, .event = q + 1, .cost_ns = pop_comp(r, nranks, q),
                                .msg_src = RP_NO_RANK};
            pcomp[q] = pop_comp(r, nranks, q);
        }
        d->n_events = 4;
        if (trace_mode) {
            d->tasks = task;
            d->n_tasks = 3;
        } else {
            d->phase_comp = pcomp;
            d->n_phase_comp = 3;
        }
    }
    for (uint32_t q = 0; q < 3; q++) {
        for (uint32_t j = 0; j < k; j++) {
            cost[j] = phase_cost(q, j);   /* identical on all ranks */
            psum[q * k + j] = (rp_pathsum){.phase = q, .path = j, .cost_ns = cost[j]};
        }
        phasestats_add(&d->stats, cost);
    }

    static rp_counter ctr[2] = {{"samples_dropped", 0}, {"samples_taken", 0}};
    ctr[0].value = r == 1 ? 5 : 0;
    ctr[1].value = 100 + r;
    d->counters = ctr;
    d->n_counters = 2;
    if (pop_mode) {   /* the exact computation: 1 s, the last rank 2 s */
        static rp_counter pc[3];
        pc[0] = ctr[0];
        pc[1] = ctr[1];
        snprintf(pc[2].name, sizeof pc[2].name, "task_time_ns");
        pc[2].value = r + 1 == nranks ? 2000000000u : 1000000000u;
        d->counters = pc;
        d->n_counters = 3;
    }
    if (all_counters) {   /* every row of the table, row i = i+1 */
        static rp_counter all[RP_CNT__N];
        for (uint32_t i = 0; i < RP_CNT__N; i++) {
            snprintf(all[i].name, sizeof all[i].name, "%s", rp_counter_table[i].name);
            all[i].value = i + 1;
        }
        /* except the rank's exact task time (info): its whole wall time, so
         * the per-rank table has task time to set the CPU counter against */
        all[RP_CNT_TASK_NS].value = (uint64_t)d->wall_ns;
        d->counters = all;
        d->n_counters = RP_CNT__N;
    }

    static rp_module mods[3];
    mods[0].path = (char *)self;
    memcpy(mods[0].build_id, build_id, build_id_len);
    mods[0].build_id_len = build_id_len;
    mods[1].path = (char *)"/nonexistent/rpprof-test/libgone.so";
    mods[1].build_id_len = 0;
    mods[2].path = (char *)self;          /* same file, wrong build-id */
    memcpy(mods[2].build_id, "\xde\xad\xbe\xef", 4);
    mods[2].build_id_len = 4;
    d->modules = mods;
    d->n_modules = 3;

    /* odd ranks list the MPI names the other way round */
    static char *names_even[2] = {"MPI_Allreduce", "MPI_Wait"};
    static char *names_odd[2] = {"MPI_Wait", "MPI_Allreduce"};
    d->mpi_names = (r & 1) ? names_odd : names_even;
    d->n_mpi_names = 2;
    uint64_t wait_id = (r & 1) ? 0 : 1;

    d->n_metrics = RP_MET_PATH0 + k;
    b->cap = 16;
    d->nodes = malloc(b->cap * sizeof *d->nodes);
    d->metrics = malloc((size_t)b->cap * d->n_metrics * sizeof(int64_t));
    add_node(b, UINT32_MAX, RP_MOD_ROOT, 0);

    uintptr_t ret_caller = rp_test_caller();
    uintptr_t ret_inl = rp_test_outer();
    uint32_t call = add_node(b, 0, 0, off_of(ret_caller));
    put(b, call, RP_MET_RANK, 7, F_CALLER, count);        /* a sample right after the call */
    put(b, call, RP_MET_PATH0, 7, F_CALLER, count);

    uint32_t comp = 0, inl = 0, wait;
    if (r & 1) {      /* other order of children on odd ranks */
        wait = add_node(b, call, RP_MOD_MPI, wait_id);
        comp = add_node(b, call, 0, off_of((uintptr_t)&rp_test_compute) + 4);
    } else {
        comp = add_node(b, call, 0, off_of((uintptr_t)&rp_test_compute) + 4);
        wait = add_node(b, call, RP_MOD_MPI, wait_id);
        inl = add_node(b, call, 0, off_of(ret_inl));
        uint32_t lb = add_node(b, inl, 0, off_of((uintptr_t)&rp_test_leaf_b));
        put(b, inl, RP_MET_RANK, 3, F_INL, count);
        put(b, inl, RP_MET_PATH0 + k - 1, 3, F_INL, count);
        put(b, lb, RP_MET_RANK, 11 * (r + 1), F_LEAF_B, count);
        for (uint32_t j = 0; j < k; j++)
            put(b, lb, RP_MET_PATH0 + j, (int64_t)(j + 1) * 5, F_LEAF_B, count);
    }
    put(b, comp, RP_MET_RANK, 1000 * (r + 1), F_COMPUTE, count);
    for (uint32_t j = 0; j < k; j++)
        put(b, comp, RP_MET_PATH0 + j, (int64_t)(k - j) * 100 + r, F_COMPUTE, count);
    put(b, wait, RP_MET_MPI, 500 + r, F_MPI_WAIT, count);

    if (r % 3 == 0) {
        uint32_t g = add_node(b, call, 1, 0x1234);
        put(b, g, RP_MET_RANK, 40, F_GONE, count);
        put(b, g, RP_MET_PATH0, 40, F_GONE, count);
    }
    uint32_t wr = add_node(b, call, 0, off_of((uintptr_t)&rpf_MPI_Send) + 4);
    uint32_t rq = add_node(b, wr, 0, off_of((uintptr_t)&reqtab_find) + 4);
    put(b, wr, RP_MET_RANK, 6, F_WRAP, count);
    put(b, rq, RP_MET_RANK, 5, F_WRAP, count);
    put(b, rq, RP_MET_PATH0, 4, F_WRAP, count);
    uint32_t bad = add_node(b, call, 2, 0x40);
    put(b, bad, RP_MET_RANK, 2, F_BADBID, count);
    uint32_t unk = add_node(b, 0, RP_MOD_UNKNOWN, 0);
    for (uint32_t j = 0; j < k; j++)
        put(b, unk, RP_MET_PATH0 + j, 9, F_UNKNOWN, count);

    /* extra: a random tree in the missing library, overlapping between
     * ranks of the same residue mod 7 (for scale tests) */
    for (uint32_t i = 0; i < extra; i++) {
        uint64_t h = mix((uint64_t)(r % 7) << 32 | i);
        uint32_t parent = i == 0 ? call : d->n_nodes - 1 - (uint32_t)(h % (i < 8 ? i : 8));
        if (d->nodes[parent].module != 1 && parent != call)
            parent = call;
        uint32_t n = add_node(b, parent, 1, 0x10000 + (h >> 40) % 4096);
        /* the report groups a library without symbols in one row */
        put(b, n, RP_MET_RANK, 1 + (int64_t)(h % 5), F_GONE, count);
        put(b, n, RP_MET_PATH0 + (uint32_t)(h % k), 1, F_GONE, count);
    }
}

static void flip_byte(const char *path)
{
    FILE *f = fopen(path, "r+b");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(path);
        exit(1);
    }
    long n = ftell(f);
    fseek(f, n / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, n / 2, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);
}

static int in_list(const uint32_t *v, uint32_t n, uint32_t r)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == r)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mkrankfiles DIR NRANKS [--k K] [--extra N] [--skip R] "
                        "[--corrupt R] [--truncate R] [--bad-version R]\n");
        return 2;
    }
    const char *dir = argv[1];
    uint32_t nranks = (uint32_t)strtoul(argv[2], NULL, 10), k = 4, extra = 0;
    uint32_t skip[64], nskip = 0, corrupt[64], ncorrupt = 0, trunc[64], ntrunc = 0;
    uint32_t badver[64], nbadver = 0;
    for (int i = 3; i + 1 < argc; i += 2) {
        uint32_t v = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        if (!strcmp(argv[i], "--k"))
            k = v;
        else if (!strcmp(argv[i], "--extra"))
            extra = v;
        else if (!strcmp(argv[i], "--skip") && nskip < 64)
            skip[nskip++] = v;
        else if (!strcmp(argv[i], "--corrupt") && ncorrupt < 64)
            corrupt[ncorrupt++] = v;
        else if (!strcmp(argv[i], "--truncate") && ntrunc < 64)
            trunc[ntrunc++] = v;
        else if (!strcmp(argv[i], "--all-counters"))
            all_counters = v != 0;
        else if (!strcmp(argv[i], "--trace"))
            trace_mode = v != 0;
        else if (!strcmp(argv[i], "--path"))
            path_mode = v != 0;
        else if (!strcmp(argv[i], "--pop"))
            pop_mode = v != 0;
        else if (!strcmp(argv[i], "--bad-version") && nbadver < 64)
            badver[nbadver++] = v;
        else {
            fprintf(stderr, "mkrankfiles: bad option %s\n", argv[i]);
            return 2;
        }
    }
    if (nranks == 0 || k == 0 || k > 60) {
        fprintf(stderr, "mkrankfiles: bad NRANKS or k\n");
        return 2;
    }
    dl_iterate_phdr(find_self, NULL);
    static char self[4096];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) {
        perror("readlink /proc/self/exe");
        return 1;
    }
    self[sl] = 0;
    mkdir(dir, 0755);
    want_col = calloc(RP_MET_PATH0 + k, sizeof *want_col);
    uint32_t good = 0;
    int64_t wall_max = 0;
    uint64_t ctr_dropped = 0, ctr_taken = 0;
    for (uint32_t r = 0; r < nranks; r++) {
        if (in_list(skip, nskip, r))
            continue;
        int bad = in_list(corrupt, ncorrupt, r) || in_list(trunc, ntrunc, r) ||
                  in_list(badver, nbadver, r);
        builder b;
        build_rank(&b, r, nranks, k, extra, self, !bad);
        char path[4200];
        snprintf(path, sizeof path, "%s/rank-%05u.rpp", dir, r);
        if (rpfile_write(path, &b.d) != 0) {
            perror(path);
            return 1;
        }
        phasestats_free(&b.d.stats);
        free(b.d.nodes);
        free(b.d.metrics);
        if (in_list(corrupt, ncorrupt, r))
            flip_byte(path);
        if (in_list(trunc, ntrunc, r) && truncate(path, 100) != 0) {
            perror(path);
            return 1;
        }
        if (in_list(badver, nbadver, r)) {
            FILE *f = fopen(path, "r+b");
            if (!f)
                return 1;
            fseek(f, 8, SEEK_SET);
            fputc(9, f);      /* version 9: not ours */
            fclose(f);
        }
        good += !bad;
        if (!bad) {
            ctr_dropped += r == 1 ? 5 : 0;
            ctr_taken += 100 + r;
        }
        if (!bad && b.d.wall_ns > wall_max)
            wall_max = b.d.wall_ns;
    }
    /* expectations */
    printf("{\"ranks\": %u, \"nranks\": %u, \"k\": %u, \"phases\": 3, \"exe\": \"%s\",\n", good,
           nranks, k, self);
    printf(" \"wall_ns\": %lld,\n", (long long)wall_max);
    printf(" \"counters\": {\"samples_dropped\": %llu, \"samples_taken\": %llu},\n",
           (unsigned long long)ctr_dropped, (unsigned long long)ctr_taken);
    if (all_counters) {
        for (int kind = 0; kind < 2; kind++) {
            printf(" \"%s_counters\": {", kind ? "loss" : "info");
            int first = 1;
            for (uint32_t i = 0; i < RP_CNT__N; i++)
                if (rp_counter_table[i].kind == (kind ? RP_CK_LOSS : RP_CK_INFO)) {
                    printf("%s\"%s\": %llu", first ? "" : ", ", rp_counter_table[i].name,
                           (unsigned long long)(i + 1) * good);
                    first = 0;
                }
            printf("},\n");
        }
    }
    printf(" \"phase_cost_ns\": [");
    for (uint32_t q = 0; q < 3; q++)
        for (uint32_t j = 0; j < k; j++)
            printf("%s%s%lld%s", q && !j ? ", " : "", j ? ", " : "[",
                   (long long)phase_cost(q, j), j + 1 == k ? "]" : "");
    printf("],\n");
    printf(" \"path_cost_ns\": [");
    for (uint32_t j = 0; j < k; j++)
        printf("%s%lld", j ? ", " : "",
               (long long)(phase_cost(0, j) + phase_cost(1, j) + phase_cost(2, j)));
    printf("],\n \"col_ns\": [");
    for (uint32_t c = 0; c < RP_MET_PATH0 + k; c++)
        printf("%s%lld", c ? ", " : "", (long long)want_col[c]);
    printf("],\n");
    if (pop_mode && good == nranks) {   /* the factors, from the definitions */
        double mean = (nranks + 1.0) / nranks, ideal = 2.5, rt = 3.0;
        printf(" \"pop\": {\"load_balance\": %.9f, \"communication_efficiency\": %.9f, "
               "\"serialisation_efficiency\": %.9f, \"transfer_efficiency\": %.9f, "
               "\"parallel_efficiency\": %.9f, \"busiest_rank\": %u", mean / 2, 2 / rt,
               2 / ideal, ideal / rt, mean / 2 * 2 / rt, nranks - 1);
        if (trace_mode || path_mode) {   /* the factors of each phase */
            printf(", \"per_phase\": [");
            for (uint32_t q = 0; q < 3; q++) {
                double mx = pop_comp(nranks - 1, nranks, q) / 1e9;
                double mn = ((nranks - 1) * (pop_comp(0, nranks, q) / 1e9) + mx) / nranks;
                double cp = phase_cost(q, 0) / 1e9;
                printf("%s{\"phase\": %u, \"load_balance\": %.9f, \"serialisation_efficiency\": "
                       "%.9f, \"mean_computation_seconds\": %.9f, \"max_computation_seconds\": "
                       "%.9f, \"critical_path_seconds\": %.9f, \"busiest_rank\": %u}",
                       q ? ", " : "", q, mn / mx, mx / cp, mn, mx, cp, nranks - 1);
            }
            printf("]");
        }
        printf("},\n");
    }
    printf(" \"functions\": {");
    int first = 1;
    for (int f = 0; f < F_N; f++) {
        if (!fn_name[f])
            continue;
        printf("%s\"%s\": [", first ? "" : ", ", fn_name[f]);
        first = 0;
        for (uint32_t c = 0; c < RP_MET_PATH0 + k; c++)
            printf("%s%lld", c ? ", " : "", (long long)want_fn[f][c]);
        printf("]");
    }
    printf("}}\n");
    return 0;
}
