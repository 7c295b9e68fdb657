/* profile.c - write and read the merged profile (profile.rpm), version 1.
 * Same container as rank files (lib/format/rpenc.h): magic, version, tagged
 * sections, END + CRC-32; layout in doc/formats.md.  The reader validates
 * every id and count before use, as rpfile.c does. */
#include "common/profile.h"
#include "format/rpenc.h"
#include "format/rpio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_HEAD RP_TAG('H', 'E', 'A', 'D')
#define TAG_MISS RP_TAG('M', 'I', 'S', 'S')
#define TAG_STAT RP_TAG('S', 'T', 'A', 'T')
#define TAG_CNTR RP_TAG('C', 'N', 'T', 'R')
#define TAG_STRS RP_TAG('S', 'T', 'R', 'S')
#define TAG_FRMS RP_TAG('F', 'R', 'M', 'S')
#define TAG_SYMS RP_TAG('S', 'Y', 'M', 'S')
#define TAG_NODE RP_TAG('N', 'O', 'D', 'E')

#define MAX_STR     65535u
#define FRAME_BYTES 12u
#define SYM_BYTES   28u
#define NODE_BYTES  8u

const char *profile_mode_name(uint32_t mode)
{
    switch (mode) {
    case RP_MODE_PROF: return "prof";
    case RP_MODE_PATH: return "path";
    case RP_MODE_TRACE: return "trace";
    default: return "unknown";
    }
}

const char *profile_select_name(uint32_t sel)
{
    return sel == 0 ? "repr" : sel == 1 ? "topk" : sel == 2 ? "paper" : "unknown";
}

uint64_t profile_counter(const rp_profile *p, const char *name)
{
    for (uint32_t i = 0; i < p->n_counters; i++)
        if (strncmp(p->counters[i].name, name, sizeof p->counters[i].name) == 0)
            return p->counters[i].value;
    return 0;
}

/* ---- writer --------------------------------------------------------------- */

int profile_write(const char *path, const rp_profile *p)
{
    rpenc e;
    rpenc_init(&e);
    rpenc_file_header(&e, RP_PROFILE_MAGIC, RP_PROFILE_VERSION);

    size_t s = rpenc_section_begin(&e, TAG_HEAD);
    rpenc_u32(&e, p->ranks_present);
    rpenc_u32(&e, p->nranks);
    rpenc_u32(&e, p->k);
    rpenc_u32(&e, p->mode);
    rpenc_u32(&e, p->select);
    rpenc_u32(&e, p->summary_cap);
    rpenc_u32(&e, p->period_us);
    rpenc_u32(&e, p->clock);
    rpenc_i64(&e, p->wall_ns);
    rpenc_str(&e, p->exe);
    rpenc_u32(&e, p->n_folded);
    union { double d; uint64_t u; } ms = { p->min_share_pct };
    rpenc_u64(&e, ms.u);
    rpenc_u32(&e, p->phase_k);   /* a later v2 addition (readers before it skip it) */
    rpenc_section_end(&e, s);

    s = rpenc_section_begin(&e, TAG_MISS);
    rpenc_u32(&e, p->n_missing);
    for (uint32_t i = 0; i < p->n_missing; i++)
        rpenc_u32(&e, p->missing[i]);
    rpenc_section_end(&e, s);

    s = rpenc_section_begin(&e, TAG_STAT);
    rpenc_stats(&e, &p->stats, RP_ENC_VARINT);
    rpenc_section_end(&e, s);

    s = rpenc_section_begin(&e, TAG_CNTR);
    rpenc_counters(&e, p->counters, p->n_counters);
    rpenc_section_end(&e, s);

    s = rpenc_section_begin(&e, TAG_STRS);
    rpenc_u32(&e, p->n_strs);
    for (uint32_t i = 0; i < p->n_strs; i++)
        rpenc_str(&e, p->strs[i]);
    rpenc_section_end(&e, s);

    s = rpenc_section_begin(&e, TAG_FRMS);
    rpenc_u32(&e, p->n_frames);
    for (uint32_t i = 0; i < p->n_frames; i++) {
        rpenc_u32(&e, p->frames[i].func);
        rpenc_u32(&e, p->frames[i].file);
        rpenc_u32(&e, p->frames[i].line);
    }
    rpenc_section_end(&e, s);

    s = rpenc_section_begin(&e, TAG_SYMS);
    rpenc_u32(&e, p->n_syms);
    for (uint32_t i = 0; i < p->n_syms; i++) {
        const rp_psym *y = &p->syms[i];
        rpenc_u32(&e, y->kind);
        rpenc_u32(&e, y->flags);
        rpenc_u32(&e, y->module);
        rpenc_u64(&e, y->offset);
        rpenc_u32(&e, y->first);
        rpenc_u32(&e, y->n);
    }
    rpenc_section_end(&e, s);

    s = rpenc_section_begin(&e, TAG_NODE);
    rpio_sparse_begin(&e, p->metrics, p->n_nodes, p->n_metrics);
    for (uint32_t i = 0; i < p->n_nodes; i++) {
        rpenc_u32(&e, p->nodes[i].parent);
        rpenc_u32(&e, p->nodes[i].sym);
    }
    rpio_sparse_entries(&e, p->metrics, p->n_nodes, p->n_metrics, RP_ENC_VARINT);
    rpenc_section_end(&e, s);

    return rpio_commit(&e, path);
}

