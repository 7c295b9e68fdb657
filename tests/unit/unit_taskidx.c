/* unit_taskidx.c - path mode's task indices past 16 bits (pathset.h
 * rp_iv_key: bits 24..30 of an interval's rank field are the epoch, the
 * 65 536-task block of the index): encoding and decoding across epoch
 * boundaries, summaries that cross one, the growing item buffer and the
 * tasks an interval past the first epoch names in it, prof mode's lazy
 * commit (no epochs, any rank), and the wire. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/commit.h"
#include "core/itembuf.h"
#include "core/summary.h"
#include "core/wire.h"
#include "unit.h"

static void test_encoding(void)
{
    static const uint32_t ranks[] = { 0, 1, 5, 65535, 65536, RP_IV_MAX_RANKS - 1 };
    static const uint32_t idxs[] = { 0, 1, 65535, 65536, 65537, 131071, 131072,
                                     3u << 16 | 12345, RP_TASKBUF_MAX - 1 };
    for (size_t r = 0; r < sizeof ranks / sizeof *ranks; r++)
        for (size_t i = 0; i < sizeof idxs / sizeof *idxs; i++) {
            rp_interval iv = { rp_iv_key(ranks[r], idxs[i]), (uint16_t)idxs[i],
                               (uint16_t)idxs[i] };
            CHECK(!rp_iv_is_link(&iv));
            CHECK(rp_iv_ok(&iv, 1));
            CHECK_EQ(rp_iv_rank(&iv), ranks[r]);
            CHECK_EQ(rp_iv_lo(&iv), idxs[i]);
            CHECK_EQ(rp_iv_hi(&iv), idxs[i]);
        }
    /* epoch 0 is the plain rank (prof mode, and files before epochs) */
    CHECK_EQ(rp_iv_key(7, 65535), 7);
    CHECK_EQ(rp_iv_key(7, 65536), 7u | 1u << 24);
    /* the last task of the bound is in the last epoch, below the link bit */
    CHECK_EQ(rp_iv_key(0, RP_TASKBUF_MAX - 1) >> 24, RP_IV_EPOCHS - 1);
    CHECK((rp_iv_key(RP_IV_MAX_RANKS - 1, RP_TASKBUF_MAX - 1) & RP_IV_LINK) == 0);
    CHECK_EQ((uint64_t)RP_IV_EPOCHS << 16, RP_TASKBUF_MAX);
    /* a link keeps its meaning: bit 31, and no epoch is read from it */
    rp_interval l = { RP_IV_LINK | 3, 1, 2 };
    CHECK(rp_iv_is_link(&l) && !rp_iv_ok(&l, 1) && rp_iv_ok(&l, 0));
}

/* Path mode's summary of tasks first..last on rank r, one after the other. */
static void push_run(rp_path *p, uint32_t cap, uint32_t r, uint32_t first, uint32_t last)
{
    uint64_t rng = 1;
    for (uint32_t i = first; i <= last; i++)
        summary_push(p, cap, rp_iv_key(r, i), (uint16_t)i, RP_SUMMARY_PATH, &rng);
}

static void test_summary_across(void)
{
    rp_interval store[8];
    rp_path p;
    memset(&p, 0, sizeof p);
    p.iv = store;
    /* rank 3 runs from 65530 into the next epoch: two intervals, which
     * decode to the one run 65530..65545 */
    push_run(&p, 8, 3, 65530, 65545);
    CHECK_EQ(p.n_iv, 2);
    CHECK_EQ(rp_iv_rank(&p.iv[0]), 3);
    CHECK_EQ(rp_iv_lo(&p.iv[0]), 65530);
    CHECK_EQ(rp_iv_hi(&p.iv[0]), 65535);
    CHECK_EQ(rp_iv_rank(&p.iv[1]), 3);
    CHECK_EQ(rp_iv_lo(&p.iv[1]), 65536);
    CHECK_EQ(rp_iv_hi(&p.iv[1]), 65545);
    /* same low bits in another epoch are other tasks: never merged into
     * the first epoch's interval (summary_contains must not say "held") */
    push_run(&p, 8, 3, 2u << 16 | 65531, 2u << 16 | 65532);
    CHECK_EQ(p.n_iv, 3);
    CHECK_EQ(rp_iv_lo(&p.iv[2]), 2u << 16 | 65531);
    CHECK_EQ(rp_iv_hi(&p.iv[2]), 2u << 16 | 65532);
    /* another rank between: a new interval, as ever */
    push_run(&p, 8, 4, 65536, 65536);
    CHECK_EQ(p.n_iv, 4);
    CHECK_EQ(rp_iv_rank(&p.iv[3]), 4);
    CHECK_EQ(rp_iv_lo(&p.iv[3]), 65536);
}

