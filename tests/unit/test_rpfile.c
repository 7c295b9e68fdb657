/* test_rpfile - the rank file (lib/format/rpfile.c): round trip, and rejection of
 * every kind of damage without crashing or over-allocating: each
 * truncation length, single-bit flips everywhere, another version, and
 * semantically wrong files whose CRC was recomputed so that validation,
 * not the checksum, has to catch them.  Run it under ASan/UBSan too. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/crc32.h"
#include "format/rpenc.h"
#include "format/rpfile.h"
#include "unit.h"

static char dir[256];
static char path[300];

/* ---- a small, complete rank ------------------------------------------------- */

static rp_counter counters[2] = {{"samples_dropped", 3}, {"k_clamped", 1}};
static char *mpi_names[2] = {"MPI_Wait", "MPI_Allreduce"};
static rp_module modules[2];

static void make_rank(rp_rankdata *d, uint32_t k)
{
    memset(d, 0, sizeof *d);
    d->rank = 3;
    d->nranks = 8;
    d->k = k;
    d->mode = RP_MODE_PROF;
    d->select = 1;
    d->summary_cap = 32;
    d->period_us = 1000;
    d->clock = RP_CLOCK_WALL;
    d->phase_k = 4 * (k - 1) + 1;
    d->wall_ns = 123456789;
    strcpy(d->exe, "/usr/bin/app");
    strcpy(d->host, "node7");
    phasestats_init(&d->stats, k);
    int64_t c[16];
    for (int q = 0; q < 4; q++) {
        for (uint32_t j = 0; j < k; j++)
            c[j] = (int64_t)(k - j) * 1000000 + q * 12345;
        phasestats_add(&d->stats, c);
    }
    d->counters = counters;
    d->n_counters = 2;
    modules[0].path = "/usr/bin/app";
    modules[0].build_id_len = 20;
    for (int i = 0; i < 20; i++)
        modules[0].build_id[i] = (uint8_t)(i * 13);
    modules[1].path = "/lib/libc.so.6";
    modules[1].build_id_len = 0;
    d->modules = modules;
    d->n_modules = 2;
    d->mpi_names = mpi_names;
    d->n_mpi_names = 2;
    d->n_nodes = 6;
    d->n_metrics = RP_MET_PATH0 + k;
    d->nodes = calloc(d->n_nodes, sizeof *d->nodes);
    d->metrics = calloc((size_t)d->n_nodes * d->n_metrics, sizeof *d->metrics);
    d->nodes[0] = (rp_cctnode){UINT32_MAX, RP_MOD_ROOT, 0};
    d->nodes[1] = (rp_cctnode){0, 0, 0x1234};
    d->nodes[2] = (rp_cctnode){1, 1, 0xabcdef};
    d->nodes[3] = (rp_cctnode){1, RP_MOD_MPI, 1};
    d->nodes[4] = (rp_cctnode){0, RP_MOD_UNKNOWN, 0};
    d->nodes[5] = (rp_cctnode){2, 0, 0x7fffffffffull};
    for (uint32_t i = 0; i < d->n_nodes * d->n_metrics; i++)
        if (i % 3 == 1)
            d->metrics[i] = (int64_t)i * 1000 + 7;
}

static void free_made(rp_rankdata *d)
{
    phasestats_free(&d->stats);
    free(d->nodes);
    free(d->metrics);
}

static int same_rank(const rp_rankdata *a, const rp_rankdata *b)
{
    if (a->rank != b->rank || a->nranks != b->nranks || a->k != b->k || a->mode != b->mode ||
        a->select != b->select || a->summary_cap != b->summary_cap ||
        a->period_us != b->period_us || a->clock != b->clock || a->phase_k != b->phase_k ||
        a->wall_ns != b->wall_ns || !rpfile_same_job(&a->job, &b->job) ||
        strcmp(a->exe, b->exe) || strcmp(a->host, b->host))
        return 0;
    if (a->stats.k != b->stats.k || a->stats.nphases != b->stats.nphases)
        return 0;
    for (uint32_t j = 0; j < a->k; j++)
        if (a->stats.sum_ns[j] != b->stats.sum_ns[j] || a->stats.min_ns[j] != b->stats.min_ns[j] ||
            a->stats.max_ns[j] != b->stats.max_ns[j])
            return 0;
    if (memcmp(a->stats.hist, b->stats.hist, (size_t)a->k * RP_HIST_BINS * sizeof(uint32_t)))
        return 0;
    if (a->n_counters != b->n_counters || a->n_modules != b->n_modules ||
        a->n_mpi_names != b->n_mpi_names || a->n_nodes != b->n_nodes ||
        a->n_metrics != b->n_metrics)
        return 0;
    for (uint32_t i = 0; i < a->n_counters; i++)
        if (strcmp(a->counters[i].name, b->counters[i].name) ||
            a->counters[i].value != b->counters[i].value)
            return 0;
    for (uint32_t i = 0; i < a->n_modules; i++)
        if (strcmp(a->modules[i].path, b->modules[i].path) ||
            a->modules[i].build_id_len != b->modules[i].build_id_len ||
            memcmp(a->modules[i].build_id, b->modules[i].build_id, a->modules[i].build_id_len))
            return 0;
    for (uint32_t i = 0; i < a->n_mpi_names; i++)
        if (strcmp(a->mpi_names[i], b->mpi_names[i]))
            return 0;
    for (uint32_t i = 0; i < a->n_nodes; i++)
        if (a->nodes[i].parent != b->nodes[i].parent || a->nodes[i].module != b->nodes[i].module ||
            a->nodes[i].offset != b->nodes[i].offset)
            return 0;
    return memcmp(a->metrics, b->metrics, (size_t)a->n_nodes * a->n_metrics * 8) == 0;
}

