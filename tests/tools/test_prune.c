/* test_prune.c - prune.c: contexts under rp-merge --min-share folded into
 * "<contexts under X %>" (issue 16), and the merged profile's varint
 * encoding (format version 2) read back exactly.  A hand-built profile,
 * columns whole-rank, MPI, one path; min-share 0.1 %:
 *
 *   main > big            1e9 ns: kept
 *   main > tiny           100 ns: folded, its line insignificant -> the bucket's own time
 *   main > rare > big     200 ns: folded, but its line (big) is significant
 *                                 -> a "big" node under the bucket
 *   main > rare > tiny2    50 ns: folded into the bucket's own time
 *   <unknown>              10 ns: always kept (its cause is counted)
 *   main > MPI_Send       3e5 ns of MPI only: under 0.1 % of a rank's time,
 *                                 so folded; but 99.97 % of the MPI column,
 *                                 so it keeps its name under the bucket
 *   main > MPI_Wait       100 ns of MPI: folded into the bucket's own time
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "merge/prune.h"
#include "format/rpenc.h"
#include "unit.h"

enum { NM = 3 };

static const char *const STRS[] = {"", "main", "a.c", "big", "tiny", "rare", "tiny2",
                                   "<unknown>", "/bin/app", "not used by anything",
                                   "MPI_Send", "MPI_Wait"};
static const rp_pframe FR[] = {
    {1, 2, 10}, {3, 2, 20}, {4, 2, 30}, {5, 2, 40}, {6, 2, 50}, {7, 0, 0}, {10, 0, 0}, {11, 0, 0},
};
static const rp_psym SY[] = {
    {RP_SYM_FRAME, RP_SYMF_CALLSITE, 8, 0x100, 0, 1},   /* 0 main */
    {RP_SYM_FRAME, 0, 8, 0x200, 1, 1},                  /* 1 big */
    {RP_SYM_FRAME, 0, 8, 0x300, 2, 1},                  /* 2 tiny */
    {RP_SYM_FRAME, RP_SYMF_CALLSITE, 8, 0x400, 3, 1},   /* 3 rare */
    {RP_SYM_FRAME, 0, 8, 0x500, 4, 1},                  /* 4 tiny2 */
    {RP_SYM_UNKNOWN, 0, 0, 1, 5, 1},                    /* 5 <unknown> */
    {RP_SYM_MPI, 0, 0, 0, 6, 1},                        /* 6 MPI_Send */
    {RP_SYM_MPI, 0, 0, 1, 7, 1},                        /* 7 MPI_Wait */
};
static const rp_pnode ND[] = {
    {UINT32_MAX, UINT32_MAX}, {0, 0}, {1, 1}, {1, 2}, {1, 3}, {4, 1}, {4, 4}, {0, 5}, {1, 6},
    {1, 7},
};
/* exclusive metrics: whole-rank, MPI, path 0 */
static const int64_t MET[][NM] = {
    {0, 0, 0},   {0, 0, 0},        {1000000000, 0, 500000000}, {100, 0, 0},   {0, 0, 0},
    {200, 0, 0}, {50, 0, 50},      {10, 0, 10},                {0, 300000, 0}, {0, 100, 0},
};

static void build(rp_profile *p)
{
    memset(p, 0, sizeof *p);
    p->ranks_present = p->nranks = 1;
    p->k = 1;
    snprintf(p->exe, sizeof p->exe, "/bin/app");
    CHECK_EQ(phasestats_init(&p->stats, 1), 0);
    int64_t c = 123456;
    phasestats_add(&p->stats, &c);
    p->n_strs = sizeof STRS / sizeof *STRS;
    p->strs = malloc(p->n_strs * sizeof *p->strs);
    for (uint32_t i = 0; i < p->n_strs; i++)
        p->strs[i] = strdup(STRS[i]);
    p->n_frames = sizeof FR / sizeof *FR;
    p->frames = malloc(sizeof FR);
    memcpy(p->frames, FR, sizeof FR);
    p->n_syms = sizeof SY / sizeof *SY;
    p->syms = malloc(sizeof SY);
    memcpy(p->syms, SY, sizeof SY);
    p->n_nodes = sizeof ND / sizeof *ND;
    p->nodes = malloc(sizeof ND);
    memcpy(p->nodes, ND, sizeof ND);
    p->n_metrics = NM;
    p->metrics = malloc(sizeof MET);
    memcpy(p->metrics, MET, sizeof MET);
}

static const char *func_of(const rp_profile *p, uint32_t node)
{
    const rp_psym *y = &p->syms[p->nodes[node].sym];
    return p->strs[p->frames[y->first].func];
}

static uint32_t find(const rp_profile *p, uint32_t parent, const char *func)
{
    for (uint32_t i = 1; i < p->n_nodes; i++)
        if (p->nodes[i].parent == parent && strcmp(func_of(p, i), func) == 0)
            return i;
    return UINT32_MAX;
}

