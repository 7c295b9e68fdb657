/* rpenc.h - the container shared by rpprof's binary files (rank files
 * rank-NNNNN.rpp and the merged profile.rpm; layout in doc/formats.md):
 *
 *   8-byte magic, u32 version, u32 reserved,
 *   sections { u32 fourcc, u32 reserved, u64 length, payload[length] } ...,
 *   "END " section whose 4-byte payload is the CRC-32 of every byte before
 *   it (END's own 16-byte header included).
 *
 * Everything is little-endian and encoded byte by byte, so files move
 * between machines and compilers.  Also the codecs of the payloads both
 * file kinds share (phase statistics, counters).  Pure C, no MPI. */
#ifndef RP_RPENC_H
#define RP_RPENC_H

#include <stddef.h>
#include <stdint.h>
#include "core/phasestats.h"
#include "format/rpfile.h"

#define RP_TAG(a, b, c, d) ((uint32_t)(uint8_t)(a) | (uint32_t)(uint8_t)(b) << 8 | \
                            (uint32_t)(uint8_t)(c) << 16 | (uint32_t)(uint8_t)(d) << 24)
#define RP_TAG_END RP_TAG('E', 'N', 'D', ' ')

#define RP_FILE_HDR_BYTES 16u   /* magic + version + reserved */
#define RP_SEC_HDR_BYTES  16u   /* fourcc + reserved + length */
#define RP_READ_MAX_BYTES (1ull << 32)  /* refuse larger files outright */

/* ---- encoding into a growing buffer ------------------------------------ */
typedef struct rpenc {
    uint8_t *buf;
    size_t   len, cap;
    int      failed;     /* sticky: an allocation failed; the result is void */
} rpenc;

void   rpenc_init(rpenc *e);
void   rpenc_free(rpenc *e);
void   rpenc_bytes(rpenc *e, const void *p, size_t n);
void   rpenc_u8(rpenc *e, uint8_t v);
void   rpenc_u16(rpenc *e, uint16_t v);
void   rpenc_u32(rpenc *e, uint32_t v);
void   rpenc_u64(rpenc *e, uint64_t v);
void   rpenc_i64(rpenc *e, int64_t v);
/* LEB128: 7 bits a byte, low first, the high bit set on all but the last
 * (1 byte below 128, 10 at most). */
void   rpenc_uvar(rpenc *e, uint64_t v);
/* File header (magic, version, reserved 0). */
void   rpenc_file_header(rpenc *e, const char magic[8], uint32_t version);
/* Open a section; returns the position to pass to rpenc_section_end,
 * which patches the length in. */
size_t rpenc_section_begin(rpenc *e, uint32_t tag);
void   rpenc_section_end(rpenc *e, size_t pos);
/* Append the END section with the CRC of everything before it. */
void   rpenc_finish(rpenc *e);
/* Write the buffer to PATH.tmp.<pid>, fsync, rename to PATH (atomic: a
 * reader sees the old file, no file, or the whole new one).  0 or -1 with
 * errno; the temporary file never survives a failure. */
int    rpenc_write_file(const rpenc *e, const char *path);

/* ---- decoding with bounds checks --------------------------------------- */
typedef struct rpdec {
    const uint8_t *p;
    size_t         len, pos;
    int            failed;   /* sticky: a read ran past the end */
} rpdec;

void     rpdec_init(rpdec *d, const uint8_t *p, size_t len);
uint8_t  rpdec_u8(rpdec *d);
uint16_t rpdec_u16(rpdec *d);
uint32_t rpdec_u32(rpdec *d);
uint64_t rpdec_u64(rpdec *d);
int64_t  rpdec_i64(rpdec *d);
/* rpenc_uvar's encoding, shortest form only (anything else fails d). */
uint64_t rpdec_uvar(rpdec *d);
/* Pointer to the next n bytes (and skip them), NULL if fewer are left. */
const uint8_t *rpdec_bytes(rpdec *d, size_t n);
static inline size_t rpdec_left(const rpdec *d) { return d->failed ? 0 : d->len - d->pos; }

