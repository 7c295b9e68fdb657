#!/usr/bin/env python3
"""check_coverage.py JSON MIN_LOCATED - attribution of one long phase (issue 13).

For every path of rp-report's JSON (profile mode):
  - located (sampled_seconds) + unknown_seconds is within TOL of the cost
    and never above it (the merge caps the located part: by construction);
  - the unknown causes add up to unknown_seconds;
  - no path shows more located time than the critical path's cost;
and the critical path locates at least MIN_LOCATED of its cost.
"""
import json
import sys

TOL = 0.15


def main():
    d = json.load(open(sys.argv[1]))
    min_loc = float(sys.argv[2])
    fails = []
    if d["mode"] != "prof" or d["phases"] < 1:
        fails.append("expected a profile-mode report with phases, got %s/%s" % (d["mode"], d["phases"]))
    crit = d["paths"][0]["cost_seconds"]
    for p in d["paths"]:
        c, loc, unk = p["cost_seconds"], p["sampled_seconds"], p["unknown_seconds"]
        causes = sum(p["unknown"].values())
        tot = loc + unk
        print("path %5.1f%%: cost %.4f s, located %.4f s (%.1f%%), <unknown> %.4f s %s"
              % (p["percentile"], c, loc, 100 * loc / c if c else 0, unk, p["unknown"]))
        if c <= 0:
            continue
        if tot > c * 1.001 + 1e-6:
            fails.append("path %g: located + unknown %.4f > cost %.4f" % (p["percentile"], tot, c))
        if tot < c * (1 - TOL):
            fails.append("path %g: located + unknown %.4f < %.0f%% of cost %.4f"
                         % (p["percentile"], tot, 100 * (1 - TOL), c))
        if abs(causes - unk) > 1e-6 + 1e-3 * c:
            fails.append("path %g: causes %.6f != unknown %.6f" % (p["percentile"], causes, unk))
        if loc > crit * 1.001 + 1e-6:
            fails.append("path %g: located %.4f above the critical path %.4f" % (p["percentile"], loc, crit))
    p0 = d["paths"][0]
    if p0["sampled_seconds"] < min_loc * p0["cost_seconds"]:
        fails.append("critical path locates %.1f%% of its cost, need %.0f%%"
                     % (100 * p0["sampled_seconds"] / p0["cost_seconds"], 100 * min_loc))
    for f in fails:
        print("CHECK FAILED: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
