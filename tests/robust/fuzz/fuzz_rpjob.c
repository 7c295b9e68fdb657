/* fuzz_rpjob.c - libFuzzer harness for the job-file reader (rpjob_read_index,
 * rpjob_load_entry and rpfile_read of "FILE#N", lib/format/rpjob.c).  Half
 * of the inputs get their header CRC recomputed (bit 1 of the first byte),
 * so the mutations reach the index checks and the entries.  An index the
 * reader accepts must tile the file exactly; every refusal has a message. */
#include "fuzz_common.h"
#include "format/rpfile.h"
#include "format/rpjob.h"

static void fix_header_crc(uint8_t *b, size_t n)
{
    if (n < RP_JOBFILE_HDR_BYTES)
        return;
    uint32_t ne = (uint32_t)b[16] | (uint32_t)b[17] << 8 | (uint32_t)b[18] << 16 |
                  (uint32_t)b[19] << 24;
    uint64_t ib = (uint64_t)ne * RP_JOBFILE_ENTRY_BYTES;
    if (ib > n - RP_JOBFILE_HDR_BYTES)
        return;
    uint32_t c = rp_crc32_update(rp_crc32_update(0, b, 32), b + RP_JOBFILE_HDR_BYTES, (size_t)ib);
    for (int i = 0; i < 4; i++)
        b[32 + i] = (uint8_t)(c >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char link_path[64];
    char path[64], err[256];
    if (size == 0)
        return 0;
    /* first byte even: fuzz_to_file drops it and leaves the rest alone */
    uint8_t *b = malloc(size);
    memcpy(b, data, size);
    int fix = b[0] & 2;
    b[0] = 0;
    if (fix)
        fix_header_crc(b + 1, size - 1);
    int fd = fuzz_to_file(b, size, path, sizeof path);
    free(b);
    /* the "FILE#N" names need a name ending in .rpj: a link to the memfd */
    if (!link_path[0]) {
        snprintf(link_path, sizeof link_path, "/tmp/rpfuzz-%d.rpj", (int)getpid());
        unlink(link_path);
        if (symlink(path, link_path) != 0)
            abort();
    }
    (void)fd;
    rp_jobentry *e = NULL;
    uint32_t n = 0;
    err[0] = '\0';
    if (rpjob_read_index(link_path, &e, &n, err, sizeof err) != 0) {
        if (!err[0])
            abort();
        return 0;
    }
    uint64_t at = rpjob_data_start(n);
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].offset != at || e[i].rank != i)
            abort();
        at += e[i].length;
    }
    for (uint32_t i = 0; i < n && i < 64; i++) {
        char ref[96];
        snprintf(ref, sizeof ref, "%s#%u", link_path, i);
        rp_rankdata d;
        err[0] = '\0';
        if (rpfile_read(ref, &d, err, sizeof err) == 0)
            rpfile_free(&d);
        else if (!err[0])
            abort();
    }
    free(e);
    return 0;
}
