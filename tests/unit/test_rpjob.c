/* test_rpjob - the job file (lib/format/rpjob.c, doc/formats.md "Job
 * file"): entries written with rpfile_encode and rpjob_encode_index read
 * back through rpfile_read("FILE#N") equal to the ranks, byte for byte what
 * rpfile_write writes; every truncation length and every bit flip of the
 * header and index refused by rpjob_read_index, a flip inside an entry
 * caught by that entry's CRC, entry numbers out of range refused, and the
 * "FILE#N" names parsed strictly.  Run it under ASan/UBSan too. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/crc32.h"
#include "format/rpfile.h"
#include "format/rpjob.h"
#include "unit.h"

#define NR 3u
static char dir[256], job[300], rankp[300];

/* A small valid rank r of NR (prof mode, k = 2). */
static void make_rank(rp_rankdata *d, uint32_t r)
{
    static rp_module mod = {.path = "/usr/bin/app"};
    static char *names[1] = {"MPI_Send"};
    memset(d, 0, sizeof *d);
    d->rank = r;
    d->nranks = NR;
    d->k = 2;
    d->mode = RP_MODE_PROF;
    d->summary_cap = 32;
    d->clock = RP_CLOCK_WALL;
    d->phase_k = 5;
    d->wall_ns = 1000000 + r;
    snprintf(d->exe, sizeof d->exe, "/usr/bin/app");
    snprintf(d->host, sizeof d->host, "node%u", r);
    d->job.id = 0x1234;
    d->job.start_ns = 42;
    phasestats_init(&d->stats, 2);
    int64_t c[2] = {2000 + r, 1000};
    phasestats_add(&d->stats, c);
    d->modules = &mod;
    d->n_modules = 1;
    d->mpi_names = names;
    d->n_mpi_names = 1;
    d->n_nodes = 2;
    d->n_metrics = RP_MET_PATH0 + 2;
    d->nodes = calloc(2, sizeof *d->nodes);
    d->metrics = calloc(2 * d->n_metrics, sizeof *d->metrics);
    d->nodes[0] = (rp_cctnode){UINT32_MAX, RP_MOD_ROOT, 0};
    d->nodes[1] = (rp_cctnode){0, 0, 0x100 + r};
    d->metrics[d->n_metrics + RP_MET_RANK] = 777 + r;
}

static void free_made(rp_rankdata *d)
{
    phasestats_free(&d->stats);
    free(d->nodes);
    free(d->metrics);
}

static void spit(const char *p, const uint8_t *b, size_t n)
{
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(b, 1, n, f) != n)
        abort();
    fclose(f);
}

static uint8_t *slurp(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n)
        abort();
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* The job file of NR ranks into a malloc'd buffer. */
static uint8_t *make_job(size_t *len, size_t *entry_at)
{
    uint8_t *ent[NR];
    size_t el[NR];
    rp_jobentry e[NR];
    uint64_t at = rpjob_data_start(NR);
    for (uint32_t r = 0; r < NR; r++) {
        rp_rankdata d;
        make_rank(&d, r);
        CHECK_EQ(rpfile_encode(&d, &ent[r], &el[r]), 0);
        free_made(&d);
        e[r] = (rp_jobentry){at, el[r], r, rp_crc32_update(0, ent[r], el[r])};
        at += el[r];
    }
    uint8_t *b = malloc(at);
    rpjob_encode_index(b, e, NR, at);
    for (uint32_t r = 0; r < NR; r++) {
        memcpy(b + e[r].offset, ent[r], el[r]);
        free(ent[r]);
    }
    *len = at;
    *entry_at = e[NR - 1].offset;
    return b;
}