/* ---- file helpers ------------------------------------------------------------ */

static uint8_t *slurp(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void spit(const char *p, const uint8_t *b, size_t n)
{
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(b, 1, n, f) != n)
        abort();
    fclose(f);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Offset of the payload of section tag (first one), or 0. */
static size_t find_section(const uint8_t *b, size_t n, uint32_t tag, uint64_t *len)
{
    size_t pos = RP_FILE_HDR_BYTES;
    while (pos + RP_SEC_HDR_BYTES <= n) {
        uint32_t t = get32(b + pos);
        uint64_t l = (uint64_t)get32(b + pos + 8) | (uint64_t)get32(b + pos + 12) << 32;
        if (t == tag) {
            if (len)
                *len = l;
            return pos + RP_SEC_HDR_BYTES;
        }
        pos += RP_SEC_HDR_BYTES + l;
    }
    return 0;
}

/* Recompute the CRC of a buffer whose last section is END. */
static void fix_crc(uint8_t *b, size_t n)
{
    size_t end = n - 4;   /* everything before the CRC */
    put32(b + n - 4, rp_crc32_update(0, b, end));
}

/* Read the buffer back as a file; returns rpfile_read's result, err filled. */
static int read_buf(const uint8_t *b, size_t n, char *err, size_t errlen)
{
    spit(path, b, n);
    rp_rankdata d;
    err[0] = 0;
    int rc = rpfile_read(path, &d, err, errlen);
    if (rc == 0)
        rpfile_free(&d);
    return rc;
}

#define TAG(s) RP_TAG(s[0], s[1], s[2], s[3])

/* Apply a mutation to a fresh copy, fix the CRC, expect rejection with a
 * message containing want. */
typedef void (*mutator)(uint8_t *b, size_t n);
static void expect_reject(const uint8_t *orig, size_t n, mutator m, const char *want,
                          const char *what)
{
    uint8_t *b = malloc(n);
    memcpy(b, orig, n);
    m(b, n);
    fix_crc(b, n);
    char err[256];
    int rc = read_buf(b, n, err, sizeof err);
    CHECK_EQ(rc, -1);
    if (rc != -1 || !strstr(err, want))
        fprintf(stderr, "  %s: got '%s', wanted '%s'\n", what, err, want);
    CHECK(strstr(err, want) != NULL);
    free(b);
}

static size_t cct_at(const uint8_t *b, size_t n) { return find_section(b, n, TAG("CCT "), NULL); }

static void m_nodes_huge(uint8_t *b, size_t n) { put32(b + cct_at(b, n), 0xFFFFFFFFu); }
static void m_nodes_zero(uint8_t *b, size_t n) { put32(b + cct_at(b, n), 0); }
static void m_entries_huge(uint8_t *b, size_t n) { put64(b + cct_at(b, n) + 8, UINT64_MAX / 3); }
static void m_metrics_cols(uint8_t *b, size_t n) { put32(b + cct_at(b, n) + 4, 7); }
/* node i is at CCT payload + 16 + 16*i: parent, module, offset */
static void m_cycle(uint8_t *b, size_t n) { put32(b + cct_at(b, n) + 16 + 16 * 2, 5); }
static void m_self_parent(uint8_t *b, size_t n) { put32(b + cct_at(b, n) + 16 + 16 * 3, 3); }
static void m_parent_range(uint8_t *b, size_t n) { put32(b + cct_at(b, n) + 16 + 16 * 5, 999); }
static void m_root_parent(uint8_t *b, size_t n) { put32(b + cct_at(b, n) + 16, 0); }
static void m_second_root(uint8_t *b, size_t n) { put32(b + cct_at(b, n) + 16 + 16 * 2 + 4, RP_MOD_ROOT); }
static void m_module_range(uint8_t *b, size_t n) { put32(b + cct_at(b, n) + 16 + 16 * 1 + 4, 2); }
static void m_mpi_range(uint8_t *b, size_t n) { put64(b + cct_at(b, n) + 16 + 16 * 3 + 8, 2); }
static void m_neg_metric(uint8_t *b, size_t n)
{
    /* first metric entry: node, column, value */
    put64(b + cct_at(b, n) + 16 + 16 * 6 + 8, (uint64_t)-5);
}
static void m_entry_order(uint8_t *b, size_t n)
{
    size_t e = cct_at(b, n) + 16 + 16 * 6;
    put32(b + e + 16, get32(b + e));          /* second entry: same node */
    put32(b + e + 16 + 4, get32(b + e + 4));  /* and column as the first */
}
static void m_head_k(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("HEAD"), NULL) + 8, 4); }
static void m_head_k0(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("HEAD"), NULL) + 8, 0); }
static void m_head_khuge(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("HEAD"), NULL) + 8, 0x7FFFFFFF); }
static void m_rank_range(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("HEAD"), NULL), 8); }
static void m_nranks_huge(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("HEAD"), NULL) + 4, 0xFFFFFFF0u); }
static void m_mode(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("HEAD"), NULL) + 12, 9); }
static void m_stat_k(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("STAT"), NULL), 2); }
static void m_stat_bin(uint8_t *b, size_t n)
{
    /* slot 0: after k, reserved, nphases, sum, min, max, nbins: first bin id */
    size_t s = find_section(b, n, TAG("STAT"), NULL) + 16 + 24 + 4;
    b[s] = 0xFF;
    b[s + 1] = 0xFF;
}
static void m_stat_nbins(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("STAT"), NULL) + 16 + 24, 0x00FFFFFF); }
static void m_stat_minmax(uint8_t *b, size_t n) { put64(b + find_section(b, n, TAG("STAT"), NULL) + 16 + 8, (uint64_t)1 << 60); }
static void m_mods_huge(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("MODS"), NULL), 0x7FFFFFFF); }
static void m_mods_pathlen(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("MODS"), NULL) + 4, 0xFFFFFFF0u); }
static void m_mpin_huge(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("MPIN"), NULL), 60000); }
static void m_mpin_nul(uint8_t *b, size_t n) { b[find_section(b, n, TAG("MPIN"), NULL) + 4 + 4 + 2] = 0; }
static void m_cntr_huge(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("CNTR"), NULL), 4000); }
static void m_dup_tag(uint8_t *b, size_t n)
{
    /* rename MPIN to MODS: a duplicate section and a missing one */
    put32(b + find_section(b, n, TAG("MPIN"), NULL) - RP_SEC_HDR_BYTES, TAG("MODS"));
}
static void m_missing(uint8_t *b, size_t n)
{
    put32(b + find_section(b, n, TAG("MPIN"), NULL) - RP_SEC_HDR_BYTES, TAG("XTRA"));
}
static void m_version(uint8_t *b, size_t n) { put32(b + 8, 1); }

