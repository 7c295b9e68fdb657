/* rpjob.h - the job file (job.rpj): every rank's rank file of one job in
 * one file, so a large job writes one file instead of one per rank.  The
 * byte layout, version 1, is specified in doc/formats.md ("Job file"):
 *
 *   header (64 bytes): magic "RPPJOB\r\n", u32 version, u32 header bytes,
 *   u32 entries, u32 index entry bytes, u64 file size, u32 CRC-32 of header
 *   bytes [0, 32) and of the index, 28 reserved bytes (0);
 *   index: per entry u64 offset, u64 length, u32 rank, u32 CRC-32 of the
 *   entry's bytes;
 *   data: the entries, each the exact bytes of that rank's rank file,
 *   back to back in index order from the end of the index to the end of
 *   the file.  Entry i holds rank i.
 *
 * An entry is named to rpfile_read / rpfile_read_job as "FILE#N" (a path
 * ending in ".rpj#" and decimal digits), so the tools take the entries of a
 * job file wherever they take rank files.  Pure C, no MPI. */
#ifndef RP_RPJOB_H
#define RP_RPJOB_H

#include <stddef.h>
#include <stdint.h>

#define RP_JOBFILE_MAGIC       "RPPJOB\r\n"   /* 8 bytes */
#define RP_JOBFILE_VERSION     1u
#define RP_JOBFILE_NAME        "job.rpj"      /* its name in the measurement directory */
#define RP_JOBFILE_HDR_BYTES   64u
#define RP_JOBFILE_ENTRY_BYTES 24u
#define RP_JOBFILE_MAX_ENTRIES (1u << 24)     /* more ranks are rejected as absurd */

typedef struct rp_jobentry {
    uint64_t offset, length;   /* of the entry's bytes in the file */
    uint32_t rank;             /* = its position in the index */
    uint32_t crc;              /* CRC-32 of those bytes */
} rp_jobentry;

/* Where the data starts: header + index of n entries. */
uint64_t rpjob_data_start(uint32_t n);
/* Encode header and index into buf (rpjob_data_start(n) bytes); e[i]
 * must already carry offsets that tile [data start, file_size). */
void rpjob_encode_index(uint8_t *buf, const rp_jobentry *e, uint32_t n, uint64_t file_size);
/* Read and check PATH's header and whole index (magic, version, sizes,
 * header CRC, entry i = rank i, entries tiling the data exactly up to the
 * file's size: a truncated file fails).  The entries' own CRCs are checked
 * when they are read (rpjob_load_entry).  *e malloc'd (free it).  0 or -1
 * with a one-line reason in err. */
int rpjob_read_index(const char *path, rp_jobentry **e, uint32_t *n, char *err, size_t errlen);
/* Load entry i of PATH into a malloc'd *buf: the header is checked, then
 * that index entry (bounds) and the bytes' CRC; the other entries are not
 * read, so reading every entry costs the entries, not n times the index.
 * 0 or -1 with a reason in err. */
int rpjob_load_entry(const char *path, uint32_t i, uint8_t **buf, size_t *len, char *err,
                     size_t errlen);
/* Is REF an entry name "FILE#N" (FILE ending in ".rpj")?  1 with FILE
 * copied into file[cap] and N into *i; 0 otherwise (or if it does not fit). */
int rpjob_parse_ref(const char *ref, char *file, size_t cap, uint32_t *i);

#endif
