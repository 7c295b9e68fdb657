/* test_sampling.c - the sampler (lib/sampler/sample.c, lib/core/cct.c, lib/sampler/sleepwrap.c)
 * without MPI.  A stub below provides what runtime.c provides in the real
 * library (rp_rt, rp_now_ns, rp_fn_name, rp_warn).
 *
 * Samples a malloc- and stdio-heavy workload at a high rate (100 us) and
 * checks that it computes the same results as without sampling, that
 * samples land in the CCT, the item buffer and the path-summaries, that
 * task weights add up to task time, that simulated MPI time is hung under
 * a pseudo-frame with the "wrapper" frames stripped, that the period adapts
 * and resets, that sleeps are not shortened, that a forked child does not
 * sample, that worker threads' samples are charged to the main thread's
 * task (or the rank only), and that sample_export produces a consistent
 * tree. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cct.h"
#include "core/itembuf.h"
#include "core/pathset.h"
#include "core/counters.h"
#include "core/vocab.h"
#include "runtime/runtime.h"
#include "sampler/sample.h"
#include "sampler/threads.h"
#include "sampler/unwind.h"
#include <pthread.h>

/* ---- stub runtime ---------------------------------------------------------- */
rp_runtime rp_rt;

int64_t rp_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static const char *const fn_names[] = { "MPI_Init", "MPI_Send", "MPI_Recv", "MPI_Barrier",
                                        "MPI_Irecv" };
const char *rp_fn_name(int fn)
{
    return fn >= 0 && fn < 5 ? fn_names[fn] : "?";
}
int rp_fn_count(void) { return 5; }