/* ---- the tests --------------------------------------------------------------- */

static void test_roundtrip(void)
{
    for (uint32_t k = 1; k <= 9; k += 4) {
        rp_rankdata d, r;
        make_rank(&d, k);
        CHECK_EQ(rpfile_write(path, &d), 0);
        char err[256] = "";
        CHECK_EQ(rpfile_read(path, &r, err, sizeof err), 0);
        if (err[0])
            fprintf(stderr, "  roundtrip: %s\n", err);
        CHECK(same_rank(&d, &r));
        CHECK_EQ(rpfile_counter(&r, "samples_dropped"), 3);
        CHECK_EQ(rpfile_counter(&r, "k_clamped"), 1);
        CHECK_EQ(rpfile_counter(&r, "nope"), 0);
        rpfile_free(&r);
        rpfile_free(&r);   /* idempotent on a freed (zeroed) struct */
        free_made(&d);
    }
}

/* HEAD's phase_k: 0 = not recorded reads back as 0; fewer
 * paths than k is refused. */
static void test_phase_k(void)
{
    rp_rankdata d, r;
    char err[256] = "";
    make_rank(&d, 5);
    d.phase_k = 0;
    CHECK_EQ(rpfile_write(path, &d), 0);
    CHECK_EQ(rpfile_read(path, &r, err, sizeof err), 0);
    CHECK_EQ(r.phase_k, 0);
    rpfile_free(&r);
    d.phase_k = 3;   /* the writer validates as the reader does */
    errno = 0;
    CHECK_EQ(rpfile_write(path, &d), -1);
    CHECK(errno == EINVAL);
    free_made(&d);
}

static void test_write_errors(void)
{
    rp_rankdata d;
    make_rank(&d, 3);
    char bad[400];
    snprintf(bad, sizeof bad, "%s/no/such/dir/rank-00000.rpp", dir);
    errno = 0;
    CHECK_EQ(rpfile_write(bad, &d), -1);
    CHECK(errno == ENOENT);
    /* invalid content is refused, and nothing (not even a temp) is left */
    char p2[400];
    snprintf(p2, sizeof p2, "%s/invalid.rpp", dir);
    d.n_metrics = 4;
    errno = 0;
    CHECK_EQ(rpfile_write(p2, &d), -1);
    CHECK(errno == EINVAL);
    CHECK(access(p2, F_OK) != 0);
    d.n_metrics = RP_MET_PATH0 + 3;
    d.nodes[2].parent = 4;
    CHECK_EQ(rpfile_write(p2, &d), -1);
    d.nodes[2].parent = 1;
    d.nodes[3].offset = 2;     /* MPI name id out of range */
    CHECK_EQ(rpfile_write(p2, &d), -1);
    d.nodes[3].offset = 1;
    CHECK_EQ(rpfile_write(p2, &d), 0);
    char tmp[500];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", p2, (long)getpid());
    CHECK(access(tmp, F_OK) != 0);
    unlink(p2);
    free_made(&d);
}

