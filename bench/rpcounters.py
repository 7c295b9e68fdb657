#!/usr/bin/env python3
"""rpcounters.py DIR - sum the runtime's counters over the rank files of a
measurement directory (rank-*.rpp) and print them as NAME VALUE lines, plus
pathset_bytes_per_msg.  The counter table is a length-prefixed name followed
by a little-endian u64 (lib/format/rpenc.c, rpenc_counters); this reader only looks
for the names it knows, so it needs no full parser of the rank file."""
import glob
import os
import struct
import sys

NAMES = ["pathset_msgs_sent", "pathset_msgs_received", "pathset_bytes_sent",
         "pathset_decode_errors", "send_pool_grown", "send_pool_waits",
         "pathset_unmatched", "collective_joins", "items_dropped",
         "samples", "samples_mpi", "samples_dropped", "samples_skipped",
         "period_doublings", "timer_overruns", "main_thread_cpu_us"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: rpcounters.py MEASUREMENT-DIR")
    files = sorted(glob.glob(os.path.join(sys.argv[1], "rank-*.rpp")))
    if not files:
        sys.exit("rpcounters.py: no rank-*.rpp in %s" % sys.argv[1])
    tot = {}
    for f in files:
        data = open(f, "rb").read()
        for n in NAMES:
            key = bytes([len(n)]) + n.encode()
            i = data.find(key)
            if i < 0 or i + len(key) + 8 > len(data):
                continue
            v, = struct.unpack_from("<Q", data, i + len(key))
            tot[n] = tot.get(n, 0) + v
    for n in NAMES:
        if n in tot:
            print(n, tot[n])
    m = tot.get("pathset_msgs_sent", 0)
    if m:
        print("pathset_bytes_per_msg %.1f" % (tot.get("pathset_bytes_sent", 0) / m))


if __name__ == "__main__":
    main()
