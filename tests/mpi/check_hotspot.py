#!/usr/bin/env python3
"""check_hotspot.py REPORT.json SOURCE HEAVY LIGHT
Assert the representative-path profile of tests/mpi/mpi_hotspot.c: HEAVY (a
function name, or a prefix of a demangled C++ name) dominates the 100 % path
with SOURCE's file and a line inside its loop; it is absent from the 0 %
path; LIGHT is on both; the MPI profile shows the allreduce waits."""
import json
import re
import sys


def fail(msg):
    print("CHECK FAILED: " + msg)
    sys.exit(1)


def marker_lines(source, tag):
    with open(source) as f:
        return [i + 1 for i, l in enumerate(f) if tag in l]


def main():
    rep, source, heavy, light = sys.argv[1:5]
    with open(rep) as f:
        d = json.load(f)
    paths = d["paths"]
    crit, least = paths[0], paths[-1]
    marks = marker_lines(source, "HEAVY_LOOP") + marker_lines(source, "HEAVY_BODY")
    if not marks:
        fail("no HEAVY markers in " + source)
    heavy_lines = set(range(min(marks), max(marks) + 1))   # the loop nest

    def is_fn(e, name):
        return e["function"] == name or e["function"].startswith(name + "(") \
            or re.search(r"(^|::)" + re.escape(name) + r"(\(|$)", e["function"]) is not None

    top = crit.get("top", [])
    if not top:
        fail("the 100 % path has no profile (top is empty)")
    if not is_fn(top[0], heavy):
        fail("100 %% path's top entry is %r, expected %s" % (top[0], heavy))
    if not top[0]["file"].endswith(source.split("/")[-1]):
        fail("heavy() resolves to file %r, expected %s" % (top[0]["file"], source))
    if top[0]["line"] not in heavy_lines:
        fail("heavy() line %d is not one of its loop lines %s" % (top[0]["line"], sorted(heavy_lines)))
    heavy_s = sum(e["seconds"] for e in top if is_fn(e, heavy))
    if heavy_s < 0.5 * crit["cost_seconds"]:
        fail("heavy() has %.3f s of a %.3f s critical path" % (heavy_s, crit["cost_seconds"]))
    # Absent from the 0 % path.  On a loaded machine a phase can really
    # flip (the light rank descheduled past the heavy one): allow that,
    # visibly, up to 10 % of heavy's critical-path time.
    heavy_least = sum(e["seconds"] for e in least.get("top", []) if is_fn(e, heavy))
    if heavy_least > 0.1 * heavy_s:
        fail("heavy() has %.3f s on the 0 %% path (%.3f s on the 100 %% path): %r"
             % (heavy_least, heavy_s, least["top"]))
    if heavy_least > 0:
        print("note: heavy() has %.3f s on the 0 %% path (phases that flipped under load)"
              % heavy_least)
    if not any(is_fn(e, light) for e in least.get("top", [])):
        fail("light() missing from the 0 %% path: %r" % least.get("top"))
    if not any(is_fn(e, heavy) for e in d.get("hotspots", [])):
        fail("heavy() missing from the whole-program hotspots")
    mpi = {e["function"]: e["seconds"] for e in d.get("mpi_hotspots", [])}
    if mpi.get("MPI_Allreduce", 0) < 0.3 * (crit["cost_seconds"] - least["cost_seconds"]):
        fail("MPI_Allreduce wait %.3f s is too small for a %.3f s spread: %r"
             % (mpi.get("MPI_Allreduce", 0), crit["cost_seconds"] - least["cost_seconds"], mpi))
    print("ok: 100%% path %.3f s, heavy %.3f s at %s:%d; 0%% path %.3f s without heavy"
          % (crit["cost_seconds"], heavy_s, top[0]["file"], top[0]["line"], least["cost_seconds"]))


if __name__ == "__main__":
    main()
