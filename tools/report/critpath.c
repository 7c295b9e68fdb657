/* critpath.c - rp-report --format critpath (the critPath.out line
 * format of SPEC §4) and the task sequences of the text
 * report, all from the full paths of paths.c.
 *
 * critPath.out: one line per vertex ("MPI_Send 0": the function as MPI
 * spells it, a space, the world rank; -1 for MPI_Init, MPI_Finalize and
 * collectives) and one per edge (a task: its seconds rounded to the nearest
 * integer by default, as the format prescribes, or with --digits N
 * decimals, which real codes need: their tasks are milliseconds; a message:
 * its payload bytes), alternating, from MPI_Init to MPI_Finalize.  A path of phase q ends at the phase-ending collective and
 * the path of phase q+1 starts there, so that vertex is printed once. */
#include "common/graph.h"
#include "common/paths.h"
#include "report/critpath.h"
#include "report/warnings.h"
#include "common/symbols.h"

#include <stdlib.h>
#include <string.h>

static const char *step_fn(const rp_run *run, const rp_step *st, int end)
{
    if (!st->task)
        return "MPI_?";
    return run_fn_name(run, st->rank, end ? st->task->end_fn : st->task->start_fn);
}

static void vertex(FILE *f, const char *name, uint32_t rank)
{
    if (run_fn_global(name))
        fprintf(f, "%s -1\n", name);
    else
        fprintf(f, "%s %u\n", name, rank);
}

/* The paths of every phase for slot j: path mode reassembles them, trace
 * mode computes the longest offline (j must be 0).  *out[nphases]. */
static int collect(const rp_run *run, uint32_t j, rp_fullpath **out, uint64_t *n,
                   rp_graph *g)
{
    *out = NULL;
    *n = 0;
    if (run->mode == RP_MODE_PATH) {
        rp_fullpath *v = calloc(run->nphases ? run->nphases : 1, sizeof *v);
        if (!v)
            return -1;
        for (uint64_t q = 0; q < run->nphases; q++)
            if (run_npaths(run, q) > j && run_fullpath(run, q, j, &v[q]) != 0) {
                fprintf(stderr, "%s: out of memory reassembling phase %llu\n", run->prog,
                        (unsigned long long)q);
                for (uint64_t i = 0; i < q; i++)
                    fullpath_free(&v[i]);
                free(v);
                return -1;
            }
        *out = v;
        *n = run->nphases;
        return 0;
    }
    if (run->mode != RP_MODE_TRACE) {
        fprintf(stderr, "%s: this is a prof-mode run: it has path profiles, not full paths; "
                "rerun with RP_MODE=path (or RP_MODE=trace)\n", run->prog);
        return -1;
    }
    if (graph_build(run, g) != 0) {
        fprintf(stderr, "%s: out of memory building the task graph\n", run->prog);
        return -1;
    }
    if (g->stuck) {
        fprintf(stderr, "%s: the task graph is incomplete: %s\n", run->prog, g->why);
        return -1;
    }
    rp_fullpath *v = calloc(g->nphases ? g->nphases : 1, sizeof *v);
    if (!v)
        return -1;
    for (uint64_t q = 0; q < g->nphases; q++)
        if (graph_critpath(g, q, &v[q]) != 0)
            fprintf(stderr, "%s: no critical path for phase %llu\n", run->prog,
                    (unsigned long long)q);
    *out = v;
    *n = g->nphases;
    return 0;
}

static void free_paths(rp_fullpath *v, uint64_t n)
{
    for (uint64_t q = 0; q < n; q++)
        fullpath_free(&v[q]);
    free(v);
}

int report_critpath(FILE *f, const rp_run *run)
{
    return report_critpath_digits(f, run, 0);
}

