/* dot.c - rp-report --format dot: Graphviz DOT.
 *
 * Trace mode: the whole program activity graph (paths.c, graph_dot): one
 * lane (cluster) per rank, one shared vertex for MPI_Init and for each
 * collective instance, task edges labelled with seconds (three decimals),
 * message edges (dashed) with "(bytes)"; the critical path in red, every
 * other edge black.
 *
 * Path mode: the k selected paths of every phase.  Vertices are events
 * (rank:event) in per-rank lanes; MPI_Init and each phase-ending collective
 * are one shared vertex; a collective through which a path moves from one
 * rank to another is drawn as one vertex.  Each path's edges get its own
 * colour: the 100 % path red, the others from a palette named in the
 * graph's label.
 *
 * --phase N keeps one phase (path mode: its k paths; trace mode: its
 * critical path, drawn as in path mode, since the whole-graph writer of
 * paths.c knows no phases).  A DOT of a real trace runs to megabytes, so
 * the size is said on stderr when it passes DOT_BIG_EDGES. */
#include "common/graph.h"
#include "common/paths.h"
#include "report/dot.h"

#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {"red",    "blue",  "darkgreen", "orange", "purple",
                                      "brown",  "cyan4", "magenta",   "gold3",  "gray40"};
#define NPAL (sizeof palette / sizeof *palette)

/* vertex table: name -> (lane rank or -1, label), declared once */
typedef struct vtx {
    char    *name;
    char    *label;
    int64_t  lane;
} vtx;

typedef struct vset {
    vtx     *v;
    uint64_t n, cap;
    uint64_t *slot;     /* index + 1 */
    uint64_t nslot;
    int      failed;
} vset;

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

static void vadd(vset *s, const char *name, int64_t lane, const char *label)
{
    if (s->failed)
        return;
    if ((s->n + 1) * 2 > s->nslot) {
        uint64_t nn = s->nslot ? s->nslot * 2 : 1024;
        uint64_t *ns = calloc(nn, sizeof *ns);
        if (!ns) {
            s->failed = 1;
            return;
        }
        for (uint64_t i = 0; i < s->n; i++) {
            uint64_t h = fnv(s->v[i].name) & (nn - 1);
            while (ns[h])
                h = (h + 1) & (nn - 1);
            ns[h] = i + 1;
        }
        free(s->slot);
        s->slot = ns;
        s->nslot = nn;
    }
    uint64_t h = fnv(name) & (s->nslot - 1);
    while (s->slot[h]) {
        if (!strcmp(s->v[s->slot[h] - 1].name, name))
            return;
        h = (h + 1) & (s->nslot - 1);
    }
    if (s->n == s->cap) {
        uint64_t nc = s->cap ? s->cap * 2 : 256;
        vtx *nv = realloc(s->v, nc * sizeof *nv);
        if (!nv) {
            s->failed = 1;
            return;
        }
        s->v = nv;
        s->cap = nc;
    }
    vtx *x = &s->v[s->n];
    x->name = strdup(name);
    x->label = strdup(label);
    x->lane = lane;
    if (!x->name || !x->label) {
        free(x->name);
        free(x->label);
        s->failed = 1;
        return;
    }
    s->slot[h] = ++s->n;
}

static void vfree(vset *s)
{
    for (uint64_t i = 0; i < s->n; i++) {
        free(s->v[i].name);
        free(s->v[i].label);
    }
    free(s->v);
    free(s->slot);
}

static const char *fn(const rp_run *run, const rp_step *st, int end)
{
    if (!st->task)
        return "MPI_?";
    return run_fn_name(run, st->rank, end ? st->task->end_fn : st->task->start_fn);
}

/* the vertex a step starts at / ends at */
static void start_vertex(const rp_run *run, const rp_fullpath *p, size_t i, char *name,
                         size_t n, char *label, size_t ln, int64_t *lane);

static void end_vertex(const rp_run *run, const rp_fullpath *p, size_t i, char *name,
                       size_t n, char *label, size_t ln, int64_t *lane)
{
    const rp_step *st = &p->steps[i];
    const char *f = fn(run, st, 1);
    if (i + 1 == p->n) {   /* the phase-ending collective, shared */
        snprintf(name, n, "phase%llu_end", (unsigned long long)p->phase);
        snprintf(label, ln, "%s -1", f);
        *lane = -1;
        return;
    }
    if (p->steps[i + 1].via == RP_VIA_COLL) {
        /* one vertex for the collective the path moves through */
        snprintf(name, n, "r%ue%llu", st->rank, (unsigned long long)st->event);
        snprintf(label, ln, "%s -1", f);
        *lane = -1;
        return;
    }
    /* a collective the path does not leave the rank through: in its lane */
    snprintf(name, n, "r%ue%llu", st->rank, (unsigned long long)st->event);
    snprintf(label, ln, run_fn_global(f) ? "%s -1" : "%s %u", f, st->rank);
    *lane = st->rank;
}

