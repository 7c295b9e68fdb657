/* unit_commit.c - item buffer and lazy commit of the selected items. */
#include <string.h>

#include "core/commit.h"
#include "core/itembuf.h"
#include "unit.h"

static void test_itembuf(void)
{
    rp_itembuf b;
    CHECK_EQ(itembuf_init(&b, 0), -1);
    CHECK_EQ(itembuf_init(&b, RP_ITEMBUF_MAX + 1), -1);
    CHECK_EQ(itembuf_init(&b, 4), 0);
    CHECK(b.n == 0 && b.cap == 4 && b.dropped == 0);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(itembuf_push(&b, 10 + i, 20 + i, 100 * i), i);
    CHECK_EQ(itembuf_push(&b, 1, 1, 1), -1);
    CHECK_EQ(itembuf_push(&b, 1, 1, 1), -1);
    CHECK_EQ(b.n, 4);
    CHECK_EQ(b.dropped, 2);
    CHECK(b.items[2].node == 12 && b.items[2].aux == 22 &&
          b.items[2].value_ns == 200);
    itembuf_reset(&b);
    CHECK_EQ(b.n, 0);
    CHECK_EQ(b.dropped, 2);                  /* persists across phases */
    CHECK_EQ(itembuf_push(&b, 5, 6, 7), 0);
    itembuf_free(&b);
    CHECK(b.items == NULL && b.cap == 0);

    /* full-size buffer: every index fits the 16-bit summaries */
    CHECK_EQ(itembuf_init(&b, RP_ITEMBUF_MAX), 0);
    int32_t last = -1;
    for (uint32_t i = 0; i < RP_ITEMBUF_MAX; i++)
        last = itembuf_push(&b, i, 0, 1);
    CHECK_EQ(last, 65535);
    CHECK_EQ(itembuf_push(&b, 0, 0, 1), -1);
    CHECK_EQ(b.items[65535].node, 65535);
    itembuf_free(&b);
}

#define NPATH 3
#define NITEM 20

typedef struct seen {
    uint32_t count[NPATH][NITEM];
    uint32_t calls;
    int bad;                     /* item pointer/idx mismatch */
    const rp_itembuf *buf;
} seen;

static void visit(void *ctx, uint32_t path, const rp_item *item, uint32_t idx)
{
    seen *s = ctx;
    s->calls++;
    if (path >= NPATH || idx >= NITEM || item != &s->buf->items[idx] ||
        item->node != 1000 + idx) {
        s->bad = 1;
        return;
    }
    s->count[path][idx]++;
}

static void test_commit(void)
{
    const uint32_t me = 2;
    rp_itembuf b;
    rp_pathset ps;
    CHECK_EQ(itembuf_init(&b, 64), 0);
    for (uint32_t i = 0; i < 15; i++)       /* fill 15: indices >= 15 clip */
        itembuf_push(&b, 1000 + i, 0, i);
    CHECK_EQ(pathset_init(&ps, NPATH, 4), 0);
    ps.n = NPATH;
    rp_interval p0[] = { { me, 0, 2 }, { 7, 3, 9 }, { me, 5, 5 } };
    rp_interval p1[] = { { 1, 0, 14 }, { me, 2, 3 }, { me, 13, 17 } };
    rp_interval p2[] = { { 0, 4, 4 } };     /* other ranks only */
    memcpy(ps.p[0].iv, p0, sizeof p0);
    ps.p[0].n_iv = 3;
    memcpy(ps.p[1].iv, p1, sizeof p1);
    ps.p[1].n_iv = 3;
    memcpy(ps.p[2].iv, p2, sizeof p2);
    ps.p[2].n_iv = 1;

    uint8_t want[NPATH][NITEM] = { { 0 } };
    want[0][0] = want[0][1] = want[0][2] = want[0][5] = 1;
    want[1][2] = want[1][3] = want[1][13] = want[1][14] = 1;

    seen s;
    memset(&s, 0, sizeof s);
    s.buf = &b;
    uint64_t rc = commit_phase(&ps, me, &b, visit, &s);
    CHECK_EQ(rc & 0xffffffffu, 8);          /* visits */
    CHECK_EQ(rc >> 32, 3);                  /* 15, 16, 17 clipped */
    CHECK_EQ(s.calls, 8);
    CHECK(!s.bad);
    for (int p = 0; p < NPATH; p++)
        for (int i = 0; i < NITEM; i++)
            CHECK_EQ(s.count[p][i], want[p][i]);

    /* another rank sees only its own intervals */
    memset(&s, 0, sizeof s);
    s.buf = &b;
    rc = commit_phase(&ps, 0, &b, visit, &s);
    CHECK_EQ(rc, 1);
    CHECK_EQ(s.count[2][4], 1);
    /* empty buffer: everything of mine clips */
    itembuf_reset(&b);
    rc = commit_phase(&ps, me, &b, visit, &s);
    CHECK_EQ(rc, (uint64_t)(4 + 2 + 5) << 32);
    /* high == 65535 must not loop forever */
    ps.n = 1;
    ps.p[0].n_iv = 1;
    ps.p[0].iv[0] = (rp_interval){ me, 65530, 65535 };
    rc = commit_phase(&ps, me, &b, visit, &s);
    CHECK_EQ(rc, (uint64_t)6 << 32);
    pathset_free(&ps);
    itembuf_free(&b);
}

int main(void)
{
    test_itembuf();
    test_commit();
    return unit_done("unit_commit");
}
