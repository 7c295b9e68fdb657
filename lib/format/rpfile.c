/* rpfile.c - write and read the per-rank measurement file, version 1.
 * Layout in doc/formats.md; container and shared codecs in rpenc.c.
 *
 * The writer runs inside the MPI job at MPI_Finalize: it encodes into one
 * malloc'd buffer and writes it atomically (temp file + rename), so a
 * crashed or killed job leaves either no file or a whole one.
 * The reader trusts nothing: every count is checked against the bytes
 * that remain before anything is allocated, and every id is range-checked,
 * so a corrupt or hostile file costs at most memory proportional to its
 * size and never crashes the tools. */
#include "format/rpfile.h"
#include "format/rpenc.h"
#include "format/rpio.h"
#include "format/rpjob.h"

#include <errno.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#define TAG_HEAD RP_TAG('H', 'E', 'A', 'D')
#define TAG_STAT RP_TAG('S', 'T', 'A', 'T')
#define TAG_CNTR RP_TAG('C', 'N', 'T', 'R')
#define TAG_MODS RP_TAG('M', 'O', 'D', 'S')
#define TAG_MPIN RP_TAG('M', 'P', 'I', 'N')
#define TAG_CCT  RP_TAG('C', 'C', 'T', ' ')
#define TAG_TASK RP_TAG('T', 'A', 'S', 'K')
#define TAG_PSUM RP_TAG('P', 'S', 'U', 'M')
#define TAG_EDGE RP_TAG('E', 'D', 'G', 'E')
#define TAG_PCOV RP_TAG('P', 'C', 'O', 'V')
#define TAG_PCMP RP_TAG('P', 'C', 'M', 'P')
#define TAG_JOB  RP_TAG('J', 'O', 'B', ' ')

#define MAX_NRANKS     (1u << 28)
#define MAX_MODULES    65536u
#define MAX_MPI_NAMES  65536u
#define MAX_PATH_LEN   4095u
#define MAX_MPI_NAME   255u
#define NODE_BYTES     16u   /* parent, module, offset */
#define TASK_BYTES     56u   /* rp_task as encoded (doc/formats.md, TASK) */
#define PSUM_BYTES     36u   /* a path summary's header (PSUM) */
#define IV_BYTES       12u   /* rank, low, high */
#define EDGE_BYTES     56u   /* an edge (EDGE) */
#define MAX_PATHSUMS   (1u << 30)

/* Tasks, path summaries and edges (path and trace modes). */
static int validate_paths(const rp_rankdata *d, char *err, size_t errlen)
{
    if ((d->n_tasks && !d->tasks) || (d->n_pathsums && !d->pathsums) ||
        (d->n_edges && !d->edges)) {
        rp_seterr(err, errlen, "task, path or edge table missing");
        return -1;
    }
    if (d->n_tasks > d->n_events) {
        rp_seterr(err, errlen, "%llu tasks but only %llu events",
               (unsigned long long)d->n_tasks, (unsigned long long)d->n_events);
        return -1;
    }
    for (uint64_t i = 0; i < d->n_tasks; i++) {
        const rp_task *t = &d->tasks[i];
        const char *why = NULL;
        if (t->event == 0 || t->event >= d->n_events)
            why = "event out of range";
        else if (i > 0 && t->event <= d->tasks[i - 1].event)
            why = "events not increasing";
        else if (i > 0 && t->phase < d->tasks[i - 1].phase)
            why = "phases decreasing";
        else if (t->start_fn >= d->n_mpi_names || t->end_fn >= d->n_mpi_names)
            why = "MPI function id out of range";
        else if (t->callsite >= d->n_nodes)
            why = "call site node out of range";
        else if (t->msg_src != RP_NO_RANK && t->msg_src >= d->nranks)
            why = "message source rank out of range";
        else if (t->cost_ns < 0)
            why = "negative cost";
        if (why) {
            rp_seterr(err, errlen, "task %llu (event %llu): %s", (unsigned long long)i,
                   (unsigned long long)t->event, why);
            return -1;
        }
    }
    for (uint32_t i = 0; i < d->n_pathsums; i++) {
        const rp_pathsum *ps = &d->pathsums[i];
        const rp_pathsum *pv = i ? &d->pathsums[i - 1] : NULL;
        const char *why = NULL;
        if (ps->path >= d->k)
            why = "path number not below k";
        else if (pv && (ps->phase < pv->phase || (ps->phase == pv->phase && ps->path <= pv->path)))
            why = "not in (phase, path) order";
        else if (ps->cost_ns < 0)
            why = "negative cost";
        else if (ps->n_iv && !ps->iv)
            why = "intervals missing";
        else if (ps->covered_ns < -1 || ps->covered_ns > ps->cost_ns)
            why = "covered cost not in [-1, cost]";
        for (uint32_t v = 0; !why && v < ps->n_iv; v++) {
            if (ps->iv[v].rank >= d->nranks)
                why = "interval rank out of range";
            else if (ps->iv[v].low > ps->iv[v].high)
                why = "interval low > high";
        }
        if (why) {
            rp_seterr(err, errlen, "path summary %u (phase %llu, path %u): %s", i,
                   (unsigned long long)ps->phase, ps->path, why);
            return -1;
        }
    }
    for (uint64_t i = 0; i < d->n_edges; i++) {
        const rp_edge *e = &d->edges[i];
        const char *why = NULL;
        if (e->event == 0 || e->event >= d->n_events)
            why = "event out of range";
        else if (i > 0 && e->event < d->edges[i - 1].event)
            why = "events decreasing";
        else if (e->kind == RP_EDGE_MSG) {
            if (e->peer >= d->nranks)
                why = "peer rank out of range";
        } else if (e->kind == RP_EDGE_COLL) {
            if (e->coll_kind < RP_COLL_ALL || e->coll_kind > RP_COLL_SCAN)
                why = "unknown collective kind";
            else if (e->size == 0 || e->size > d->nranks)
                why = "collective size out of range";
            else if ((e->coll_kind == RP_COLL_IN || e->coll_kind == RP_COLL_OUT) &&
                     e->root >= d->nranks)
                why = "collective root out of range";
            else if (e->coll_kind == RP_COLL_SCAN && e->root >= e->size)
                why = "scan position out of range";
            else if (e->bytes > e->size)
                why = "rank in the communicator out of range";
            else if (e->phase_end > 1)
                why = "bad phase-end flag";
            else if (e->part > RP_PART_JOIN)
                why = "bad collective part";
        } else {
            why = "unknown edge kind";
        }
        if (why) {
            rp_seterr(err, errlen, "edge %llu (event %llu): %s", (unsigned long long)i,
                   (unsigned long long)e->event, why);
            return -1;
        }
    }
    return 0;
}