static void start_vertex(const rp_run *run, const rp_fullpath *p, size_t i, char *name,
                         size_t n, char *label, size_t ln, int64_t *lane)
{
    const rp_step *st = &p->steps[i];
    if (i == 0) {
        if (p->phase == 0 || st->event == 1) {
            snprintf(name, n, "init");
            snprintf(label, ln, "%s -1", fn(run, st, 0));
        } else {
            snprintf(name, n, "phase%llu_end", (unsigned long long)p->phase - 1);
            snprintf(label, ln, "%s -1", fn(run, st, 0));
        }
        *lane = -1;
        return;
    }
    if (st->via == RP_VIA_SEQ || st->via == RP_VIA_COLL) {
        end_vertex(run, p, i - 1, name, n, label, ln, lane);
        return;
    }
    const char *f = fn(run, st, 0);
    snprintf(name, n, "r%ue%llu", st->rank, (unsigned long long)st->event - 1);
    snprintf(label, ln, run_fn_global(f) ? "%s -1" : "%s %u", f, st->rank);
    *lane = st->rank;
}

#define DOT_BIG_EDGES 5000u

/* Where the drawn paths come from: path mode's reassembled paths, or trace
 * mode's critical path of a phase. */
typedef struct dot_src {
    const rp_run   *run;
    const rp_graph *g;        /* trace mode */
    uint64_t        q0, q1;   /* phases [q0, q1) */
} dot_src;

static uint32_t src_npaths(const dot_src *s, uint64_t q)
{
    return s->g ? 1 : run_npaths(s->run, q);
}

static int src_path(const dot_src *s, uint64_t q, uint32_t j, rp_fullpath *p)
{
    if (s->g) {
        memset(p, 0, sizeof *p);
        return graph_critpath(s->g, q, p);
    }
    return run_fullpath(s->run, q, j, p);
}

static void size_note(const rp_run *run, uint64_t nv, uint64_t ne, int one_phase)
{
    if (ne > DOT_BIG_EDGES)
        fprintf(stderr, "%s: note: the DOT has %llu vertices and %llu edges%s\n", run->prog,
                (unsigned long long)nv, (unsigned long long)ne,
                one_phase ? "" : "; --phase N draws one phase");
}

static int dot_paths(FILE *f, const dot_src *src)
{
    const rp_run *run = src->run;
    uint64_t nedges = 0;
    vset vs = {0};
    /* pass 1: vertices; pass 2: edges */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (vs.failed)
                goto oom;
            fputs("digraph rpprof {\n  rankdir=LR;\n  newrank=true;\n  node [shape=box, fontsize=10];\n"
                  "  edge [fontsize=9];\n", f);
            if (src->g)
                fputs("  label=\"rpprof: the critical path (red)", f);
            else {
                fprintf(f, "  label=\"rpprof: %u representative paths per phase (", run->k);
                for (uint32_t j = 0; j < run->k && j < NPAL; j++)
                    fprintf(f, "%s%s = path %u", j ? ", " : "", palette[j], j);
                fputs("; path 0 is the most critical)", f);
            }
            if (src->q1 - src->q0 == 1 && run->nphases > 1)
                fprintf(f, " of phase %llu of %llu", (unsigned long long)src->q0,
                        (unsigned long long)run->nphases);
            fputs("; task edges in seconds, messages in (bytes)\";\n", f);
            for (uint64_t i = 0; i < vs.n; i++)
                if (vs.v[i].lane < 0)
                    fprintf(f, "  %s [label=\"%s\"];\n", vs.v[i].name, vs.v[i].label);
            for (uint32_t r = 0; r < run->nranks; r++) {
                int any = 0;
                for (uint64_t i = 0; i < vs.n; i++) {
                    if (vs.v[i].lane != (int64_t)r)
                        continue;
                    if (!any)
                        fprintf(f, "  subgraph cluster_rank%u {\n    label=\"rank %u\";\n", r, r);
                    any = 1;
                    fprintf(f, "    %s [label=\"%s\"];\n", vs.v[i].name, vs.v[i].label);
                }
                if (any)
                    fputs("  }\n", f);
            }
        }
        for (uint64_t q = src->q0; q < src->q1; q++) {
            uint32_t np = src_npaths(src, q);
            for (uint32_t j = 0; j < np; j++) {
                rp_fullpath p;
                if (src_path(src, q, j, &p) != 0) {
                    if (src->g)   /* no critical path for this phase: nothing to draw */
                        continue;
                    goto oom;
                }
                const char *col = palette[j < NPAL ? j : NPAL - 1];
                for (size_t i = 0; i < p.n; i++) {
                    char a[64], b[64], la[300], lb[300];
                    int64_t lna, lnb;
                    start_vertex(run, &p, i, a, sizeof a, la, sizeof la, &lna);
                    end_vertex(run, &p, i, b, sizeof b, lb, sizeof lb, &lnb);
                    const rp_step *st = &p.steps[i];
                    if (pass == 0) {
                        vadd(&vs, a, lna, la);
                        vadd(&vs, b, lnb, lb);
                        continue;
                    }
                    if (i > 0 && (st->via == RP_VIA_MSG || st->via == RP_VIA_GAP ||
                                  st->via == RP_VIA_JOIN)) {
                        char c[64], lc[300];
                        int64_t lnc;
                        end_vertex(run, &p, i - 1, c, sizeof c, lc, sizeof lc, &lnc);
                        nedges++;
                        if (st->via == RP_VIA_MSG)
                            fprintf(f, "  %s -> %s [label=\"(%u)\", style=dashed, color=%s];\n",
                                    c, a, st->bytes, col);
                        else if (st->via == RP_VIA_JOIN)   /* collective or message */
                            fprintf(f, "  %s -> %s [label=\"join\", style=dashed, color=%s];\n",
                                    c, a, col);
                        else
                            fprintf(f, "  %s -> %s [label=\"?\", style=dotted, color=%s];\n", c,
                                    a, col);
                    }
                    nedges++;
                    fprintf(f, "  %s -> %s [label=\"%.3f\", color=%s%s];\n", a, b,
                            st->task ? (double)st->task->cost_ns / 1e9 : 0.0, col,
                            j == 0 ? ", penwidth=2" : "");
                }
                fullpath_free(&p);
            }
        }
    }
    fputs("}\n", f);
    size_note(run, vs.n, nedges, src->q1 - src->q0 == 1);
    vfree(&vs);
    return ferror(f) ? -1 : 0;
