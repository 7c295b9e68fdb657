/* fold.c - bound the merged profile by the program's source, not its run
 * time (issue 16).
 *
 * merge.c unions the ranks' trees by address.  A sample's leaf is the pc it
 * interrupted, so a hot source line compiled to a dozen instructions becomes
 * a dozen sibling nodes, and the longer a run samples the more of them it
 * collects (coupon collecting over the instructions of every hot line, and
 * over every return address the MPI library's callers use): the merged
 * profile grew with the number of iterations.  rp-report never showed the
 * difference - it aggregates by what prints the same (doc/formats.md) - so
 * here, after symbolisation, the tree is folded the same way:
 *
 *   1. symbols that print the same (kind, call-site flag, module, the
 *      function/file/line of every inlined frame; pseudo-frames also by
 *      offset, which names the MPI call or the cause of <unknown>) become
 *      one symbol.  Addresses without a symbol (frames.c's FRAMES_NOSYM:
 *      "module+0xOFF", printed as "module [no symbols]") are one symbol
 *      per module and flags: every pc sampled in the vDSO or a stripped
 *      library was a context of its own;
 *   2. nodes with the same folded parent and the same symbol become one
 *      node, their metrics summed.
 *
 * Nodes come parent-first, so one forward pass with a hash lookup per node
 * suffices; frames no symbol uses any more are dropped.  Folding changes no
 * number any report prints (every view sums by the same key) and keeps the
 * file's layout; the tree's size is then bounded by the distinct source
 * contexts the program executes. */
#include "merge/fold.h"
#include "common/frames.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xC2B2AE3D27D4EB4Full;
}

static uint64_t sym_hash(const rp_profile *p, const rp_psym *y, int nosym)
{
    uint64_t h = mix(mix(mix(y->kind, y->flags), y->module),
                     y->kind == RP_SYM_FRAME ? 0 : y->offset);
    if (nosym)
        return mix(h, 0xA5A5u);
    for (uint32_t f = 0; f < y->n; f++) {
        const rp_pframe *fr = &p->frames[y->first + f];
        h = mix(mix(mix(h, fr->func), fr->file), fr->line);
    }
    return mix(h, y->n);
}

static int sym_same(const rp_profile *p, const rp_psym *a, int a_nosym, const rp_psym *b,
                    int b_nosym)
{
    if (a->kind != b->kind || a->flags != b->flags || a->module != b->module ||
        a_nosym != b_nosym || (a->kind != RP_SYM_FRAME && a->offset != b->offset))
        return 0;
    if (a_nosym)
        return 1;
    if (a->n != b->n)
        return 0;
    for (uint32_t f = 0; f < a->n; f++) {
        const rp_pframe *x = &p->frames[a->first + f], *y = &p->frames[b->first + f];
        if (x->func != y->func || x->file != y->file || x->line != y->line)
            return 0;
    }
    return 1;
}

static uint32_t pow2_above(uint32_t n)
{
    uint32_t s = 64;
    while (s < 2 * n)
        s *= 2;
    return s;
}

/* symmap[i] = the folded symbol of symbol i; syms and frames compacted. */
static int fold_syms(rp_profile *p, uint32_t *symmap)
{
    uint32_t ns = pow2_above(p->n_syms);
    uint32_t *slots = calloc(ns, sizeof *slots);   /* folded sym + 1 */
    rp_pframe *frames = malloc((size_t)(p->n_frames ? p->n_frames : 1) * sizeof *frames);
    uint8_t *nosym = malloc(p->n_syms ? p->n_syms : 1);   /* of the kept symbols */
    if (!slots || !frames || !nosym) {
        free(slots);
        free(frames);
        free(nosym);
        return -1;
    }
    uint32_t n = 0, nf = 0;
    for (uint32_t i = 0; i < p->n_syms; i++) {
        rp_psym y = p->syms[i];
        /* frames_kind reads p->syms[i] and the old frames: i is not yet
         * overwritten (kept symbols go to indices <= i) */
        int ns_y = frames_kind(p, i) == FRAMES_NOSYM;
        uint32_t j = (uint32_t)sym_hash(p, &y, ns_y) & (ns - 1);
        while (slots[j] && !sym_same(p, &p->syms[slots[j] - 1], nosym[slots[j] - 1], &y, ns_y))
            j = (j + 1) & (ns - 1);
        if (slots[j]) {
            symmap[i] = slots[j] - 1;
            continue;
        }
        /* Kept symbols stay at indices <= i, so p->syms[] still holds every
         * unread one; their frames are copied out to the new array. */
        memcpy(frames + nf, p->frames + y.first, (size_t)y.n * sizeof *frames);
        p->syms[n] = y;
        nosym[n] = (uint8_t)ns_y;
        slots[j] = n + 1;
        symmap[i] = n++;
        /* p->syms[n - 1].first still points into the old frame array,
         * which the comparisons above read; renumbered below. */
        nf += y.n;
    }
    /* Renumber `first` into the compacted frame array, in order. */
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        p->syms[i].first = at;
        at += p->syms[i].n;
    }
    free(slots);
    free(nosym);
    free(p->frames);
    p->frames = frames;
    p->n_frames = nf;
    p->n_syms = n;
    return 0;
}

int profile_fold(rp_profile *p)
{
    if (p->n_nodes < 2)
        return 0;
    uint32_t *symmap = malloc((size_t)(p->n_syms ? p->n_syms : 1) * sizeof *symmap);
    uint32_t *nodemap = malloc((size_t)p->n_nodes * sizeof *nodemap);
    uint32_t nslots = pow2_above(p->n_nodes);
    uint32_t *slots = calloc(nslots, sizeof *slots);   /* folded node + 1 */
    if (!symmap || !nodemap || !slots || fold_syms(p, symmap) != 0) {
        free(symmap);
        free(nodemap);
        free(slots);
        return -1;
    }
    const uint32_t nm = p->n_metrics;
    uint32_t n = 1;   /* node 0, the root, stays */
    nodemap[0] = 0;
    for (uint32_t i = 1; i < p->n_nodes; i++) {
        uint32_t par = nodemap[p->nodes[i].parent], sym = symmap[p->nodes[i].sym];
        uint32_t j = (uint32_t)mix(par, sym) & (nslots - 1);
        while (slots[j] && (p->nodes[slots[j] - 1].parent != par ||
                            p->nodes[slots[j] - 1].sym != sym))
            j = (j + 1) & (nslots - 1);
        uint32_t to;
        if (slots[j]) {
            to = slots[j] - 1;
            for (uint32_t c = 0; c < nm; c++) {   /* sum, saturating */
                int64_t *d = &p->metrics[(size_t)to * nm + c];
                int64_t v = p->metrics[(size_t)i * nm + c];
                *d = v > INT64_MAX - *d ? INT64_MAX : *d + v;
            }
        } else {
            /* n <= i: node i's slot and metrics move down (or stay). */
            to = n++;
            p->nodes[to] = (rp_pnode){par, sym};
            if (to != i)
                memcpy(&p->metrics[(size_t)to * nm], &p->metrics[(size_t)i * nm],
                       nm * sizeof *p->metrics);
            slots[j] = to + 1;
        }
        nodemap[i] = to;
    }
    p->n_nodes = n;
    free(symmap);
    free(nodemap);
    free(slots);
    return 0;
}