static void test_roundtrip(void)
{
    size_t n, last;
    uint8_t *b = make_job(&n, &last);
    spit(job, b, n);
    rp_jobentry *e;
    uint32_t ne;
    char err[256] = "";
    CHECK_EQ(rpjob_read_index(job, &e, &ne, err, sizeof err), 0);
    CHECK_EQ(ne, NR);
    free(e);
    for (uint32_t r = 0; r < NR; r++) {
        char ref[400];
        snprintf(ref, sizeof ref, "%s#%u", job, r);
        rp_rankdata d;
        CHECK_EQ(rpfile_read(ref, &d, err, sizeof err), 0);
        CHECK_EQ(d.rank, r);
        CHECK_EQ(d.wall_ns, 1000000 + r);
        CHECK_EQ(d.nodes[1].offset, 0x100 + r);
        CHECK_EQ(d.metrics[d.n_metrics + RP_MET_RANK], 777 + r);
        rpfile_free(&d);
        rp_jobid j;
        CHECK_EQ(rpfile_read_job(ref, &j, err, sizeof err), 0);
        CHECK_EQ(j.id, 0x1234);
        CHECK_EQ(j.start_ns, 42);
    }
    /* the entry is exactly the rank file rpfile_write writes */
    rp_rankdata d;
    make_rank(&d, NR - 1);
    CHECK_EQ(rpfile_write(rankp, &d), 0);
    free_made(&d);
    size_t rl;
    uint8_t *rb = slurp(rankp, &rl);
    CHECK(rb && rl == n - last && memcmp(rb, b + last, rl) == 0);
    free(rb);
    unlink(rankp);
    /* entry numbers past the end */
    char ref[400];
    snprintf(ref, sizeof ref, "%s#%u", job, NR);
    CHECK_EQ(rpfile_read(ref, &d, err, sizeof err), -1);
    CHECK(strstr(err, "no entry") != NULL);
    free(b);
}

static void test_damage(void)
{
    size_t n, last;
    uint8_t *b = make_job(&n, &last);
    rp_jobentry *e;
    uint32_t ne;
    char err[256];
    /* every truncation */
    int refused = 0;
    for (size_t len = 0; len < n; len++) {
        spit(job, b, len);
        if (rpjob_read_index(job, &e, &ne, err, sizeof err) == 0)
            free(e);
        else
            refused++;
    }
    CHECK_EQ(refused, n);
    /* every bit of header and index */
    size_t hi = (size_t)rpjob_data_start(NR);
    refused = 0;
    for (size_t i = 0; i < hi * 8; i++) {
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
        spit(job, b, n);
        if (rpjob_read_index(job, &e, &ne, err, sizeof err) == 0)
            free(e);
        else
            refused++;
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
    }
    CHECK_EQ(refused, hi * 8);
    /* a flip inside the last entry: the index stands, the entry's CRC fails */
    b[last + 20] ^= 0x10;
    spit(job, b, n);
    CHECK_EQ(rpjob_read_index(job, &e, &ne, err, sizeof err), 0);
    free(e);
    char ref[400];
    snprintf(ref, sizeof ref, "%s#%u", job, NR - 1);
    rp_rankdata d;
    CHECK_EQ(rpfile_read(ref, &d, err, sizeof err), -1);
    CHECK(strstr(err, "CRC mismatch") != NULL);
    snprintf(ref, sizeof ref, "%s#0", job);
    CHECK_EQ(rpfile_read(ref, &d, err, sizeof err), 0);
    rpfile_free(&d);
    /* messages: magic and version */
    b[last + 20] ^= 0x10;
    b[0] ^= 1;
    spit(job, b, n);
    CHECK_EQ(rpjob_read_index(job, &e, &ne, err, sizeof err), -1);
    CHECK(strstr(err, "wrong magic") != NULL);
    b[0] ^= 1;
    b[8] = 9;
    spit(job, b, n);
    CHECK_EQ(rpjob_read_index(job, &e, &ne, err, sizeof err), -1);
    CHECK(strstr(err, "version 9") != NULL);
    free(b);
}

static void test_refs(void)
{
    char f[64];
    uint32_t i = 99;
    CHECK_EQ(rpjob_parse_ref("d/job.rpj#12", f, sizeof f, &i), 1);
    CHECK(strcmp(f, "d/job.rpj") == 0);
    CHECK_EQ(i, 12);
    CHECK_EQ(rpjob_parse_ref("d/rank-00001.rpp", f, sizeof f, &i), 0);
    CHECK_EQ(rpjob_parse_ref("d/job.rpj#", f, sizeof f, &i), 0);
    CHECK_EQ(rpjob_parse_ref("d/job.rpj#1x", f, sizeof f, &i), 0);
    CHECK_EQ(rpjob_parse_ref("d/job.rpp#1", f, sizeof f, &i), 0);
    CHECK_EQ(rpjob_parse_ref("d/job.rpj#4294967296", f, sizeof f, &i), 0);
    CHECK_EQ(rpjob_parse_ref("d/job.rpj#1", f, 4, &i), 0);   /* does not fit */
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/rpjob-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(job, sizeof job, "%s/job.rpj", dir);
    snprintf(rankp, sizeof rankp, "%s/rank-00002.rpp", dir);
    test_roundtrip();
    test_damage();
    test_refs();
    unlink(job);
    rmdir(dir);
    return unit_done("test_rpjob");
}
