#!/usr/bin/env python3
"""check_tools.py - end-to-end checks of rp-merge and rp-report on
synthetic rank files written by mkrankfiles (see test_tools.sh).

usage: check_tools.py BINDIR MKRANKFILES SRCFILE WORKDIR
Exit status 0 if every check passed, 1 otherwise."""
import json
import os
import re
import subprocess
import sys
import time

BINDIR, MKRANK, SRC, WORK = sys.argv[1:5]
MERGE = os.path.join(BINDIR, "rp-merge")
REPORT = os.path.join(BINDIR, "rp-report")
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what, file=sys.stderr)
    return cond


def run(*args, timeout=120):
    p = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def make(d, *opts):
    rc, out, err = run(MKRANK, d, *[str(o) for o in opts])
    if rc != 0:
        print(err, file=sys.stderr)
        sys.exit(1)
    return json.loads(out)


# Lines the symbolisation must find, from the "@line:" markers in the source.
marker = {}
with open(SRC) as f:
    for no, text in enumerate(f, 1):
        m = re.search(r"@line:(\w+)", text)
        if m:
            marker[m.group(1)] = no

# ---- A. a job with missing, corrupt, truncated and foreign-version ranks ----
d = os.path.join(WORK, "job")
exp = make(d, 7, "--k", 4, "--skip", 2, "--corrupt", 4, "--truncate", 5,
           "--bad-version", 6, "--extra", 30)
k = exp["k"]
# Every context: the fixture's made-up times put some far under rp-merge's
# default --min-share (0.1 %), and this part checks every one by name.
# The default's folding is checked after the listing below.
rc, out, err = run(MERGE, "--min-share", "0", d)
check(rc == 0, "rp-merge exits 0 when some ranks merged (rc=%d): %s" % (rc, err))
for r, why in ((2, "missing"), (4, "checksum mismatch"), (5, "truncated file"),
               (6, "unsupported format version 9 (expected 2)")):
    check(re.search(r"rp-merge: .*/rank-%05d\.rpp: %s" % (r, re.escape(why)), err),
          "rank %d named on stderr as '%s'" % (r, why))
check(err.count("libgone.so: No such file") == 1, "one warning for the missing module")
check(err.count("differs from the recorded deadbeef") == 1,
      "one warning for the module whose build-id differs")
check(os.path.exists(os.path.join(d, "profile.rpm")), "profile.rpm written")
check(not [f for f in os.listdir(d) if ".tmp." in f], "no temporary files left")

rc, out, err = run(REPORT, "--format", "json", "--top", "100000", d)
check(rc == 0, "rp-report json exits 0: " + err)
try:
    j = json.loads(out)
except ValueError as e:
    check(False, "rp-report json output parses: %s" % e)
    sys.exit(1)
check(j["ranks"] == exp["ranks"] == 3, "ranks present %s" % j["ranks"])
check(j["ranks_missing"] == [2, 4, 5, 6], "ranks_missing %s" % j["ranks_missing"])
check(j["k"] == k and j["mode"] == "prof" and j["select"] == "repr", "k/mode/select")
check(j["phases"] == 3, "phases")
check(close(j["wall_seconds"], exp["wall_ns"] / 1e9), "wall_seconds = max over ranks")
check(j["counters"] == exp["counters"], "counters summed: %s" % j["counters"])
paths = j["paths"]
check(len(paths) == k, "k path entries")
pct = [p["percentile"] for p in paths]
check(all(close(pct[i], 100.0 * (k - 1 - i) / (k - 1)) for i in range(k)), "percentiles %s" % pct)
check(all(pct[i] > pct[i + 1] for i in range(k - 1)), "paths in descending percentile")
for i, p in enumerate(paths):
    check(close(p["cost_seconds"], exp["path_cost_ns"][i] / 1e9), "path %d cost" % i)
    check(p["phase_min_seconds"] <= p["phase_median_seconds"] <= p["phase_max_seconds"],
          "path %d min <= median <= max" % i)
    check(close(p["phase_max_seconds"], (10 - i) * 3e-3), "path %d phase max" % i)