static void test_damage(void)
{
    rp_rankdata d;
    make_rank(&d, 3);
    CHECK_EQ(rpfile_write(path, &d), 0);
    free_made(&d);
    size_t n;
    uint8_t *orig = slurp(path, &n);
    CHECK(orig != NULL);
    if (!orig)
        return;
    char err[256];

    /* every truncation length */
    int bad_msg = 0;
    for (size_t len = 0; len < n; len++) {
        int rc = read_buf(orig, len, err, sizeof err);
        CHECK_EQ(rc, -1);
        if (len >= RP_FILE_HDR_BYTES && !strstr(err, "truncated") && !strstr(err, "checksum") &&
            !strstr(err, "END"))
            bad_msg++;
        if (len > 0 && len < 8 && !strstr(err, "truncated"))
            bad_msg++;
    }
    CHECK_EQ(bad_msg, 0);
    CHECK_EQ(read_buf(orig, 0, err, sizeof err), -1);
    CHECK(strstr(err, "empty") != NULL);

    /* every single-bit flip (the CRC catches all single-bit errors) */
    uint8_t *b = malloc(n);
    int accepted = 0;
    for (size_t off = 0; off < n; off++) {
        for (int bit = 0; bit < 8; bit += (off < 64 ? 1 : 3)) {
            memcpy(b, orig, n);
            b[off] ^= (uint8_t)(1u << bit);
            if (read_buf(b, n, err, sizeof err) == 0) {
                accepted++;
                fprintf(stderr, "  bit flip at %zu.%d accepted\n", off, bit);
            }
        }
    }
    CHECK_EQ(accepted, 0);

    /* magic, version */
    memcpy(b, orig, n);
    b[0] = 'X';
    CHECK_EQ(read_buf(b, n, err, sizeof err), -1);
    CHECK(strstr(err, "magic") != NULL);
    memcpy(b, orig, n);
    b[6] = '\n';           /* text-mode mangling of "\r\n" */
    CHECK_EQ(read_buf(b, n, err, sizeof err), -1);
    CHECK(strstr(err, "magic") != NULL);
    expect_reject(orig, n, m_version, "version 1 (expected 2)", "version");

    /* trailing bytes after END */
    uint8_t *longer = malloc(n + 3);
    memcpy(longer, orig, n);
    memset(longer + n, 0, 3);
    CHECK_EQ(read_buf(longer, n + 3, err, sizeof err), -1);
    CHECK(strstr(err, "trailing") != NULL);
    free(longer);

    /* semantic damage behind a valid CRC */
    expect_reject(orig, n, m_nodes_huge, "CCT", "nodes huge");
    expect_reject(orig, n, m_nodes_zero, "", "nodes zero");
    expect_reject(orig, n, m_entries_huge, "CCT", "entries huge");
    expect_reject(orig, n, m_metrics_cols, "metric columns", "n_metrics");
    expect_reject(orig, n, m_cycle, "parent", "cycle");
    expect_reject(orig, n, m_self_parent, "parent", "self parent");
    expect_reject(orig, n, m_parent_range, "parent", "parent range");
    expect_reject(orig, n, m_root_parent, "root", "root parent");
    expect_reject(orig, n, m_second_root, "root", "second root");
    expect_reject(orig, n, m_module_range, "module id", "module range");
    expect_reject(orig, n, m_mpi_range, "MPI name id", "mpi range");
    expect_reject(orig, n, m_neg_metric, "negative", "negative metric");
    expect_reject(orig, n, m_entry_order, "metric entry", "entry order");
    expect_reject(orig, n, m_head_k, "k=", "k mismatch");
    expect_reject(orig, n, m_head_k0, "k=0", "k zero");
    expect_reject(orig, n, m_head_khuge, "absurd k", "k huge");
    expect_reject(orig, n, m_rank_range, "rank 8 out of range", "rank range");
    expect_reject(orig, n, m_nranks_huge, "rank count", "nranks huge");
    expect_reject(orig, n, m_mode, "mode", "mode");
    expect_reject(orig, n, m_stat_k, "STAT k=2", "stat k");
    expect_reject(orig, n, m_stat_bin, "bin", "stat bin");
    expect_reject(orig, n, m_stat_nbins, "STAT", "stat nbins");
    expect_reject(orig, n, m_stat_minmax, "min/max", "stat minmax");
    expect_reject(orig, n, m_mods_huge, "MODS", "mods huge");
    expect_reject(orig, n, m_mods_pathlen, "MODS", "mods pathlen");
    expect_reject(orig, n, m_mpin_huge, "MPIN", "mpin huge");
    expect_reject(orig, n, m_mpin_nul, "MPIN", "mpin nul");
    expect_reject(orig, n, m_cntr_huge, "CNTR", "cntr huge");
    expect_reject(orig, n, m_dup_tag, "duplicate", "dup tag");
    expect_reject(orig, n, m_missing, "missing MPIN", "missing section");

    /* an unknown section is skipped (forward compatible within v1) */
    size_t cct = find_section(orig, n, TAG("CCT "), NULL) - RP_SEC_HDR_BYTES;
    size_t extra = RP_SEC_HDR_BYTES + 5;
    uint8_t *x = malloc(n + extra);
    memcpy(x, orig, cct);
    put32(x + cct, TAG("ZZZZ"));
    put32(x + cct + 4, 0);
    put64(x + cct + 8, 5);
    memcpy(x + cct + RP_SEC_HDR_BYTES, "hello", 5);
    memcpy(x + cct + extra, orig + cct, n - cct);
    fix_crc(x, n + extra);
    CHECK_EQ(read_buf(x, n + extra, err, sizeof err), 0);
    free(x);
    /* a later v1 HEAD with extra trailing fields still reads */
    free(b);
    free(orig);
}