int report_critpath_digits(FILE *f, const rp_run *run, uint32_t digits)
{
    if (digits > 9)
        digits = 9;
    uint64_t tasks = 0, zero = 0;
    rp_graph g;
    memset(&g, 0, sizeof g);
    rp_fullpath *v;
    uint64_t n;
    if (collect(run, 0, &v, &n, &g) != 0) {
        graph_free(&g);
        return -1;
    }
    const rp_step *last = NULL;
    uint64_t gaps = 0, missing = 0, cut = 0;
    int64_t tail_ns = 0;
    for (uint64_t q = 0; q < n; q++) {
        const rp_fullpath *p = &v[q];
        missing += p->n_missing;
        if (p->flags & RP_PATH_OVERFLOW) {
            cut++;
            tail_ns += p->tail_ns;
        }
        for (size_t i = 0; i < p->n; i++) {
            const rp_step *st = &p->steps[i];
            if (i == 0) {
                /* a phase starts where the previous one ended (printed) */
                if (!last)
                    vertex(f, step_fn(run, st, 0), st->rank);
                else
                    vertex(f, step_fn(run, last, 1), last->rank);
            } else {
                vertex(f, step_fn(run, last, 1), last->rank);
                if (st->via == RP_VIA_MSG) {
                    fprintf(f, "%u\n", st->bytes);
                    vertex(f, step_fn(run, st, 0), st->rank);
                } else if (st->via == RP_VIA_GAP) {   /* (COLL, and JOIN, which at k = 1
                                                          * is a collective: no edge) */
                    gaps++;
                    /* keep vertices and edges alternating: the missing
                     * stretch shows as a 0 edge */
                    fputs("0\n", f);
                    vertex(f, step_fn(run, st, 0), st->rank);
                }
            }
            int64_t ns = st->task ? st->task->cost_ns : 0;
            tasks++;
            if (digits == 0) {   /* seconds rounded to the nearest integer, halves up */
                long long s = (long long)((ns + 500000000) / 1000000000);
                zero += s == 0;
                fprintf(f, "%lld\n", s);
            } else {             /* exact decimal from integer ns, no float rounding */
                long long s = (long long)(ns / 1000000000), frac = (long long)(ns % 1000000000);
                static const long long div[10] = {1000000000, 100000000, 10000000, 1000000,
                                                  100000,     10000,     1000,     100,
                                                  10,         1};
                long long d = div[digits];
                long long fr = (frac + d / 2) / d;   /* rounded to `digits` decimals */
                if (fr >= div[0] / d) {
                    s++;
                    fr = 0;
                }
                fprintf(f, "%lld.%0*lld\n", s, (int)digits, fr);
            }
            last = st;
        }
    }
    if (last)
        vertex(f, step_fn(run, last, 1), last->rank);
    if (digits == 0 && tasks > 1 && zero * 2 > tasks)
        fprintf(stderr, "%s: note: %llu of %llu task edges round to 0 s; --digits 6 prints "
                "them in microseconds\n", run->prog, (unsigned long long)zero,
                (unsigned long long)tasks);
    if (gaps || missing)
        fprintf(stderr, "%s: warning: the critical path is incomplete (%llu task(s) missing, "
                "%llu gap(s))\n", run->prog, (unsigned long long)missing,
                (unsigned long long)gaps);
    if (cut)
        fprintf(stderr, "%s: warning: the critical path is incomplete: in %llu phase(s) it "
                "lost track (summary full without a chain, or a task without an index); the "
                "last %.3f s of it are not in this file (raise RP_CHAIN or RP_BUFFER, or "
                "RP_MODE=trace)\n", run->prog, (unsigned long long)cut, (double)tail_ns / 1e9);
    free_paths(v, n);
    graph_free(&g);
    return ferror(f) ? -1 : 0;
}

/* ---- text: task sequences ------------------------------------------------------- */

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Call sites: the CCT node of a task's end is the MPI pseudo-frame under
 * the user's call site; that frame is symbolised (modules opened once). */
typedef struct symcache {
    char      **path;
    rp_symmod **mod;
    uint32_t    n, cap;
} symcache;

static void callsite(symcache *c, const rp_run *run, const rp_step *st, char *buf, size_t n)
{
    buf[0] = 0;
    if (!st->task || !st->task->callsite)
        return;
    const rp_rankdata *d = &run->rd[st->rank];
    uint32_t node = st->task->callsite;
    if (d->nodes[node].module == RP_MOD_MPI)
        node = d->nodes[node].parent;
    if (node == 0 || node == UINT32_MAX || node >= d->n_nodes ||
        d->nodes[node].module >= d->n_modules)
        return;
    const rp_module *m = &d->modules[d->nodes[node].module];
    rp_symmod *sm = NULL;
    for (uint32_t i = 0; i < c->n && !sm; i++)
        if (!strcmp(c->path[i], m->path))
            sm = c->mod[i];
    if (!sm) {
        if (c->n == c->cap) {
            uint32_t nc = c->cap ? c->cap * 2 : 8;
            char **np = realloc(c->path, nc * sizeof *np);
            if (!np)
                return;
            c->path = np;
            rp_symmod **nm = realloc(c->mod, nc * sizeof *nm);
            if (!nm)
                return;
            c->mod = nm;
            c->cap = nc;
        }
        char *dup = strdup(m->path);
        if (!dup)
            return;
        sm = symmod_open(run->prog, m->path, m->build_id, m->build_id_len);
        c->path[c->n] = dup;
        c->mod[c->n++] = sm;
    }
    rp_symframe fr[RP_SYM_MAX_INLINE];
    int dl = 0, fb = 0;
    uint32_t k = symmod_lookup(sm, d->nodes[node].offset, 1, fr, RP_SYM_MAX_INLINE, &dl, &fb);
    if (k == 0)
        return;
    const rp_symframe *in = &fr[k - 1];
    if (in->file[0] && in->line)
        snprintf(buf, n, "  @ %s (%s:%u)", fr[0].func, base(in->file), in->line);
    else
        snprintf(buf, n, "  @ %s", fr[0].func);
    symframe_free(fr, k);
}