# metric sums preserved exactly across the union of differently shaped trees
col = exp["col_ns"]
check(close(sum(e["seconds"] for e in j["hotspots"]), col[0] / 1e9), "hotspots sum = column 0")
check(close(j["sampled_seconds"], col[0] / 1e9), "sampled_seconds")
check(close(j["mpi_seconds"], col[1] / 1e9), "mpi_seconds")
# per-rank view: one row per readable rank, adding up to the columns
pr = j.get("per_rank", [])
check(sorted(r["rank"] for r in pr) == [0, 1, 3], "per_rank rows: %s" % [r["rank"] for r in pr])
check(close(sum(r["task_seconds"] for r in pr), col[0] / 1e9)
      and close(sum(r["mpi_seconds"] for r in pr), col[1] / 1e9), "per_rank sums = columns 0, 1")
check(all(close(r["wall_seconds"], (2000000000 + r["rank"] * 1000) / 1e9) for r in pr),
      "per_rank wall")
check(all("cpu_seconds" not in r for r in pr), "per_rank: no CPU fields without the CPU counter")
# MPI time by call site: all of it in MPI_Wait called from rp_test_caller
cs = j.get("mpi_call_sites", [])
check(len(cs) == 1 and cs[0]["call"] == "MPI_Wait" and cs[0]["function"] == "rp_test_caller"
      and cs[0]["line"] == marker["rp_test_caller"] and close(cs[0]["seconds"], col[1] / 1e9),
      "mpi_call_sites: %s" % cs)
for i, p in enumerate(paths):
    check(close(sum(e["seconds"] for e in p["top"]), col[2 + i] / 1e9),
          "path %d top sum = column %d" % (i, 2 + i))
    # located (sampled_seconds) + <unknown> = the column (issue 13)
    check(close(p["sampled_seconds"] + p["unknown_seconds"], col[2 + i] / 1e9),
          "path %d sampled_seconds" % i)
    secs = [e["seconds"] for e in p["top"]]
    check(secs == sorted(secs, reverse=True), "path %d top largest first" % i)


def by_function(entries):
    acc = {}
    for e in entries:
        acc[e["function"]] = acc.get(e["function"], 0.0) + e["seconds"]
    return acc


for fn, want in exp["functions"].items():
    got = [by_function(j["hotspots"]).get(fn, 0.0)] + \
          [by_function(p["top"]).get(fn, 0.0) for p in paths]
    cols = [want[0]] + want[2:]
    check(all(close(g, w / 1e9) for g, w in zip(got, cols)),
          "function %s per-column seconds %s, want %s" % (fn, got, cols))
check(close(j["mpi_hotspots"][0]["seconds"], col[1] / 1e9)
      and j["mpi_hotspots"][0]["function"] == "MPI_Wait",
      "MPI time under MPI_Wait whatever each rank's name table order")

# symbolisation: function, file and line of known code
for fn in ("rp_test_compute", "rp_test_leaf_b", "rp_test_caller", "rp_test_inl"):
    hits = [e for e in j["hotspots"] if e["function"] == fn]
    ok = check(len(hits) == 1, "one hotspot line for %s: %s" % (fn, hits))
    if ok:
        h = hits[0]
        check(h["file"].endswith("tests/tools/mkrankfiles.c"), "%s file %s" % (fn, h["file"]))
        check(h["line"] == marker[fn], "%s line %d, want %d%s" % (
            fn, h["line"], marker[fn],
            " (call sites are looked up at offset-1)" if fn in ("rp_test_caller", "rp_test_inl")
            else ""))
# a module without usable symbols (build-id mismatch) is one row, named by
# the module, its file the module's path (tools/common/frames.c)
nosym = [e for e in j["hotspots"] if e["function"] == "mkrankfiles [no symbols]"]
check(len(nosym) == 1 and nosym[0]["file"] == exp["exe"] and nosym[0]["line"] == 0,
      "build-id mismatch: one row for the module without symbols: %s" % nosym)
check(not any(e["function"].startswith(("rpf_", "reqtab_")) for e in j["hotspots"]),
      "rpprof's own frames never appear as computation in the hotspots")
check(not any("+0x" in e["function"] for e in j["hotspots"]),
      "no per-address rows for modules without symbols")
check(j["contexts_folded"] == {"count": 0, "min_share_percent": 0},
      "--min-share 0 folds nothing: %s" % j["contexts_folded"])

