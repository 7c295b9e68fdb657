#!/usr/bin/env python3
"""Check an `rp-report --format json` document against what a test expects.

usage: check_report.py REPORT.json [options]

Always checked: the document is one JSON object with ranks, k, mode,
phases, wall_seconds and paths; there are k paths; costs are finite, >= 0
and non-increasing along the list (descending percentile); percentiles
descend from 100 to 0 at even spacing (unless --any-percentiles); the
critical path is not longer than the wall time (within tolerance).

Optional expectations (seconds): --p100 X, --p0 Y (the 100 % and 0 %
paths, |cost - X| <= rel * X + abs; with --late L a cost may also exceed
X by L more: oversubscribed wake-ups can only be late), --ranks, --phases,
--k, --mode.
Prints a one-line summary of the report; on failure prints lines starting
with "CHECK FAILED" and exits 1.  Python 3 standard library only.
"""
import argparse
import json
import math
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--ranks", type=int)
    ap.add_argument("--phases", type=int)
    ap.add_argument("--k", type=int)
    ap.add_argument("--mode")
    ap.add_argument("--p100", type=float, help="expected cost of the 100%% path (s)")
    ap.add_argument("--p0", type=float, help="expected cost of the 0%% path (s)")
    ap.add_argument("--rel", type=float, default=0.05, help="relative tolerance")
    ap.add_argument("--abs", dest="abstol", type=float, default=0.020,
                    help="absolute tolerance (s)")
    ap.add_argument("--late", type=float, default=0.0,
                    help="extra tolerance above the expected cost only (s)")
    ap.add_argument("--any-percentiles", action="store_true",
                    help="only require non-increasing percentiles (topk)")
    ap.add_argument("--clean-counters", action="store_true",
                    help="require counters.pathset_decode_errors and "
                         "counters.pathset_unmatched to be 0 (if reported)")
    a = ap.parse_args()

    errors = []

    def fail(msg):
        errors.append(msg)

    try:
        with open(a.report, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print("CHECK FAILED cannot read report: %s" % e)
        return 1
    try:
        doc = json.loads(text)
    except ValueError as e:
        print("CHECK FAILED report is not JSON: %s" % e)
        print(text[:2000])
        return 1
    if not isinstance(doc, dict):
        print("CHECK FAILED report is not a JSON object")
        return 1

    for key in ("ranks", "k", "mode", "phases", "wall_seconds", "paths"):
        if key not in doc:
            fail("missing key %r" % key)
    if errors:
        for e in errors:
            print("CHECK FAILED " + e)
        return 1

    # the per-rank table's times are exact (counter task_time_ns): task and
    # MPI time add up to the rank's wall time, neither negative
    for r in doc.get("per_rank", []):
        if r.get("times") != "exact":
            fail("rank %s: per-rank times %r, not exact" % (r.get("rank"), r.get("times")))
        elif (r["task_seconds"] < 0 or r["mpi_seconds"] < 0 or
              abs(r["task_seconds"] + r["mpi_seconds"] - r["wall_seconds"]) > 1e-6):
            fail("rank %s: task %.9f + MPI %.9f s != wall %.9f s" %
                 (r.get("rank"), r["task_seconds"], r["mpi_seconds"], r["wall_seconds"]))
    if errors:
        for e in errors:
            print("CHECK FAILED " + e)
        return 1

    paths = doc["paths"]
    k = doc["k"]
    if not isinstance(paths, list) or not paths:
        print("CHECK FAILED 'paths' is not a non-empty list")
        return 1
    pcts, costs = [], []
    for i, p in enumerate(paths):
        try:
            pcts.append(float(p["percentile"]))
            costs.append(float(p["cost_seconds"]))
        except (KeyError, TypeError, ValueError) as e:
            print("CHECK FAILED path %d lacks percentile/cost_seconds: %r (%s)" % (i, p, e))
            return 1

    summary = "ranks=%s k=%s mode=%s phases=%s wall=%.4fs paths: %s" % (
        doc["ranks"], k, doc["mode"], doc["phases"], float(doc["wall_seconds"]),
        " ".join("%g%%=%.4fs" % (q, c) for q, c in zip(pcts, costs)))
    print(summary)

    if a.ranks is not None and doc["ranks"] != a.ranks:
        fail("ranks = %r, expected %d" % (doc["ranks"], a.ranks))
    if a.k is not None and k != a.k:
        fail("k = %r, expected %d" % (k, a.k))
    if a.mode is not None and doc["mode"] != a.mode:
        fail("mode = %r, expected %r" % (doc["mode"], a.mode))
    if a.phases is not None and doc["phases"] != a.phases:
        fail("phases = %r, expected %d" % (doc["phases"], a.phases))
    if isinstance(k, int) and len(paths) != k:
        fail("%d paths listed, k = %d" % (len(paths), k))

    for i, c in enumerate(costs):
        if not math.isfinite(c) or c < 0:
            fail("path %d has cost %r" % (i, c))
    for i in range(1, len(costs)):
        if costs[i] > costs[i - 1] + 1e-9:
            fail("costs increase from path %d (%g%%: %.6f s) to path %d (%g%%: %.6f s)"
                 % (i - 1, pcts[i - 1], costs[i - 1], i, pcts[i], costs[i]))
    for i in range(1, len(pcts)):
        if pcts[i] > pcts[i - 1] or (pcts[i] == pcts[i - 1] and not a.any_percentiles):
            fail("percentiles not descending: %r" % pcts)
            break
    if not a.any_percentiles and len(pcts) >= 2:
        n = len(pcts)
        want = [100.0 * (n - 1 - i) / (n - 1) for i in range(n)]
        if any(abs(x - y) > 0.01 for x, y in zip(pcts, want)):
            fail("percentiles %r, expected %r" % (pcts, want))
    elif not a.any_percentiles and pcts and abs(pcts[0] - 100.0) > 0.01:
        fail("first percentile %r, expected 100" % pcts[0])

    def near(name, got, want):
        tol = a.rel * want + a.abstol
        if got < want - tol or got > want + tol + a.late:
            fail("%s path costs %.4f s, expected %.4f s -%.4f/+%.4f s"
                 % (name, got, want, tol, tol + a.late))

    if a.p100 is not None:
        near("100%", costs[0], a.p100)
    if a.p0 is not None:
        near("0%", costs[-1], a.p0)

    # the runtime's own error counters, where the report has them
    counters = doc.get("counters")
    if a.clean_counters and isinstance(counters, dict):
        for name in ("pathset_decode_errors", "pathset_unmatched"):
            if counters.get(name, 0):
                fail("counter %s = %r, expected 0" % (name, counters[name]))

    wall = float(doc["wall_seconds"])
    if not math.isfinite(wall) or wall < 0:
        fail("wall_seconds = %r" % doc["wall_seconds"])
    elif costs[0] > wall * (1 + a.rel) + a.abstol:
        fail("critical path %.4f s is longer than the wall time %.4f s" % (costs[0], wall))

    for e in errors:
        print("CHECK FAILED " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
