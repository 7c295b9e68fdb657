#!/usr/bin/env python3
"""jobfile.py - the job file (job.rpj, doc/formats.md "Job file") written and
read independently of lib/format/rpjob.c, so the tests check the layout the
document gives, not the code against itself.

  jobfile.py pack DIR [OUT]   rank-NNNNN.rpp of DIR (ranks 0..n-1, all present)
                              into OUT (default DIR/job.rpj)
  jobfile.py split JOBFILE DIR  each entry N into DIR/rank-NNNNN.rpp
  jobfile.py corrupt JOBFILE KIND  KIND: truncate, magic, header, index, entry
"""
import os
import re
import struct
import sys
import zlib

MAGIC = b"RPPJOB\r\n"
VERSION = 1
HDR = 64
ENT = 24


def pack(d, out):
    ranks = sorted(int(m.group(1)) for m in
                   (re.fullmatch(r"rank-(\d+)\.rpp", f) for f in os.listdir(d)) if m)
    if ranks != list(range(len(ranks))) or not ranks:
        sys.exit("jobfile.py: %s: ranks are not 0..n-1" % d)
    n = len(ranks)
    at = HDR + n * ENT
    index = []
    blobs = []
    for r in ranks:
        with open(os.path.join(d, "rank-%05d.rpp" % r), "rb") as f:
            b = f.read()
        index.append(struct.pack("<QQII", at, len(b), r, zlib.crc32(b) & 0xFFFFFFFF))
        blobs.append(b)
        at += len(b)
    head = MAGIC + struct.pack("<IIIIQ", VERSION, HDR, n, ENT, at)
    idx = b"".join(index)
    crc = zlib.crc32(head + idx) & 0xFFFFFFFF
    head += struct.pack("<I", crc) + bytes(HDR - len(head) - 4)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(head)
        f.write(idx)
        for b in blobs:
            f.write(b)
    os.rename(tmp, out)


def read_index(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == MAGIC, "wrong magic"
    version, hdr, n, ent, size = struct.unpack_from("<IIIIQ", data, 8)
    assert (version, hdr, ent, size) == (VERSION, HDR, ENT, len(data)), "bad header"
    crc, = struct.unpack_from("<I", data, 32)
    assert crc == zlib.crc32(data[:32] + data[HDR:HDR + n * ENT]) & 0xFFFFFFFF, "header CRC"
    return data, [struct.unpack_from("<QQII", data, HDR + i * ENT) for i in range(n)]


def split(path, d):
    data, index = read_index(path)
    os.makedirs(d, exist_ok=True)
    for i, (off, ln, rank, crc) in enumerate(index):
        b = data[off:off + ln]
        assert rank == i and zlib.crc32(b) & 0xFFFFFFFF == crc, "entry %d" % i
        with open(os.path.join(d, "rank-%05d.rpp" % rank), "wb") as f:
            f.write(b)


def corrupt(path, kind):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    n, = struct.unpack_from("<I", data, 16)
    if kind == "truncate":
        data = data[:len(data) - 7]
    elif kind == "magic":
        data[3] ^= 0x20
    elif kind == "header":      # the entry count: the header CRC catches it
        data[16] ^= 0x01
    elif kind == "index":       # last entry's offset out of range, CRC kept valid
        struct.pack_into("<Q", data, HDR + (n - 1) * ENT, len(data) + 100)
        crc = zlib.crc32(bytes(data[:32]) + bytes(data[HDR:HDR + n * ENT])) & 0xFFFFFFFF
        struct.pack_into("<I", data, 32, crc)
    elif kind == "entry":       # a byte of the last entry: its own CRC catches it
        data[len(data) - 40] ^= 0xFF
    else:
        sys.exit("jobfile.py: unknown corruption %s" % kind)
    with open(path, "wb") as f:
        f.write(data)


def main(argv):
    if len(argv) >= 3 and argv[1] == "pack":
        pack(argv[2], argv[3] if len(argv) > 3 else os.path.join(argv[2], "job.rpj"))
    elif len(argv) == 4 and argv[1] == "split":
        split(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "corrupt":
        corrupt(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
