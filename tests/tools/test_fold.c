/* test_fold.c - fold.c: the merged tree folded by what prints the same
 * (issue 16).  A hand-built profile: two leaf pcs of one source line under
 * one caller (must become one node, metrics summed), the same line reached
 * through two different callers (must stay two nodes), a call site and a
 * leaf of the same line (flags differ: stay apart), two causes of
 * <unknown> (offset differs: stay apart), a child of a folded node (must
 * hang under the surviving node), and two addresses of a library without
 * symbols ("libx.so+0x..", printed "libx.so [no symbols]": one node). */
#include <stdlib.h>
#include <string.h>
#include "merge/fold.h"
#include "unit.h"

enum { NM = 3 };

int main(void)
{
    rp_profile p;
    memset(&p, 0, sizeof p);
    /* strings: 0 "", 1 main, 2 a.c, 3 kern, 4 <unknown>, 5 helper, 6 the
     * program, 7 the library, 8 and 9 its unsymbolised addresses */
    static char *strs[] = {"", "main", "a.c", "kern", "<unknown>", "helper", "/bin/app",
                           "/lib/libx.so", "libx.so+0x10", "libx.so+0x20"};
    p.strs = strs;
    p.n_strs = sizeof strs / sizeof strs[0];
    /* frames */
    static rp_pframe fr[] = {
        {1, 2, 10},   /* 0: main a.c:10 (call site) */
        {3, 2, 20},   /* 1: kern a.c:20 (pc 1) */
        {3, 2, 20},   /* 2: kern a.c:20 (pc 2, same line) */
        {5, 2, 30},   /* 3: helper a.c:30 (call site) */
        {3, 2, 20},   /* 4: kern a.c:20 (pc 3) */
        {4, 0, 0},    /* 5: <unknown> cause 1 */
        {4, 0, 0},    /* 6: <unknown> cause 2 */
        {3, 2, 20},   /* 7: kern a.c:20 as a call site */
        {5, 2, 31},   /* 8: helper a.c:31 */
        {8, 0, 0},    /* 9: libx.so+0x10 */
        {9, 0, 0},    /* 10: libx.so+0x20 */
    };
    static rp_psym sy[] = {
        {RP_SYM_FRAME, RP_SYMF_CALLSITE, 6, 0x100, 0, 1},   /* 0 main */
        {RP_SYM_FRAME, 0, 6, 0x200, 1, 1},                  /* 1 kern pc1 */
        {RP_SYM_FRAME, 0, 6, 0x204, 2, 1},                  /* 2 kern pc2 */
        {RP_SYM_FRAME, RP_SYMF_CALLSITE, 6, 0x300, 3, 1},   /* 3 helper */
        {RP_SYM_FRAME, 0, 6, 0x208, 4, 1},                  /* 4 kern pc3 */
        {RP_SYM_UNKNOWN, 0, 0, 1, 5, 1},                    /* 5 cause 1 */
        {RP_SYM_UNKNOWN, 0, 0, 2, 6, 1},                    /* 6 cause 2 */
        {RP_SYM_FRAME, RP_SYMF_CALLSITE, 6, 0x20c, 7, 1},   /* 7 kern call site */
        {RP_SYM_FRAME, 0, 6, 0x310, 8, 1},                  /* 8 helper leaf */
        {RP_SYM_FRAME, 0, 7, 0x10, 9, 1},                   /* 9 libx, no symbol */
        {RP_SYM_FRAME, 0, 7, 0x20, 10, 1},                  /* 10 libx, no symbol */
    };
    static rp_pnode nd[] = {
        {UINT32_MAX, UINT32_MAX}, /* 0 root */
        {0, 0},                   /* 1 main */
        {1, 1},                   /* 2 main > kern pc1 */
        {1, 2},                   /* 3 main > kern pc2  -> folds into 2 */
        {1, 3},                   /* 4 main > helper */
        {4, 4},                   /* 5 main > helper > kern pc3: stays */
        {0, 5},                   /* 6 unknown 1 */
        {0, 6},                   /* 7 unknown 2: stays apart */
        {1, 7},                   /* 8 main > kern (call site): stays apart from 2 */
        {8, 8},                   /* 9 main > kern cs > helper leaf */
        {1, 7},                   /* 10 main > kern (call site, again) -> folds into 8 */
        {10, 8},                  /* 11 ... > helper leaf -> folds into 9 */
        {1, 9},                   /* 12 main > libx+0x10 */
        {1, 10},                  /* 13 main > libx+0x20 -> folds into 12 */
    };
    const uint32_t nn = sizeof nd / sizeof nd[0];
    p.n_frames = sizeof fr / sizeof fr[0];
    p.frames = malloc(sizeof fr);
    memcpy(p.frames, fr, sizeof fr);
    p.n_syms = sizeof sy / sizeof sy[0];
    p.syms = malloc(sizeof sy);
    memcpy(p.syms, sy, sizeof sy);
    p.n_nodes = nn;
    p.nodes = malloc(sizeof nd);
    memcpy(p.nodes, nd, sizeof nd);
    p.n_metrics = NM;
    p.metrics = calloc((size_t)nn * NM, sizeof *p.metrics);
    int64_t total[NM] = {0};
    for (uint32_t i = 0; i < nn; i++)
        for (uint32_t c = 0; c < NM; c++) {
            p.metrics[i * NM + c] = (int64_t)(i * 10 + c);
            total[c] += (int64_t)(i * 10 + c);
        }

    CHECK_EQ(profile_fold(&p), 0);
    CHECK_EQ(p.n_nodes, nn - 4);
    CHECK_EQ(p.n_syms, 11u - 3u);   /* kern pc2, pc3 into pc1; libx+0x20 into +0x10 */
    CHECK_EQ(p.n_frames, 8u);
    int64_t sum[NM] = {0};
    for (uint32_t i = 0; i < p.n_nodes; i++) {
        CHECK(i == 0 || p.nodes[i].parent < i);
        CHECK(i == 0 || p.nodes[i].sym < p.n_syms);
        for (uint32_t c = 0; c < NM; c++)
            sum[c] += p.metrics[i * NM + c];
    }
    for (uint32_t c = 0; c < NM; c++)
        CHECK_EQ(sum[c], total[c]);   /* nothing lost, nothing doubled */
    /* node 2 (main > kern) now holds nodes 2 and 3 */
    CHECK_EQ(p.nodes[2].parent, 1u);
    CHECK_EQ(p.metrics[2 * NM + 1], (int64_t)(21 + 31));
    /* the helper > kern node is still under helper, with its own symbol */
    CHECK_EQ(p.nodes[4].parent, 3u);
    CHECK_EQ(p.nodes[4].sym, p.nodes[2].sym);
    /* the two <unknown> causes stay apart */
    CHECK(p.nodes[5].sym != p.nodes[6].sym);
    /* the call-site kern keeps its node, and 10/11 folded into 8/9 */
    CHECK(p.nodes[7].sym != p.nodes[2].sym);
    CHECK_EQ(p.metrics[7 * NM + 0], (int64_t)(80 + 100));
    CHECK_EQ(p.nodes[8].parent, 7u);
    CHECK_EQ(p.metrics[8 * NM + 2], (int64_t)(92 + 112));
    /* every symbol's frames still print what they did */
    for (uint32_t i = 1; i < p.n_nodes; i++) {
        const rp_psym *y = &p.syms[p.nodes[i].sym];
        CHECK(y->first + y->n <= p.n_frames);
    }
    CHECK_EQ(p.frames[p.syms[p.nodes[2].sym].first].line, 20u);
    CHECK_EQ(p.frames[p.syms[p.nodes[8].sym].first].line, 31u);
    /* the library's two addresses: one node under main, both metrics */
    CHECK_EQ(p.nodes[9].parent, 1u);
    CHECK_EQ(p.metrics[9 * NM + 0], (int64_t)(120 + 130));
    /* folding twice changes nothing */
    uint32_t n1 = p.n_nodes;
    CHECK_EQ(profile_fold(&p), 0);
    CHECK_EQ(p.n_nodes, n1);
    free(p.frames);
    free(p.syms);
    free(p.nodes);
    free(p.metrics);
    return unit_done("test_fold");
}