/* ---- reader --------------------------------------------------------------- */

enum { S_HEAD, S_MISS, S_STAT, S_CNTR, S_STRS, S_FRMS, S_SYMS, S_NODE, S_N };

static int dec_head(const rp_section *s, rp_profile *p, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    p->ranks_present = rpdec_u32(&r);
    p->nranks = rpdec_u32(&r);
    p->k = rpdec_u32(&r);
    p->mode = rpdec_u32(&r);
    p->select = rpdec_u32(&r);
    p->summary_cap = rpdec_u32(&r);
    p->period_us = rpdec_u32(&r);
    p->clock = rpdec_u32(&r);
    p->wall_ns = rpdec_i64(&r);
    char *exe = rpdec_str(&r, sizeof p->exe - 1, 1);
    if (!exe || r.failed) {
        free(exe);
        rp_seterr(err, errlen, "corrupt HEAD section");
        return -1;
    }
    memcpy(p->exe, exe, strlen(exe) + 1);
    free(exe);
    p->n_folded = rpdec_u32(&r);
    union { uint64_t u; double d; } ms = { rpdec_u64(&r) };
    p->min_share_pct = ms.d;
    p->phase_k = !r.failed && rpdec_left(&r) >= 4 ? rpdec_u32(&r) : 0;
    if (r.failed || !(p->min_share_pct >= 0 && p->min_share_pct < 100)) {
        rp_seterr(err, errlen, "corrupt HEAD section (contexts folded, min-share)");
        return -1;
    }
    if (p->k == 0 || p->k > RP_FILE_MAX_K || p->nranks == 0 || p->ranks_present == 0 ||
        p->ranks_present > p->nranks || p->mode > RP_MODE_TRACE || p->wall_ns < 0 ||
        p->phase_k > RP_FILE_MAX_K || (p->phase_k && p->phase_k < p->k)) {
        rp_seterr(err, errlen, "corrupt HEAD section (k=%u, ranks %u of %u, mode %u)", p->k,
               p->ranks_present, p->nranks, p->mode);
        return -1;
    }
    return 0;
}

static int dec_miss(const rp_section *s, rp_profile *p, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    p->missing = rpio_array(&r, &p->n_missing, UINT32_MAX, 4u, 1, sizeof *p->missing, "MISS", err,
                            errlen);
    if (!p->missing)
        return -1;
    uint32_t n = p->n_missing;
    if ((uint64_t)n + p->ranks_present != p->nranks) {
        rp_seterr(err, errlen, "corrupt MISS section (%u missing, %u of %u present)", n,
               p->ranks_present, p->nranks);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        p->missing[i] = rpdec_u32(&r);
        if (p->missing[i] >= p->nranks || (i && p->missing[i] <= p->missing[i - 1])) {
            rp_seterr(err, errlen, "corrupt MISS section (rank %u)", p->missing[i]);
            return -1;
        }
    }
    return 0;
}

static int dec_strs(const rp_section *s, rp_profile *p, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    p->strs = rpio_array(&r, &p->n_strs, UINT32_MAX, 4u, 0, sizeof *p->strs, "STRS", err, errlen);
    if (!p->strs)
        return -1;
    uint32_t n = p->n_strs;
    if (n == 0) {
        rp_seterr(err, errlen, "corrupt STRS section (no strings)");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        p->strs[i] = rpdec_str(&r, MAX_STR, 1);
        if (!p->strs[i]) {
            rp_seterr(err, errlen, "corrupt STRS section (string %u)", i);
            return -1;
        }
    }
    if (p->strs[0][0] != 0) {
        rp_seterr(err, errlen, "corrupt STRS section (string 0 is not empty)");
        return -1;
    }
    return 0;
}

static int dec_frms(const rp_section *s, rp_profile *p, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    p->frames = rpio_array(&r, &p->n_frames, UINT32_MAX, FRAME_BYTES, 1, sizeof *p->frames, "FRMS", err,
                         errlen);
    if (!p->frames)
        return -1;
    uint32_t n = p->n_frames;
    for (uint32_t i = 0; i < n; i++) {
        rp_pframe *f = &p->frames[i];
        f->func = rpdec_u32(&r);
        f->file = rpdec_u32(&r);
        f->line = rpdec_u32(&r);
        if (f->func >= p->n_strs || f->file >= p->n_strs) {
            rp_seterr(err, errlen, "corrupt FRMS section (frame %u: string id out of range)", i);
            return -1;
        }
    }
    return 0;
}