/* ---- the job's identity (JOB) ------------------------------------------------ */

/* Remove the section with tag from b[0..*n) (and fix the CRC). */
static void drop_section(uint8_t *b, size_t *n, uint32_t tag)
{
    uint64_t len;
    size_t at = find_section(b, *n, tag, &len);
    if (!at)
        return;
    size_t from = at - RP_SEC_HDR_BYTES, cut = RP_SEC_HDR_BYTES + (size_t)len;
    memmove(b + from, b + from + cut, *n - from - cut);
    *n -= cut;
    fix_crc(b, *n);
}

static void m_job_zero(uint8_t *b, size_t n) { put64(b + find_section(b, n, TAG("JOB "), NULL), 0); }
static void m_job_launcher(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("JOB "), NULL) + 16, 9999); }

static void test_job(void)
{
    rp_rankdata d, r;
    rp_jobid j;
    char err[256] = "";
    make_rank(&d, 5);
    d.job.id = 0x1f2e3d4c5b6a7980ull;
    d.job.start_ns = 1700000000123456789ll;
    strcpy(d.job.launcher, "SLURM_JOB_ID=4711 SLURM_STEP_ID=0");
    /* round trip: the whole file, and the job alone */
    CHECK_EQ(rpfile_write(path, &d), 0);
    CHECK_EQ(rpfile_read(path, &r, err, sizeof err), 0);
    CHECK(same_rank(&d, &r));
    CHECK(r.job.id == d.job.id && r.job.start_ns == d.job.start_ns);
    CHECK(strcmp(r.job.launcher, d.job.launcher) == 0);
    rpfile_free(&r);
    CHECK_EQ(rpfile_read_job(path, &j, err, sizeof err), 0);
    CHECK(rpfile_same_job(&j, &d.job));
    rp_jobid other = d.job;
    other.id ^= 1;
    CHECK(!rpfile_same_job(&other, &d.job));

    size_t n;
    uint8_t *orig = slurp(path, &n);
    CHECK(orig != NULL && find_section(orig, n, TAG("JOB "), NULL) != 0);
    /* a damaged JOB section is refused like any other */
    expect_reject(orig, n, m_job_zero, "JOB", "job id 0");
    expect_reject(orig, n, m_job_launcher, "JOB", "job launcher length");
    /* an older file (no JOB section) still reads: job unknown */
    size_t m = n;
    drop_section(orig, &m, TAG("JOB "));
    CHECK_EQ(find_section(orig, m, TAG("JOB "), NULL), 0);
    CHECK_EQ(read_buf(orig, m, err, sizeof err), 0);
    CHECK_EQ(rpfile_read(path, &r, err, sizeof err), 0);
    CHECK(r.job.id == 0 && r.job.start_ns == 0 && r.job.launcher[0] == 0);
    rpfile_free(&r);
    CHECK_EQ(rpfile_read_job(path, &j, err, sizeof err), 0);
    CHECK(j.id == 0);
    free(orig);
    /* a job unknown is written without the section: the file is byte for
     * byte what the writer produced before the section existed */
    memset(&d.job, 0, sizeof d.job);
    CHECK_EQ(rpfile_write(path, &d), 0);
    orig = slurp(path, &n);
    CHECK(orig != NULL && find_section(orig, n, TAG("JOB "), NULL) == 0);
    free(orig);
    CHECK_EQ(rpfile_read_job(path, &j, err, sizeof err), 0);
    CHECK(j.id == 0);
    /* a launcher id that is not a string is refused by the writer */
    memset(d.job.launcher, 'x', sizeof d.job.launcher);
    d.job.id = 5;
    CHECK_EQ(rpfile_write(path, &d), -1);
    /* rpfile_read_job on what is not a rank file */
    spit(path, (const uint8_t *)"hello", 5);
    CHECK_EQ(rpfile_read_job(path, &j, err, sizeof err), -1);
    free_made(&d);
}

/* ---- path and trace sections (TASK, PSUM, EDGE) ------------------------------ */

static rp_task ptasks[3];
static rp_fileiv pivs[2][2];
static rp_pathsum psums[2];
static rp_edge pedges[2];
static int64_t pcomp[3];