/* PCMP: path mode's per-phase computation.  A phase ends at an event of
 * every rank (the phase-ending collective, MPI_Finalize last), so a rank
 * has at most as many phases as events. */
static int validate_phase_comp(const rp_rankdata *d, char *err, size_t errlen)
{
    if (!d->n_phase_comp)
        return 0;
    if (!d->phase_comp) {
        rp_seterr(err, errlen, "per-phase computation table missing");
        return -1;
    }
    if (d->mode != RP_MODE_PATH) {
        rp_seterr(err, errlen, "per-phase computation (PCMP) in a file not of path mode");
        return -1;
    }
    if (d->n_phase_comp > d->n_events) {
        rp_seterr(err, errlen, "computation of %llu phases but only %llu events",
                  (unsigned long long)d->n_phase_comp, (unsigned long long)d->n_events);
        return -1;
    }
    for (uint64_t q = 0; q < d->n_phase_comp; q++)
        if (d->phase_comp[q] < 0) {
            rp_seterr(err, errlen, "phase %llu: negative computation", (unsigned long long)q);
            return -1;
        }
    return 0;
}

/* ---- validation shared by writer and reader ---------------------------- */

int rpfile_validate(const rp_rankdata *d, char *err, size_t errlen)
{
    if (d->nranks == 0 || d->nranks > MAX_NRANKS) {
        rp_seterr(err, errlen, "absurd rank count %u", d->nranks);
        return -1;
    }
    if (d->rank >= d->nranks) {
        rp_seterr(err, errlen, "rank %u out of range (nranks %u)", d->rank, d->nranks);
        return -1;
    }
    if (d->k == 0 || d->k > RP_FILE_MAX_K) {
        rp_seterr(err, errlen, "absurd k=%u (1..%u)", d->k, RP_FILE_MAX_K);
        return -1;
    }
    if (d->phase_k > RP_FILE_MAX_K || (d->phase_k && d->phase_k < d->k)) {
        rp_seterr(err, errlen, "absurd phase_k=%u (0, or k=%u..%u)", d->phase_k, d->k,
                  RP_FILE_MAX_K);
        return -1;
    }
    if (memchr(d->job.launcher, 0, sizeof d->job.launcher) == NULL) {
        rp_seterr(err, errlen, "job launcher id not terminated");
        return -1;
    }
    if (d->mode > RP_MODE_TRACE || d->select > 2u || d->clock > RP_CLOCK_CPU) {
        rp_seterr(err, errlen, "unknown mode/select/clock (%u/%u/%u)", d->mode, d->select,
               d->clock);
        return -1;
    }
    if (d->wall_ns < 0) {
        rp_seterr(err, errlen, "negative wall time");
        return -1;
    }
    if (!memchr(d->exe, 0, sizeof d->exe) || !memchr(d->host, 0, sizeof d->host)) {
        rp_seterr(err, errlen, "unterminated exe/host string");
        return -1;
    }
    if (d->stats.k != d->k) {
        rp_seterr(err, errlen, "phase statistics k=%u differs from header k=%u", d->stats.k, d->k);
        return -1;
    }
    if (d->n_metrics != RP_MET_PATH0 + d->k) {
        rp_seterr(err, errlen, "%u metric columns, expected %u for k=%u", d->n_metrics,
               RP_MET_PATH0 + d->k, d->k);
        return -1;
    }
    if (d->n_counters > RP_MAX_COUNTERS || (d->n_counters && !d->counters)) {
        rp_seterr(err, errlen, "bad counter table (%u)", d->n_counters);
        return -1;
    }
    for (uint32_t i = 0; i < d->n_counters; i++) {
        if (d->counters[i].name[0] == 0 ||
            !memchr(d->counters[i].name, 0, sizeof d->counters[i].name)) {
            rp_seterr(err, errlen, "counter %u has an empty or unterminated name", i);
            return -1;
        }
    }
    if (d->n_modules > MAX_MODULES || (d->n_modules && !d->modules)) {
        rp_seterr(err, errlen, "absurd module count %u", d->n_modules);
        return -1;
    }
    for (uint32_t i = 0; i < d->n_modules; i++) {
        const rp_module *m = &d->modules[i];
        if (!m->path || !m->path[0] || strlen(m->path) > MAX_PATH_LEN ||
            m->build_id_len > sizeof m->build_id) {
            rp_seterr(err, errlen, "module %u: bad path or build-id length", i);
            return -1;
        }
    }
    if (d->n_mpi_names > MAX_MPI_NAMES || (d->n_mpi_names && !d->mpi_names)) {
        rp_seterr(err, errlen, "absurd MPI name count %u", d->n_mpi_names);
        return -1;
    }
    for (uint32_t i = 0; i < d->n_mpi_names; i++) {
        if (!d->mpi_names[i] || !d->mpi_names[i][0] || strlen(d->mpi_names[i]) > MAX_MPI_NAME) {
            rp_seterr(err, errlen, "MPI name %u empty or too long", i);
            return -1;
        }
    }
    if (d->n_nodes == 0 || !d->nodes || !d->metrics) {
        rp_seterr(err, errlen, "empty calling-context tree (no root)");
        return -1;
    }
    if (d->nodes[0].parent != UINT32_MAX || d->nodes[0].module != RP_MOD_ROOT) {
        rp_seterr(err, errlen, "node 0 is not the root");
        return -1;
    }
    for (uint32_t i = 1; i < d->n_nodes; i++) {
        const rp_cctnode *n = &d->nodes[i];
        /* parent < own index makes the tree acyclic by construction and lets
         * every consumer process nodes in one forward pass. */
        if (n->parent >= i) {
            rp_seterr(err, errlen, "node %u: parent %u not before it (cycle or out of range)", i,
                   n->parent);
            return -1;
        }
        if (n->module == RP_MOD_ROOT) {
            rp_seterr(err, errlen, "node %u: second root", i);
            return -1;
        }
        if (n->module == RP_MOD_MPI) {
            if (n->offset >= d->n_mpi_names) {
                rp_seterr(err, errlen, "node %u: MPI name id %llu out of range (%u names)", i,
                       (unsigned long long)n->offset, d->n_mpi_names);
                return -1;
            }
        } else if (n->module != RP_MOD_UNKNOWN && n->module >= d->n_modules) {
            rp_seterr(err, errlen, "node %u: module id %u out of range (%u modules)", i, n->module,
                   d->n_modules);
            return -1;
        }
    }
    size_t nm = (size_t)d->n_nodes * d->n_metrics;
    for (size_t i = 0; i < nm; i++) {
        if (d->metrics[i] < 0) {
            rp_seterr(err, errlen, "node %zu: negative metric in column %zu", i / d->n_metrics,
                   i % d->n_metrics);
            return -1;
        }
    }
    if (validate_paths(d, err, errlen) != 0 || validate_phase_comp(d, err, errlen) != 0)
        return -1;
    return 0;
}

