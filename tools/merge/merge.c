/* merge.c - the union of per-rank calling-context trees.
 *
 * Nodes are merged by address: a merged node is identified by
 * (merged parent, merged module, offset), where a merged module is a
 * (path, build-id) pair; MPI pseudo-frames are keyed by their interned
 * name and "<unknown>" by itself.  Each rank's nodes come parent-first
 * (rpfile guarantees parent < index), so one forward pass with a hash
 * lookup per node maps a rank's tree into the union: time and memory are
 * linear in the input.  Metrics are summed per column.
 *
 * Symbolisation happens afterwards, once per distinct (module, lookup
 * address): a node with children is a call site, looked up at offset-1.
 * Then fold.c folds the tree by what prints the same (function, file and
 * line of every frame), so its size follows the program's source, not the
 * number of distinct pcs a long run happens to sample.
 *
 * Phase statistics are not summed: after every phase-ending collective all
 * ranks hold the same k paths, so every rank records the same per-phase
 * costs.  The merge takes the statistics of the rank with the most phases
 * (lowest rank on ties) and warns if other ranks disagree. */
#define _GNU_SOURCE
#include "merge/merge.h"
#include "merge/fold.h"
#include "merge/prune.h"
#include "common/rankfiles.h"
#include "format/rpenc.h"
#include "format/rpfile.h"
#include "core/vocab.h"
#include "common/strtab.h"
#include "common/symbols.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MISSING_LINES 32u

/* ---- the merged tree --------------------------------------------------------- */

/* Merged module ids are 0..; the specials keep their RP_MOD_* values. */
typedef struct mmod {
    char      *path;
    uint8_t    build_id[64];
    uint32_t   build_id_len;
    rp_symmod *sym;          /* opened on first lookup */
} mmod;

typedef struct mnode {
    uint32_t parent, module;
    uint64_t offset;
} mnode;

typedef struct tree {
    mnode    *nodes;
    int64_t  *metrics;
    uint32_t  n, cap, nm;
    uint32_t *slots;         /* hash: node id + 1, 0 empty */
    uint32_t  nslots;
} tree;