/* make_rank plus tasks, path summaries and edges (k = 3, 8 ranks) */
static void add_paths(rp_rankdata *d)
{
    d->mode = RP_MODE_PATH;
    d->n_events = 6;
    for (int i = 0; i < 3; i++) {
        ptasks[i] = (rp_task){(uint64_t)(i / 2), (uint64_t)(2 * i + 1), (uint32_t)i, 0, 1,
                              1000 * (i + 1), (uint32_t)(i == 1 ? 3 : 0),
                              i == 2 ? 5u : RP_NO_RANK, i == 2 ? 8u : 0u, 0,
                              i == 1 ? RP_TASK_EAGER : 5u};
    }
    d->tasks = ptasks;
    d->n_tasks = 3;
    pivs[0][0] = (rp_fileiv){3, 0, 1};
    pivs[0][1] = (rp_fileiv){5, 2, 7};
    pivs[1][0] = (rp_fileiv){7, 4, 4};
    psums[0] = (rp_pathsum){0, 0, 0, 5000, 0, 2, 3.5f, pivs[0], -1};
    psums[1] = (rp_pathsum){0, 2, 1, 100, 3, 1, -0.25f, pivs[1], 60};   /* overflowed: PCOV */
    d->pathsums = psums;
    d->n_pathsums = 2;
    pedges[0] = (rp_edge){RP_EDGE_MSG, 8, 1, 5, 0, 4, 0, 0, 0, 0, 0};
    /* bytes of a collective: my rank in the communicator + 1 (here 2 + 1) */
    pedges[1] = (rp_edge){RP_EDGE_COLL, 3, 3, 0, RP_COLL_SCAN, 0, (7ull << 32) | 9, 2, 4, 1, 0};
    d->edges = pedges;
    d->n_edges = 2;
    /* PCMP: this rank's computation in phases 0..2 (a phase without a task
     * here computes 0) */
    pcomp[0] = 3000;
    pcomp[1] = 3000;
    pcomp[2] = 0;
    d->phase_comp = pcomp;
    d->n_phase_comp = 3;
}

static int same_paths(const rp_rankdata *a, const rp_rankdata *b)
{
    if (a->n_events != b->n_events || a->n_tasks != b->n_tasks ||
        a->n_pathsums != b->n_pathsums || a->n_edges != b->n_edges)
        return 0;
    if (memcmp(a->tasks, b->tasks, a->n_tasks * sizeof *a->tasks) ||
        memcmp(a->edges, b->edges, a->n_edges * sizeof *a->edges))
        return 0;
    if (a->n_phase_comp != b->n_phase_comp ||
        (a->n_phase_comp &&
         memcmp(a->phase_comp, b->phase_comp, a->n_phase_comp * sizeof *a->phase_comp)))
        return 0;
    for (uint32_t i = 0; i < a->n_pathsums; i++) {
        const rp_pathsum *x = &a->pathsums[i], *y = &b->pathsums[i];
        if (x->phase != y->phase || x->path != y->path || x->flags != y->flags ||
            x->cost_ns != y->cost_ns || x->n_evicted != y->n_evicted || x->n_iv != y->n_iv ||
            x->lw != y->lw ||
            memcmp(x->iv, y->iv, x->n_iv * sizeof *x->iv))
            return 0;
    }
    return 1;
}

static size_t task_at(const uint8_t *b, size_t n) { return find_section(b, n, TAG("TASK"), NULL) + 16; }
static size_t psum_at(const uint8_t *b, size_t n) { return find_section(b, n, TAG("PSUM"), NULL) + 8; }
static size_t edge_at(const uint8_t *b, size_t n) { return find_section(b, n, TAG("EDGE"), NULL) + 8; }
/* TASK: u64 n_events, u64 n, 56-byte tasks: phase 0, event 8, idx 16,
 * start_fn 20, end_fn 22, cost 24, callsite 32, msg_src 36, bytes 40, 44, mask 48 */
static void m_task_count(uint8_t *b, size_t n) { put64(b + task_at(b, n) - 8, 1ull << 40); }
static void m_task_events(uint8_t *b, size_t n) { put64(b + task_at(b, n) - 16, 2); }
static void m_task_order(uint8_t *b, size_t n) { put64(b + task_at(b, n) + 56 + 8, 1); }
static void m_task_phase(uint8_t *b, size_t n) { put64(b + task_at(b, n) + 56, 9); }
static void m_task_fn(uint8_t *b, size_t n) { b[task_at(b, n) + 22] = 2; }
static void m_task_cs(uint8_t *b, size_t n) { put32(b + task_at(b, n) + 32, 6); }
static void m_task_src(uint8_t *b, size_t n) { put32(b + task_at(b, n) + 36, 8); }
static void m_task_cost(uint8_t *b, size_t n) { put64(b + task_at(b, n) + 24, UINT64_MAX); }
/* PSUM: u32 n, u32 0, then {u64 phase, u32 path, u32 flags, i64 cost, u32 evicted, u32 n_iv, ivs} */
static void m_psum_count(uint8_t *b, size_t n) { put32(b + psum_at(b, n) - 8, 0x3FFFFFFF); }
static void m_psum_niv(uint8_t *b, size_t n) { put32(b + psum_at(b, n) + 32, 0x7FFFFFFF); }
static void m_psum_lw(uint8_t *b, size_t n) { put32(b + psum_at(b, n) + 28, 0x7FC00000); }
static void m_psum_lowhigh(uint8_t *b, size_t n) { put32(b + psum_at(b, n) + 36 + 4, 5); }
static void m_psum_rank(uint8_t *b, size_t n) { put32(b + psum_at(b, n) + 36, 8); }
static void m_psum_path(uint8_t *b, size_t n) { put32(b + psum_at(b, n) + 8, 3); }
static void m_psum_order(uint8_t *b, size_t n) { put32(b + psum_at(b, n) + 36 + 24 + 8, 0); }
/* EDGE: u64 n, 56-byte edges: kind 0, bytes 4, event 8, peer 16, coll_kind 20,
 * peer_event 24, coll_id 32, root 40, size 44, phase_end 48 */