void rp_warn(int all_ranks, const char *fmt, ...)
{
    (void)all_ranks;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "rpprof[test]: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- worker threads (lib/sampler/threads.c) ------------------------------------------ */
/* A worker's CPU work, in its own section so that its samples' leaves can be
 * recognised (the interposer, threadwrap.c, is not linked here: the worker
 * registers itself like the trampoline does). */
extern char __start_rp_thrburn[], __stop_rp_thrburn[];
__attribute__((noinline, section("rp_thrburn"))) static uint64_t thr_burn(uint64_t x, long n)
{
    for (long i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

typedef struct thr_arg {
    volatile int go, done;
    int64_t cpu_ms;          /* CPU time to burn, at least */
    uint64_t min_samples;    /* ... and until this many expirations reached it */
    int64_t cpu_ns;          /* measured: CPU time from go to done */
    uint64_t delivered;      /* measured: expirations delivered from go to done */
    rp_thr_slot *slot;       /* its slot (seen_ns stays until the slot is armed again) */
    uint64_t sink;
} thr_arg;

static int64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *thr_main(void *p)
{
    thr_arg *a = p;
    threads_register_self();
    while (!a->go)
        ;
    /* With more runnable threads than cores the kernel may deliver a CPU
     * clock's expirations once in 50-150 ms of the thread's CPU (6.18
     * guests, doc/sampling.md): burn on until min_samples arrived, at most
     * 5 s of CPU (the loss must then be counted). */
    rp_thr_slot *me = rp_thr_self;
    a->slot = me;
    uint64_t d0 = me ? __atomic_load_n(&me->delivered, __ATOMIC_ACQUIRE) : 0, d1 = d0;
    int64_t c0 = thread_cpu_ns(), c1;
    do {
        a->sink += thr_burn(a->sink, 200000);
        c1 = thread_cpu_ns();
        d1 = me ? __atomic_load_n(&me->delivered, __ATOMIC_ACQUIRE) : d0;
    } while ((c1 - c0 < a->cpu_ms * 1000000 || d1 - d0 < a->min_samples) &&
             c1 - c0 < 5000LL * 1000000);
    a->cpu_ns = c1 - c0;
    a->delivered = d1 - d0;
    __atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
    threads_retire_self();
    return NULL;
}

/* RP_MET_RANK weight on CCT nodes whose pc lies in thr_burn */
static int64_t burn_weight(rp_cct *t)
{
    int64_t w = 0;
    for (uint32_t i = 1; i < t->n; i++)
        if (t->nodes[i].pc >= (uintptr_t)__start_rp_thrburn &&
            t->nodes[i].pc < (uintptr_t)__stop_rp_thrburn)
            w += cct_metrics(t, i)[RP_MET_RANK];
    return w;
}

/* ---- checks ------------------------------------------------------------------- */
static int failures;
#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                       \
        }                                                                     \
    } while (0)

/* ---- the "tasks" and "MPI calls" ------------------------------------------- */
static int64_t g_task_total;   /* sum of task costs handed to sample_task_end */

static void mpi_enter(int fn)
{
    rp_rt.in_mpi++;
    int64_t now = rp_now_ns();
    rp_rt.cur_fn = fn;
    rp_rt.mpi_enter_ns = now;
    int64_t cost = now - rp_rt.task_start_ns;
    g_task_total += cost;
    sample_task_end(cost);
}

static int64_t g_mpi_total;    /* sum of MPI call durations */

/* A local MPI call (not an event): the task goes on, samples are MPI time. */
static int64_t g_local_total;
__attribute__((noinline)) static void local_mpi_call(int fn, int64_t ns)
{
    rp_rt.in_mpi++;
    rp_rt.cur_fn = fn;
    rp_rt.mpi_enter_ns = rp_now_ns();
    int64_t until = rp_rt.mpi_enter_ns + ns;
    while (rp_now_ns() < until)
        __asm__ __volatile__("" ::: "memory");
    rp_rt.in_mpi--;
    g_local_total += rp_now_ns() - rp_rt.mpi_enter_ns;
}

static void mpi_leave(void)
{
    rp_rt.task_start_ns = rp_now_ns();
    g_mpi_total += rp_rt.task_start_ns - rp_rt.mpi_enter_ns;
    rp_rt.in_mpi--;
}

/* A fake MPI wrapper, placed in its own section so the test can declare it
 * "rpprof's text" (sample_set_self_range), plus a fake library busy loop. */
extern char __start_rp_fakempi[], __stop_rp_fakempi[];
__attribute__((noinline, section("rp_fakempi"))) static void fake_lib_progress(int64_t until)
{
    while (rp_now_ns() < until)
        __asm__ __volatile__("" ::: "memory");
}
__attribute__((noinline, section("rp_fakempi"))) static void fake_MPI_Barrier(int64_t ns)
{
    mpi_enter(3);
    fake_lib_progress(rp_now_ns() + ns);
    mpi_leave();
    __asm__ __volatile__("" ::: "memory");
}

#if defined(__x86_64__)
/* A leaf whose frame is a standard frame-pointer frame (CFA = rbp + 16)
 * but whose rbp is garbage (0x10) while it spins, so unwinding through it
 * reads page 0 and faults.  The sampler
 * must survive (fault guard) and still record the exact leaf. */
void bad_cfi_spin(volatile uint32_t *p, uint32_t v);
void bad_cfi_spin_end(void);
__asm__(".text\n"
        ".globl bad_cfi_spin\n"
        ".type bad_cfi_spin,@function\n"
        "bad_cfi_spin:\n"
        "  .cfi_startproc\n"
        "  push %rbp\n"
        "  .cfi_def_cfa_offset 16\n"
        "  .cfi_offset %rbp, -16\n"
        "  mov $0x10, %rbp\n"
        "  .cfi_remember_state\n"
        "  .cfi_def_cfa %rbp, 16\n"
        "1:\n"
        "  mov (%rdi), %eax\n"
        "  cmp %eax, %esi\n"
        "  ja 1b\n"
        "  .cfi_restore_state\n"
        "  pop %rbp\n"
        "  .cfi_def_cfa_offset 8\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".globl bad_cfi_spin_end\n"
        "bad_cfi_spin_end:\n"
        "  ret\n"
        ".size bad_cfi_spin, .-bad_cfi_spin\n");
#endif

/* ---- workload: malloc, stdio, recursion ---------------------------------- */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

__attribute__((noinline)) static uint64_t leaf_work(uint64_t seed)
{
    /* malloc + stdio + qsort */
    size_t n = 200 + seed % 300;
    uint64_t *v = malloc(n * sizeof *v);
    char *line = malloc(64);
    if (!v || !line)
        abort();
    uint64_t x = seed | 1, h = 0;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        snprintf(line, 64, "%llu", (unsigned long long)(x % 1000003));
        v[i] = strtoull(line, NULL, 10);
    }
    qsort(v, n, sizeof *v, cmp_u64);
    for (size_t i = 0; i < n; i++)
        h = h * 1099511628211ull + v[i];
    free(line);
    free(v);
    return h;
}