typedef struct seen {
    uint32_t n, first, last;
    int in_order;
} seen;

static void note(void *ctx, uint32_t path, const rp_item *item, uint32_t idx)
{
    seen *s = ctx;
    (void)path;
    if (s->n == 0)
        s->first = idx;
    else if (idx != s->last + 1)
        s->in_order = 0;
    /* the item is the one pushed at idx (node = idx below) */
    if (item->node != idx)
        s->in_order = 0;
    s->last = idx;
    s->n++;
}

static void test_buffer_and_commit(void)
{
    rp_itembuf b;
    CHECK_EQ(itembuf_init_max(&b, 256, 255), -1);                 /* max below cap */
    CHECK_EQ(itembuf_init_max(&b, 256, RP_TASKBUF_MAX + 1), -1);
    CHECK_EQ(itembuf_init_max(&b, RP_ITEMBUF_MAX, 200000), 0);
    int32_t last = -1;
    for (uint32_t i = 0; i < 200000; i++)
        last = itembuf_push_grow(&b, i, 0, 1);
    CHECK_EQ(last, 199999);
    CHECK_EQ(b.n, 200000);
    CHECK_EQ(b.cap, 200000);                                       /* 65536, 131072, then max */
    CHECK_EQ(itembuf_push_grow(&b, 0, 0, 1), -1);                  /* past max: refused */
    CHECK_EQ(b.dropped, 1);
    CHECK_EQ(b.grow_failed, 0);
    CHECK_EQ(b.items[65536].node, 65536);                          /* moved intact */
    CHECK_EQ(b.items[199999].node, 199999);

    /* one path over 131060..131080 of rank 2, as its summary holds it:
     * decoded as path mode's phase end does (rp_iv_decode), its intervals
     * name exactly those items, in order */
    rp_pathset ps;
    CHECK_EQ(pathset_init(&ps, 1, 8), 0);
    pathset_reset(&ps);
    push_run(&ps.p[0], 8, 2, 131060, 131080);
    CHECK_EQ(ps.p[0].n_iv, 2);
    seen s = { 0, 0, 0, 1 };
    for (uint32_t v = 0; v < ps.p[0].n_iv; v++) {
        uint32_t r, lo, hi;
        rp_iv_decode(&ps.p[0].iv[v], 1, &r, &lo, &hi);
        CHECK_EQ(r, 2);
        for (uint32_t i = lo; i <= hi && i < b.n; i++)
            note(&s, 0, &b.items[i], i);
    }
    CHECK(s.n == 21 && s.first == 131060 && s.last == 131080 && s.in_order);
    /* without epochs (a world of 2^24 ranks or more) the field is the rank */
    uint32_t r, lo, hi;
    rp_interval big = { RP_IV_MAX_RANKS + 5, 7, 9 };
    rp_iv_decode(&big, 0, &r, &lo, &hi);
    CHECK(r == RP_IV_MAX_RANKS + 5 && lo == 7 && hi == 9);
    rp_iv_decode(&big, 1, &r, &lo, &hi);
    CHECK(r == 5 && lo == 65536 + 7 && hi == 65536 + 9);
    pathset_free(&ps);

    /* the phase start gives back what the phase grew */
    itembuf_reset(&b);
    CHECK_EQ(b.n, 0);
    CHECK_EQ(b.cap, RP_ITEMBUF_MAX);
    CHECK_EQ(itembuf_push_grow(&b, 9, 0, 1), 0);
    itembuf_limit(&b, 100);                                        /* not below cap0 */
    CHECK_EQ(b.max, RP_ITEMBUF_MAX);
    itembuf_free(&b);

    /* a buffer that may not grow (prof mode, small RP_BUFFER) refuses at cap */
    CHECK_EQ(itembuf_init_max(&b, 300, 300), 0);
    for (uint32_t i = 0; i < 300; i++)
        itembuf_push_grow(&b, i, 0, 1);
    CHECK_EQ(itembuf_push_grow(&b, 0, 0, 1), -1);
    CHECK_EQ(b.dropped, 1);
    CHECK_EQ(b.cap, 300);
    itembuf_free(&b);
}

/* Prof mode's lazy commit reads the rank field as the plain rank: its
 * items never pass 65 536, and ranks of 2^24 and more commit their own. */