/* ---- writer --------------------------------------------------------------- */

static void enc_head(rpenc *e, const rp_rankdata *d)
{
    size_t s = rpenc_section_begin(e, TAG_HEAD);
    rpenc_u32(e, d->rank);
    rpenc_u32(e, d->nranks);
    rpenc_u32(e, d->k);
    rpenc_u32(e, d->mode);
    rpenc_u32(e, d->select);
    rpenc_u32(e, d->summary_cap);
    rpenc_u32(e, d->period_us);
    rpenc_u32(e, d->clock);
    rpenc_i64(e, d->wall_ns);
    rpenc_str(e, d->exe);
    rpenc_str(e, d->host);
    rpenc_u32(e, d->phase_k);   /* a later v1 addition (readers before it skip it) */
    rpenc_section_end(e, s);
}

/* JOB: which job the file belongs to; written when the job is known. */
static void enc_job(rpenc *e, const rp_rankdata *d)
{
    if (!d->job.id)
        return;
    size_t s = rpenc_section_begin(e, TAG_JOB);
    rpenc_u64(e, d->job.id);
    rpenc_i64(e, d->job.start_ns);
    rpenc_str(e, d->job.launcher);
    rpenc_section_end(e, s);
}

static void enc_cct(rpenc *e, const rp_rankdata *d)
{
    size_t s = rpenc_section_begin(e, TAG_CCT);
    rpio_sparse_begin(e, d->metrics, d->n_nodes, d->n_metrics);
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        rpenc_u32(e, d->nodes[i].parent);
        rpenc_u32(e, d->nodes[i].module);
        rpenc_u64(e, d->nodes[i].offset);
    }
    rpio_sparse_entries(e, d->metrics, d->n_nodes, d->n_metrics, RP_ENC_FIXED);
    rpenc_section_end(e, s);
}

