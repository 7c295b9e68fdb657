/* fuzz_common.h - shared by the libFuzzer harnesses of tests/robust/fuzz/.
 *
 * The file readers take a path, so the input is written to an anonymous
 * memory file (memfd) and read back through /proc/self/fd/N: the readers are
 * fuzzed exactly as the tools call them, with no refactoring and no disk I/O.
 *
 * Every container ends with a CRC-32 over all bytes before it, so most
 * mutations would die at "checksum mismatch".  When the first input byte is
 * odd, the harness drops it and rewrites the last 4 bytes with the right CRC:
 * half of the executions get past the checksum into the section decoders. */
#ifndef RP_FUZZ_COMMON_H
#define RP_FUZZ_COMMON_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "format/crc32.h"

/* Write the (possibly CRC-fixed) input to a memfd; returns its path in
 * `path` and the fd (close it when done), or -1. */
static int fuzz_to_file(const uint8_t *data, size_t size, char *path, size_t cap)
{
    static int fd = -1;
    if (fd < 0) {
        fd = memfd_create("rpfuzz", MFD_CLOEXEC);
        if (fd < 0) {
            perror("memfd_create");
            abort();
        }
    }
    const uint8_t *p = data;
    size_t n = size;
    uint8_t *fixed = NULL;
    if (n > 0 && (data[0] & 1)) {
        p = data + 1;
        n = size - 1;
        if (n >= 4) {
            fixed = malloc(n);
            memcpy(fixed, p, n);
            uint32_t c = rp_crc32_update(0, fixed, n - 4);
            fixed[n - 4] = (uint8_t)c;
            fixed[n - 3] = (uint8_t)(c >> 8);
            fixed[n - 2] = (uint8_t)(c >> 16);
            fixed[n - 1] = (uint8_t)(c >> 24);
            p = fixed;
        }
    } else if (n > 0) {
        p = data + 1;
        n = size - 1;
    }
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
        perror("memfd reset");
        abort();
    }
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, p + off, n - off);
        if (w <= 0) {
            perror("memfd write");
            abort();
        }
        off += (size_t)w;
    }
    free(fixed);
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