__attribute__((noinline)) static uint64_t recurse(int depth, uint64_t seed)
{
    if (depth == 0)
        return leaf_work(seed);
    uint64_t r = recurse(depth - 1, seed * 31 + (uint64_t)depth);
    __asm__ __volatile__("" ::: "memory");
    return r ^ (uint64_t)depth;
}

__attribute__((noinline)) static uint64_t workload(int rounds, FILE *f)
{
    uint64_t h = 0;
    for (int r = 0; r < rounds; r++) {
        uint64_t x = recurse(r % 24, (uint64_t)r);
        h ^= x + (h << 6) + (h >> 2);
        if (f)
            fprintf(f, "%d %llu\n", r, (unsigned long long)x);
    }
    if (f) {
        rewind(f);
        int r;
        unsigned long long x;
        uint64_t h2 = 0;
        while (fscanf(f, "%d %llu", &r, &x) == 2)
            h2 += x * (uint64_t)(r + 1);
        h ^= h2;
    }
    return h;
}

/* ---- helpers -------------------------------------------------------------- */
static int64_t column_sum(const rp_cct *t, uint32_t col)
{
    int64_t s = 0;
    for (uint32_t i = 0; i < t->n; i++)
        s += t->metrics[(size_t)i * t->n_metrics + col];
    return s;
}

static int in_fake(uintptr_t pc)
{
    return pc >= (uintptr_t)__start_rp_fakempi && pc < (uintptr_t)__stop_rp_fakempi;
}

