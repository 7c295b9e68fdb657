/* rpio.c - shared open/commit and sparse-table codecs of the rank file and
 * the merged profile (see rpio.h and doc/formats.md). */
#include "format/rpio.h"

#include <errno.h>
#include <stdlib.h>

#define SPARSE_ENTRY_BYTES 16u  /* row, column, value */
#define SPARSE_ENTRY_MIN_VARINT 2u   /* gap, value: a byte each at least */

int rpio_check(const uint8_t *b, size_t len, const char magic[8], uint32_t version,
               const rp_secspec *spec, uint32_t n, rp_section *sec, char *err, size_t errlen)
{
    uint32_t known[32] = {0};   /* zeroed: gcc cannot see n <= 32 */
    if (n > sizeof known / sizeof known[0]) {
        rp_seterr(err, errlen, "internal: too many section kinds (%u)", n);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        known[i] = spec[i].tag;
    if (rpdec_container(b, len, magic, version, known, n, sec, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        if (spec[i].required && !sec[i].p) {
            rp_seterr(err, errlen, "missing %s section", spec[i].name);
            return -1;
        }
    }
    return 0;
}

int rpio_open(const char *path, const char magic[8], uint32_t version, const rp_secspec *spec,
              uint32_t n, rp_section *sec, uint8_t **buf, char *err, size_t errlen)
{
    size_t len;
    uint8_t *b;
    *buf = NULL;
    if (rpdec_load_file(path, &b, &len, err, errlen) != 0)
        return -1;
    if (rpio_check(b, len, magic, version, spec, n, sec, err, errlen) != 0) {
        free(b);
        return -1;
    }
    *buf = b;
    return 0;
}

int rpio_commit(rpenc *e, const char *path)
{
    rpenc_finish(e);
    if (e->failed) {
        rpenc_free(e);
        errno = ENOMEM;
        return -1;
    }
    int rc = rpenc_write_file(e, path);
    int saved = errno;
    rpenc_free(e);
    errno = saved;
    return rc;
}

void *rpio_array(rpdec *r, uint32_t *n, uint32_t max_n, uint64_t item_bytes, int exact,
                 size_t elem_size, const char *what, char *err, size_t errlen)
{
    uint32_t c = rpdec_u32(r);
    uint64_t need = (uint64_t)c * item_bytes, left = rpdec_left(r);
    if (r->failed || c > max_n || need > left || (exact && need != left)) {
        rp_seterr(err, errlen, "corrupt %s section (count %u)", what, c);
        return NULL;
    }
    void *a = calloc(c ? c : 1, elem_size);
    if (!a) {
        rp_seterr(err, errlen, "out of memory for %s section (%u entries)", what, c);
        return NULL;
    }
    *n = c;
    return a;
}

void rpio_sparse_begin(rpenc *e, const int64_t *metrics, uint32_t rows, uint32_t cols)
{
    size_t nm = (size_t)rows * cols;
    uint64_t nz = 0;
    for (size_t i = 0; i < nm; i++)
        nz += metrics[i] != 0;
    rpenc_u32(e, rows);
    rpenc_u32(e, cols);
    rpenc_u64(e, nz);
}

void rpio_sparse_entries(rpenc *e, const int64_t *metrics, uint32_t rows, uint32_t cols,
                         rp_enc enc)
{
    /* Sparse because only leaves carry exclusive time and a context is
     * usually on few of the k paths: most of the dense matrix is 0. */
    size_t nm = (size_t)rows * cols, next = 0;
    for (size_t i = 0; i < nm; i++) {
        if (metrics[i] == 0)
            continue;
        if (enc == RP_ENC_VARINT) {   /* values >= 0: the callers' tables */
            rpenc_uvar(e, i - next);
            rpenc_uvar(e, (uint64_t)metrics[i]);
            next = i + 1;
        } else {
            rpenc_u32(e, (uint32_t)(i / cols));
            rpenc_u32(e, (uint32_t)(i % cols));
            rpenc_i64(e, metrics[i]);
        }
    }
}

int rpio_sparse_head(rpdec *r, uint32_t row_bytes, uint32_t cols_expected, rp_enc enc,
                     const char *what, uint32_t *rows, uint32_t *cols, uint64_t *nz, char *err,
                     size_t errlen)
{
    uint32_t n = rpdec_u32(r);
    uint32_t nm = rpdec_u32(r);
    uint64_t z = rpdec_u64(r);
    if (r->failed) {
        rp_seterr(err, errlen, "corrupt %s section (too short)", what);
        return -1;
    }
    if (nm != cols_expected) {
        rp_seterr(err, errlen, "%s section has %u metric columns, expected %u", what, nm,
                  cols_expected);
        return -1;
    }
    if (n == 0) {
        rp_seterr(err, errlen, "empty %s section (no root)", what);
        return -1;
    }
    /* Check the sizes against the bytes present before allocating. */
    uint64_t left = rpdec_left(r);
    uint64_t fixed = (uint64_t)n * row_bytes;
    uint64_t entry = enc == RP_ENC_VARINT ? SPARSE_ENTRY_MIN_VARINT : SPARSE_ENTRY_BYTES;
    if (fixed > left || z > (left - fixed) / entry || z > (uint64_t)n * nm ||
        (enc == RP_ENC_FIXED && fixed + z * entry != left)) {
        rp_seterr(err, errlen, "corrupt %s section (%u rows, %llu metric entries do not fit %llu bytes)",
                  what, n, (unsigned long long)z, (unsigned long long)left);
        return -1;
    }
    *rows = n;
    *cols = nm;
    *nz = z;
    return 0;
}

int rpio_sparse_read(rpdec *r, int64_t *metrics, uint32_t rows, uint32_t cols, uint64_t nz,
                     int64_t min_value, rp_enc enc, const char *what, char *err, size_t errlen)
{
    const uint64_t size = (uint64_t)rows * cols;
    uint64_t prev = 0, next = 0;
    for (uint64_t i = 0; i < nz; i++) {
        uint64_t key;
        int64_t v;
        int bad;
        if (enc == RP_ENC_VARINT) {
            uint64_t gap = rpdec_uvar(r), u = rpdec_uvar(r);
            bad = gap >= size - next || u > (uint64_t)INT64_MAX;
            key = next + gap;
            v = (int64_t)u;
        } else {
            uint32_t row = rpdec_u32(r), col = rpdec_u32(r);
            v = rpdec_i64(r);
            bad = row >= rows || col >= cols;
            key = (uint64_t)row * cols + col;
        }
        if (r->failed || bad || v < min_value || (i > 0 && key <= prev)) {
            rp_seterr(err, errlen, "corrupt %s section (metric entry %llu)", what,
                      (unsigned long long)i);
            return -1;
        }
        prev = key;
        next = key + 1;
        metrics[key] = v;
    }
    if (enc == RP_ENC_VARINT && rpdec_left(r) != 0) {
        rp_seterr(err, errlen, "corrupt %s section (%zu bytes after the last metric entry)", what,
                  rpdec_left(r));
        return -1;
    }
    return 0;
}
