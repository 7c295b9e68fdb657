/* unit_chain.c - path mode's chains (lib/core/chain.c): a path whose
 * summary fills up goes on as a link to a segment; the phase-end walk
 * expands the links back into the whole path.
 *
 * The property test runs random programs of 2-6 ranks twice: once with
 * small summaries and chains (sets passed as wire bytes, as the runtime
 * does), once with summaries long enough never to fill (the reference).
 * At every phase end all ranks join their sets, the walk runs over a
 * simulated allgather, and every path must come out with the reference's
 * cost and exactly its intervals; all ranks' walks must stay identical. */
#include <stdlib.h>
#include <string.h>

#include "core/chain.h"
#include "core/summary.h"
#include "core/wire.h"
#include "unit.h"

#define MAXR 6
#define K 3
#define REF_CAP 4096

static uint64_t rnd(uint64_t *s)
{
    return summary_rand(s);
}

typedef struct sim {
    uint32_t    nr, cap;
    rp_pathset  c[MAXR], r[MAXR];   /* chained, reference */
    rp_chain    ch[MAXR];
    uint32_t    items[MAXR];
    uint64_t    rng[MAXR];
    _Alignas(8) uint8_t buf[65536];
} sim;

static void sim_reset(sim *s)
{
    for (uint32_t q = 0; q < s->nr; q++) {
        pathset_reset(&s->c[q]);
        pathset_reset(&s->r[q]);
        chain_reset(&s->ch[q]);
        s->items[q] = 0;
    }
}

static void task(sim *s, uint32_t q, int64_t cost)
{
    uint16_t idx = (uint16_t)s->items[q]++;
    pathset_add_cost(&s->c[q], cost);
    pathset_add_cost(&s->r[q], cost);
    uint64_t lost = chain_extend(&s->ch[q], &s->c[q], q, idx, &s->rng[q]);
    CHECK_EQ(lost, 0);
    chain_extend(NULL, &s->r[q], q, idx, &s->rng[q]);
}

/* the set of `from` joins `to`'s: chained through the wire, reference in memory */
static void join(sim *s, uint32_t from, uint32_t to)
{
    size_t len = pathset_encode(&s->c[from], s->buf, sizeof s->buf);
    CHECK(len > 0);
    CHECK_EQ(pathset_join_wire(&s->c[to], s->buf, len, RP_SELECT_REPR), 0);
    pathset_join(&s->r[to], &s->r[from], RP_SELECT_REPR);
}

/* Every rank's walk over the simulated allgather; compare with the reference. */
static void walk_and_compare(sim *s)
{
    static rp_chain_walk w[MAXR];
    for (uint32_t q = 0; q < s->nr; q++)
        CHECK_EQ(chain_walk_begin(&w[q], &s->c[q]), 0);
    int rounds = 0;
    while (chain_walk_pending(&w[0]) && rounds < 100000) {
        uint8_t *all = NULL;
        size_t all_len = 0;
        for (uint32_t q = 0; q < s->nr; q++) {
            uint8_t *mine;
            size_t len;
            CHECK_EQ(chain_walk_emit(&s->ch[q], &w[q], &mine, &len), 0);
            all = realloc(all, all_len + len + 1);
            if (len)
                memcpy(all + all_len, mine, len);
            all_len += len;
            free(mine);
        }
        for (uint32_t q = 0; q < s->nr; q++) {
            CHECK_EQ(chain_walk_absorb(&w[q], all, all_len), 0);
            CHECK_EQ(chain_walk_pending(&w[q]), chain_walk_pending(&w[0]));
        }
        free(all);
        rounds++;
    }
    CHECK(!chain_walk_pending(&w[0]));
    const rp_pathset *c = &s->c[0], *r = &s->r[0];
    CHECK_EQ(c->n, r->n);
    for (uint32_t j = 0; j < c->n && j < r->n; j++) {
        CHECK_EQ(c->p[j].cost_ns, r->p[j].cost_ns);
        CHECK(!(c->p[j].flags & RP_PATH_OVERFLOW) && !(r->p[j].flags & RP_PATH_OVERFLOW));
        for (uint32_t q = 0; q < s->nr; q++) {
            uint64_t n;
            const rp_interval *iv = chain_walk_path(&w[q], j, &n);
            CHECK_EQ(w[q].broken, 0);
            CHECK_EQ(n, r->p[j].n_iv);
            if (n && n == r->p[j].n_iv)
                CHECK(memcmp(iv, r->p[j].iv, n * sizeof *iv) == 0);
        }
    }
    for (uint32_t q = 0; q < s->nr; q++)
        chain_walk_free(&w[q]);
}