static void test_prune(void)
{
    rp_profile p;
    build(&p);
    int64_t total[NM] = {0};
    for (uint32_t i = 0; i < p.n_nodes; i++)
        for (uint32_t c = 0; c < NM; c++)
            total[c] += p.metrics[i * NM + c];
    uint32_t folded = 99;
    CHECK_EQ(profile_prune(&p, 0.1, &folded), 0);
    CHECK_EQ(folded, 6u);
    /* root, main, main > big, <unknown>, the bucket, bucket > big, bucket > MPI_Send */
    CHECK_EQ(p.n_nodes, 7u);
    int64_t sum[NM] = {0};
    for (uint32_t i = 0; i < p.n_nodes; i++) {
        CHECK(i == 0 || p.nodes[i].parent < i);
        CHECK(i == 0 || p.nodes[i].sym < p.n_syms);
        for (uint32_t c = 0; c < NM; c++)
            sum[c] += p.metrics[i * NM + c];
    }
    for (uint32_t c = 0; c < NM; c++)
        CHECK_EQ(sum[c], total[c]);   /* nothing lost, nothing doubled */
    uint32_t main_n = find(&p, 0, "main"), bucket = find(&p, 0, "<contexts under 0.1 %>");
    CHECK(main_n != UINT32_MAX && bucket != UINT32_MAX);
    if (main_n == UINT32_MAX || bucket == UINT32_MAX)
        return;
    uint32_t big = find(&p, main_n, "big"), big2 = find(&p, bucket, "big");
    uint32_t send = find(&p, bucket, "MPI_Send"), unk = find(&p, 0, "<unknown>");
    CHECK(big != UINT32_MAX && big2 != UINT32_MAX && send != UINT32_MAX && unk != UINT32_MAX);
    CHECK_EQ(find(&p, main_n, "tiny"), UINT32_MAX);
    CHECK_EQ(find(&p, bucket, "tiny"), UINT32_MAX);
    CHECK_EQ(p.metrics[big * NM + 0], 1000000000);   /* kept as it was */
    CHECK_EQ(p.metrics[big * NM + 2], 500000000);
    CHECK_EQ(p.metrics[big2 * NM + 0], 200);            /* the line keeps its time */
    CHECK_EQ(p.nodes[big2].sym, p.nodes[big].sym);      /* and its symbol */
    CHECK_EQ(p.syms[p.nodes[send].sym].kind, RP_SYM_MPI);
    CHECK_EQ(p.metrics[send * NM + 1], 300000);
    CHECK_EQ(p.metrics[bucket * NM + 0], 150);          /* tiny + tiny2 */
    CHECK_EQ(p.metrics[bucket * NM + 1], 100);          /* MPI_Wait */
    CHECK_EQ(p.metrics[bucket * NM + 2], 50);
    CHECK_EQ(p.metrics[unk * NM + 0], 10);
    /* symbols, frames and strings of folded lines are gone; "" stays first */
    CHECK_EQ(p.n_syms, 5u);   /* main, big, <unknown>, MPI_Send, the bucket */
    CHECK(strcmp(p.strs[0], "") == 0);
    for (uint32_t i = 0; i < p.n_strs; i++)
        CHECK(strcmp(p.strs[i], "tiny") && strcmp(p.strs[i], "not used by anything"));
    for (uint32_t i = 0; i < p.n_syms; i++) {
        CHECK(p.syms[i].first + p.syms[i].n <= p.n_frames);
        CHECK(p.syms[i].module < p.n_strs);
    }
    for (uint32_t i = 0; i < p.n_frames; i++)
        CHECK(p.frames[i].func < p.n_strs && p.frames[i].file < p.n_strs);

    /* the varint format (version 2) reads back exactly */
    char path[] = "/tmp/rp-test-prune-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK_EQ(profile_write(path, &p), 0);
    rp_profile q;
    char err[256] = "";
    CHECK_EQ(profile_read(path, &q, err, sizeof err), 0);
    if (err[0])
        fprintf(stderr, "profile_read: %s\n", err);
    CHECK_EQ(q.n_nodes, p.n_nodes);
    CHECK_EQ(q.n_syms, p.n_syms);
    CHECK_EQ(q.stats.nphases, 1u);
    CHECK_EQ(q.stats.max_ns[0], 123456);
    if (q.n_nodes == p.n_nodes) {
        CHECK(memcmp(q.nodes, p.nodes, p.n_nodes * sizeof *p.nodes) == 0);
        CHECK(memcmp(q.metrics, p.metrics, (size_t)p.n_nodes * NM * sizeof *p.metrics) == 0);
        CHECK(memcmp(q.stats.hist, p.stats.hist, RP_HIST_BINS * sizeof *p.stats.hist) == 0);
    }
    unlink(path);
    profile_free(&q);
    profile_free(&p);

    /* 0 keeps every context; only the unused string goes */
    build(&p);
    CHECK_EQ(profile_prune(&p, 0, &folded), 0);
    CHECK_EQ(folded, 0u);
    CHECK_EQ(p.n_nodes, (uint32_t)(sizeof ND / sizeof *ND));
    CHECK(memcmp(p.metrics, MET, sizeof MET) == 0);
    CHECK_EQ(p.n_strs, (uint32_t)(sizeof STRS / sizeof *STRS) - 1);
    profile_free(&p);
}

/* LEB128 varints: round trip, and the corrupt forms rejected */
static void test_uvar(void)
{
    static const uint64_t v[] = {0, 1, 127, 128, 16383, 16384, 1ull << 35, 1ull << 63, UINT64_MAX};
    rpenc e;
    rpenc_init(&e);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        rpenc_uvar(&e, v[i]);
    CHECK_EQ(e.len, 1u + 1 + 1 + 2 + 2 + 3 + 6 + 10 + 10);
    rpdec d;
    rpdec_init(&d, e.buf, e.len);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        CHECK(rpdec_uvar(&d) == v[i]);
    CHECK(!d.failed && rpdec_left(&d) == 0);
    rpenc_free(&e);
    static const struct { uint8_t b[12]; size_t n; } bad[] = {
        {{0x80}, 1},                                                          /* truncated */
        {{0x80, 0x00}, 2},                                                    /* not shortest */
        {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, 10},   /* past 2^64 */
        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00}, 11},  /* 11 bytes */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rpdec_init(&d, bad[i].b, bad[i].n);
        (void)rpdec_uvar(&d);
        CHECK(d.failed);
    }
}

int main(void)
{
    test_uvar();
    test_prune();
    return unit_done("test_prune");
}
