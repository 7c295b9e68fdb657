/* paths.c - the rank files of a measurement directory, and the full paths
 * of path mode read back from them (see paths.h; the trace graph is
 * graph.c).
 *
 * Path mode.  Every rank wrote the same path summaries (per phase, per
 * selected path: intervals rank:[low, high] of that rank's task-buffer
 * indices) and its own tasks lying on some selected path (path_mask bit j).
 * Path j of phase q is the concatenation over its intervals of rank r's
 * tasks of phase q with low <= idx <= high.  Between two intervals on
 * different ranks the path moved by a message (the first task of the new
 * interval names the sender in msg_src) or by a collective (set_via). */

#define _GNU_SOURCE
#include "common/paths.h"
#include "common/rankfiles.h"
#include "core/select.h"
#include "common/gen_fncoll.h"   /* rp_gen_coll_names (generated from the signature table) */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- loading ------------------------------------------------------------- */

void run_begin(rp_run *run, const char *prog)
{
    memset(run, 0, sizeof *run);
    run->prog = prog;
}

void run_bad(const rp_run *run, const char *path, const char *why)
{
    fprintf(stderr, "%s: %s: %s\n", run->prog, path, why);
}

int run_add(rp_run *run, const char *path, uint32_t rank, rp_rankdata *d)
{
    const char *prog = run->prog;
    int have = run->rd != NULL;
    const char *bad = NULL;
    if (run->failed) {
        rpfile_free(d);
        return -1;
    }
    if (d->rank != rank)
        bad = "holds another rank than its name says";
    else if (have && (d->nranks != run->nranks || d->k != run->k || d->mode != run->mode))
        bad = "from another run (nranks, k or mode differ); ignored";
    else if (have && run->present[d->rank])
        bad = "second file for this rank; ignored";
    if (bad) {
        run_bad(run, path, bad);
        rpfile_free(d);
        return 0;
    }
    if (!have) {
        run->nranks = d->nranks;
        run->k = d->k;
        run->mode = d->mode;
        run->rd = calloc(d->nranks, sizeof *run->rd);
        run->present = calloc(d->nranks, 1);
        if (!run->rd || !run->present) {
            rpfile_free(d);
            fprintf(stderr, "%s: out of memory\n", prog);
            run->failed = 1;
            return -1;
        }
    }
    /* d->rank == rank (checked above) */
    run->present[rank] = 1;
    run->n_present++;
    if (d->wall_ns > run->wall_ns)
        run->wall_ns = d->wall_ns;
    run->rd[rank] = *d;
    memset(d, 0, sizeof *d);   /* the run owns its arrays now */
    return 0;
}

int run_load(const char *dir, const char *prog, rp_run *run)
{
    run_begin(run, prog);
    uint32_t *ranks, n;
    char **paths;
    if (rankfiles_list(dir, &ranks, &paths, &n) != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        rp_rankdata d;
        char err[256];
        if (rpfile_read(paths[i], &d, err, sizeof err) != 0) {
            run_bad(run, paths[i], err);
            continue;
        }
        if (run_add(run, paths[i], ranks[i], &d) != 0)
            break;
    }
    int rc = run_finish(run, dir, n);
    rankfiles_free(ranks, paths, n);
    return rc;
}