static void test_prof_commit(void)
{
    rp_itembuf b;
    CHECK_EQ(itembuf_init(&b, 16), 0);
    for (uint32_t i = 0; i < 16; i++)
        itembuf_push(&b, i, 0, 1);
    rp_pathset ps;
    CHECK_EQ(pathset_init(&ps, 1, 8), 0);
    pathset_reset(&ps);
    uint64_t rng = 1;
    uint32_t me = RP_IV_MAX_RANKS + 5;
    for (uint16_t i = 3; i <= 6; i++)
        pathset_extend(&ps, me, i, RP_SUMMARY_PROF, &rng);
    seen s = { 0, 0, 0, 1 };
    uint64_t v = commit_phase(&ps, me, &b, note, &s);
    CHECK_EQ(v & 0xffffffffu, 4);
    CHECK(s.n == 4 && s.first == 3 && s.last == 6 && s.in_order);
    s = (seen){ 0, 0, 0, 1 };
    CHECK_EQ(commit_phase(&ps, 5, &b, note, &s), 0);   /* not rank 5's */
    pathset_free(&ps);
    itembuf_free(&b);
}

/* Mapping more refused (address space limited just above what the process
 * uses): the push is refused and counted, the items held stay intact, and
 * the buffer goes on once memory is there again. */
static void test_grow_refused(void)
{
    rp_itembuf b;
    CHECK_EQ(itembuf_init_max(&b, RP_ITEMBUF_MAX, RP_TASKBUF_MAX), 0);
    for (uint32_t i = 0; i < RP_ITEMBUF_MAX; i++)
        itembuf_push_grow(&b, i, 0, 1);
    struct rlimit old;
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%lu", &pages) != 1 || getrlimit(RLIMIT_AS, &old) != 0) {
        fprintf(stderr, "unit_taskidx: cannot limit the address space; grow refusal not tested\n");
        if (f)
            fclose(f);
        itembuf_free(&b);
        return;
    }
    fclose(f);
    /* room for 512 KiB more, the doubling wants 2 MiB */
    struct rlimit lim = { (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (512u << 10), old.rlim_max };
    int limited = setrlimit(RLIMIT_AS, &lim) == 0;
    int32_t got = itembuf_push_grow(&b, 1, 0, 1);
    if (limited) {
        CHECK_EQ(got, -1);
        CHECK_EQ(b.grow_failed, 1);
        CHECK_EQ(b.dropped, 1);
        CHECK_EQ(b.cap, RP_ITEMBUF_MAX);
        CHECK_EQ(b.n, RP_ITEMBUF_MAX);
        CHECK_EQ(b.items[RP_ITEMBUF_MAX - 1].node, RP_ITEMBUF_MAX - 1);
        CHECK_EQ(setrlimit(RLIMIT_AS, &old), 0);
        CHECK_EQ(itembuf_push_grow(&b, 1, 0, 1), (int32_t)RP_ITEMBUF_MAX);
    }
    itembuf_free(&b);
}

static void test_wire(void)
{
    rp_pathset ps, back;
    CHECK_EQ(pathset_init(&ps, 2, 4), 0);
    CHECK_EQ(pathset_init(&back, 2, 4), 0);
    pathset_reset(&ps);
    pathset_add_cost(&ps, 10);
    push_run(&ps.p[0], 4, 1, 65534, 65537);        /* two epochs */
    push_run(&ps.p[0], 4, RP_IV_MAX_RANKS - 1, RP_TASKBUF_MAX - 2, RP_TASKBUF_MAX - 1);
    CHECK_EQ(ps.p[0].n_iv, 3);
    _Alignas(8) uint8_t buf[512];
    size_t len = pathset_encode(&ps, buf, sizeof buf);
    CHECK(len > 0);
    CHECK_EQ(buf[0], RP_PATHSET_WIRE_VERSION);
    CHECK_EQ(pathset_decode(&back, buf, len), 0);
    CHECK_EQ(back.p[0].n_iv, 3);
    for (uint32_t v = 0; v < 3 && v < back.p[0].n_iv; v++) {
        CHECK_EQ(back.p[0].iv[v].rank, ps.p[0].iv[v].rank);
        CHECK_EQ(rp_iv_lo(&back.p[0].iv[v]), rp_iv_lo(&ps.p[0].iv[v]));
        CHECK_EQ(rp_iv_hi(&back.p[0].iv[v]), rp_iv_hi(&ps.p[0].iv[v]));
    }
    CHECK_EQ(rp_iv_hi(&back.p[0].iv[2]), RP_TASKBUF_MAX - 1);
    pathset_free(&ps);
    pathset_free(&back);
}

int main(void)
{
    test_encoding();
    test_summary_across();
    test_buffer_and_commit();
    test_prof_commit();
    test_grow_refused();
    test_wire();
    return unit_done("unit_taskidx");
}
