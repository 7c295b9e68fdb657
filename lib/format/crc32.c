/* crc32.c - table-driven CRC-32, eight bytes at a time (slicing-by-8).
 * Every rank file is checked whole when read, so at 100 000 rank files the
 * CRC was half of rp-report's and rp-merge's time at four bits a step; the
 * tables are constants (crc32_table.h): no initialisation, so no race and
 * nothing to set up inside a signal or at MPI_Finalize. */
#include "format/crc32.h"
#include "format/crc32_table.h"

uint32_t rp_crc32_update(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    const uint32_t (*t)[256] = rp_crc32_tab;
    crc = ~crc;
    /* bytes assembled one by one: the same on any byte order and alignment */
    for (; len >= 8; p += 8, len -= 8) {
        uint32_t a = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                            (uint32_t)p[3] << 24);
        crc = t[7][a & 0xFFu] ^ t[6][(a >> 8) & 0xFFu] ^ t[5][(a >> 16) & 0xFFu] ^
              t[4][a >> 24] ^ t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    }
    for (; len > 0; p++, len--)
        crc = (crc >> 8) ^ t[0][(crc ^ *p) & 0xFFu];
    return ~crc;
}