/* Format a one-line reason into err (if err is non-NULL and errlen > 0):
 * the readers' way of saying what is wrong with a file. */
void rp_seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Open PATH for reading, refusing anything but a regular file (a FIFO or
 * device named like a profile file must not hang the open): the fd, with
 * the file's size in *size; -1 with a reason in err. */
int rpdec_open_regular(const char *path, uint64_t *size, char *err, size_t errlen);
/* n bytes of fd at offset at (EINTR retried): 0, or -1 on an error or
 * the end of the file. */
int rpdec_pread_full(int fd, uint8_t *b, size_t n, uint64_t at);
/* Little-endian values at p: fixed-layout headers read in place. */
static inline uint32_t rpdec_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t rpdec_le64(const uint8_t *p)
{
    return (uint64_t)rpdec_le32(p) | (uint64_t)rpdec_le32(p + 4) << 32;
}
/* Read a whole file into memory (malloc'd; size bounded by
 * RP_READ_MAX_BYTES).  0 or -1 with a reason in err. */
int rpdec_load_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen);

/* Validate the container and find the sections: magic, version (the
 * message says found vs expected), section framing, exactly one END at the
 * very end, CRC.  known[0..n_known) are the tags the caller understands;
 * found[i] receives that section (p == NULL if absent).  A known tag seen
 * twice is an error; unknown tags are skipped (forward compatibility
 * within a version).  0 or -1 with a reason in err. */
typedef struct rp_section {
    const uint8_t *p;
    size_t         len;
} rp_section;
int rpdec_container(const uint8_t *buf, size_t len, const char magic[8],
                    uint32_t version, const uint32_t *known, uint32_t n_known,
                    rp_section *found, char *err, size_t errlen);

/* ---- shared payload codecs --------------------------------------------- */
#define RP_FILE_MAX_K 1024u     /* larger k is rejected as absurd */
#define RP_MAX_COUNTERS 4096u

/* How the sparse payloads (STAT's histograms, rpio's metric tables) store
 * their numbers: fixed-width little-endian (rank files), or LEB128 varints
 * with gaps instead of positions (the merged profile from version 2: a
 * third of the bytes, so its size follows the contexts, not their digits;
 * doc/formats.md). */
typedef enum { RP_ENC_FIXED = 0, RP_ENC_VARINT = 1 } rp_enc;

/* STAT payload: k, nphases, per slot sum/min/max + sparse histogram. */
void rpenc_stats(rpenc *e, const rp_phasestats *st, rp_enc enc);
/* Decode into st (initialised here with phasestats_init; k must equal
 * k_expected).  0 or -1 with reason. */
int  rpdec_stats(rpdec *d, rp_phasestats *st, uint32_t k_expected, rp_enc enc, char *err,
                 size_t errlen);
/* CNTR payload. */
void rpenc_counters(rpenc *e, const rp_counter *c, uint32_t n);
int  rpdec_counters(rpdec *d, rp_counter **c, uint32_t *n, char *err, size_t errlen);
/* The rest of a section is exactly n records of rec_bytes each: returns a
 * malloc'd array of n (at least 1) elements of elem_bytes, or NULL with
 * "corrupt SECT section (N records do not fit B bytes)" or "out of memory"
 * in err.  The one check every counted section of the rank file and the
 * merged profile makes before decoding its records. */
void *rpdec_records(rpdec *d, uint64_t n, size_t rec_bytes, size_t elem_bytes, const char *sect,
                    char *err, size_t errlen);
/* A string: u32 length (0..maxlen, no NUL bytes inside) + bytes. */
void rpenc_str(rpenc *e, const char *s);
/* Decodes into a fresh malloc'd NUL-terminated string. */
char *rpdec_str(rpdec *d, size_t maxlen, int allow_empty);

#endif