int main(void)
{
    const int rounds = 6000;
    const uint32_t K = 3;

    /* reference result without sampling */
    FILE *f0 = tmpfile();
    CHECK(f0 != NULL);
    uint64_t ref = workload(rounds, f0);
    fclose(f0);

    memset(&rp_rt, 0, sizeof rp_rt);
    rp_rt.cfg.k = K;
    rp_rt.cfg.period_us = 100;     /* 10 kHz: far above any default */
    rp_rt.cfg.clock = RP_CLOCK_WALL;
    rp_rt.cfg.mode = RP_MODE_PROF;
    /* the largest buffer: on a loaded machine a late timer splits one
     * sample into up to 8 items (thousands of overruns in this 1.8 s
     * workload), enough to fill 16 384 and drop items the weights below
     * count on */
    rp_rt.cfg.buffer = RP_ITEMBUF_MAX;
    rp_rt.rng = 42;
    CHECK(itembuf_init(&rp_rt.items, rp_rt.cfg.buffer) == 0);
    CHECK(pathset_init(&rp_rt.ps, K, 32) == 0);
    pathset_reset(&rp_rt.ps);

    /* MPI_Init */
    rp_rt.in_mpi = 1;
    CHECK(sample_start(&rp_rt, rp_fn_name, rp_fn_count()) == 0);
    CHECK(sample_current_period_ns() == 100000);
    rp_rt.active = 1;
    mpi_leave();

    /* 1. workload under sampling, split into tasks by fake MPI calls */
    FILE *f1 = tmpfile();
    CHECK(f1 != NULL);
    uint64_t got = 0;
    int64_t t0 = rp_now_ns();
    uint64_t s0 = rp_sample_cnt.samples;
    for (int part = 0; part < 4; part++) {
        got ^= workload(rounds / 4, f1);
        mpi_enter(1);
        mpi_leave();
        rewind(f1);
        CHECK(ftruncate(fileno(f1), 0) == 0);
    }
    int64_t t1 = rp_now_ns();
    fclose(f1);
    fprintf(stderr, "workload: %.3f s sampled, %llu samples, %u items\n",
            (double)(t1 - t0) / 1e9, (unsigned long long)(rp_sample_cnt.samples - s0),
            rp_rt.items.n);
    /* same work, partitioned differently: compare the parts */
    uint64_t ref_parts = 0;
    {
        rp_rt.active = 0;   /* unsampled reference for the partitioned run */
        FILE *f2 = tmpfile();
        for (int part = 0; part < 4; part++) {
            ref_parts ^= workload(rounds / 4, f2);
            rewind(f2);
            CHECK(ftruncate(fileno(f2), 0) == 0);
        }
        fclose(f2);
        rp_rt.active = 1;
        CHECK(workload(rounds, NULL) == workload(rounds, NULL));
    }
    CHECK(got == ref_parts);
    CHECK(ref != 0);
    CHECK(rp_sample_cnt.samples > 50);
    CHECK(rp_rt.items.n > 50);
    CHECK(rp_sample_cnt.unwind_failures * 20 <= rp_sample_cnt.samples + 20);
    rp_cct *t = sample_cct();
    CHECK(t != NULL);
    if (!t)
        return 1;
    CHECK(t->n > 20);
    /* deep stacks: some node at depth >= 20 (recursion) */
    uint32_t maxd = 0;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->nodes[i].depth > maxd)
            maxd = t->nodes[i].depth;
    CHECK(maxd >= 20);
    /* every path-summary recorded intervals */
    for (uint32_t j = 0; j < rp_rt.ps.n; j++)
        CHECK(rp_rt.ps.p[j].n_iv > 0);

    /* 2. simulated MPI time under a fake wrapper that is "rpprof's text" */
    sample_set_self_range((uintptr_t)__start_rp_fakempi, (uintptr_t)__stop_rp_fakempi);
    uint64_t mpi_before = rp_sample_cnt.samples_mpi;
    g_mpi_total = 0;
    for (volatile int i = 0; i < 5; i++)   /* one call site, not unrolled */
        fake_MPI_Barrier(20 * 1000 * 1000);
    /* at least one sample in each call; inside a call the timer backs off
     * 8x after its first sample (issue 16), and the adaptive period may
     * have doubled, so the count says little: the weight check below
     * (MPI weight = MPI time within a period per call) is the real one */
    CHECK(rp_sample_cnt.samples_mpi >= mpi_before + 5);
    int pseudo_nodes = 0;
    int64_t mpi_w = 0;
    for (uint32_t i = 1; i < t->n; i++) {
        if (!(t->nodes[i].pc & CCT_PSEUDO_BIT))
            continue;
        uint32_t fn = (uint32_t)(t->nodes[i].pc & ~CCT_PSEUDO_BIT);
        if (fn != 3)
            continue;
        pseudo_nodes++;
        mpi_w += cct_metrics(t, i)[RP_MET_MPI];
        for (uint32_t x = t->nodes[i].parent; x != CCT_ROOT; x = t->nodes[x].parent)
            CHECK(!in_fake(t->nodes[x].pc));   /* wrapper frames stripped */
        CHECK(t->nodes[i].parent != CCT_ROOT);  /* ...but the user path kept */
    }
    if (pseudo_nodes < 1 || pseudo_nodes > 2) {
        for (uint32_t i = 1; i < t->n; i++) {
            if (t->nodes[i].pc != (CCT_PSEUDO_BIT | 3))
                continue;
            fprintf(stderr, "MPI_Barrier node %u:", i);
            for (uint32_t x = t->nodes[i].parent; x != CCT_ROOT; x = t->nodes[x].parent)
                fprintf(stderr, " %#lx", (unsigned long)t->nodes[x].pc);
            fprintf(stderr, "\n");
        }
    }
    CHECK(pseudo_nodes >= 1 && pseudo_nodes <= 2);
    /* 5 x 20 ms of MPI time, minus the tail after the last sample of each
     * call (a period, more when the machine is loaded) */
    fprintf(stderr, "MPI time %.3f ms, MPI sample weight %.3f ms\n", g_mpi_total / 1e6,
            mpi_w / 1e6);
    CHECK(mpi_w <= g_mpi_total);
    CHECK(mpi_w >= g_mpi_total - 5 * 8 * 1000 * 1000);
    sample_set_self_range(0, 0);

#if defined(__x86_64__)
    /* 2b. an unwind that faults is survived and counted */
    {
        uint64_t s_before = rp_sample_cnt.samples;
        uint64_t f_before = rp_sample_cnt.unwind_failures;
        bad_cfi_spin(&rp_sample_sigcount, rp_sample_sigcount + 20);
        uint64_t got_s = rp_sample_cnt.samples - s_before;
        uint64_t got_f = rp_sample_cnt.unwind_failures - f_before;
        int leaf_seen = 0;
        for (uint32_t i = 1; i < t->n; i++)
            if (t->nodes[i].pc >= (uintptr_t)bad_cfi_spin &&
                t->nodes[i].pc < (uintptr_t)bad_cfi_spin_end)
                leaf_seen = 1;
        fprintf(stderr, "bad unwind info: %llu samples, %llu unwind failures\n",
                (unsigned long long)got_s, (unsigned long long)got_f);
        CHECK(got_s >= 15);
        CHECK(leaf_seen);
    }