# rp-merge's default folds contexts under 0.1 % of every column into
# "<contexts under 0.1 %>" (tools/merge/prune.c): no time lost, and every line
# or MPI call with 0.1 % of a column keeps its total
folded_rpm = os.path.join(WORK, "folded.rpm")
rc, out, err = run(MERGE, "-o", folded_rpm, d)
check(rc == 0, "rp-merge with the default --min-share: " + err)
rc, out, err = run(REPORT, "--format", "json", "--top", "100000", folded_rpm)
check(rc == 0, "rp-report of the folded profile: " + err)
jf = json.loads(out)
check(jf["contexts_folded"]["count"] > 0 and jf["contexts_folded"]["min_share_percent"] == 0.1,
      "the default folds the fixture's smallest contexts: %s" % jf["contexts_folded"])
check(close(jf["sampled_seconds"], j["sampled_seconds"]) and
      close(jf["mpi_seconds"], j["mpi_seconds"]), "folding keeps the sampled and MPI time")
check(all(close(a["cost_seconds"], b["cost_seconds"]) for a, b in zip(j["paths"], jf["paths"])),
      "folding keeps every path's cost")
tot = sum(e["seconds"] for e in j["hotspots"])
big = [e for e in j["hotspots"] if e["seconds"] >= 0.001 * tot]
fh = {(e["function"], e["line"]): e["seconds"] for e in jf["hotspots"]}
check(all(close(fh.get((e["function"], e["line"]), -1), e["seconds"]) for e in big),
      "every hotspot line over 0.1 %% keeps its time (%d lines)" % len(big))
check(close(sum(fh.values()), tot), "the hotspot lines still sum to the sampled time")
check(any(f == "<contexts under 0.1 %>" for f, _ in fh), "the folded time is named as such")

# folded stacks: exact sums in microseconds, inlined frames expanded
for name, c in [("0", 2), ("1", 3), (str(k - 1), 2 + k - 1), ("rank", 0), ("mpi", 1)]:
    rc, out, err = run(REPORT, "--format", "folded", "--path", name, d)
    check(rc == 0, "folded --path %s exits 0: %s" % (name, err))
    total = 0
    stacks = set()
    for line in out.splitlines():
        stack, _, val = line.rpartition(" ")
        check(stack and val.isdigit(), "folded line shape: %r" % line)
        total += int(val)
        stacks.add(stack)
    check(total * 1000 == col[c], "folded --path %s sums to column %d (%d us vs %d ns)"
          % (name, c, total, col[c]))
    frames = {fr for st in stacks for fr in st.split(";")}
    check(not any(fr.startswith(("rpf_", "reqtab_")) or "+0x" in fr for fr in frames),
          "folded --path %s: no rpprof frames, no per-address frames: %s" % (name, sorted(frames)))
    if name == "rank":
        check(any(st.endswith("rp_test_caller;MPI_Send [rpprof wrapper]") for st in stacks),
              "folded: rpprof's wrapper and what it calls are one frame")
    if name == str(k - 1):
        check("rp_test_caller;rp_test_outer;rp_test_inl;rp_test_leaf_b" in stacks,
              "inlined frames appear in the folded stack: %s" % sorted(stacks)[:5])

# text report
rc, out, err = run(REPORT, d)
check(rc == 0, "text report exits 0: " + err)
for s in ("Path-length distribution", "missing or unreadable: 2 4 5 6", "samples_dropped = 5",
          "Hotspots by function", "Hotspots by source line", "Calling-context tree",
          "rp_test_compute (mkrankfiles.c:%d)" % marker["rp_test_compute"], "100-0%"):
    check(s in out, "text report contains %r" % s)

# the same profile through the file, and a stale profile.rpm
rc, out2, err = run(REPORT, "--format", "json", "--top", "100000", os.path.join(d, "profile.rpm"))
# (per_rank and the POP factors need the rank files: a profile.rpm alone
# has sums only, and "pop" is null)
check(rc == 0 and json.loads(out2) == {x: (None if x == "pop" else v) for x, v in j.items()
                                       if x != "per_rank"},
      "reading profile.rpm directly gives the same report")
future = time.time() + 5
os.utime(os.path.join(d, "rank-00001.rpp"), (future, future))
rc, out3, err = run(REPORT, "--format", "json", "--top", "100000", "--min-share", "0", d)
check(rc == 0 and "older than the rank files" in err, "stale profile.rpm noticed: " + err)
check(rc == 0 and json.loads(out3) == j, "in-memory merge gives the same report")

# ---- B. errors --------------------------------------------------------------
empty = os.path.join(WORK, "empty")
os.makedirs(empty, exist_ok=True)
with open(os.path.join(empty, "notes.txt"), "w") as f:
    f.write("not a rank file\n")