int run_finish(rp_run *run, const char *dir, uint32_t n)
{
    const char *prog = run->prog;
    int rc = -1, have = run->rd != NULL;
    if (n == 0) {
        fprintf(stderr, "%s: %s: no rank files (rank-NNNNN.rpp) found\n", prog, dir);
        goto out;
    }
    if (run->failed)
        goto out;
    if (!have) {
        fprintf(stderr, "%s: %s: none of the %u rank files could be read\n", prog, dir, n);
        goto out;
    }
    if (run->n_present < run->nranks) {
        uint32_t shown = 0;
        for (uint32_t r = 0; r < run->nranks && shown < 16; r++)
            if (!run->present[r]) {
                fprintf(stderr, "%s: %s: rank %u missing or unreadable\n", prog, dir, r);
                shown++;
            }
        fprintf(stderr, "%s: %s: %u of %u ranks missing; paths through them are incomplete\n",
                prog, dir, run->nranks - run->n_present, run->nranks);
    }
    /* The path summaries: every rank holds the same; a writer may keep the
     * intervals on one rank only (the others costs only), so take the
     * lowest rank with the most intervals. */
    uint64_t best = 0;
    for (uint32_t r = 0; r < run->nranks; r++) {
        if (!run->present[r])
            continue;
        uint64_t niv = 0;
        for (uint32_t i = 0; i < run->rd[r].n_pathsums; i++)
            niv += run->rd[r].pathsums[i].n_iv;
        if (!run->first || niv > best) {
            run->first = &run->rd[r];
            best = niv;
        }
    }
    /* phases of the path summaries (sorted by (phase, path): rpfile checked) */
    const rp_rankdata *f = run->first;
    run->nphases = f->n_pathsums ? f->pathsums[f->n_pathsums - 1].phase + 1 : 0;
    if (run->nphases > (uint64_t)f->n_pathsums * 64 + 1024) {
        fprintf(stderr, "%s: implausible phase numbers in the path summaries\n", prog);
        goto out;
    }
    run->ps_first = calloc(run->nphases + 1, sizeof *run->ps_first);
    if (!run->ps_first) {
        fprintf(stderr, "%s: out of memory\n", prog);
        goto out;
    }
    for (uint64_t q = 0, i = 0; q <= run->nphases; q++) {
        while (i < f->n_pathsums && f->pathsums[i].phase < q)
            i++;
        run->ps_first[q] = (uint32_t)i;
    }
    run->ps_first[run->nphases] = f->n_pathsums;
    /* every rank should hold the same summaries */
    uint32_t differ = 0;
    for (uint32_t r = 0; r < run->nranks; r++) {
        const rp_rankdata *d = &run->rd[r];
        if (!run->present[r] || d == f)
            continue;
        int same = d->n_pathsums == f->n_pathsums;
        for (uint32_t i = 0; same && i < f->n_pathsums; i++)
            same = d->pathsums[i].phase == f->pathsums[i].phase &&
                   d->pathsums[i].path == f->pathsums[i].path &&
                   d->pathsums[i].cost_ns == f->pathsums[i].cost_ns;
        differ += !same;
    }
    if (differ)
        fprintf(stderr, "%s: warning: the path summaries of %u rank(s) differ from rank %u's; "
                "using rank %u's\n", prog, differ, f->rank, f->rank);
    rc = 0;
out:
    if (rc != 0)
        run_free(run);
    return rc;
}

void run_free(rp_run *run)
{
    if (run->rd)
        for (uint32_t r = 0; r < run->nranks; r++)
            if (run->present && run->present[r])
                rpfile_free(&run->rd[r]);
    free(run->rd);
    free(run->present);
    free(run->ps_first);
    memset(run, 0, sizeof *run);
}

uint32_t run_npaths(const rp_run *run, uint64_t q)
{
    if (q >= run->nphases)
        return 0;
    return run->ps_first[q + 1] - run->ps_first[q];
}

const rp_pathsum *run_pathsum(const rp_run *run, uint64_t q, uint32_t j)
{
    if (j >= run_npaths(run, q))
        return NULL;
    const rp_pathsum *p = &run->first->pathsums[run->ps_first[q] + j];
    return p->path == j ? p : NULL;
}

uint32_t run_level_path(const rp_run *run, uint64_t q, uint32_t j)
{
    uint32_t n = run_npaths(run, q), k = run->k;
    if (n == 0 || j >= k)
        return 0;
    const rp_pathsum *ps = &run->first->pathsums[run->ps_first[q]];
    int64_t cost[n];
    double w[n];
    uint32_t map[k];
    float mx = ps[0].lw;
    for (uint32_t i = 1; i < n; i++)
        mx = ps[i].lw > mx ? ps[i].lw : mx;
    for (uint32_t i = 0; i < n; i++) {   /* the file keeps log2 of the weights */
        cost[i] = ps[i].cost_ns;
        w[i] = select_exp2((double)ps[i].lw - (double)mx);
    }
    /* one path weighs 2^-mx here (0 once that underflows: select.c) */
    select_levels(cost, w, n, k, (rp_select_mode)run->first->select,
                  select_exp2(-(double)mx), map);
    return map[j];
}

void run_slot_costs(const rp_run *run, int64_t *sum_ns)
{
    for (uint32_t j = 0; j < run->k; j++)
        sum_ns[j] = 0;
    for (uint64_t q = 0; q < run->nphases; q++) {
        uint32_t n = run_npaths(run, q);
        if (n == 0)
            continue;
        for (uint32_t j = 0; j < run->k; j++)
            sum_ns[j] += run->first->pathsums[run->ps_first[q] + run_level_path(run, q, j)]
                             .cost_ns;
    }
}