int report_paths_text(FILE *f, const rp_run *run, uint32_t max_steps, uint32_t max_phases)
{
    if (run->mode != RP_MODE_PATH)
        return 0;
    symcache sc = {0};
    fprintf(f, "\nFull paths (RP_MODE=path): per phase, each selected path's tasks in order\n"
            "  (rank:event, task seconds, the MPI calls that start and end it, how the path\n"
            "   reached the rank; long phases are cut to their first and last tasks)\n");
    uint64_t nq = run->nphases;
    for (uint64_t q = 0; q < nq; q++) {
        if (q == max_phases && nq > max_phases + 1) {
            fprintf(f, "\n  ... %llu more phases (rp-report --format dot or critpath shows "
                    "them all)\n", (unsigned long long)(nq - max_phases));
            break;
        }
        uint32_t np = run_npaths(run, q);
        for (uint32_t j = 0; j < np; j++) {
            rp_fullpath p;
            if (run_fullpath(run, q, j, &p) != 0)
                break;
            fprintf(f, "\n  phase %llu, path %u of %u: %.6f s, %zu task%s", (unsigned long long)q,
                    j, np, (double)p.cost_ns / 1e9, p.n, p.n == 1 ? "" : "s");
            if (p.flags & RP_PATH_OVERFLOW)
                fprintf(f, ", summary full: the first %.6f s rebuilt, the last %.6f s not",
                        (double)(p.cost_ns - p.tail_ns) / 1e9, (double)p.tail_ns / 1e9);
            if (p.n_missing)
                fprintf(f, ", %u task(s) missing", p.n_missing);
            fputc('\n', f);
            for (size_t i = 0; i < p.n; i++) {
                if (max_steps && p.n > max_steps && i == max_steps / 2) {
                    fprintf(f, "      ... %zu tasks ...\n", p.n - max_steps);
                    i = p.n - (max_steps - max_steps / 2) - 1;
                    continue;
                }
                const rp_step *st = &p.steps[i];
                char via[64] = "";
                if (st->via == RP_VIA_MSG && i > 0)
                    snprintf(via, sizeof via, "  <- msg %u B from %u", st->bytes,
                             p.steps[i - 1].rank);
                else if (st->via == RP_VIA_COLL && i > 0)
                    snprintf(via, sizeof via, "  <- collective from %u", p.steps[i - 1].rank);
                else if (st->via == RP_VIA_JOIN && i > 0)
                    snprintf(via, sizeof via, "  <- joined from %u (collective or message)",
                             p.steps[i - 1].rank);
                else if (st->via == RP_VIA_GAP)
                    snprintf(via, sizeof via, "  <- (gap: tasks missing)");
                const char *a = st->task ? run_fn_name(run, st->rank, st->task->start_fn) : "?";
                const char *b = st->task ? run_fn_name(run, st->rank, st->task->end_fn) : "?";
                char cs[512];
                callsite(&sc, run, st, cs, sizeof cs);
                fprintf(f, "    %5u:%-8llu %12.6f s  %s .. %s%s%s\n", st->rank,
                        (unsigned long long)st->event,
                        st->task ? (double)st->task->cost_ns / 1e9 : 0.0, a, b, cs, via);
            }
            if (p.flags & RP_PATH_OVERFLOW)
                fprintf(f, "    ... tail not rebuilt: %.6f s after the path lost track "
                        "(RP_CHAIN, RP_BUFFER; rp-report --check says PARTIAL)\n",
                        (double)p.tail_ns / 1e9);
            fullpath_free(&p);
        }
    }
    for (uint32_t i = 0; i < sc.n; i++) {
        free(sc.path[i]);
        symmod_close(sc.mod[i]);
    }
    free(sc.path);
    free(sc.mod);
    return ferror(f) ? -1 : 0;
}