rc, out, err = run(MERGE, empty)
check(rc != 0 and "no rank files" in err, "rp-merge on a directory without rank files: %d %s"
      % (rc, err))
rc, out, err = run(REPORT, empty)
check(rc == 1 and "no rank files" in err, "rp-report on a directory without rank files")
rc, out, err = run(MERGE, os.path.join(WORK, "does-not-exist"))
check(rc != 0 and "does-not-exist" in err, "rp-merge on a missing directory")
rc, out, err = run(REPORT, os.path.join(WORK, "does-not-exist"))
check(rc == 1 and "does-not-exist" in err, "rp-report on a missing directory")

allbad = os.path.join(WORK, "allbad")
make(allbad, 2, "--corrupt", 0, "--corrupt", 1)
rc, out, err = run(MERGE, allbad)
check(rc != 0 and "none of the 2 rank files" in err, "rp-merge with no readable rank: " + err)

for args, what in (([], "no arguments"), (["--format", "xml", d], "unknown format"),
                   (["--top", "0", d], "--top 0"), (["--path", "x", d], "--path x"),
                   (["--bogus", d], "unknown option"), ([d, d], "two directories"),
                   (["--threshold", "200", d], "--threshold 200")):
    rc, out, err = run(REPORT, *args)
    check(rc == 2 and err.startswith("rp-report: "), "rp-report %s: rc %d, %s" % (what, rc, err))
rc, out, err = run(REPORT, "--path", str(k), d)
check(rc == 2 and "out of range" in err, "--path k is out of range: " + err)
rc, out, err = run(MERGE, "--bogus", d)
check(rc == 2, "rp-merge unknown option")
for tool in (MERGE, REPORT):
    rc, out, err = run(tool, "--help")
    check(rc == 0 and out.startswith("Usage: ") and "Exit status" in out, tool + " --help")

# damaged profile.rpm: always a clean error, never a crash
prof = os.path.join(d, "profile.rpm")
run(MERGE, "-q", d)
blob = open(prof, "rb").read()
bad = os.path.join(WORK, "bad.rpm")
for n in (0, 5, 16, len(blob) // 2, len(blob) - 1):
    open(bad, "wb").write(blob[:n])
    rc, out, err = run(REPORT, bad)
    check(rc == 1 and err.startswith("rp-report: ") and ("truncated" in err or "empty" in err),
          "truncated profile (%d bytes): rc %d %s" % (n, rc, err))
step = max(1, len(blob) // 150)
crashes = 0
for off in range(0, len(blob), step):
    b = bytearray(blob)
    b[off] ^= 1 << (off % 8)
    open(bad, "wb").write(b)
    rc, out, err = run(REPORT, "--format", "json", bad)
    if rc != 1 or not err.startswith("rp-report: "):
        crashes += 1
        print("  bit flip at %d: rc %d %s" % (off, rc, err.strip()), file=sys.stderr)
check(crashes == 0, "every damaged profile is rejected with exit 1")
b = bytearray(blob)
b[8] = 9
open(bad, "wb").write(b)
rc, out, err = run(REPORT, bad)
check(rc == 1 and "version 9 (expected %d)" % 2 in err, "profile of another version: " + err)

# ---- C. scale: 1000 ranks merge quickly and exactly ---------------------------
big = os.path.join(WORK, "big")
exp = make(big, 1000, "--extra", 100)
t0 = time.time()
rc, out, err = run(MERGE, "-q", big, timeout=300)
dt = time.time() - t0
check(rc == 0, "rp-merge of 1000 ranks: " + err)
check(dt < 60, "rp-merge of 1000 ranks took %.1f s" % dt)
rc, out, err = run(REPORT, "--format", "json", "--top", "1000000", big)
j = json.loads(out) if rc == 0 else {}
check(j.get("ranks") == 1000 and j.get("ranks_missing") == [], "1000 ranks present")
if j:
    check(close(sum(e["seconds"] for e in j["hotspots"]), exp["col_ns"][0] / 1e9),
          "1000 ranks: column 0 preserved")
    for i, p in enumerate(j["paths"]):
        check(close(p["sampled_seconds"] + p["unknown_seconds"], exp["col_ns"][2 + i] / 1e9),
              "1000 ranks: path %d preserved" % i)
print("check_tools: rp-merge of 1000 ranks took %.2f s; %d failure(s)" % (dt, failures))
sys.exit(1 if failures else 0)
