/* rpio.h - what the two binary file kinds (rank file and merged profile,
 * doc/formats.md) do alike around their own sections: open and check a
 * file against a table of sections, finish and write one, and the sparse
 * "node table + non-zero metric entries" layout that the rank file's CCT
 * section and the profile's NODE section share.  One home for each, so the
 * two readers cannot drift apart.  Pure C, no MPI. */
#ifndef RP_RPIO_H
#define RP_RPIO_H
#include <stddef.h>
#include <stdint.h>
#include "format/rpenc.h"

/* One section a reader understands. */
typedef struct rp_secspec {
    uint32_t    tag;
    const char *name;      /* for messages: "HEAD" */
    int         required;  /* missing -> "missing NAME section" */
} rp_secspec;

/* Load PATH, check its container (magic, version, framing, CRC) and find
 * the sections of spec[0..n) into sec[0..n) (p == NULL when absent).  On
 * success *buf holds the file (free it after decoding); on failure *buf is
 * NULL and err says why.  0 or -1. */
int rpio_open(const char *path, const char magic[8], uint32_t version, const rp_secspec *spec,
              uint32_t n, rp_section *sec, uint8_t **buf, char *err, size_t errlen);

/* rpio_open's checks on a file already in memory (buf, len): the entry
 * of a job file (rpjob.h).  The caller keeps buf.  0 or -1. */
int rpio_check(const uint8_t *buf, size_t len, const char magic[8], uint32_t version,
               const rp_secspec *spec, uint32_t n, rp_section *sec, char *err, size_t errlen);

/* Append END with the CRC, write atomically (rpenc_write_file) and free the
 * buffer.  0 or -1 with errno (ENOMEM when an allocation failed earlier). */
int rpio_commit(rpenc *e, const char *path);

/* A counted array: u32 count, then count records of at least item_bytes
 * each (exactly, when exact).  Checks the count against max_n and the bytes
 * left before allocating count elements of elem_size (zeroed; one when the
 * count is 0, so NULL always means failure).  Sets *n; NULL with a reason
 * ("corrupt WHAT section (count N)") on failure. */
void *rpio_array(rpdec *r, uint32_t *n, uint32_t max_n, uint64_t item_bytes, int exact,
                 size_t elem_size, const char *what, char *err, size_t errlen);

/* Sparse table: u32 rows, u32 columns, u64 non-zero count, then the caller's
 * per-row records, then every non-zero metric in row-major order: as
 * (u32 row, u32 column, i64 value) under RP_ENC_FIXED; under RP_ENC_VARINT
 * as two varints, the gap from the previous entry's position row * columns
 * + column (from -1) less one, and the value (>= 0), ending the section. */
void rpio_sparse_begin(rpenc *e, const int64_t *metrics, uint32_t rows, uint32_t cols);
void rpio_sparse_entries(rpenc *e, const int64_t *metrics, uint32_t rows, uint32_t cols,
                         rp_enc enc);
/* Read the three counts and check that rows records of row_bytes and the
 * entries fill the rest of the section (exactly, when fixed; at two bytes
 * an entry at least, when varint) before anything is allocated; cols must
 * equal cols_expected and rows be > 0.  what names the section in
 * messages.  0 or -1. */
int rpio_sparse_head(rpdec *r, uint32_t row_bytes, uint32_t cols_expected, rp_enc enc,
                     const char *what, uint32_t *rows, uint32_t *cols, uint64_t *nz, char *err,
                     size_t errlen);
/* Read nz entries into metrics[rows * cols] (zeroed by the caller): strictly
 * increasing positions inside the table, values >= min_value (varint: >= 0
 * whatever min_value, and nothing may follow them).  0 or -1. */
int rpio_sparse_read(rpdec *r, int64_t *metrics, uint32_t rows, uint32_t cols, uint64_t nz,
                     int64_t min_value, rp_enc enc, const char *what, char *err, size_t errlen);
#endif
