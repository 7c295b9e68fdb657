/* crc32.c - table-driven CRC-32, four bits at a time.  A 16-entry constant
 * table needs no initialisation (so no race and nothing to set up inside a
 * signal or at MPI_Finalize) and is fast enough for files of a few MB. */
#include "format/crc32.h"

static const uint32_t nibble_table[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t rp_crc32_update(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ nibble_table[crc & 0xFu];
        crc = (crc >> 4) ^ nibble_table[crc & 0xFu];
    }
    return ~crc;
}