/* all ranks end with the same set: everyone's joined into rank 0's, then
 * handed back (the reference by copy, the chained one by bytes) */
static void phase_end(sim *s)
{
    for (uint32_t q = 1; q < s->nr; q++)
        join(s, q, 0);
    size_t len = pathset_encode(&s->c[0], s->buf, sizeof s->buf);
    for (uint32_t q = 1; q < s->nr; q++) {
        CHECK_EQ(pathset_decode(&s->c[q], s->buf, len), 0);
        pathset_copy(&s->r[q], &s->r[0]);
    }
    walk_and_compare(s);
    sim_reset(s);
}

static void test_random(void)
{
    static sim s;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    uint64_t spills = 0, links_walked = 0;
    for (int prog = 0; prog < 300; prog++) {
        memset(&s, 0, sizeof s);
        s.nr = 2 + (uint32_t)(rnd(&seed) % (MAXR - 1));
        s.cap = 2 + (uint32_t)(rnd(&seed) % 3);
        for (uint32_t q = 0; q < s.nr; q++) {
            CHECK_EQ(pathset_init(&s.c[q], K, s.cap), 0);
            CHECK_EQ(pathset_init(&s.r[q], K, REF_CAP), 0);
            CHECK_EQ(chain_init(&s.ch[q], q, 1u << 20, (uint32_t)rnd(&seed)), 0);
            s.rng[q] = q + 1;
        }
        sim_reset(&s);
        for (int phase = 0; phase < 3; phase++) {
            int steps = 50 + (int)(rnd(&seed) % 400);
            for (int i = 0; i < steps; i++) {
                uint32_t q = (uint32_t)(rnd(&seed) % s.nr);
                if (rnd(&seed) % 3) {
                    task(&s, q, 1 + (int64_t)(rnd(&seed) % 1000000));
                } else {
                    uint32_t to = (q + 1 + (uint32_t)(rnd(&seed) % (s.nr - 1))) % s.nr;
                    join(&s, q, to);
                }
            }
            for (uint32_t q = 0; q < s.nr; q++)
                spills += s.ch[q].n_seg;
            for (uint32_t j = 0; j < s.c[0].n; j++)
                links_walked += s.c[0].p[j].n_iv && rp_iv_is_link(&s.c[0].p[j].iv[0]);
            phase_end(&s);
        }
        for (uint32_t q = 0; q < s.nr; q++) {
            pathset_free(&s.c[q]);
            pathset_free(&s.r[q]);
            chain_free(&s.ch[q]);
        }
    }
    /* the programs did exercise chains */
    CHECK(spills > 1000);
    CHECK(links_walked > 100);
}

/* The bound: a spill past max_iv is refused and counted, the path kept. */
static void test_bound(void)
{
    rp_pathset ps;
    rp_chain c;
    uint64_t rng = 1;
    CHECK_EQ(pathset_init(&ps, 1, 3), 0);
    pathset_reset(&ps);
    CHECK_EQ(chain_init(&c, 1, 5, 0), 0);
    /* items 0, 2, 4, ...: every one opens an interval */
    uint64_t lost = 0;
    for (uint16_t i = 0; i < 40 && !lost; i += 2)
        lost = chain_extend(&c, &ps, 1, i, &rng);
    CHECK_EQ(lost, 1);
    CHECK(ps.p[0].flags & RP_PATH_OVERFLOW);
    CHECK_EQ(c.refused, 1);
    CHECK(c.n_iv <= 5);
    /* chains off: the paper's rule, and not counted as refused */
    rp_chain off;
    CHECK_EQ(chain_init(&off, 2, 0, 0), 0);
    pathset_reset(&ps);
    lost = 0;
    for (uint16_t i = 0; i < 40 && !lost; i += 2)
        lost = chain_extend(&off, &ps, 2, i, &rng);
    CHECK_EQ(lost, 1);
    CHECK_EQ(off.refused, 0);
    CHECK_EQ(chain_init(&off, RP_IV_LINK, 10, 0), -1);   /* a rank a link cannot name */
    chain_free(&c);
    pathset_free(&ps);
}

/* A link its owner cannot follow breaks its path, on every rank alike:
 * a link from an earlier phase (numbers never repeat), and corrupt records. */