static void enc_tasks(rpenc *e, const rp_rankdata *d)
{
    size_t s = rpenc_section_begin(e, TAG_TASK);
    rpenc_u64(e, d->n_events);
    rpenc_u64(e, d->n_tasks);
    for (uint64_t i = 0; i < d->n_tasks; i++) {
        const rp_task *t = &d->tasks[i];
        rpenc_u64(e, t->phase);
        rpenc_u64(e, t->event);
        rpenc_u32(e, t->idx);
        rpenc_u16(e, t->start_fn);
        rpenc_u16(e, t->end_fn);
        rpenc_i64(e, t->cost_ns);
        rpenc_u32(e, t->callsite);
        rpenc_u32(e, t->msg_src);
        rpenc_u32(e, t->msg_bytes);
        rpenc_u32(e, 0);
        rpenc_u64(e, t->path_mask);
    }
    rpenc_section_end(e, s);
}

static void enc_pathsums(rpenc *e, const rp_rankdata *d)
{
    size_t s = rpenc_section_begin(e, TAG_PSUM);
    rpenc_u32(e, d->n_pathsums);
    rpenc_u32(e, 0);
    for (uint32_t i = 0; i < d->n_pathsums; i++) {
        const rp_pathsum *p = &d->pathsums[i];
        rpenc_u64(e, p->phase);
        rpenc_u32(e, p->path);
        rpenc_u32(e, p->flags);
        rpenc_i64(e, p->cost_ns);
        rpenc_u32(e, p->n_evicted);
        uint32_t lw;
        memcpy(&lw, &p->lw, 4);
        rpenc_u32(e, lw);
        rpenc_u32(e, p->n_iv);
        for (uint32_t v = 0; v < p->n_iv; v++) {
            rpenc_u32(e, p->iv[v].rank);
            rpenc_u32(e, p->iv[v].low);
            rpenc_u32(e, p->iv[v].high);
        }
    }
    rpenc_section_end(e, s);
}

/* PCOV: per path summary, in PSUM's order, the cost its intervals cover
 * when it overflowed (path mode); written only when one did, so files
 * without overflow are unchanged and older readers skip the section. */
static void enc_pathcov(rpenc *e, const rp_rankdata *d)
{
    uint32_t any = 0;
    for (uint32_t i = 0; i < d->n_pathsums; i++)
        any |= d->pathsums[i].flags & RP_PSUM_OVERFLOW;
    if (!any)
        return;
    size_t s = rpenc_section_begin(e, TAG_PCOV);
    rpenc_u32(e, d->n_pathsums);
    rpenc_u32(e, 0);
    for (uint32_t i = 0; i < d->n_pathsums; i++)
        rpenc_i64(e, d->pathsums[i].flags & RP_PSUM_OVERFLOW ? d->pathsums[i].covered_ns : -1);
    rpenc_section_end(e, s);
}

static void enc_edges(rpenc *e, const rp_rankdata *d)
{
    size_t s = rpenc_section_begin(e, TAG_EDGE);
    rpenc_u64(e, d->n_edges);
    for (uint64_t i = 0; i < d->n_edges; i++) {
        const rp_edge *g = &d->edges[i];
        rpenc_u32(e, g->kind);
        rpenc_u32(e, g->bytes);
        rpenc_u64(e, g->event);
        rpenc_u32(e, g->peer);
        rpenc_u32(e, g->coll_kind);
        rpenc_u64(e, g->peer_event);
        rpenc_u64(e, g->coll_id);
        rpenc_u32(e, g->root);
        rpenc_u32(e, g->size);
        rpenc_u32(e, g->phase_end);
        rpenc_u32(e, g->part);
    }
    rpenc_section_end(e, s);
}

/* PCMP: each completed phase's computation on this rank (path mode; the
 * per-phase POP factors).  Written only when recorded, so other files are
 * unchanged and readers that predate the section skip it. */
static void enc_phase_comp(rpenc *e, const rp_rankdata *d)
{
    if (!d->n_phase_comp)
        return;
    size_t s = rpenc_section_begin(e, TAG_PCMP);
    rpenc_u64(e, d->n_phase_comp);
    for (uint64_t q = 0; q < d->n_phase_comp; q++)
        rpenc_i64(e, d->phase_comp[q]);
    rpenc_section_end(e, s);
}