const char *run_fn_name(const rp_run *run, uint32_t r, uint32_t fn)
{
    if (r < run->nranks && run->present[r] && fn < run->rd[r].n_mpi_names)
        return run->rd[r].mpi_names[fn];
    return "MPI_?";
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Is name in the sorted name array v (gen_fncoll.h)? */
#define NAME_IN(v, name) (bsearch(&(name), (v), sizeof (v) / sizeof *(v), sizeof *(v), cmp_name) != NULL)

int run_fn_global(const char *name)
{
    /* MPI_Init and MPI_Finalize start and end every rank's paths; the
     * collectives are the signature table's (gen_fncoll.h, sorted) */
    if (!strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread") ||
        !strcmp(name, "MPI_Finalize"))
        return 1;
    return NAME_IN(rp_gen_coll_names, name);
}

/* A non-blocking collective whose completion joins this member's own set
 * as of its call (gen_fncoll.h, sorted) */
static int fn_nbc_self(const char *name)
{
    return NAME_IN(rp_gen_nbc_self_names, name);
}

/* ---- path mode: reassembly ----------------------------------------------- */

int push_step(stepvec *s, rp_step st)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        rp_step *nv = realloc(s->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = nc;
    }
    s->v[s->n++] = st;
    return 0;
}

static int on_path(const rp_task *t, uint32_t j)
{
    if (t->path_mask == RP_TASK_EAGER)
        return 1;
    return j < 64 ? (int)(t->path_mask >> j & 1) : t->path_mask != 0;
}

/* Tasks of phase q on a rank: [*a, *b) (tasks are sorted by phase). */
static void phase_range(const rp_rankdata *d, uint64_t q, uint64_t *a, uint64_t *b)
{
    uint64_t lo = 0, hi = d->n_tasks;
    while (lo < hi) {
        uint64_t m = lo + (hi - lo) / 2;
        if (d->tasks[m].phase < q)
            lo = m + 1;
        else
            hi = m;
    }
    *a = lo;
    hi = d->n_tasks;
    while (lo < hi) {
        uint64_t m = lo + (hi - lo) / 2;
        if (d->tasks[m].phase <= q)
            lo = m + 1;
        else
            hi = m;
    }
    *b = lo;
}

/* Where an interval's tasks begin on a rank.  A path-mode writer commits
 * a phase's tasks in buffer order, so their indices rise with their events,
 * and puts the eagerly committed ones (no index) after them: then the
 * interval's first task is found by binary search, and the phase is not
 * scanned once per interval (a long phase's paths hold hundreds of
 * thousands of intervals).  A file whose tasks are not so ordered is
 * scanned, with the same result. */
typedef struct idx_order {
    uint64_t a, b;     /* the phase's tasks */
    uint64_t sorted;   /* ordered: [a, sorted) indices strictly rising, none
                        * eager, [sorted, b) all eager */
    int      known, ordered;
} idx_order;

static void order_of(const rp_rankdata *d, uint64_t q, idx_order *o)
{
    phase_range(d, q, &o->a, &o->b);
    o->known = 1;
    uint64_t i = o->a;
    while (i < o->b && d->tasks[i].path_mask != RP_TASK_EAGER &&
           (i == o->a || d->tasks[i].idx > d->tasks[i - 1].idx))
        i++;
    for (uint64_t e = i; e < o->b; e++)
        if (d->tasks[e].path_mask != RP_TASK_EAGER)
            return;   /* not ordered: scan */
    o->sorted = i;
    o->ordered = 1;
}

/* The first task to look at for an interval from index low. */
static uint64_t first_at(const rp_rankdata *d, const idx_order *o, uint32_t low)
{
    uint64_t lo = o->a, hi = o->sorted;
    if (!o->ordered)
        return o->a;
    while (lo < hi) {
        uint64_t m = lo + (hi - lo) / 2;
        if (d->tasks[m].idx < low)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* How step st was reached from prev.  On one rank: the next task, or past
 * a non-blocking collective from its call to its completion.  Inside
 * complete intervals a change
 * of rank is always a join at st's first event (the path travelled in a
 * message or a collective), never a gap: a message when it came from
 * prev's rank (a task records the source of one message joined at its
 * start: the one that brought the most critical path, else the first);
 * a collective when the event is one, or when no message was joined there
 * (a wait that completed a non-blocking collective); else a join whose
 * kind the file does not record (a path other than the most critical one,
 * at an event that joined several messages or a message and a
 * collective). */