static void m_edge_count(uint8_t *b, size_t n) { put64(b + edge_at(b, n) - 8, 3); }
static void m_edge_kind(uint8_t *b, size_t n) { put32(b + edge_at(b, n), 7); }
static void m_edge_peer(uint8_t *b, size_t n) { put32(b + edge_at(b, n) + 16, 8); }
static void m_edge_event(uint8_t *b, size_t n) { put64(b + edge_at(b, n) + 8, 6); }
static void m_edge_ckind(uint8_t *b, size_t n) { put32(b + edge_at(b, n) + 56 + 20, 5); }
static void m_edge_scanpos(uint8_t *b, size_t n) { put32(b + edge_at(b, n) + 56 + 40, 4); }
static void m_edge_size(uint8_t *b, size_t n) { put32(b + edge_at(b, n) + 56 + 44, 9); }
static void m_edge_crank(uint8_t *b, size_t n) { put32(b + edge_at(b, n) + 56 + 4, 5); }
/* PCMP: u64 n, then n i64 computations */
static size_t pcmp_at(const uint8_t *b, size_t n) { return find_section(b, n, TAG("PCMP"), NULL); }
static void m_pcmp_count(uint8_t *b, size_t n) { put64(b + pcmp_at(b, n), 1ull << 61); }
static void m_pcmp_short(uint8_t *b, size_t n) { put64(b + pcmp_at(b, n), 2); }
static void m_pcmp_neg(uint8_t *b, size_t n) { put64(b + pcmp_at(b, n) + 8 + 8, UINT64_MAX); }
static void m_pcmp_mode(uint8_t *b, size_t n) { put32(b + find_section(b, n, TAG("HEAD"), NULL) + 12, RP_MODE_TRACE); }