static void test_broken(void)
{
    rp_pathset ps;
    rp_chain c;
    uint64_t rng = 1;
    CHECK_EQ(pathset_init(&ps, 2, 2), 0);
    pathset_reset(&ps);
    CHECK_EQ(chain_init(&c, 0, 1000, 0x7ffffff0u), 0);
    for (uint16_t i = 0; i < 10; i += 2)
        chain_extend(&c, &ps, 0, i, &rng);
    CHECK(rp_iv_is_link(&ps.p[0].iv[0]));
    chain_reset(&c);   /* the phase ended; ps is a late message's set */
    rp_chain_walk w;
    CHECK_EQ(chain_walk_begin(&w, &ps), 0);
    CHECK(chain_walk_pending(&w));
    uint8_t *mine;
    size_t len;
    CHECK_EQ(chain_walk_emit(&c, &w, &mine, &len), 0);
    CHECK(len > 0);
    CHECK_EQ(chain_walk_absorb(&w, mine, len), 0);
    CHECK_EQ(w.broken, 1);
    CHECK(!chain_walk_pending(&w));
    free(mine);
    chain_walk_free(&w);

    /* a link nobody answers (its owner is not in the job) */
    rp_chain c1;
    CHECK_EQ(chain_init(&c1, 1, 1000, 65530), 0);
    pathset_reset(&ps);
    for (uint16_t i = 0; i < 10; i += 2)
        chain_extend(&c1, &ps, 1, i, &rng);
    CHECK_EQ(chain_walk_begin(&w, &ps), 0);
    CHECK_EQ(chain_walk_emit(&c, &w, &mine, &len), 0);   /* rank 0 owns nothing */
    CHECK(len == 0 && mine == NULL);
    CHECK_EQ(chain_walk_absorb(&w, NULL, 0), 0);
    CHECK_EQ(w.broken, 1);
    chain_walk_free(&w);

    /* corrupt records: rejected, every pending path broken */
    static const size_t cut[] = { 1, 23, 25 };
    for (int t = 0; t < 4; t++) {
        CHECK_EQ(chain_walk_begin(&w, &ps), 0);
        CHECK_EQ(chain_walk_emit(&c1, &w, &mine, &len), 0);
        CHECK(len >= 24);
        if (t < 3) {
            len = cut[t] < len ? cut[t] : len - 1;
        } else {
            uint32_t j = 7;   /* no such path */
            memcpy(mine, &j, 4);
        }
        CHECK_EQ(chain_walk_absorb(&w, mine, len), -1);
        CHECK_EQ(w.broken, 1);
        CHECK(!chain_walk_pending(&w));
        free(mine);
        chain_walk_free(&w);
    }
    chain_free(&c);
    chain_free(&c1);
    pathset_free(&ps);
}

/* The wire takes a link as a path's first interval only. */
static void test_wire_link(void)
{
    rp_pathset ps, out;
    CHECK_EQ(pathset_init(&ps, 1, 4), 0);
    CHECK_EQ(pathset_init(&out, 1, 4), 0);
    pathset_reset(&ps);
    ps.p[0].cost_ns = 5;
    ps.p[0].n_iv = 2;
    ps.p[0].iv[0] = (rp_interval){ RP_IV_LINK | 3, 0xffff, 2 };   /* low > high: a link may */
    ps.p[0].iv[1] = (rp_interval){ 1, 4, 6 };
    _Alignas(8) uint8_t buf[256];
    size_t len = pathset_encode(&ps, buf, sizeof buf);
    CHECK(len > 0);
    CHECK_EQ(buf[0], RP_PATHSET_WIRE_VERSION);
    CHECK_EQ(pathset_decode(&out, buf, len), 0);
    CHECK(out.n == 1 && out.p[0].n_iv == 2 && out.p[0].iv[0].rank == (RP_IV_LINK | 3));
    ps.p[0].iv[0] = (rp_interval){ 1, 0, 1 };
    ps.p[0].iv[1] = (rp_interval){ RP_IV_LINK | 3, 0, 2 };       /* a link not first */
    len = pathset_encode(&ps, buf, sizeof buf);
    CHECK_EQ(pathset_decode(&out, buf, len), -1);
    pathset_free(&ps);
    pathset_free(&out);
}

int main(void)
{
    test_wire_link();
    test_bound();
    test_broken();
    test_random();
    return unit_done("unit_chain");
}
