/* fuzz_profile.c - libFuzzer harness for the merged-profile reader
 * (profile_read, tools/common/profile.c). */
#include "fuzz_common.h"
#include "common/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[256];
    fuzz_to_file(data, size, path, sizeof path);
    rp_profile p;
    err[0] = '\0';
    if (profile_read(path, &p, err, sizeof err) == 0) {
        profile_free(&p);
    } else if (!err[0]) {
        fprintf(stderr, "profile_read failed without a message\n");
        abort();
    }
    return 0;
}