static void test_paths(void)
{
    rp_rankdata d, r;
    make_rank(&d, 3);
    add_paths(&d);
    CHECK_EQ(rpfile_write(path, &d), 0);
    char err[256] = "";
    CHECK_EQ(rpfile_read(path, &r, err, sizeof err), 0);
    if (err[0])
        fprintf(stderr, "  paths roundtrip: %s\n", err);
    CHECK(same_rank(&d, &r));
    CHECK(same_paths(&d, &r));
    /* PCOV: the overflowed path's covered cost; -1 for the other */
    CHECK(r.n_pathsums == 2 && r.pathsums[0].covered_ns == -1 &&
          r.pathsums[1].covered_ns == 60);
    rpfile_free(&r);

    /* the writer refuses what the reader would reject */
    ptasks[1].end_fn = 7;
    CHECK_EQ(rpfile_write(path, &d), -1);
    CHECK_EQ(errno, EINVAL);
    add_paths(&d);
    pivs[0][0].low = 2;
    CHECK_EQ(rpfile_write(path, &d), -1);
    add_paths(&d);
    pedges[1].event = 0;
    CHECK_EQ(rpfile_write(path, &d), -1);
    add_paths(&d);
    pcomp[1] = -1;
    CHECK_EQ(rpfile_write(path, &d), -1);
    add_paths(&d);
    d.mode = RP_MODE_PROF;   /* PCMP is path mode's */
    CHECK_EQ(rpfile_write(path, &d), -1);
    add_paths(&d);
    /* every phase ends at an event of the rank: no more phases than events */
    d.n_tasks = d.n_edges = 0;
    d.n_events = 2;
    CHECK_EQ(rpfile_validate(&d, err, sizeof err), -1);
    CHECK(strstr(err, "computation of 3 phases but only 2 events") != NULL);
    CHECK_EQ(rpfile_write(path, &d), -1);
    add_paths(&d);

    /* without PCMP (an older writer, or another mode) the file reads, with
     * no per-phase computation */
    d.n_phase_comp = 0;
    d.phase_comp = NULL;
    CHECK_EQ(rpfile_write(path, &d), 0);
    {
        size_t m;
        uint8_t *b = slurp(path, &m);
        CHECK(b && find_section(b, m, TAG("PCMP"), NULL) == 0);
        free(b);
    }
    CHECK_EQ(rpfile_read(path, &r, err, sizeof err), 0);
    CHECK(r.n_phase_comp == 0 && r.phase_comp == NULL);
    rpfile_free(&r);
    add_paths(&d);

    /* a prof-mode file has none of the sections */
    rp_rankdata p;
    make_rank(&p, 3);
    CHECK_EQ(rpfile_write(path, &p), 0);
    size_t n;
    uint8_t *b = slurp(path, &n);
    CHECK(b && find_section(b, n, TAG("TASK"), NULL) == 0 &&
          find_section(b, n, TAG("EDGE"), NULL) == 0);
    free(b);
    free_made(&p);

    CHECK_EQ(rpfile_write(path, &d), 0);
    free_made(&d);
    uint8_t *orig = slurp(path, &n);
    CHECK(orig != NULL);
    if (!orig)
        return;
    /* every single-bit flip is caught (by the CRC at least) */
    for (size_t i = 0; i < n; i += 7) {
        orig[i] ^= 0x10;
        CHECK_EQ(read_buf(orig, n, err, sizeof err), -1);
        orig[i] ^= 0x10;
    }
    static const struct {
        mutator m;
        const char *want, *what;
    } cases[] = {
        {m_task_count, "corrupt TASK section", "task count"},
        {m_task_events, "tasks but only", "n_events"},
        {m_task_order, "events not increasing", "task order"},
        {m_task_phase, "phases decreasing", "task phase"},
        {m_task_fn, "MPI function id out of range", "end_fn"},
        {m_task_cs, "call site node out of range", "callsite"},
        {m_task_src, "message source rank out of range", "msg_src"},
        {m_task_cost, "negative cost", "task cost"},
        {m_psum_count, "corrupt PSUM section", "pathsum count"},
        {m_psum_niv, "corrupt PSUM section", "interval count"},
        {m_psum_lw, "weight not finite", "path weight"},
        {m_psum_lowhigh, "interval low > high", "interval bounds"},
        {m_psum_rank, "interval rank out of range", "interval rank"},
        {m_psum_path, "path number not below k", "path number"},
        {m_psum_order, "not in (phase, path) order", "pathsum order"},
        {m_edge_count, "corrupt EDGE section", "edge count"},
        {m_edge_kind, "unknown edge kind", "edge kind"},
        {m_edge_peer, "peer rank out of range", "edge peer"},
        {m_edge_event, "event out of range", "edge event"},
        {m_edge_ckind, "unknown collective kind", "collective kind"},
        {m_edge_scanpos, "scan position out of range", "scan position"},
        {m_edge_size, "collective size out of range", "collective size"},
        {m_edge_crank, "rank in the communicator out of range", "communicator rank"},
        {m_pcmp_count, "corrupt PCMP section", "per-phase computation count"},
        {m_pcmp_short, "corrupt PCMP section", "per-phase computation count short"},
        {m_pcmp_neg, "phase 1: negative computation", "per-phase computation"},
        {m_pcmp_mode, "not of path mode", "per-phase computation in trace mode"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect_reject(orig, n, cases[i].m, cases[i].want, cases[i].what);
    /* every truncation is rejected without a crash */
    for (size_t len = 0; len < n; len += 3)
        CHECK_EQ(read_buf(orig, len, err, sizeof err), -1);
    free(orig);
}

static void test_not_a_file(void)
{
    rp_rankdata d;
    char err[256];
    CHECK_EQ(rpfile_read(dir, &d, err, sizeof err), -1);
    CHECK(strstr(err, "regular") != NULL);
    char p2[400];
    snprintf(p2, sizeof p2, "%s/absent.rpp", dir);
    CHECK_EQ(rpfile_read(p2, &d, err, sizeof err), -1);
    CHECK(strstr(err, "No such file") != NULL);
}

/* The CRC: the standard check value, and the bit-at-a-time definition at
 * every length and alignment (the table code takes 8 bytes a step), also
 * continued across a split. */
static void crc_reference(void)
{
    CHECK(rp_crc32_update(0, "123456789", 9) == 0xCBF43926u);
    uint8_t buf[96];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 37 + 11);
    for (size_t off = 0; off < 8; off++)
        for (size_t len = 0; off + len <= sizeof buf; len++) {
            uint32_t c = 0xFFFFFFFFu;
            for (size_t i = 0; i < len; i++) {
                c ^= buf[off + i];
                for (int b = 0; b < 8; b++)
                    c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
            }
            c = ~c;
            CHECK(rp_crc32_update(0, buf + off, len) == c);
            size_t h = len / 3;
            CHECK(rp_crc32_update(rp_crc32_update(0, buf + off, h), buf + off + h, len - h) == c);
        }
}

int main(void)
{
    crc_reference();
    snprintf(dir, sizeof dir, "%s/rpfile-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(path, sizeof path, "%s/rank-00003.rpp", dir);
    test_roundtrip();
    test_phase_k();
    test_job();
    test_write_errors();
    test_damage();
    test_paths();
    test_not_a_file();
    unlink(path);
    rmdir(dir);
    return unit_done("test_rpfile");
}