#endif

    /* 2c. a local MPI call inside a task: MPI time, not charged twice */
    (void)recurse(3, 5);
    local_mpi_call(4, 30 * 1000 * 1000);
    (void)recurse(3, 6);

    /* 3. sleeps are not shortened by SIGPROF */
    {
        int64_t a = rp_now_ns();
        CHECK(usleep(150000) == 0);
        int64_t b = rp_now_ns();
        struct timespec ts = { 0, 120 * 1000 * 1000 }, rem;
        CHECK(nanosleep(&ts, &rem) == 0);
        int64_t c = rp_now_ns();
        CHECK(clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &rem) == 0);
        int64_t d = rp_now_ns();
        struct timespec abs;
        clock_gettime(CLOCK_MONOTONIC, &abs);
        abs.tv_nsec += 50 * 1000 * 1000;
        if (abs.tv_nsec >= 1000000000L) { abs.tv_nsec -= 1000000000L; abs.tv_sec++; }
        CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs, NULL) == 0);
        int64_t e = rp_now_ns();
        CHECK(sleep(1) == 0);
        int64_t g = rp_now_ns();
        CHECK(b - a >= 150000000);
        CHECK(c - b >= 120000000);
        CHECK(d - c >= 120000000);
        CHECK(e - d >= 45000000);
        CHECK(g - e >= 1000000000);
        fprintf(stderr, "sleeps: %.1f %.1f %.1f %.1f %.1f ms\n", (b - a) / 1e6,
                (c - b) / 1e6, (d - c) / 1e6, (e - d) / 1e6, (g - e) / 1e6);
    }

    /* 4. weights: task samples add up to the task time */
    mpi_enter(2);
    int64_t rank_sum = column_sum(t, RP_MET_RANK);
    int64_t local_w = 0;
    for (uint32_t i = 1; i < t->n; i++)
        if (t->nodes[i].pc == (CCT_PSEUDO_BIT | 4))
            local_w += cct_metrics(t, i)[RP_MET_MPI];
    fprintf(stderr, "task time %.3f ms, task sample weight %.3f ms + local MPI %.3f ms\n",
            g_task_total / 1e6, rank_sum / 1e6, local_w / 1e6);
    CHECK(local_w > 20 * 1000 * 1000 && local_w <= g_local_total);
    CHECK(rank_sum + local_w <= g_task_total);
    CHECK(rank_sum + local_w >= g_task_total - 10 * 1000 * 1000);  /* the carried tail */
    /* items (what the paths get) weigh whole timer intervals in whole us
     * (a sample with overruns is split into up to 8 equal items), and the
     * paths' sampled_us is their sum (no phase reset yet, no drops) */
    int64_t item_sum = 0;
    int items_ok = 1;
    for (uint32_t i = 0; i < rp_rt.items.n; i++) {
        int64_t v = rp_rt.items.items[i].value_ns;
        items_ok &= v > 0 && v % 1000 == 0;
        item_sum += v;
    }
    CHECK(items_ok);
    CHECK(rp_rt.items.dropped == 0);
    CHECK((int64_t)rp_rt.ps.p[0].sampled_us * 1000 == item_sum);
    CHECK(rp_rt.ps.p[0].dropped_us == 0);

    /* 5. commit: path column 1 receives every item */
    for (uint32_t i = 0; i < rp_rt.items.n; i++)
        sample_commit_item(NULL, 1, &rp_rt.items.items[i], i);
    CHECK(column_sum(t, RP_MET_PATH0 + 1) == item_sum);
    CHECK(column_sum(t, RP_MET_PATH0 + 0) == 0);

    /* 6. adaptive period: 3 doublings as the buffer fills, reset at phase */
    itembuf_reset(&rp_rt.items);
    pathset_reset(&rp_rt.ps);
    sample_phase_reset();
    uint32_t cap = rp_rt.items.cap;
    uint64_t dbl0 = rp_sample_cnt.period_doublings;
    rp_rt.items.n = cap - cap / 8 - 2;   /* pretend the phase filled up */
    mpi_leave();
    {
        int64_t until = rp_now_ns() + 30 * 1000 * 1000;
        while (rp_now_ns() < until)
            (void)recurse(5, 1);
    }
    mpi_enter(3);
    CHECK(rp_sample_cnt.period_doublings == dbl0 + 3);
    CHECK(sample_current_period_ns() == 800000);
    sample_phase_reset();
    CHECK(sample_current_period_ns() == 100000);
    itembuf_reset(&rp_rt.items);
    mpi_leave();

    /* 7. a forked child does not sample */
    {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            uint64_t s0 = rp_sample_cnt.samples;
            int64_t until = rp_now_ns() + 50 * 1000 * 1000;
            while (rp_now_ns() < until)
                (void)recurse(5, 1);
            _exit(rp_sample_cnt.samples == s0 && !rp_rt.active ? 0 : 1);
        }
        int st = 0;
        CHECK(waitpid(pid, &st, 0) == pid);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }

    /* 7b. the CPU-time clock: samples only while the thread runs */
    {
        mpi_enter(0);
        sample_stop();
        rp_rt.cfg.clock = RP_CLOCK_CPU;
        rp_rt.cfg.period_us = 1000;   /* the kernel tick may cap the rate */
        CHECK(sample_start(&rp_rt, rp_fn_name, rp_fn_count()) == 0);
        mpi_leave();
        uint64_t s_before = rp_sample_cnt.samples;
        /* 100 ms of CPU, and on until 3 samples came (an oversubscribed
         * 6.18 guest delivers a CPU clock's expirations late, see 7c), at
         * most 3 s */
        int64_t c0 = thread_cpu_ns(), c1;
        do {
            (void)recurse(4, 3);
            c1 = thread_cpu_ns();
        } while ((c1 - c0 < 100 * 1000 * 1000 || rp_sample_cnt.samples - s_before < 3) &&
                 c1 - c0 < 3000LL * 1000 * 1000);
        uint64_t got_cpu = rp_sample_cnt.samples - s_before;
        /* no samples while sleeping on the CPU clock */
        uint64_t s_sleep = rp_sample_cnt.samples;
        usleep(50000);
        uint64_t got_sleep = rp_sample_cnt.samples - s_sleep;
        fprintf(stderr, "cpu clock: %llu samples in %.0f ms of CPU, %llu in a 50 ms sleep\n",
                (unsigned long long)got_cpu, (c1 - c0) / 1e6, (unsigned long long)got_sleep);
        /* ~25 expected at the 4 ms kernel tick.  The point is: samples
         * while computing, none while sleeping. */
        CHECK(got_cpu >= 3);
        CHECK(got_sleep <= 1);
    }

    /* 7c. worker threads: a thread registered before sampling starts gets
     * its CPU-clock timer from sample_start; its samples, taken while the
     * main thread's task is open, are charged to that task when it ends
     * (items + summaries), weighing the thread's CPU time.  A thread
     * registered later arms its own timer; its samples taken while the
     * main thread is inside MPI go to the whole-rank profile only.  The
     * main thread's own accounting is untouched (section 4 above). */
    {
        mpi_enter(0);
        sample_stop();
        rp_rt.cfg.clock = RP_CLOCK_WALL;
        rp_rt.cfg.period_us = 1000;
        rp_rt.cfg.threads = 1;
        itembuf_reset(&rp_rt.items);
        pathset_reset(&rp_rt.ps);
        thr_arg a = { .cpu_ms = 150, .min_samples = 2 };
        pthread_t th;
        CHECK(pthread_create(&th, NULL, thr_main, &a) == 0);
        usleep(20000);                       /* registered before the start */
        uint64_t ts0 = rp_thr_cnt.threads_sampled;
        CHECK(sample_start(&rp_rt, rp_fn_name, rp_fn_count()) == 0);
        CHECK(rp_thr_cnt.threads_sampled == ts0 + 1);
        int64_t w0 = burn_weight(t);
        uint64_t ch0 = rp_thr_cnt.charged, ro0 = rp_thr_cnt.rank_only;
        uint64_t cpu0 = rp_thr_cnt.cpu_ns, un0 = rp_thr_cnt.unsampled_ns;
        mpi_leave();
        a.go = 1;
        while (!__atomic_load_n(&a.done, __ATOMIC_ACQUIRE))
            (void)recurse(3, 1);
        CHECK(pthread_join(th, NULL) == 0);
        mpi_enter(1);                        /* task end: the drain */
        int64_t w1 = burn_weight(t);
        uint64_t charged = rp_thr_cnt.charged - ch0;
        int64_t thr_cpu = (int64_t)(rp_thr_cnt.cpu_ns - cpu0);
        int64_t unsampled = (int64_t)(rp_thr_cnt.unsampled_ns - un0);
        fprintf(stderr, "worker thread: %.1f ms CPU burning (%.1f ms while armed), %llu "
                "expirations, %llu samples charged, %llu rank-only, %.1f ms of weight in its "
                "function, %.1f ms booked unsampled\n", a.cpu_ns / 1e6, thr_cpu / 1e6,
                (unsigned long long)a.delivered, (unsigned long long)charged,
                (unsigned long long)(rp_thr_cnt.rank_only - ro0), (w1 - w0) / 1e6,
                unsampled / 1e6);
        /* ~37 expirations on a quiet machine.  With four times more
         * runnable threads than cores the kernel delivered none in 5 s of
         * the thread's CPU once in 20 runs: then the loss must be counted
         * (and with one or more, the accounting below covers it) */
        CHECK(a.delivered >= 1 || unsampled >= a.cpu_ns / 2);
        CHECK(charged >= a.delivered);   /* every one after `go` is on the task */
        CHECK(rp_thr_pending == 0);
        /* weights are thread CPU time: whole periods, merged expirations
         * included (which may reach back into the spin before `go`), so at
         * most the CPU the timer ran over; what no expiration stood for is
         * booked as unsampled beyond the resolution, 2 x max(period, 10 ms)
         * (the period, 1 ms, doubles at most 3 times), so weight +
         * unsampled accounts for the burn within 20 ms (+ 4 of slack) */
        /* All the thread's expirations (seen), not only those whose leaf is
         * in thr_burn: a late one is delivered at the thread's next return
         * to user mode, often its clock_gettime syscall in thr_main. */
        int64_t seen = a.slot ? a.slot->seen_ns : 0;
        fprintf(stderr, "worker thread: %.1f ms of expirations in all\n", seen / 1e6);
        CHECK(thr_cpu >= a.cpu_ns);
        CHECK(w1 - w0 <= seen);
        CHECK(seen <= thr_cpu + 2 * 1000 * 1000);
        CHECK(seen + unsampled >= a.cpu_ns - 24 * 1000 * 1000);
        /* and nothing counted twice: what was sampled is not also unsampled */
        CHECK(seen + unsampled <= thr_cpu + 5 * 1000 * 1000);
        CHECK(unsampled <= thr_cpu);
        /* every charged worker sample became an item of this task */
        int64_t burn_items = 0;
        for (uint32_t i = 0; i < rp_rt.items.n; i++) {
            uintptr_t pc = t->nodes[rp_rt.items.items[i].node].pc;
            if (pc >= (uintptr_t)__start_rp_thrburn && pc < (uintptr_t)__stop_rp_thrburn)
                burn_items += rp_rt.items.items[i].value_ns;
        }
        CHECK(a.delivered == 0 || (burn_items > 0 && burn_items <= w1 - w0));
        for (uint32_t j = 0; j < rp_rt.ps.n; j++)
            CHECK(rp_rt.ps.p[j].n_iv > 0);
        /* the slot was retired: its timer is gone, the slot free */
        for (int i = 0; i < RP_THR_SLOTS; i++)
            CHECK(rp_thr_slots[i].tstate == 0);

        /* second thread, registered while sampling runs, works while the
         * main thread is inside "MPI" */
        thr_arg b = { .cpu_ms = 100, .min_samples = 1, .go = 1 };
        uint64_t ro1 = rp_thr_cnt.rank_only, ch1 = rp_thr_cnt.charged;
        uint64_t un1 = rp_thr_cnt.unsampled_ns;
        CHECK(pthread_create(&th, NULL, thr_main, &b) == 0);
        CHECK(pthread_join(th, NULL) == 0);
        mpi_leave();
        mpi_enter(2);
        fprintf(stderr, "worker thread in MPI time: %llu rank-only, %llu charged\n",
                (unsigned long long)(rp_thr_cnt.rank_only - ro1),
                (unsigned long long)(rp_thr_cnt.charged - ch1));
        CHECK(rp_thr_cnt.threads_sampled == ts0 + 2);
        CHECK(rp_thr_cnt.rank_only - ro1 >= b.delivered);
        CHECK(b.delivered >= 1 || rp_thr_cnt.unsampled_ns - un1 >= (uint64_t)b.cpu_ns / 2);
        CHECK(rp_thr_cnt.charged == ch1);
        mpi_leave();
    }

    /* 8. finalize: stop, export */
    mpi_enter(0);
    rp_rt.active = 0;
    sample_stop();
    CHECK(sample_current_period_ns() == 0);
    uint64_t s_after = rp_sample_cnt.samples;
    usleep(5000);
    CHECK(rp_sample_cnt.samples == s_after);

    rp_cct_export d;
    memset(&d, 0, sizeof d);
    uint64_t cnt[RP_CNT__N] = { 0 };
    CHECK(sample_export(&d, K, cnt) == 0);
    CHECK(d.n_nodes == t->n);
    CHECK(d.n_metrics == RP_MET_PATH0 + K);
    CHECK(d.nodes[0].parent == UINT32_MAX && d.nodes[0].module == RP_MOD_ROOT);
    int have_exe = 0, have_libc = 0, n_mpi = 0;
    for (uint32_t i = 1; i < d.n_nodes; i++) {
        CHECK(d.nodes[i].parent < i);
        uint32_t m = d.nodes[i].module;
        if (m == RP_MOD_MPI) {
            n_mpi++;
            CHECK(d.nodes[i].offset < d.n_mpi_names);
        } else {
            CHECK(m < d.n_modules);
        }
    }
    CHECK(n_mpi >= 1);
    char exe[4096];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    CHECK(el > 0);
    exe[el > 0 ? el : 0] = '\0';
    for (uint32_t m = 0; m < d.n_modules; m++) {
        CHECK(d.modules[m].path && d.modules[m].path[0]);
        if (strcmp(d.modules[m].path, exe) == 0) {
            have_exe = 1;
            CHECK(d.modules[m].build_id_len >= 8);
        }
        if (strstr(d.modules[m].path, "libc.so"))
            have_libc = 1;
    }
    CHECK(have_exe);
    CHECK(have_libc);   /* malloc/snprintf/qsort leaves */
    CHECK(memcmp(d.metrics, t->metrics, (size_t)d.n_nodes * d.n_metrics * 8) == 0);
    CHECK(d.n_mpi_names == 5 && strcmp(d.mpi_names[3], "MPI_Barrier") == 0);
    CHECK(cnt[RP_CNT_SAMPLES] == rp_sample_cnt.samples);
    CHECK(cnt[RP_CNT_SAMPLES_MPI] == rp_sample_cnt.samples_mpi);
    CHECK(cnt[RP_CNT_SAMPLES_DROPPED] == rp_sample_cnt.samples_dropped);
    CHECK(cnt[RP_CNT_UNWIND_FAILURES] == rp_sample_cnt.unwind_failures);
    CHECK(cnt[RP_CNT_PERIOD_DOUBLINGS] == rp_sample_cnt.period_doublings);
    for (int i = 0; i < RP_CNT__N; i++)
        if (cnt[i])
            fprintf(stderr, "  %s = %llu\n", rp_counter_table[i].name, (unsigned long long)cnt[i]);
    CHECK(cnt[RP_CNT_THREAD_SAMPLES] == rp_thr_cnt.samples);
    CHECK(cnt[RP_CNT_THREAD_SAMPLES_CHARGED] == rp_thr_cnt.charged);
    CHECK(cnt[RP_CNT_THREAD_CPU_US] == rp_thr_cnt.cpu_ns / 1000);
    CHECK(cnt[RP_CNT_THREAD_CPU_UNSAMPLED_US] == rp_thr_cnt.unsampled_ns / 1000);
    CHECK(cnt[RP_CNT_THREADS_SAMPLED] == 2);
    fprintf(stderr, "export: %u nodes, %u modules\n", d.n_nodes, d.n_modules);

    if (failures) {
        fprintf(stderr, "test_sampling: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_sampling: ok\n");
    return 0;
}
