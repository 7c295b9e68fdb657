/* crc32.h - CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, the one
 * zlib and gzip use) guarding rpprof's files against corruption.  Pure C. */
#ifndef RP_CRC32_H
#define RP_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: start with crc = 0; crc32_update(crc32_update(0, a), b)
 * equals the CRC of a followed by b. */
uint32_t rp_crc32_update(uint32_t crc, const void *data, size_t len);

#endif