oom:
    fprintf(stderr, "%s: out of memory writing DOT\n", run->prog);
    vfree(&vs);
    return -1;
}

int report_dot(FILE *f, const rp_run *run)
{
    return report_dot_phase(f, run, -1);
}

int report_dot_phase(FILE *f, const rp_run *run, int64_t phase)
{
    if (run->mode == RP_MODE_PATH && phase >= 0 && (uint64_t)phase >= run->nphases) {
        fprintf(stderr, "%s: --phase %lld out of range: this run has %llu phase%s (0..%llu)\n",
                run->prog, (long long)phase, (unsigned long long)run->nphases,
                run->nphases == 1 ? "" : "s",
                (unsigned long long)(run->nphases ? run->nphases - 1 : 0));
        return -1;
    }
    dot_src src = {run, NULL, phase < 0 ? 0 : (uint64_t)phase,
                   phase < 0 ? run->nphases : (uint64_t)phase + 1};
    if (run->mode == RP_MODE_PATH)
        return dot_paths(f, &src);
    if (run->mode != RP_MODE_TRACE) {
        fprintf(stderr, "%s: this is a prof-mode run: it has path profiles, not full paths; "
                "rerun with RP_MODE=path (or RP_MODE=trace) for --format dot\n", run->prog);
        return -1;
    }
    rp_graph g;
    if (graph_build(run, &g) != 0) {
        fprintf(stderr, "%s: out of memory building the task graph\n", run->prog);
        return -1;
    }
    if (g.stuck)
        fprintf(stderr, "%s: warning: the task graph is incomplete (%s); "
                "no critical path marked\n", run->prog, g.why);
    if (phase >= 0) {   /* one phase: its critical path */
        if (g.stuck || (uint64_t)phase >= g.nphases) {
            if (!g.stuck)
                fprintf(stderr, "%s: --phase %lld out of range: the task graph has %llu "
                        "phase(s)\n", run->prog, (long long)phase,
                        (unsigned long long)g.nphases);
            graph_free(&g);
            return -1;
        }
        src.q1 = (uint64_t)phase + 1;
        src.g = &g;
        int rc = dot_paths(f, &src);
        graph_free(&g);
        return rc;
    }
    uint64_t ntask = 0, nedge = 0;
    for (uint32_t r = 0; r < run->nranks; r++)
        if (run->present[r]) {
            ntask += run->rd[r].n_tasks;
            nedge += run->rd[r].n_edges;
        }
    size_note(run, ntask, ntask + nedge, 0);
    rp_fullpath *crit = calloc(g.nphases ? g.nphases : 1, sizeof *crit);
    if (!crit) {
        graph_free(&g);
        return -1;
    }
    if (!g.stuck)
        for (uint64_t q = 0; q < g.nphases; q++)
            graph_critpath(&g, q, &crit[q]);
    int rc = graph_dot(f, &g, crit, g.nphases);
    for (uint64_t q = 0; q < g.nphases; q++)
        fullpath_free(&crit[q]);
    free(crit);
    graph_free(&g);
    return rc;
}
