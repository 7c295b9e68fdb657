/* rpjob.c - the job file's header and index (rpjob.h, doc/formats.md). */
#define _GNU_SOURCE
#include "format/rpjob.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "format/crc32.h"
#include "format/rpenc.h"

#define CRC_AT 32u   /* the header's CRC field; bytes before it are covered */

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

uint64_t rpjob_data_start(uint32_t n)
{
    return RP_JOBFILE_HDR_BYTES + (uint64_t)n * RP_JOBFILE_ENTRY_BYTES;
}

void rpjob_encode_index(uint8_t *buf, const rp_jobentry *e, uint32_t n, uint64_t file_size)
{
    memset(buf, 0, RP_JOBFILE_HDR_BYTES);
    memcpy(buf, RP_JOBFILE_MAGIC, 8);
    put32(buf + 8, RP_JOBFILE_VERSION);
    put32(buf + 12, RP_JOBFILE_HDR_BYTES);
    put32(buf + 16, n);
    put32(buf + 20, RP_JOBFILE_ENTRY_BYTES);
    put64(buf + 24, file_size);
    uint8_t *x = buf + RP_JOBFILE_HDR_BYTES;
    for (uint32_t i = 0; i < n; i++, x += RP_JOBFILE_ENTRY_BYTES) {
        put64(x, e[i].offset);
        put64(x + 8, e[i].length);
        put32(x + 16, e[i].rank);
        put32(x + 20, e[i].crc);
    }
    uint32_t crc = rp_crc32_update(0, buf, CRC_AT);
    crc = rp_crc32_update(crc, buf + RP_JOBFILE_HDR_BYTES, (size_t)n * RP_JOBFILE_ENTRY_BYTES);
    put32(buf + CRC_AT, crc);
}

/* Open PATH and check its header against the file: the fd, or -1 with err.
 * *n, *size: entries and the file size (the header's, equal to fstat's). */
static int open_checked(const char *path, uint8_t hdr[RP_JOBFILE_HDR_BYTES], uint32_t *n,
                        uint64_t *size, char *err, size_t errlen)
{
    uint64_t fsize;
    int fd = rpdec_open_regular(path, &fsize, err, errlen);
    if (fd < 0)
        return -1;
    if (fsize < RP_JOBFILE_HDR_BYTES || rpdec_pread_full(fd, hdr, RP_JOBFILE_HDR_BYTES, 0) != 0) {
        rp_seterr(err, errlen, "truncated job file (%llu bytes, no complete header)",
                  (unsigned long long)fsize);
        goto fail;
    }
    if (memcmp(hdr, RP_JOBFILE_MAGIC, 8) != 0) {
        rp_seterr(err, errlen, "not a job file (wrong magic)");
        goto fail;
    }
    if (rpdec_le32(hdr + 8) != RP_JOBFILE_VERSION) {
        rp_seterr(err, errlen, "job file version %u, this tool reads version %u",
                  rpdec_le32(hdr + 8), RP_JOBFILE_VERSION);
        goto fail;
    }
    *n = rpdec_le32(hdr + 16);
    *size = rpdec_le64(hdr + 24);
    /* reserved bytes must be 0: the CRC does not cover them, this does */
    int reserved = 0;
    for (uint32_t i = CRC_AT + 4; i < RP_JOBFILE_HDR_BYTES; i++)
        reserved |= hdr[i];
    if (reserved || rpdec_le32(hdr + 12) != RP_JOBFILE_HDR_BYTES || rpdec_le32(hdr + 20) != RP_JOBFILE_ENTRY_BYTES ||
        *n == 0 || *n > RP_JOBFILE_MAX_ENTRIES) {
        rp_seterr(err, errlen, "corrupt job file header (%u entries)", *n);
        goto fail;
    }
    if (*size != fsize) {
        rp_seterr(err, errlen, "%s job file: %llu bytes, its header says %llu",
                  *size > fsize ? "truncated" : "corrupt",
                  (unsigned long long)fsize, (unsigned long long)*size);
        goto fail;
    }
    if (rpjob_data_start(*n) > *size) {
        rp_seterr(err, errlen, "truncated job file (index of %u entries does not fit)", *n);
        goto fail;
    }
    return fd;
fail:
    close(fd);
    return -1;
}

static void get_entry(const uint8_t *x, rp_jobentry *e)
{
    e->offset = rpdec_le64(x);
    e->length = rpdec_le64(x + 8);
    e->rank = rpdec_le32(x + 16);
    e->crc = rpdec_le32(x + 20);
}

/* Entry i in range of a file of size bytes with n entries?  0 or -1. */
static int check_entry(const rp_jobentry *e, uint32_t i, uint32_t n, uint64_t size,
                       char *err, size_t errlen)
{
    uint64_t lo = rpjob_data_start(n);
    if (e->rank != i || e->offset < lo || e->offset > size || e->length > size - e->offset ||
        e->length > RP_READ_MAX_BYTES) {
        rp_seterr(err, errlen, "job file index entry %u out of range (rank %u, bytes "
                  "%llu..+%llu of %llu)", i, e->rank, (unsigned long long)e->offset,
                  (unsigned long long)e->length, (unsigned long long)size);
        return -1;
    }
    return 0;
}

