#!/usr/bin/env python3
"""Does the replay give every middle level of every phase the run's cost?

Usage: replay DIR K ... | replay_agrees.py CHECK_JSON [--nonempty]

CHECK_JSON is a file holding `rp-report --check --format json DIR`; the
replay's lines come on standard input ("phase level pct replay_ns ...", '#' lines skipped).  A
level agrees when the two costs are within 1 ns.  Prints "SAME TOTAL";
exit 1 if a level differs (or, with --nonempty, if there was none).
Used by tests/mpi/test_accuracy.sh, tests/tools/test_random.sh and
bench/random_campaign.sh.
"""
import json
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    run = {}
    for ph in doc["percentiles"]["by_phase"]:
        for j, lv in enumerate(ph["levels"]):
            run[(ph["phase"], j)] = round(lv["online_seconds"] * 1e9)
    same = tot = 0
    for line in sys.stdin:
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        tot += 1
        key = (int(f[0]), int(f[1]))
        same += key in run and abs(run[key] - float(f[3])) <= 1
    print(same, tot)
    ok = same == tot and (tot > 0 or "--nonempty" not in sys.argv[2:])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
