/* rpenc.c - little-endian encoder/decoder and the section container of
 * rpprof's binary files (see rpenc.h and doc/formats.md). */
#define _GNU_SOURCE   /* O_TMPFILE, linkat */
#include "format/rpenc.h"
#include "format/crc32.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- encoder ------------------------------------------------------------ */

void rpenc_init(rpenc *e) { memset(e, 0, sizeof *e); }

void rpenc_free(rpenc *e)
{
    free(e->buf);
    memset(e, 0, sizeof *e);
}

static int grow(rpenc *e, size_t n)
{
    if (e->failed)
        return -1;
    if (n > SIZE_MAX / 2 - e->len) {
        e->failed = 1;
        return -1;
    }
    if (e->len + n <= e->cap)
        return 0;
    size_t cap = e->cap ? e->cap : 4096;
    while (cap < e->len + n)
        cap *= 2;
    uint8_t *b = realloc(e->buf, cap);
    if (!b) {
        e->failed = 1;
        return -1;
    }
    e->buf = b;
    e->cap = cap;
    return 0;
}

void rpenc_bytes(rpenc *e, const void *p, size_t n)
{
    if (n == 0 || grow(e, n))
        return;
    memcpy(e->buf + e->len, p, n);
    e->len += n;
}

static void put_le(rpenc *e, uint64_t v, unsigned nbytes)
{
    uint8_t b[8];
    for (unsigned i = 0; i < nbytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    rpenc_bytes(e, b, nbytes);
}

void rpenc_u8(rpenc *e, uint8_t v)   { put_le(e, v, 1); }
void rpenc_u16(rpenc *e, uint16_t v) { put_le(e, v, 2); }
void rpenc_u32(rpenc *e, uint32_t v) { put_le(e, v, 4); }
void rpenc_u64(rpenc *e, uint64_t v) { put_le(e, v, 8); }
void rpenc_i64(rpenc *e, int64_t v)  { put_le(e, (uint64_t)v, 8); }

void rpenc_uvar(rpenc *e, uint64_t v)
{
    uint8_t b[10];
    unsigned n = 0;
    do {
        b[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        b[n] |= v ? 0x80 : 0;
        n++;
    } while (v);
    rpenc_bytes(e, b, n);
}

void rpenc_file_header(rpenc *e, const char magic[8], uint32_t version)
{
    rpenc_bytes(e, magic, 8);
    rpenc_u32(e, version);
    rpenc_u32(e, 0);
}

size_t rpenc_section_begin(rpenc *e, uint32_t tag)
{
    size_t pos = e->len;
    rpenc_u32(e, tag);
    rpenc_u32(e, 0);
    rpenc_u64(e, 0);      /* patched by rpenc_section_end */
    return pos;
}

void rpenc_section_end(rpenc *e, size_t pos)
{
    if (e->failed)
        return;
    uint64_t n = e->len - pos - RP_SEC_HDR_BYTES;
    for (unsigned i = 0; i < 8; i++)
        e->buf[pos + 8 + i] = (uint8_t)(n >> (8 * i));
}

void rpenc_finish(rpenc *e)
{
    /* The CRC covers everything up to the CRC itself, END's header
     * included, so no bit of the file is unprotected. */
    rpenc_u32(e, RP_TAG_END);
    rpenc_u32(e, 0);
    rpenc_u64(e, 4);
    if (!e->failed)
        rpenc_u32(e, rp_crc32_update(0, e->buf, e->len));
}

void rpenc_str(rpenc *e, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n > UINT32_MAX) {
        e->failed = 1;
        return;
    }
    rpenc_u32(e, (uint32_t)n);
    rpenc_bytes(e, s, n);
}

int rpenc_write_file(const rpenc *e, const char *path)
{
    if (e->failed) {
        errno = ENOMEM;
        return -1;
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp)
        return -1;
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());

    /* First choice: an unnamed file in the target's directory (O_TMPFILE),
     * given the temporary name only once written and synced, so a process
     * killed while writing (mpirun's SIGKILL after another rank failed)
     * leaves nothing behind; only the link-then-rename instant remains.
     * File systems without O_TMPFILE get the named temporary file. */
    int unnamed = 0, fd = -1, tries = 0;
again:
#ifdef O_TMPFILE
    if (tries++ == 0) {
        const char *slash = strrchr(path, '/');
        char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
        if (dir) {
            fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
            free(dir);
            unnamed = fd >= 0;
        }
    }
#endif
    /* O_EXCL|O_NOFOLLOW: never write through a link planted at our name;
     * a leftover of an earlier process with our pid is removed once. */
    if (fd < 0)
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    /* write(2) directly rather than stdio: every short write and error is
     * visible here, and there is no second buffer to flush. */
    size_t off = 0;
    while (off < e->len) {
        ssize_t w = write(fd, e->buf + off, e->len - off);
        if (w < 0) {
            if (errno == EINTR)   /* SIGPROF may still be armed at Finalize */
                continue;
            goto fail;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        goto fail;
    if (unnamed) {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        int rc = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
        if (rc != 0 && errno == EEXIST && unlink(tmp) == 0)
            rc = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
        if (rc != 0) {   /* no /proc, say: write it again under the name */
            close(fd);
            fd = -1;
            unnamed = 0;
            goto again;
        }
    }
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0)
        goto fail;
    free(tmp);
    return 0;
fail:;
    int saved = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    errno = saved;
    return -1;
}

/* ---- decoder ------------------------------------------------------------ */

void rpdec_init(rpdec *d, const uint8_t *p, size_t len)
{
    d->p = p;
    d->len = len;
    d->pos = 0;
    d->failed = 0;
}

const uint8_t *rpdec_bytes(rpdec *d, size_t n)
{
    if (d->failed || n > d->len - d->pos) {
        d->failed = 1;
        return NULL;
    }
    const uint8_t *r = d->p + d->pos;
    d->pos += n;
    return r;
}

static uint64_t get_le(rpdec *d, unsigned nbytes)
{
    const uint8_t *b = rpdec_bytes(d, nbytes);
    uint64_t v = 0;
    if (!b)
        return 0;
    for (unsigned i = 0; i < nbytes; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

uint8_t  rpdec_u8(rpdec *d)  { return (uint8_t)get_le(d, 1); }
uint16_t rpdec_u16(rpdec *d) { return (uint16_t)get_le(d, 2); }
uint32_t rpdec_u32(rpdec *d) { return (uint32_t)get_le(d, 4); }
uint64_t rpdec_u64(rpdec *d) { return get_le(d, 8); }
int64_t  rpdec_i64(rpdec *d) { return (int64_t)get_le(d, 8); }

uint64_t rpdec_uvar(rpdec *d)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 10; i++) {
        const uint8_t *b = rpdec_bytes(d, 1);
        if (!b)
            return 0;
        /* the 10th byte holds bit 63 only; a longer or padded encoding is
         * corrupt */
        if (i == 9 && *b > 1) {
            d->failed = 1;
            return 0;
        }
        v |= (uint64_t)(*b & 0x7f) << (7 * i);
        if (!(*b & 0x80)) {
            if (*b == 0 && i > 0) {   /* not the shortest form */
                d->failed = 1;
                return 0;
            }
            return v;
        }
    }
    d->failed = 1;
    return 0;
}

void *rpdec_records(rpdec *d, uint64_t n, size_t rec_bytes, size_t elem_bytes, const char *sect,
                    char *err, size_t errlen)
{
    size_t left = rpdec_left(d);
    if (d->failed || rec_bytes == 0 || n != left / rec_bytes || left % rec_bytes) {
        rp_seterr(err, errlen, "corrupt %s section (%llu records do not fit %zu bytes)", sect,
                  (unsigned long long)n, left);
        return NULL;
    }
    void *v = malloc((size_t)(n ? n : 1) * elem_bytes);
    if (!v)
        rp_seterr(err, errlen, "out of memory for %llu %s records", (unsigned long long)n, sect);
    return v;
}

char *rpdec_str(rpdec *d, size_t maxlen, int allow_empty)
{
    uint32_t n = rpdec_u32(d);
    if (d->failed || n > maxlen || (n == 0 && !allow_empty) || n > rpdec_left(d))
        return NULL;   /* caller reports; length checked before allocating */
    const uint8_t *b = rpdec_bytes(d, n);
    if (!b || memchr(b, 0, n))
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    memcpy(s, b, n);
    s[n] = 0;
    return s;
}

void rp_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

int rpdec_open_regular(const char *path, uint64_t *size, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        rp_seterr(err, errlen, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        rp_seterr(err, errlen, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(sb.st_mode)) {
        rp_seterr(err, errlen, "not a regular file");
        close(fd);
        return -1;
    }
    *size = (uint64_t)sb.st_size;
    return fd;
}

int rpdec_pread_full(int fd, uint8_t *b, size_t n, uint64_t at)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, b + got, n - got, (off_t)(at + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

int rpdec_load_file(const char *path, uint8_t **bufp, size_t *lenp, char *err, size_t errlen)
{
    *bufp = NULL;
    *lenp = 0;
    uint64_t size;
    int fd = rpdec_open_regular(path, &size, err, errlen);
    if (fd < 0)
        return -1;
    if (size > RP_READ_MAX_BYTES) {
        rp_seterr(err, errlen, "file too large (%llu bytes)", (unsigned long long)size);
        close(fd);
        return -1;
    }
    size_t len = (size_t)size;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        rp_seterr(err, errlen, "out of memory reading %zu bytes", len);
        close(fd);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t r = read(fd, buf + off, len - off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rp_seterr(err, errlen, "read error: %s", strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;          /* shrank under us: validate what we have */
        off += (size_t)r;
    }
    close(fd);
    *bufp = buf;
    *lenp = off;
    return 0;
}

static void tagname(uint32_t tag, char out[5])
{
    for (unsigned i = 0; i < 4; i++) {
        char c = (char)(tag >> (8 * i));
        out[i] = (c >= 0x20 && c < 0x7f) ? c : '?';
    }
    out[4] = 0;
}

int rpdec_container(const uint8_t *buf, size_t len, const char magic[8],
                    uint32_t version, const uint32_t *known, uint32_t n_known,
                    rp_section *found, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < n_known; i++) {
        found[i].p = NULL;
        found[i].len = 0;
    }
    if (len < 8 || memcmp(buf, magic, 8) != 0) {
        /* Tell a truncated-but-right file from a different kind. */
        if (len < 8 && len > 0 && memcmp(buf, magic, len) == 0)
            rp_seterr(err, errlen, "truncated file (%zu bytes, header needs %u)", len,
                   RP_FILE_HDR_BYTES);
        else if (len == 0)
            rp_seterr(err, errlen, "empty file");
        else
            rp_seterr(err, errlen, "bad magic (not an rpprof file of this kind)");
        return -1;
    }
    rpdec d;
    rpdec_init(&d, buf, len);
    rpdec_bytes(&d, 8);
    uint32_t ver = rpdec_u32(&d);
    (void)rpdec_u32(&d);   /* reserved */
    if (d.failed) {
        rp_seterr(err, errlen, "truncated file (%zu bytes, header needs %u)", len,
               RP_FILE_HDR_BYTES);
        return -1;
    }
    if (ver != version) {
        rp_seterr(err, errlen, "unsupported format version %u (expected %u)", ver, version);
        return -1;
    }
    for (;;) {
        size_t start = d.pos;
        if (rpdec_left(&d) == 0) {
            rp_seterr(err, errlen, "truncated file (%zu bytes, no END section)", len);
            return -1;
        }
        uint32_t tag = rpdec_u32(&d);
        (void)rpdec_u32(&d);
        uint64_t slen = rpdec_u64(&d);
        char tn[5];
        tagname(tag, tn);
        if (d.failed) {
            rp_seterr(err, errlen, "truncated file (section header at offset %zu cut)", start);
            return -1;
        }
        if (slen > rpdec_left(&d)) {
            rp_seterr(err, errlen,
                   "truncated file (section '%s' at offset %zu needs %llu bytes, %zu left)",
                   tn, start, (unsigned long long)slen, rpdec_left(&d));
            return -1;
        }
        const uint8_t *payload = rpdec_bytes(&d, (size_t)slen);
        if (tag == RP_TAG_END) {
            if (slen != 4) {
                rp_seterr(err, errlen, "corrupt END section (length %llu, expected 4)",
                       (unsigned long long)slen);
                return -1;
            }
            uint32_t want = (uint32_t)payload[0] | (uint32_t)payload[1] << 8 |
                            (uint32_t)payload[2] << 16 | (uint32_t)payload[3] << 24;
            uint32_t got = rp_crc32_update(0, buf, start + RP_SEC_HDR_BYTES);
            if (want != got) {
                rp_seterr(err, errlen, "checksum mismatch (stored %08x, computed %08x): file corrupt",
                       want, got);
                return -1;
            }
            if (rpdec_left(&d) != 0) {
                rp_seterr(err, errlen, "%zu trailing bytes after END section", rpdec_left(&d));
                return -1;
            }
            break;
        }
        for (uint32_t i = 0; i < n_known; i++) {
            if (known[i] != tag)
                continue;
            if (found[i].p) {
                rp_seterr(err, errlen, "duplicate section '%s'", tn);
                return -1;
            }
            found[i].p = payload ? payload : buf;   /* non-NULL marks presence */
            found[i].len = (size_t)slen;
        }
    }
    return 0;
}

/* ---- shared payload codecs --------------------------------------------- */

void rpenc_stats(rpenc *e, const rp_phasestats *st, rp_enc enc)
{
    rpenc_u32(e, st->k);
    rpenc_u32(e, 0);
    rpenc_u64(e, st->nphases);
    for (uint32_t j = 0; j < st->k; j++) {
        const uint32_t *h = st->hist + (size_t)j * RP_HIST_BINS;
        uint32_t nz = 0;
        for (uint32_t b = 0; b < RP_HIST_BINS; b++)
            nz += h[b] != 0;
        if (enc == RP_ENC_VARINT) {   /* all >= 0 (rpdec_stats checks) */
            rpenc_uvar(e, (uint64_t)st->sum_ns[j]);
            rpenc_uvar(e, (uint64_t)st->min_ns[j]);
            rpenc_uvar(e, (uint64_t)st->max_ns[j]);
            rpenc_uvar(e, nz);
        } else {
            rpenc_i64(e, st->sum_ns[j]);
            rpenc_i64(e, st->min_ns[j]);
            rpenc_i64(e, st->max_ns[j]);
            rpenc_u32(e, nz);
        }
        /* Sparse: a run's phases fall into a few bins per slot; a dense
         * histogram would be 2.3 KB per slot of mostly zeros.  Varint:
         * the gap to the previous non-empty bin, then the count. */
        for (uint32_t b = 0, next = 0; b < RP_HIST_BINS; b++) {
            if (!h[b])
                continue;
            if (enc == RP_ENC_VARINT) {
                rpenc_uvar(e, b - next);
                rpenc_uvar(e, h[b]);
                next = b + 1;
            } else {
                rpenc_u16(e, (uint16_t)b);
                rpenc_u32(e, h[b]);
            }
        }
    }
}

#define STAT_SLOT_MIN_BYTES 28u   /* sum, min, max, nbins */
#define STAT_BIN_BYTES 6u
#define STAT_SLOT_MIN_VARINT 4u   /* four one-byte varints */
#define STAT_BIN_MIN_VARINT 2u

/* A varint that must fit an int64_t (fails d otherwise). */
static int64_t dec_var_i64(rpdec *d)
{
    uint64_t v = rpdec_uvar(d);
    if (v > (uint64_t)INT64_MAX) {
        d->failed = 1;
        return 0;
    }
    return (int64_t)v;
}

int rpdec_stats(rpdec *d, rp_phasestats *st, uint32_t k_expected, rp_enc enc, char *err,
                size_t errlen)
{
    const int var = enc == RP_ENC_VARINT;
    const uint64_t slot_min = var ? STAT_SLOT_MIN_VARINT : STAT_SLOT_MIN_BYTES;
    const uint64_t bin_min = var ? STAT_BIN_MIN_VARINT : STAT_BIN_BYTES;
    memset(st, 0, sizeof *st);
    uint32_t k = rpdec_u32(d);
    (void)rpdec_u32(d);
    uint64_t nphases = rpdec_u64(d);
    if (d->failed) {
        rp_seterr(err, errlen, "corrupt STAT section (too short)");
        return -1;
    }
    if (k != k_expected) {
        rp_seterr(err, errlen, "STAT k=%u differs from header k=%u", k, k_expected);
        return -1;
    }
    if ((uint64_t)k * slot_min > rpdec_left(d)) {
        rp_seterr(err, errlen, "corrupt STAT section (%u slots need more than %zu bytes)", k,
               rpdec_left(d));
        return -1;
    }
    if (phasestats_init(st, k) != 0) {
        rp_seterr(err, errlen, "out of memory for phase statistics (k=%u)", k);
        return -1;
    }
    st->nphases = nphases;
    for (uint32_t j = 0; j < k; j++) {
        st->sum_ns[j] = var ? dec_var_i64(d) : rpdec_i64(d);
        st->min_ns[j] = var ? dec_var_i64(d) : rpdec_i64(d);
        st->max_ns[j] = var ? dec_var_i64(d) : rpdec_i64(d);
        uint64_t nz = var ? rpdec_uvar(d) : rpdec_u32(d);
        if (d->failed || nz > RP_HIST_BINS || nz * bin_min > rpdec_left(d)) {
            rp_seterr(err, errlen, "corrupt STAT section (slot %u histogram)", j);
            goto fail;
        }
        if (nphases > 0 && (st->min_ns[j] > st->max_ns[j] || st->min_ns[j] < 0 ||
                            st->sum_ns[j] < st->max_ns[j])) {
            rp_seterr(err, errlen, "corrupt STAT section (slot %u: min/max/sum inconsistent)", j);
            goto fail;
        }
        uint32_t *h = st->hist + (size_t)j * RP_HIST_BINS;
        uint64_t total = 0;
        int64_t prev = -1;
        for (uint32_t i = 0; i < nz; i++) {
            uint64_t b, c;
            if (var) {
                b = (uint64_t)(prev + 1) + rpdec_uvar(d);   /* a wrapped sum is <= prev */
                c = rpdec_uvar(d);
            } else {
                b = rpdec_u16(d);
                c = rpdec_u32(d);
            }
            if (d->failed || b >= RP_HIST_BINS || (int64_t)b <= prev || c == 0 || c > UINT32_MAX) {
                rp_seterr(err, errlen, "corrupt STAT section (slot %u: bad histogram bin %llu)", j,
                          (unsigned long long)b);
                goto fail;
            }
            prev = (int64_t)b;
            h[b] = (uint32_t)c;
            total += c;
        }
        if (total > nphases) {
            rp_seterr(err, errlen,
                   "corrupt STAT section (slot %u: %llu histogram entries for %llu phases)", j,
                   (unsigned long long)total, (unsigned long long)nphases);
            goto fail;
        }
    }
    if (d->failed) {
        rp_seterr(err, errlen, "corrupt STAT section (too short)");
        goto fail;
    }
    return 0;
fail:
    phasestats_free(st);
    memset(st, 0, sizeof *st);
    return -1;
}

void rpenc_counters(rpenc *e, const rp_counter *c, uint32_t n)
{
    rpenc_u32(e, n);
    for (uint32_t i = 0; i < n; i++) {
        size_t l = strnlen(c[i].name, sizeof c[i].name - 1);
        rpenc_u8(e, (uint8_t)l);
        rpenc_bytes(e, c[i].name, l);
        rpenc_u64(e, c[i].value);
    }
}

int rpdec_counters(rpdec *d, rp_counter **cp, uint32_t *np, char *err, size_t errlen)
{
    *cp = NULL;
    *np = 0;
    uint32_t n = rpdec_u32(d);
    /* each counter takes at least 1 + 1 + 8 bytes */
    if (d->failed || n > RP_MAX_COUNTERS || (uint64_t)n * 10u > rpdec_left(d)) {
        rp_seterr(err, errlen, "corrupt CNTR section (count %u)", n);
        return -1;
    }
    rp_counter *c = calloc(n ? n : 1, sizeof *c);
    if (!c) {
        rp_seterr(err, errlen, "out of memory for counters");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint8_t l = rpdec_u8(d);
        const uint8_t *b = (l > 0 && l < sizeof c[i].name) ? rpdec_bytes(d, l) : NULL;
        if (!b || memchr(b, 0, l)) {
            rp_seterr(err, errlen, "corrupt CNTR section (counter %u name)", i);
            free(c);
            return -1;
        }
        memcpy(c[i].name, b, l);
        c[i].value = rpdec_u64(d);
    }
    if (d->failed) {
        rp_seterr(err, errlen, "corrupt CNTR section (too short)");
        free(c);
        return -1;
    }
    *cp = c;
    *np = n;
    return 0;
}