static int dec_syms(const rp_section *s, rp_profile *p, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    p->syms = rpio_array(&r, &p->n_syms, UINT32_MAX, SYM_BYTES, 1, sizeof *p->syms, "SYMS", err,
                         errlen);
    if (!p->syms)
        return -1;
    uint32_t n = p->n_syms;
    for (uint32_t i = 0; i < n; i++) {
        rp_psym *y = &p->syms[i];
        y->kind = rpdec_u32(&r);
        y->flags = rpdec_u32(&r);
        y->module = rpdec_u32(&r);
        y->offset = rpdec_u64(&r);
        y->first = rpdec_u32(&r);
        y->n = rpdec_u32(&r);
        if (y->kind > RP_SYM_UNKNOWN || y->module >= p->n_strs || y->n == 0 ||
            y->first >= p->n_frames || y->n > p->n_frames - y->first) {
            rp_seterr(err, errlen, "corrupt SYMS section (symbol %u)", i);
            return -1;
        }
    }
    return 0;
}

static int dec_node(const rp_section *s, rp_profile *p, char *err, size_t errlen)
{
    rpdec r;
    rpdec_init(&r, s->p, s->len);
    uint32_t n, nm;
    uint64_t nz;
    if (rpio_sparse_head(&r, NODE_BYTES, RP_MET_PATH0 + p->k, RP_ENC_VARINT, "NODE", &n, &nm,
                         &nz, err, errlen) != 0)
        return -1;
    p->nodes = malloc((size_t)n * sizeof *p->nodes);
    p->metrics = calloc((size_t)n * nm, sizeof *p->metrics);
    if (!p->nodes || !p->metrics) {
        rp_seterr(err, errlen, "out of memory for %u nodes", n);
        return -1;
    }
    p->n_nodes = n;
    p->n_metrics = nm;
    for (uint32_t i = 0; i < n; i++) {
        p->nodes[i].parent = rpdec_u32(&r);
        p->nodes[i].sym = rpdec_u32(&r);
        int bad = i == 0 ? (p->nodes[0].parent != UINT32_MAX || p->nodes[0].sym != UINT32_MAX)
                         : (p->nodes[i].parent >= i || p->nodes[i].sym >= p->n_syms);
        if (bad) {
            rp_seterr(err, errlen, "corrupt NODE section (node %u: parent %u, symbol %u)", i,
                   p->nodes[i].parent, p->nodes[i].sym);
            return -1;
        }
    }
    /* merged times are sums of non-negative times */
    return rpio_sparse_read(&r, p->metrics, n, nm, nz, 0, RP_ENC_VARINT, "NODE", err, errlen);
}

int profile_read(const char *path, rp_profile *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    static const rp_secspec spec[S_N] = {
        {TAG_HEAD, "HEAD", 1}, {TAG_MISS, "MISS", 1}, {TAG_STAT, "STAT", 1},
        {TAG_CNTR, "CNTR", 1}, {TAG_STRS, "STRS", 1}, {TAG_FRMS, "FRMS", 1},
        {TAG_SYMS, "SYMS", 1}, {TAG_NODE, "NODE", 1}};
    rp_section sec[S_N];
    uint8_t *buf;
    rpdec r;
    if (rpio_open(path, RP_PROFILE_MAGIC, RP_PROFILE_VERSION, spec, S_N, sec, &buf, err,
                  errlen) != 0)
        return -1;
    if (dec_head(&sec[S_HEAD], p, err, errlen) || dec_miss(&sec[S_MISS], p, err, errlen))
        goto fail;
    rpdec_init(&r, sec[S_STAT].p, sec[S_STAT].len);
    if (rpdec_stats(&r, &p->stats, p->k, RP_ENC_VARINT, err, errlen))
        goto fail;
    rpdec_init(&r, sec[S_CNTR].p, sec[S_CNTR].len);
    if (rpdec_counters(&r, &p->counters, &p->n_counters, err, errlen))
        goto fail;
    if (dec_strs(&sec[S_STRS], p, err, errlen) || dec_frms(&sec[S_FRMS], p, err, errlen) ||
        dec_syms(&sec[S_SYMS], p, err, errlen) || dec_node(&sec[S_NODE], p, err, errlen))
        goto fail;
    free(buf);
    return 0;
fail:
    free(buf);
    profile_free(p);
    return -1;
}

void profile_free(rp_profile *p)
{
    if (!p)
        return;
    free(p->missing);
    for (uint32_t i = 0; p->left_out && i < p->n_left_out; i++)
        free(p->left_out[i]);
    free(p->left_out);
    if (p->stats.sum_ns)
        phasestats_free(&p->stats);
    free(p->counters);
    if (p->strs)
        for (uint32_t i = 0; i < p->n_strs; i++)
            free(p->strs[i]);
    free(p->strs);
    free(p->frames);
    free(p->syms);
    free(p->nodes);
    free(p->metrics);
    memset(p, 0, sizeof *p);
}