/* Every section but END into e (initialised here). */
static void encode(rpenc *e, const rp_rankdata *d)
{
    rpenc_init(e);
    rpenc_file_header(e, RP_FILE_MAGIC, RP_FILE_VERSION);
    enc_head(e, d);
    enc_job(e, d);

    size_t s = rpenc_section_begin(e, TAG_STAT);
    rpenc_stats(e, &d->stats, RP_ENC_FIXED);
    rpenc_section_end(e, s);

    s = rpenc_section_begin(e, TAG_CNTR);
    rpenc_counters(e, d->counters, d->n_counters);
    rpenc_section_end(e, s);

    s = rpenc_section_begin(e, TAG_MODS);
    rpenc_u32(e, d->n_modules);
    for (uint32_t i = 0; i < d->n_modules; i++) {
        rpenc_str(e, d->modules[i].path);
        rpenc_u8(e, (uint8_t)d->modules[i].build_id_len);
        rpenc_bytes(e, d->modules[i].build_id, d->modules[i].build_id_len);
    }
    rpenc_section_end(e, s);

    s = rpenc_section_begin(e, TAG_MPIN);
    rpenc_u32(e, d->n_mpi_names);
    for (uint32_t i = 0; i < d->n_mpi_names; i++)
        rpenc_str(e, d->mpi_names[i]);
    rpenc_section_end(e, s);

    enc_cct(e, d);
    /* Path and trace modes only: a prof-mode file has none of them. */
    if (d->n_events || d->n_tasks)
        enc_tasks(e, d);
    if (d->n_pathsums) {
        enc_pathsums(e, d);
        enc_pathcov(e, d);
    }
    if (d->n_edges)
        enc_edges(e, d);
    enc_phase_comp(e, d);
}

int rpfile_write(const char *path, const rp_rankdata *d)
{
    if (!path || !d || rpfile_validate(d, NULL, 0) != 0) {
        errno = EINVAL;
        return -1;
    }
    rpenc e;
    encode(&e, d);
    return rpio_commit(&e, path);
}

int rpfile_encode(const rp_rankdata *d, uint8_t **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    if (!d || rpfile_validate(d, NULL, 0) != 0) {
        errno = EINVAL;
        return -1;
    }
    rpenc e;
    encode(&e, d);
    rpenc_finish(&e);
    if (e.failed) {
        rpenc_free(&e);
        errno = ENOMEM;
        return -1;
    }
    *buf = e.buf;
    *len = e.len;
    return 0;
}

/* The bytes of PATH, or of the job file entry it names (rpjob.h). */
static int load(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    char file[4096];
    uint32_t i;
    if (rpjob_parse_ref(path, file, sizeof file, &i))
        return rpjob_load_entry(file, i, buf, len, err, errlen);
    return rpdec_load_file(path, buf, len, err, errlen);
}

/* ---- reader --------------------------------------------------------------- */

static int dec_head(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    d->rank = rpdec_u32(&r);
    d->nranks = rpdec_u32(&r);
    d->k = rpdec_u32(&r);
    d->mode = rpdec_u32(&r);
    d->select = rpdec_u32(&r);
    d->summary_cap = rpdec_u32(&r);
    d->period_us = rpdec_u32(&r);
    d->clock = rpdec_u32(&r);
    d->wall_ns = rpdec_i64(&r);
    char *exe = rpdec_str(&r, sizeof d->exe - 1, 1);
    char *host = exe ? rpdec_str(&r, sizeof d->host - 1, 1) : NULL;
    int ok = exe && host && !r.failed;
    if (ok) {
        memcpy(d->exe, exe, strlen(exe) + 1);
        memcpy(d->host, host, strlen(host) + 1);
    }
    free(exe);
    free(host);
    /* later v1 additions, read when there: phase_k */
    d->phase_k = ok && rpdec_left(&r) >= 4 ? rpdec_u32(&r) : 0;
    /* Bytes after the known fields are later v1 additions: ignored. */
    if (!ok) {
        rp_seterr(err, errlen, "corrupt HEAD section");
        return -1;
    }
    if (d->k == 0 || d->k > RP_FILE_MAX_K) {
        rp_seterr(err, errlen, "absurd k=%u (1..%u)", d->k, RP_FILE_MAX_K);
        return -1;
    }
    return 0;
}

static int dec_job(const uint8_t *p, uint64_t len, rp_jobid *j, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, p, len);
    memset(j, 0, sizeof *j);
    j->id = rpdec_u64(&r);
    j->start_ns = rpdec_i64(&r);
    char *l = r.failed ? NULL : rpdec_str(&r, RP_JOB_LAUNCHER_MAX, 1);
    /* bytes after the launcher: later additions, ignored */
    if (!l || r.failed || j->id == 0) {
        free(l);
        memset(j, 0, sizeof *j);
        rp_seterr(err, errlen, "corrupt JOB section");
        return -1;
    }
    memcpy(j->launcher, l, strlen(l) + 1);
    free(l);
    return 0;
}

static int dec_mods(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    /* a module takes at least 4 + 1 + 1 bytes */
    d->modules = rpio_array(&r, &d->n_modules, MAX_MODULES, 6u, 0, sizeof *d->modules, "MODS",
                            err, errlen);
    if (!d->modules)
        return -1;
    uint32_t n = d->n_modules;
    for (uint32_t i = 0; i < n; i++) {
        rp_module *m = &d->modules[i];
        m->path = rpdec_str(&r, MAX_PATH_LEN, 0);
        m->build_id_len = rpdec_u8(&r);
        const uint8_t *b = m->build_id_len <= sizeof m->build_id
                               ? rpdec_bytes(&r, m->build_id_len) : NULL;
        if (!m->path || !b) {
            rp_seterr(err, errlen, "corrupt MODS section (module %u)", i);
            return -1;
        }
        memcpy(m->build_id, b, m->build_id_len);
    }
    return 0;
}