static uint64_t node_hash(uint32_t parent, uint32_t module, uint64_t offset)
{
    uint64_t h = parent * 0x9E3779B97F4A7C15ull;
    h ^= (module + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= offset * 0x165667B19E3779F9ull;
    return h ^ (h >> 31);
}

static int tree_rehash(tree *t, uint32_t nslots)
{
    uint32_t *s = calloc(nslots, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t id = 1; id < t->n; id++) {
        mnode *m = &t->nodes[id];
        uint32_t i = (uint32_t)node_hash(m->parent, m->module, m->offset) & (nslots - 1);
        while (s[i])
            i = (i + 1) & (nslots - 1);
        s[i] = id + 1;
    }
    free(t->slots);
    t->slots = s;
    t->nslots = nslots;
    return 0;
}

static int tree_init(tree *t, uint32_t nm)
{
    memset(t, 0, sizeof *t);
    t->nm = nm;
    t->cap = 1024;
    t->nodes = malloc(t->cap * sizeof *t->nodes);
    t->metrics = calloc((size_t)t->cap * nm, sizeof *t->metrics);
    if (!t->nodes || !t->metrics || tree_rehash(t, 2048) != 0)
        return -1;
    t->nodes[0] = (mnode){UINT32_MAX, RP_MOD_ROOT, 0};
    t->n = 1;
    return 0;
}

static void tree_free(tree *t)
{
    free(t->nodes);
    free(t->metrics);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

/* Id of the child (module, offset) of parent, created if new; UINT32_MAX on ENOMEM. */
static uint32_t tree_child(tree *t, uint32_t parent, uint32_t module, uint64_t offset)
{
    uint32_t mask = t->nslots - 1;
    uint32_t i = (uint32_t)node_hash(parent, module, offset) & mask;
    while (t->slots[i]) {
        mnode *m = &t->nodes[t->slots[i] - 1];
        if (m->parent == parent && m->module == module && m->offset == offset)
            return t->slots[i] - 1;
        i = (i + 1) & mask;
    }
    if (t->n == UINT32_MAX - 1)
        return UINT32_MAX;
    if (t->n == t->cap) {
        uint32_t cap = t->cap * 2;
        mnode *nn = realloc(t->nodes, (size_t)cap * sizeof *nn);
        if (!nn)
            return UINT32_MAX;
        t->nodes = nn;
        int64_t *mm = realloc(t->metrics, (size_t)cap * t->nm * sizeof *mm);
        if (!mm)
            return UINT32_MAX;
        memset(mm + (size_t)t->cap * t->nm, 0, (size_t)(cap - t->cap) * t->nm * sizeof *mm);
        t->metrics = mm;
        t->cap = cap;
    }
    uint32_t id = t->n++;
    t->nodes[id] = (mnode){parent, module, offset};
    t->slots[i] = id + 1;
    if ((uint64_t)t->n * 2 > t->nslots && tree_rehash(t, t->nslots * 2) != 0) {
        t->n--;
        t->slots[i] = 0;
        return UINT32_MAX;
    }
    return id;
}

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

/* ---- merge state ------------------------------------------------------------- */

typedef struct mstate {
    const rp_merge_opts *o;
    tree      t;
    rp_strtab strs;
    mmod     *mods;
    uint32_t  n_mods, cap_mods;
    rp_rankdata first;        /* header of the first accepted rank (no arrays) */
    int       have_first;
    rp_phasestats stats;      /* chosen statistics (copy) */
    uint32_t  stats_rank;
    uint32_t  stats_differ;
    uint8_t  *present;        /* bitmap over nranks */
    uint32_t  ranks_present;
    rp_counter *counters;
    uint32_t  n_counters;
    int64_t   wall_ns;
} mstate;

static uint32_t module_id(mstate *s, const rp_module *m)
{
    /* Few modules per job (tens): a linear scan is cheaper than hashing. */
    for (uint32_t i = 0; i < s->n_mods; i++) {
        mmod *x = &s->mods[i];
        if (x->build_id_len == m->build_id_len &&
            memcmp(x->build_id, m->build_id, m->build_id_len) == 0 &&
            strcmp(x->path, m->path) == 0)
            return i;
    }
    if (s->n_mods == s->cap_mods) {
        uint32_t cap = s->cap_mods ? s->cap_mods * 2 : 32;
        mmod *n = realloc(s->mods, cap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        s->mods = n;
        s->cap_mods = cap;
    }
    mmod *x = &s->mods[s->n_mods];
    memset(x, 0, sizeof *x);
    x->path = strdup(m->path);
    if (!x->path)
        return UINT32_MAX;
    memcpy(x->build_id, m->build_id, m->build_id_len);
    x->build_id_len = m->build_id_len;
    return s->n_mods++;
}

static int stats_equal(const rp_phasestats *a, const rp_phasestats *b)
{
    if (a->k != b->k || a->nphases != b->nphases)
        return 0;
    for (uint32_t j = 0; j < a->k; j++)
        if (a->sum_ns[j] != b->sum_ns[j] || a->min_ns[j] != b->min_ns[j] ||
            a->max_ns[j] != b->max_ns[j])
            return 0;
    return 1;
}

static int stats_copy(rp_phasestats *dst, const rp_phasestats *src)
{
    phasestats_free(dst);
    if (phasestats_init(dst, src->k) != 0)
        return -1;
    dst->nphases = src->nphases;
    memcpy(dst->sum_ns, src->sum_ns, src->k * sizeof *dst->sum_ns);
    memcpy(dst->min_ns, src->min_ns, src->k * sizeof *dst->min_ns);
    memcpy(dst->max_ns, src->max_ns, src->k * sizeof *dst->max_ns);
    memcpy(dst->hist, src->hist, (size_t)src->k * RP_HIST_BINS * sizeof *dst->hist);
    return 0;
}

static int add_counters(mstate *s, const rp_rankdata *d)
{
    for (uint32_t i = 0; i < d->n_counters; i++) {
        uint32_t j;
        for (j = 0; j < s->n_counters; j++)
            if (strcmp(s->counters[j].name, d->counters[i].name) == 0)
                break;
        if (j == s->n_counters) {
            if (s->n_counters >= RP_MAX_COUNTERS)
                continue;
            rp_counter *n = realloc(s->counters, (s->n_counters + 1) * sizeof *n);
            if (!n)
                return -1;
            s->counters = n;
            s->counters[j] = d->counters[i];
            s->counters[j].value = 0;
            s->n_counters++;
        }
        uint64_t v = s->counters[j].value + d->counters[i].value;
        s->counters[j].value = v < s->counters[j].value ? UINT64_MAX : v;
    }
    return 0;
}

/* Check a rank's header against the first accepted one; NULL if it fits. */
static const char *mismatch(const mstate *s, const rp_rankdata *d, char *buf, size_t n)
{
    const rp_rankdata *f = &s->first;
    if (d->nranks != f->nranks)
        snprintf(buf, n, "nranks %u differs from %u in rank %u's file", d->nranks, f->nranks,
                 f->rank);
    else if (d->k != f->k)
        snprintf(buf, n, "k=%u differs from k=%u in rank %u's file", d->k, f->k, f->rank);
    else if (d->mode != f->mode || d->select != f->select)
        snprintf(buf, n, "mode/select %s/%s differ from %s/%s in rank %u's file",
                 profile_mode_name(d->mode), profile_select_name(d->select),
                 profile_mode_name(f->mode), profile_select_name(f->select), f->rank);
    else
        return NULL;
    return buf;
}

/* Merge one rank; -1 only on ENOMEM (fatal). */
static int merge_rank(mstate *s, const rp_rankdata *d)
{
    uint32_t *modmap = malloc((size_t)(d->n_modules ? d->n_modules : 1) * sizeof *modmap);
    uint32_t *mpimap = malloc((size_t)(d->n_mpi_names ? d->n_mpi_names : 1) * sizeof *mpimap);
    uint32_t *map = malloc((size_t)d->n_nodes * sizeof *map);
    int rc = -1;
    if (!modmap || !mpimap || !map)
        goto out;
    for (uint32_t i = 0; i < d->n_modules; i++)
        if ((modmap[i] = module_id(s, &d->modules[i])) == UINT32_MAX)
            goto out;
    for (uint32_t i = 0; i < d->n_mpi_names; i++)
        if ((mpimap[i] = strtab_intern(&s->strs, d->mpi_names[i])) == UINT32_MAX)
            goto out;
    map[0] = 0;
    uint32_t nm = d->n_metrics;
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        if (i > 0) {
            const rp_cctnode *c = &d->nodes[i];
            uint32_t mod = c->module;
            uint64_t off = c->offset;
            if (mod == RP_MOD_MPI)
                off = mpimap[off];
            else if (mod == RP_MOD_UNKNOWN)   /* a cause (RP_UNK_*), or a pc: one "<unknown>" */
                off = off < RP_UNK_N ? off : 0;
            else
                mod = modmap[mod];
            map[i] = tree_child(&s->t, map[c->parent], mod, off);
            if (map[i] == UINT32_MAX)
                goto out;
        }
        const int64_t *src = d->metrics + (size_t)i * nm;
        int64_t *dst = s->t.metrics + (size_t)map[i] * nm;
        for (uint32_t c = 0; c < nm; c++)
            if (src[c])
                dst[c] = sat_add(dst[c], src[c]);
    }
    if (add_counters(s, d) != 0)
        goto out;
    if (d->wall_ns > s->wall_ns)
        s->wall_ns = d->wall_ns;
    if (!s->stats.sum_ns || d->stats.nphases > s->stats.nphases) {
        if (s->stats.sum_ns && s->stats.nphases > 0)
            s->stats_differ++;
        if (stats_copy(&s->stats, &d->stats) != 0)
            goto out;
        s->stats_rank = d->rank;
    } else if (!stats_equal(&s->stats, &d->stats)) {
        s->stats_differ++;
    }
    rc = 0;
out:
    free(modmap);
    free(mpimap);
    free(map);
    return rc;
}

/* ---- symbolisation and output -------------------------------------------------- */

typedef struct symkey {
    uint32_t module;     /* merged module or RP_MOD_* */
    uint32_t callsite;
    uint64_t offset;
    uint32_t sym;
} symkey;

static int build_profile(mstate *s, rp_profile *p)
{
    tree *t = &s->t;
    int rc = -1;
    uint8_t *has_child = calloc(t->n, 1);
    symkey *keys = NULL;
    uint32_t *slots = NULL;
    uint32_t nslots = 64;
    while (nslots < 2 * t->n)
        nslots *= 2;
    slots = calloc(nslots, sizeof *slots);
    keys = malloc((size_t)t->n * sizeof *keys);
    p->nodes = malloc((size_t)t->n * sizeof *p->nodes);
    p->syms = malloc((size_t)t->n * sizeof *p->syms);
    uint32_t fcap = t->n + 16;
    p->frames = malloc((size_t)fcap * sizeof *p->frames);
    if (!has_child || !slots || !keys || !p->nodes || !p->syms || !p->frames)
        goto out;
    for (uint32_t i = 1; i < t->n; i++)
        has_child[t->nodes[i].parent] = 1;

    uint32_t nkeys = 0;
    p->nodes[0] = (rp_pnode){UINT32_MAX, UINT32_MAX};
    for (uint32_t i = 1; i < t->n; i++) {
        mnode *m = &t->nodes[i];
        uint32_t callsite = m->module < s->n_mods && has_child[i];
        uint64_t h = node_hash(callsite, m->module, m->offset);
        uint32_t j = (uint32_t)h & (nslots - 1);
        while (slots[j]) {
            symkey *k = &keys[slots[j] - 1];
            if (k->module == m->module && k->offset == m->offset && k->callsite == callsite)
                break;
            j = (j + 1) & (nslots - 1);
        }
        if (slots[j]) {
            p->nodes[i] = (rp_pnode){m->parent, keys[slots[j] - 1].sym};
            continue;
        }
        /* A new (module, address): resolve it once. */
        rp_symframe fr[RP_SYM_MAX_INLINE];
        uint32_t nf;
        rp_psym *y = &p->syms[p->n_syms];
        memset(y, 0, sizeof *y);
        y->offset = m->offset;
        if (m->module == RP_MOD_MPI || m->module == RP_MOD_UNKNOWN) {
            y->kind = m->module == RP_MOD_MPI ? RP_SYM_MPI : RP_SYM_UNKNOWN;
            /* "<unknown>" (offset 0) and its causes (offset RP_UNK_*). */
            static const char *const unk[RP_UNK_N] = RP_UNK_NAMES;
            fr[0].func = strdup(m->module == RP_MOD_MPI ? s->strs.strs[m->offset]
                                : m->offset < RP_UNK_N ? unk[m->offset] : "<unknown>");
            fr[0].file = strdup("");
            fr[0].line = 0;
            nf = 1;
            if (!fr[0].func || !fr[0].file) {
                symframe_free(fr, 1);
                goto out;
            }
        } else {
            mmod *mm = &s->mods[m->module];
            if (!mm->sym && !(mm->sym = symmod_open(s->o->prog, mm->path, mm->build_id,
                                                    mm->build_id_len)))
                goto out;
            int lines, fallback;
            nf = symmod_lookup(mm->sym, m->offset, (int)callsite, fr, RP_SYM_MAX_INLINE, &lines,
                               &fallback);
            if (nf == 0)
                goto out;
            y->kind = RP_SYM_FRAME;
            y->module = strtab_intern(&s->strs, mm->path);
            y->flags = (callsite ? RP_SYMF_CALLSITE : 0) | (lines ? RP_SYMF_LINES : 0) |
                       (fallback ? RP_SYMF_FALLBACK : 0);
        }
        if (p->n_frames + nf > fcap) {
            while (p->n_frames + nf > fcap)
                fcap *= 2;
            rp_pframe *nfr = realloc(p->frames, (size_t)fcap * sizeof *nfr);
            if (!nfr) {
                symframe_free(fr, nf);
                goto out;
            }
            p->frames = nfr;
        }
        y->first = p->n_frames;
        y->n = nf;
        for (uint32_t f = 0; f < nf; f++) {
            rp_pframe *pf = &p->frames[p->n_frames++];
            pf->func = strtab_intern(&s->strs, fr[f].func);
            pf->file = strtab_intern(&s->strs, fr[f].file);
            pf->line = fr[f].line;
            if (pf->func == UINT32_MAX || pf->file == UINT32_MAX) {
                symframe_free(fr, nf);
                goto out;
            }
        }
        symframe_free(fr, nf);
        if (y->module == UINT32_MAX)
            goto out;
        keys[nkeys] = (symkey){m->module, callsite, m->offset, p->n_syms};
        slots[j] = ++nkeys;
        p->nodes[i] = (rp_pnode){m->parent, p->n_syms++};
    }
    p->n_nodes = t->n;
    p->n_metrics = t->nm;
    p->metrics = t->metrics;     /* hand over; tree_free must not free it */
    t->metrics = NULL;
    rc = 0;
out:
    free(has_child);
    free(slots);
    free(keys);
    return rc;
}

/* Issue 13: a path's located time is an estimate (whole timer intervals,
 * scaled up for the summary reservoir; doc/design.md "Attribution") and is
 * off by the reservoir's sampling error, either way.  What the path sampled
 * is known exactly (sampled_us travels with it), and the runtime booked the
 * rest of the cost under "<unknown>"; so each path column's located part is
 * scaled to exactly cost - unknown: down when it overshoots (shown above, a
 * path would exceed its cost or the critical path), and up when it falls
 * short (a ratio estimator: the reservoir gives the split over contexts,
 * the exact sampled total its size; measured 63-100 % located before on the
 * 8-rank wavefront at 200 us, silently short).  Up only when every rank
 * file is present: a missing rank's share must not be spread over others. */
static void clamp_paths(rp_profile *p)
{
    /* Only profiles whose runtime books unknown time (it always writes the
     * cause nodes, core/vocab.h RP_UNK_*) make the located part an estimate
     * to cap; anything else is summed as written. */
    int books = 0;
    for (uint32_t i = 1; i < p->n_nodes && !books; i++) {
        const rp_psym *y = &p->syms[p->nodes[i].sym];
        books = y->kind == RP_SYM_UNKNOWN && y->offset > 0 && y->offset < RP_UNK_N;
    }
    if (!books)
        return;
    for (uint32_t j = 0; j < p->k && j < p->stats.k; j++) {
        uint32_t col = RP_MET_PATH0 + j;
        if (col >= p->n_metrics)
            break;
        int64_t loc = 0, unk = 0;
        for (uint32_t i = 1; i < p->n_nodes; i++) {
            int64_t v = p->metrics[(size_t)i * p->n_metrics + col];
            if (p->syms[p->nodes[i].sym].kind == RP_SYM_UNKNOWN)
                unk += v;
            else
                loc += v;
        }
        int64_t room = p->stats.sum_ns[j] - unk;
        if (room < 0)
            room = 0;
        if (loc == room || loc <= 0 || (loc < room && p->ranks_present < p->nranks))
            continue;
        double f = (double)room / (double)loc;
        for (uint32_t i = 1; i < p->n_nodes; i++)
            if (p->syms[p->nodes[i].sym].kind != RP_SYM_UNKNOWN) {
                int64_t *v = &p->metrics[(size_t)i * p->n_metrics + col];
                *v = (int64_t)((double)*v * f);
            }
    }
}

static void mstate_free(mstate *s)
{
    tree_free(&s->t);
    strtab_free(&s->strs);
    for (uint32_t i = 0; i < s->n_mods; i++) {
        free(s->mods[i].path);
        symmod_close(s->mods[i].sym);
    }
    free(s->mods);
    if (s->stats.sum_ns)
        phasestats_free(&s->stats);
    free(s->present);
    free(s->counters);
}

/* Where a merge's messages go: o->log, else stderr. */
static FILE *logf_of(const rp_merge_opts *o)
{
    return o->log ? o->log : stderr;
}

struct rp_merger {
    mstate s;
    int    fatal;   /* out of memory: the rest is not merged */
};

rp_merger *merger_new(const rp_merge_opts *o)
{
    rp_merger *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->s.o = o;
    if (strtab_init(&m->s.strs) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

int merger_wants(const rp_merger *m, uint32_t rank)
{
    const rp_merge_opts *o = m->s.o;
    return !o->only || (rank < o->only_n && (o->only[rank / 8] >> (rank % 8) & 1));
}

void merger_bad(rp_merger *m, const char *path, const char *why)
{
    fprintf(logf_of(m->s.o), "%s: %s: %s\n", m->s.o->prog, path, why);
}

int merger_add(rp_merger *m, const char *path, uint32_t rank, const rp_rankdata *d)
{
    mstate *s = &m->s;
    char why[256];
    const char *bad = NULL;
    if (m->fatal)
        return -1;
    if (d->rank != rank) {
        snprintf(why, sizeof why, "holds rank %u, not the rank its name says", d->rank);
        bad = why;
    } else if (s->have_first && (bad = mismatch(s, d, why, sizeof why)) != NULL) {
        /* bad set */
    } else if (s->present && (s->present[d->rank / 8] >> (d->rank % 8) & 1)) {
        snprintf(why, sizeof why, "second file for rank %u; ignored", d->rank);
        bad = why;
    }
    if (bad) {
        merger_bad(m, path, bad);
        return 0;
    }
    if (!s->have_first) {
        s->first = *d;   /* header fields only: the arrays stay the caller's */
        memset(&s->first.stats, 0, sizeof s->first.stats);
        s->first.counters = NULL;
        s->first.modules = NULL;
        s->first.mpi_names = NULL;
        s->first.nodes = NULL;
        s->first.metrics = NULL;
        s->first.tasks = NULL;     /* tasks, paths, edges: tools/common/paths.c reads them */
        s->first.pathsums = NULL;
        s->first.edges = NULL;
        s->first.phase_comp = NULL;
        s->have_first = 1;
        s->present = calloc(d->nranks / 8 + 1, 1);
        if (!s->present || tree_init(&s->t, d->n_metrics) != 0)
            m->fatal = 1;
    }
    if (!m->fatal && merge_rank(s, d) != 0)
        m->fatal = 1;
    if (m->fatal)
        return -1;
    s->present[d->rank / 8] |= (uint8_t)(1u << (d->rank % 8));
    s->ranks_present++;
    return 0;
}

void merger_free(rp_merger *m)
{
    if (!m)
        return;
    mstate_free(&m->s);
    free(m);
}

int merger_finish(rp_merger *m, const char *dir, const rp_jobpick *pick,
                  const uint32_t *franks, uint32_t nfiles, rp_profile *p)
{
    memset(p, 0, sizeof *p);
    mstate *s = &m->s;
    const rp_merge_opts *o = s->o;
    FILE *log = logf_of(o);
    int rc = -1;
    if (m->fatal)
        goto oom;
    if (s->ranks_present == 0) {
        fprintf(log, "%s: %s: none of the %u rank files could be read\n", o->prog, dir,
                nfiles);
        goto out;
    }

    /* Header, missing ranks. */
    const rp_rankdata *f = &s->first;
    p->ranks_present = s->ranks_present;
    p->nranks = f->nranks;
    p->k = f->k;
    p->mode = f->mode;
    p->select = f->select;
    p->summary_cap = f->summary_cap;
    p->period_us = f->period_us;
    p->clock = f->clock;
    p->phase_k = f->phase_k;
    p->wall_ns = s->wall_ns;
    memcpy(p->exe, f->exe, sizeof p->exe);
    if (pick->stale) {
        rankfiles_job_name(&pick->job, p->job, sizeof p->job);
        rankfiles_job_name(&pick->last, p->last_job, sizeof p->last_job);
    }
    if (pick->n_left) {
        rankfiles_job_name(&pick->job, p->job, sizeof p->job);
        p->n_jobs = pick->n_jobs;
        p->left_out = calloc(pick->n_left, sizeof *p->left_out);
        if (!p->left_out)
            goto oom;
        for (uint32_t i = 0; i < pick->n_left; i++) {
            char *x;
            if (asprintf(&x, "%s: %s", pick->left[i], pick->left_job[i]) < 0)
                goto oom;
            p->left_out[p->n_left_out++] = x;
        }
    }
    p->n_missing = f->nranks - s->ranks_present;
    p->missing = malloc((size_t)(p->n_missing ? p->n_missing : 1) * sizeof *p->missing);
    if (!p->missing)
        goto oom;
    uint32_t nm = 0, shown = 0, fi = 0;
    for (uint32_t r = 0; r < f->nranks; r++) {
        if (s->present[r / 8] >> (r % 8) & 1)
            continue;
        p->missing[nm++] = r;
        while (fi < nfiles && franks[fi] < r)
            fi++;
        int has_file = fi < nfiles && franks[fi] == r;
        for (uint32_t j = 0; j < pick->n_left && !has_file; j++)
            has_file = pick->left_ranks[j] == r;   /* named above as left out */
        if (!has_file && !o->quiet && !o->only && shown < MAX_MISSING_LINES) {
            fprintf(log, "%s: %s/rank-%05u.rpp: missing\n", o->prog, dir, r);
            shown++;
        }
    }
    if (nm > 0 && !o->only)
        fprintf(log, "%s: %s: %u of %u ranks missing or unreadable; merged the other %u\n",
                o->prog, dir, nm, f->nranks, s->ranks_present);
    if (s->stats_differ)
        fprintf(log,
                "%s: warning: phase statistics differ on %u rank(s); using rank %u's "
                "(%llu phases)\n",
                o->prog, s->stats_differ, s->stats_rank, (unsigned long long)s->stats.nphases);
    p->stats = s->stats;
    memset(&s->stats, 0, sizeof s->stats);
    p->counters = s->counters;
    p->n_counters = s->n_counters;
    s->counters = NULL;

    if (build_profile(s, p) != 0)
        goto oom;
    p->strs = strtab_take(&s->strs, &p->n_strs);   /* fold reads the names */
    if (profile_fold(p) != 0)
        goto oom;
    clamp_paths(p);
    if (profile_prune(p, o->min_share_pct, &p->n_folded) != 0)
        goto oom;
    p->min_share_pct = p->n_folded ? o->min_share_pct : 0;
    rc = 0;
    goto out;
oom:
    fprintf(log, "%s: %s: out of memory while merging\n", o->prog, dir);
    rc = -1;
out:
    if (rc != 0)
        profile_free(p);
    merger_free(m);
    return rc;
}

/* The pick's account of other jobs and of a stale claim (merge_dir's
 * messages); 0, or -1 when the merge must not go on (o->newest_job 0). */
static int say_pick(const char *dir, const rp_merge_opts *o, const rp_jobpick *pick)
{
    FILE *log = logf_of(o);
    if (pick->n_left) {
        /* One job per profile: never a mix (doc/robustness.md "Job identity"). */
        char kept[400];
        rankfiles_job_name(&pick->job, kept, sizeof kept);
        fprintf(log, "%s: %s: %s: the rank files belong to %u jobs; %s\n", o->prog, dir,
                o->newest_job ? "warning" : "error", pick->n_jobs,
                o->newest_job ? "merging only the newest" : "refusing to mix them");
        fprintf(log, "%s: %s: newest: %s, %u file%s\n", o->prog, dir, kept, pick->n_kept,
                pick->n_kept == 1 ? "" : "s");
        for (uint32_t i = 0; i < pick->n_left; i++)
            fprintf(log, "%s: %s: %s: %s\n", o->prog, pick->left[i],
                    o->newest_job ? "left out, another job" : "another job", pick->left_job[i]);
        if (!o->newest_job) {
            fprintf(log, "%s: %s: move the other jobs' files away, or merge the newest "
                         "job's with --newest-job\n", o->prog, dir);
            return -1;
        }
    }
    if (pick->stale) {
        char kept[400], last[400];
        rankfiles_job_name(&pick->job, kept, sizeof kept);
        rankfiles_job_name(&pick->last, last, sizeof last);
        fprintf(log, "%s: %s: %s: the last job to use this directory, %s, left no rank "
                     "file (it died before writing one); the rank files here are of an "
                     "older job, %s\n", o->prog, dir, o->newest_job ? "warning" : "error",
                last, kept);
        if (!o->newest_job) {
            fprintf(log, "%s: %s: merge them anyway with --newest-job\n", o->prog, dir);
            return -1;
        }
    }
    return 0;
}

int merge_list(const char *dir, const rp_merge_opts *o, const rp_jobpick *pick,
               const uint32_t *franks, char *const *fpaths, uint32_t nfiles, rp_profile *p)
{
    memset(p, 0, sizeof *p);
    /* a subset's merge (o->only) follows a whole-run report that has
     * named the other jobs already */
    if (!o->only && say_pick(dir, o, pick) != 0)
        return -1;
    if (nfiles == 0) {
        fprintf(logf_of(o), "%s: %s: no rank files (rank-NNNNN.rpp) found\n", o->prog, dir);
        return -1;
    }
    rp_merger *m = merger_new(o);
    if (!m) {
        fprintf(logf_of(o), "%s: %s: out of memory while merging\n", o->prog, dir);
        return -1;
    }
    for (uint32_t i = 0; i < nfiles; i++) {
        if (!merger_wants(m, franks[i]))
            continue;   /* not in the subset asked for */
        rp_rankdata d;
        char err[256];
        int fatal = 0;
        if (rpfile_read(fpaths[i], &d, err, sizeof err) != 0)
            merger_bad(m, fpaths[i], err);
        else
            fatal = merger_add(m, fpaths[i], franks[i], &d) != 0;
        rpfile_free(&d);   /* safe after a failed read too: it zeroes d */
        if (fatal)
            break;
    }
    return merger_finish(m, dir, pick, franks, nfiles, p);
}

int merge_dir(const char *dir, const rp_merge_opts *o, rp_profile *p)
{
    memset(p, 0, sizeof *p);
    uint32_t *franks;
    char **fpaths;
    uint32_t nfiles;
    rp_jobpick pick;
    if (rankfiles_list_job(dir, &franks, &fpaths, &nfiles, &pick) != 0) {
        if (pick.err[0])   /* a job file failing its checks */
            fprintf(logf_of(o), "%s: %s\n", o->prog, pick.err);
        else
            fprintf(logf_of(o), "%s: %s: %s\n", o->prog, dir, strerror(errno));
        return -1;
    }
    int rc = merge_list(dir, o, &pick, franks, fpaths, nfiles, p);
    rankfiles_pick_free(&pick);
    rankfiles_free(franks, fpaths, nfiles);
    return rc;
}