static void set_via(const rp_run *run, const rp_step *prev, rp_step *st)
{
    if (!prev) {
        st->via = RP_VIA_START;
        return;
    }
    if (prev->rank == st->rank) {
        /* on the same rank, past the events between: only a non-blocking
         * collective's own call joined into its completion (lib/mpi/
         * wrap_coll.c rp_nbc_complete) skips tasks; anything else is a gap */
        const char *f = prev->task ? run_fn_name(run, prev->rank, prev->task->end_fn) : "";
        st->via = st->event == prev->event + 1 ? RP_VIA_SEQ
                : fn_nbc_self(f) ? RP_VIA_COLL : RP_VIA_GAP;
        return;
    }
    const rp_task *t = st->task;
    if (!t) {
        st->via = RP_VIA_GAP;
    } else if (t->msg_src == prev->rank) {
        st->via = RP_VIA_MSG;
        st->bytes = t->msg_bytes;
    } else if (t->msg_src == RP_NO_RANK || run_fn_global(run_fn_name(run, st->rank, t->start_fn))) {
        st->via = RP_VIA_COLL;
    } else {
        st->via = RP_VIA_JOIN;
    }
}

int run_fullpath(const rp_run *run, uint64_t q, uint32_t j, rp_fullpath *out)
{
    memset(out, 0, sizeof *out);
    const rp_pathsum *ps = run_pathsum(run, q, j);
    if (!ps)
        return -1;
    out->phase = q;
    out->path = j;
    out->flags = ps->flags;
    out->cost_ns = ps->cost_ns;
    stepvec sv = {0};
    int gap = 0;
    idx_order *ord = calloc(run->nranks ? run->nranks : 1, sizeof *ord);
    if (!ord)
        goto oom;
    for (uint32_t v = 0; v < ps->n_iv; v++) {
        const rp_fileiv *iv = &ps->iv[v];
        uint64_t want = (uint64_t)iv->high - iv->low + 1, got = 0;
        if (run->present[iv->rank]) {
            const rp_rankdata *d = &run->rd[iv->rank];
            idx_order *o = &ord[iv->rank];
            if (!o->known)
                order_of(d, q, o);
            /* ordered: no eager task is in an interval, and the
             * interval's tasks end where an index passes high */
            uint64_t end = o->ordered ? o->sorted : o->b;
            for (uint64_t i = first_at(d, o, iv->low); i < end; i++) {
                const rp_task *t = &d->tasks[i];
                if (o->ordered && t->idx > iv->high)
                    break;
                /* an eagerly committed task has no index (idx 0): it is in
                 * no interval; the path's summary stops before it */
                if (t->path_mask == RP_TASK_EAGER || t->idx < iv->low || t->idx > iv->high ||
                    !on_path(t, j))
                    continue;
                rp_step st = {iv->rank, t->event, t, 0, 0};
                set_via(run, sv.n ? &sv.v[sv.n - 1] : NULL, &st);
                if (gap && st.via != RP_VIA_START)
                    st.via = RP_VIA_GAP;
                gap = 0;
                if (push_step(&sv, st) != 0)
                    goto oom;
                out->task_ns += t->cost_ns;
                got++;
            }
        }
        if (got < want) {
            out->n_missing += (uint32_t)(want - got);
            gap = 1;
        }
    }
    /* An overflowed summary holds the path up to the task that did not fit;
     * the tasks each rank committed after its last interval are candidates
     * for the tail, but which of them the path took is not recorded, so the
     * tail is reported as not rebuilt, with its cost (cost - covered). */
    out->covered_ns = -1;
    if (ps->flags & RP_PATH_OVERFLOW) {
        out->covered_ns = ps->covered_ns;
        out->tail_ns = ps->cost_ns - (ps->covered_ns >= 0 ? ps->covered_ns : out->task_ns);
    }
    free(ord);
    out->steps = sv.v;
    out->n = sv.n;
    return 0;
oom:
    free(ord);
    free(sv.v);
    memset(out, 0, sizeof *out);
    errno = ENOMEM;
    return -1;
}

void fullpath_free(rp_fullpath *p)
{
    free(p->steps);
    memset(p, 0, sizeof *p);
}