static int dec_mpin(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    d->mpi_names = rpio_array(&r, &d->n_mpi_names, MAX_MPI_NAMES, 5u, 0, sizeof *d->mpi_names,
                              "MPIN", err, errlen);
    if (!d->mpi_names)
        return -1;
    uint32_t n = d->n_mpi_names;
    for (uint32_t i = 0; i < n; i++) {
        d->mpi_names[i] = rpdec_str(&r, MAX_MPI_NAME, 0);
        if (!d->mpi_names[i]) {
            rp_seterr(err, errlen, "corrupt MPIN section (name %u)", i);
            return -1;
        }
    }
    return 0;
}

static int dec_cct(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    uint32_t n, nm;
    uint64_t nz;
    if (rpio_sparse_head(&r, NODE_BYTES, RP_MET_PATH0 + d->k, RP_ENC_FIXED, "CCT", &n, &nm, &nz, err,
                         errlen) != 0)
        return -1;
    d->nodes = malloc((size_t)n * sizeof *d->nodes);
    d->metrics = calloc((size_t)n * nm, sizeof *d->metrics);
    if (!d->nodes || !d->metrics) {
        rp_seterr(err, errlen, "out of memory for %u CCT nodes", n);
        return -1;
    }
    d->n_nodes = n;
    d->n_metrics = nm;
    for (uint32_t i = 0; i < n; i++) {
        d->nodes[i].parent = rpdec_u32(&r);
        d->nodes[i].module = rpdec_u32(&r);
        d->nodes[i].offset = rpdec_u64(&r);
    }
    return rpio_sparse_read(&r, d->metrics, n, nm, nz, INT64_MIN, RP_ENC_FIXED, "CCT", err, errlen);
}

static int dec_tasks(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    d->n_events = rpdec_u64(&r);
    uint64_t n = rpdec_u64(&r);
    if (!(d->tasks = rpdec_records(&r, n, TASK_BYTES, sizeof *d->tasks, "TASK", err, errlen)))
        return -1;
    d->n_tasks = n;
    for (uint64_t i = 0; i < n; i++) {
        rp_task *t = &d->tasks[i];
        t->phase = rpdec_u64(&r);
        t->event = rpdec_u64(&r);
        t->idx = rpdec_u32(&r);
        t->start_fn = rpdec_u16(&r);
        t->end_fn = rpdec_u16(&r);
        t->cost_ns = rpdec_i64(&r);
        t->callsite = rpdec_u32(&r);
        t->msg_src = rpdec_u32(&r);
        t->msg_bytes = rpdec_u32(&r);
        t->reserved = 0;
        (void)rpdec_u32(&r);
        t->path_mask = rpdec_u64(&r);
    }
    return 0;
}

static int dec_pathsums(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    uint32_t n = rpdec_u32(&r);
    (void)rpdec_u32(&r);
    if (r.failed || n > MAX_PATHSUMS || (uint64_t)n * PSUM_BYTES > rpdec_left(&r)) {
        rp_seterr(err, errlen, "corrupt PSUM section (count %u)", n);
        return -1;
    }
    d->pathsums = calloc(n ? n : 1, sizeof *d->pathsums);
    if (!d->pathsums) {
        rp_seterr(err, errlen, "out of memory for %u path summaries", n);
        return -1;
    }
    d->n_pathsums = n;
    for (uint32_t i = 0; i < n; i++) {
        rp_pathsum *p = &d->pathsums[i];
        p->phase = rpdec_u64(&r);
        p->path = rpdec_u32(&r);
        p->flags = rpdec_u32(&r);
        p->cost_ns = rpdec_i64(&r);
        p->n_evicted = rpdec_u32(&r);
        uint32_t lw = rpdec_u32(&r);
        memcpy(&p->lw, &lw, 4);
        p->covered_ns = -1;
        uint32_t niv = rpdec_u32(&r);
        if (!isfinite(p->lw)) {
            rp_seterr(err, errlen, "corrupt PSUM section (summary %u: weight not finite)", i);
            return -1;
        }
        /* the remaining summaries need PSUM_BYTES each as well */
        uint64_t need = (uint64_t)niv * IV_BYTES + (uint64_t)(n - 1 - i) * PSUM_BYTES;
        if (r.failed || need > rpdec_left(&r)) {
            rp_seterr(err, errlen, "corrupt PSUM section (summary %u: %u intervals)", i, niv);
            return -1;
        }
        p->iv = malloc((size_t)(niv ? niv : 1) * sizeof *p->iv);
        if (!p->iv) {
            rp_seterr(err, errlen, "out of memory for intervals");
            return -1;
        }
        p->n_iv = niv;
        for (uint32_t v = 0; v < niv; v++) {
            p->iv[v].rank = rpdec_u32(&r);
            p->iv[v].low = rpdec_u32(&r);
            p->iv[v].high = rpdec_u32(&r);
        }
    }
    if (r.failed || rpdec_left(&r) != 0) {
        rp_seterr(err, errlen, "corrupt PSUM section (%zu bytes left over)", rpdec_left(&r));
        return -1;
    }
    return 0;
}