int rpjob_read_index(const char *path, rp_jobentry **out, uint32_t *nout, char *err,
                     size_t errlen)
{
    *out = NULL;
    *nout = 0;
    uint8_t hdr[RP_JOBFILE_HDR_BYTES];
    uint32_t n;
    uint64_t size;
    int fd = open_checked(path, hdr, &n, &size, err, errlen);
    if (fd < 0)
        return -1;
    size_t ib = (size_t)n * RP_JOBFILE_ENTRY_BYTES;
    uint8_t *idx = malloc(ib);
    rp_jobentry *e = calloc(n, sizeof *e);
    if (!idx || !e) {
        rp_seterr(err, errlen, "out of memory for a job file index of %u entries", n);
        goto fail;
    }
    if (rpdec_pread_full(fd, idx, ib, RP_JOBFILE_HDR_BYTES) != 0) {
        rp_seterr(err, errlen, "truncated job file (index)");
        goto fail;
    }
    uint32_t crc = rp_crc32_update(rp_crc32_update(0, hdr, CRC_AT), idx, ib);
    if (crc != rpdec_le32(hdr + CRC_AT)) {
        rp_seterr(err, errlen, "job file header or index CRC mismatch (corrupt)");
        goto fail;
    }
    uint64_t at = rpjob_data_start(n);
    for (uint32_t i = 0; i < n; i++) {
        get_entry(idx + (size_t)i * RP_JOBFILE_ENTRY_BYTES, &e[i]);
        if (check_entry(&e[i], i, n, size, err, errlen) != 0)
            goto fail;
        if (e[i].offset != at) {   /* back to back: no gap, no overlap */
            rp_seterr(err, errlen, "job file index entry %u out of range (starts at %llu, "
                      "expected %llu)", i, (unsigned long long)e[i].offset,
                      (unsigned long long)at);
            goto fail;
        }
        at += e[i].length;
    }
    if (at != size) {
        rp_seterr(err, errlen, "corrupt job file index (entries end at %llu, the file at %llu)",
                  (unsigned long long)at, (unsigned long long)size);
        goto fail;
    }
    free(idx);
    close(fd);
    *out = e;
    *nout = n;
    return 0;
fail:
    free(idx);
    free(e);
    close(fd);
    return -1;
}

int rpjob_load_entry(const char *path, uint32_t i, uint8_t **buf, size_t *len, char *err,
                     size_t errlen)
{
    *buf = NULL;
    *len = 0;
    uint8_t hdr[RP_JOBFILE_HDR_BYTES], x[RP_JOBFILE_ENTRY_BYTES];
    uint32_t n;
    uint64_t size;
    int fd = open_checked(path, hdr, &n, &size, err, errlen);
    if (fd < 0)
        return -1;
    rp_jobentry e;
    uint8_t *b = NULL;
    if (i >= n) {
        rp_seterr(err, errlen, "job file has no entry %u (%u entries)", i, n);
        goto fail;
    }
    if (rpdec_pread_full(fd, x, sizeof x, RP_JOBFILE_HDR_BYTES + (uint64_t)i * RP_JOBFILE_ENTRY_BYTES) != 0) {
        rp_seterr(err, errlen, "truncated job file (index)");
        goto fail;
    }
    get_entry(x, &e);
    if (check_entry(&e, i, n, size, err, errlen) != 0)
        goto fail;
    b = malloc(e.length ? (size_t)e.length : 1);
    if (!b) {
        rp_seterr(err, errlen, "out of memory reading %llu bytes", (unsigned long long)e.length);
        goto fail;
    }
    if (rpdec_pread_full(fd, b, (size_t)e.length, e.offset) != 0) {
        rp_seterr(err, errlen, "read error: %s", strerror(errno ? errno : EIO));
        goto fail;
    }
    if (rp_crc32_update(0, b, (size_t)e.length) != e.crc) {
        rp_seterr(err, errlen, "job file entry %u: CRC mismatch (corrupt)", i);
        goto fail;
    }
    close(fd);
    *buf = b;
    *len = (size_t)e.length;
    return 0;
fail:
    free(b);
    close(fd);
    return -1;
}

int rpjob_parse_ref(const char *ref, char *file, size_t cap, uint32_t *i)
{
    const char *h = strrchr(ref, '#');
    if (!h || h == ref || !h[1])
        return 0;
    uint64_t v = 0;
    for (const char *p = h + 1; *p; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return 0;
    }
    size_t fl = (size_t)(h - ref);
    if (fl < 4 || memcmp(h - 4, ".rpj", 4) != 0 || fl >= cap)
        return 0;
    memcpy(file, ref, fl);
    file[fl] = '\0';
    *i = (uint32_t)v;
    return 1;
}