static int dec_pathcov(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    uint32_t n = rpdec_u32(&r);
    (void)rpdec_u32(&r);
    if (r.failed || n != d->n_pathsums || rpdec_left(&r) != (uint64_t)n * 8u) {
        rp_seterr(err, errlen, "corrupt PCOV section (%u entries for %u path summaries)", n,
                  d->n_pathsums);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        d->pathsums[i].covered_ns = rpdec_i64(&r);
    return 0;
}

static int dec_phase_comp(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    uint64_t n = rpdec_u64(&r);
    if (!(d->phase_comp = rpdec_records(&r, n, 8u, sizeof *d->phase_comp, "PCMP", err, errlen)))
        return -1;
    d->n_phase_comp = n;
    for (uint64_t q = 0; q < n; q++)
        d->phase_comp[q] = rpdec_i64(&r);
    return 0;
}

static int dec_edges(const rp_section *s, rp_rankdata *d, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    uint64_t n = rpdec_u64(&r);
    if (!(d->edges = rpdec_records(&r, n, EDGE_BYTES, sizeof *d->edges, "EDGE", err, errlen)))
        return -1;
    d->n_edges = n;
    for (uint64_t i = 0; i < n; i++) {
        rp_edge *g = &d->edges[i];
        g->kind = rpdec_u32(&r);
        g->bytes = rpdec_u32(&r);
        g->event = rpdec_u64(&r);
        g->peer = rpdec_u32(&r);
        g->coll_kind = rpdec_u32(&r);
        g->peer_event = rpdec_u64(&r);
        g->coll_id = rpdec_u64(&r);
        g->root = rpdec_u32(&r);
        g->size = rpdec_u32(&r);
        g->phase_end = rpdec_u32(&r);
        g->part = rpdec_u32(&r);
    }
    return 0;
}

/* Reads so far (rpfile_read_counts): a tools' check, so atomic but
 * otherwise unused by the runtime. */
static uint64_t n_read_full, n_read_job;

void rpfile_read_counts(uint64_t *full, uint64_t *job)
{
    *full = __atomic_load_n(&n_read_full, __ATOMIC_RELAXED);
    *job = __atomic_load_n(&n_read_job, __ATOMIC_RELAXED);
}

int rpfile_read(const char *path, rp_rankdata *d, char *err, size_t errlen)
{
    __atomic_fetch_add(&n_read_full, 1, __ATOMIC_RELAXED);
    memset(d, 0, sizeof *d);
    enum { S_HEAD, S_STAT, S_CNTR, S_MODS, S_MPIN, S_CCT, S_TASK, S_PSUM, S_EDGE, S_PCOV,
           S_JOB, S_PCMP, S_N };
    /* counters, tasks, path summaries and edges are optional */
    static const rp_secspec spec[S_N] = {
        {TAG_HEAD, "HEAD", 1}, {TAG_STAT, "STAT", 1}, {TAG_CNTR, "CNTR", 0},
        {TAG_MODS, "MODS", 1}, {TAG_MPIN, "MPIN", 1}, {TAG_CCT, "CCT", 1},
        {TAG_TASK, "TASK", 0}, {TAG_PSUM, "PSUM", 0}, {TAG_EDGE, "EDGE", 0},
        {TAG_PCOV, "PCOV", 0}, {TAG_JOB, "JOB", 0}, {TAG_PCMP, "PCMP", 0}};
    rp_section sec[S_N];
    uint8_t *buf;
    size_t len;
    if (load(path, &buf, &len, err, errlen) != 0)
        return -1;
    if (rpio_check(buf, len, RP_FILE_MAGIC, RP_FILE_VERSION, spec, S_N, sec, err, errlen) != 0)
        goto fail;
    if (dec_head(&sec[S_HEAD], d, err, errlen) != 0)
        goto fail;
    /* no JOB section: a file from before it, "job unknown" (id 0) */
    if (sec[S_JOB].p && dec_job(sec[S_JOB].p, sec[S_JOB].len, &d->job, err, errlen) != 0)
        goto fail;
    rpdec r;
    rpdec_init(&r, sec[S_STAT].p, sec[S_STAT].len);
    if (rpdec_stats(&r, &d->stats, d->k, RP_ENC_FIXED, err, errlen) != 0)
        goto fail;
    if (sec[S_CNTR].p) {
        rpdec_init(&r, sec[S_CNTR].p, sec[S_CNTR].len);
        if (rpdec_counters(&r, &d->counters, &d->n_counters, err, errlen) != 0)
            goto fail;
    }
    if (dec_mods(&sec[S_MODS], d, err, errlen) != 0 ||
        dec_mpin(&sec[S_MPIN], d, err, errlen) != 0 ||
        dec_cct(&sec[S_CCT], d, err, errlen) != 0 ||
        (sec[S_TASK].p && dec_tasks(&sec[S_TASK], d, err, errlen) != 0) ||
        (sec[S_PSUM].p && dec_pathsums(&sec[S_PSUM], d, err, errlen) != 0) ||
        (sec[S_EDGE].p && dec_edges(&sec[S_EDGE], d, err, errlen) != 0) ||
        (sec[S_PCOV].p && dec_pathcov(&sec[S_PCOV], d, err, errlen) != 0) ||
        (sec[S_PCMP].p && dec_phase_comp(&sec[S_PCMP], d, err, errlen) != 0) ||
        rpfile_validate(d, err, errlen) != 0)
        goto fail;
    free(buf);
    return 0;
fail:
    free(buf);
    rpfile_free(d);
    return -1;
}

void rpfile_free(rp_rankdata *d)
{
    if (!d)
        return;
    if (d->stats.k || d->stats.sum_ns)
        phasestats_free(&d->stats);
    free(d->counters);
    if (d->modules)
        for (uint32_t i = 0; i < d->n_modules; i++)
            free(d->modules[i].path);
    free(d->modules);
    if (d->mpi_names)
        for (uint32_t i = 0; i < d->n_mpi_names; i++)
            free(d->mpi_names[i]);
    free(d->mpi_names);
    free(d->nodes);
    free(d->metrics);
    free(d->tasks);
    if (d->pathsums)
        for (uint32_t i = 0; i < d->n_pathsums; i++)
            free(d->pathsums[i].iv);
    free(d->pathsums);
    free(d->edges);
    free(d->phase_comp);
    memset(d, 0, sizeof *d);
}

/* ---- the job alone ------------------------------------------------------ */

/* rpfile_read_job of a job file's entry: it is in memory anyway. */
static int read_job_entry(const char *path, rp_jobid *job, char *err, size_t errlen)
{
    static const rp_secspec spec[1] = {{TAG_JOB, "JOB", 0}};
    rp_section sec[1];
    uint8_t *buf;
    size_t len;
    if (load(path, &buf, &len, err, errlen) != 0)
        return -1;
    int rc = rpio_check(buf, len, RP_FILE_MAGIC, RP_FILE_VERSION, spec, 1, sec, err, errlen);
    if (rc == 0 && sec[0].p)
        rc = dec_job(sec[0].p, sec[0].len, job, err, errlen);
    free(buf);
    return rc;
}

int rpfile_read_job(const char *path, rp_jobid *job, char *err, size_t errlen)
{
    __atomic_fetch_add(&n_read_job, 1, __ATOMIC_RELAXED);
    memset(job, 0, sizeof *job);
    char file[4096];
    uint32_t ent;
    if (rpjob_parse_ref(path, file, sizeof file, &ent))
        return read_job_entry(path, job, err, errlen);
    uint64_t fsize;
    int fd = rpdec_open_regular(path, &fsize, err, errlen);
    if (fd < 0)
        return -1;
    uint8_t h[RP_SEC_HDR_BYTES];
    int rc = -1;
    off_t size = (off_t)fsize, at = 16;
    if (size < 16 || rpdec_pread_full(fd, h, 16, 0) != 0 || memcmp(h, RP_FILE_MAGIC, 8) != 0 ||
        rpdec_le32(h + 8) != RP_FILE_VERSION) {
        rp_seterr(err, errlen, "not a rank file of version %u", RP_FILE_VERSION);
        goto out;
    }
    /* a bounded walk: every step moves forward by at least a header */
    while (at + (off_t)RP_SEC_HDR_BYTES <= size) {
        if (rpdec_pread_full(fd, h, RP_SEC_HDR_BYTES, at) != 0)
            break;
        uint32_t tag = rpdec_le32(h);
        uint64_t len = rpdec_le64(h + 8);
        at += RP_SEC_HDR_BYTES;
        if (len > (uint64_t)(size - at))
            break;
        if (tag == RP_TAG_END) {
            rc = 0;   /* no JOB section: job unknown */
            goto out;
        }
        if (tag == TAG_JOB) {
            if (len > 4096) {
                rp_seterr(err, errlen, "corrupt JOB section");
                goto out;
            }
            uint8_t p[4096];
            if (rpdec_pread_full(fd, p, (size_t)len, at) != 0) {
                rp_seterr(err, errlen, "%s", strerror(errno ? errno : EIO));
                goto out;
            }
            rc = dec_job(p, len, job, err, errlen);
            goto out;
        }
        at += (off_t)len;
    }
    rp_seterr(err, errlen, "truncated file");
out:
    close(fd);
    return rc;
}

int rpfile_same_job(const rp_jobid *a, const rp_jobid *b)
{
    return a->id == b->id && a->start_ns == b->start_ns &&
           strcmp(a->launcher, b->launcher) == 0;
}

uint64_t rpfile_counter(const rp_rankdata *d, const char *name)
{
    for (uint32_t i = 0; i < d->n_counters; i++)
        if (strncmp(d->counters[i].name, name, sizeof d->counters[i].name) == 0)
            return d->counters[i].value;
    return 0;
}
