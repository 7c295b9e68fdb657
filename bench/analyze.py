#!/usr/bin/env python3
"""analyze.py - turn bench/run.sh's raw results into Markdown tables.

  analyze.py RESULTS-DIR              print the generated section
  analyze.py --splice DOC SECTION.md  put SECTION.md between the markers
                                      of DOC (create DOC if it has none)
  analyze.py --splice-apps DOC SECTION.md
                                      the same between the APPS markers
                                      (whole-application tables)

Every figure is a median over launches of the per-launch medians over
repetitions, with the range over launches in brackets.  "Added" is a
variant's time minus the plain time of the same launch; "ratio" is
rpprof's added time over the floor's added time, per launch, then the median.
"""
import glob
import os
import platform
import re
import statistics
import subprocess
import sys

BEGIN = "<!-- BEGIN GENERATED -->"
END = "<!-- END GENERATED -->"
TARGET = 1.5


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except Exception:
        return ""


def modes(path):
    """MODE lines of one launch -> {(op, mode): median_ns}."""
    res = {}
    for line in open(path):
        f = line.split()
        if not f or f[0] != "MODE":
            continue
        kv = dict(x.split("=", 1) for x in f if "=" in x)
        names = [x for x in f[1:] if "=" not in x]
        res[tuple(names)] = int(kv["median_ns"])
    return res


def counters(path):
    c = {}
    if os.path.exists(path):
        for line in open(path):
            k, v = line.split()
            c[k] = float(v)
    return c


def launches(out, stem):
    files = glob.glob(os.path.join(out, stem + ".[0-9]*.out"))
    return sorted(files, key=lambda p: int(p.rsplit(".", 2)[-2]))


def agg(vals, fmt="{:.0f}"):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "n/a"
    m = statistics.median(vals)
    if len(vals) == 1:
        return fmt.format(m)
    return (fmt + " [" + fmt + "–" + fmt + "]").format(m, min(vals), max(vals))


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def ratio(a, b):
    return a / b if b and b > 0 else None


def machine(out):
    cpu = sh("lscpu | sed -n 's/^Model name: *//p'") or platform.processor()
    ompi = sh("ompi_info --version 2>/dev/null | head -1") or sh("mpirun --version | head -1")
    lines = [
        "| | |", "|---|---|",
        "| date | %s |" % sh("date -u '+%Y-%m-%d %H:%M UTC'"),
        "| cores (nproc) | %s |" % sh("nproc"),
        "| CPU | %s |" % cpu,
        "| hypervisor | %s |" % (sh("lscpu | sed -n 's/^Hypervisor vendor: *//p'") or "none"),
        "| kernel | %s |" % platform.release(),
        "| MPI | %s |" % ompi.replace("\n", " "),
        "| compiler | %s |" % sh("gcc --version | head -1"),
    ]
    return lines


def pingpong_rows(out, cfgs):
    rows_b, rows_i, wire = [], [], []
    for c in cfgs:
        _, name, mopts, period, k, nbytes, side, n = c
        per = []
        for f in launches(out, "pp-" + name):
            m = modes(f)
            cnt = counters(f[:-4] + ".cnt")
            d = {}
            for pre in ("", "i"):
                pl = m.get((pre + "plain",))
                fl = m.get((pre + "floor",))
                pr = m.get((pre + "prof",))
                if None in (pl, fl, pr):
                    continue
                d[pre] = (pl, fl - pl, pr - pl, ratio(pr - pl, fl - pl))
            d["bytes"] = cnt.get("pathset_bytes_per_msg")
            per.append(d)
        if not per:
            continue
        transport = "tcp" if "tcp" in mopts else "shm (vader)"
        bpm = agg([p["bytes"] for p in per], "{:.0f}")
        for pre, rows in (("", rows_b), ("i", rows_i)):
            v = [p[pre] for p in per if pre in p]
            if not v:
                continue
            r = med([x[3] for x in v])
            ok = "yes" if r is not None and r <= TARGET else (
                "no (%.1f× the target)" % (r / TARGET) if r else "n/a")
            fast = sum(1 for x in v if x[0] < 250)
            rows.append("| %s | %s | %s | %s | %s | %s | %s (%d fast/%d slow) | %s | %s | %s | %s |" % (
                name, transport, period, k, nbytes, bpm, agg([x[0] for x in v]),
                fast, len(v) - fast, agg([x[1] for x in v]), agg([x[2] for x in v]),
                agg([x[3] for x in v], "{:.2f}"), ok))
        wire.append((name, period, k, side, bpm))
    return rows_b, rows_i, wire


def coll_rows(out, cfgs):
    rows = []
    for c in cfgs:
        _, name, np_, period, k, side, n = c
        per = [modes(f) for f in launches(out, "coll-" + name)]
        if not per:
            continue
        for op in ("allreduce", "barrier", "bcast"):
            pl = [m.get((op, "plain")) for m in per]
            if None in pl:
                continue
            fl = [m[(op, "floor")] - m[(op, "plain")] for m in per]
            f5 = [m[(op, "floor512")] - m[(op, "plain")] for m in per]
            pr = [m[(op, "prof")] - m[(op, "plain")] for m in per]
            r = [ratio(a, b) for a, b in zip(pr, fl)]
            r5 = [ratio(a, b) for a, b in zip(pr, f5)]
            rm = med(r)
            ok = "yes" if rm is not None and rm <= TARGET else (
                "no (%.1f× the target)" % (rm / TARGET) if rm else "n/a")
            rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                op, np_, period, agg(pl), agg(fl), agg(f5), agg(pr),
                agg(r, "{:.2f}"), agg(r5, "{:.2f}"), ok))
    return rows


def separate(out):
    pl, pr = [], []
    for f in launches(out, "sep-plain"):
        pl.append(modes(f).get(("prof",)))
    for f in launches(out, "sep-prof"):
        pr.append(modes(f).get(("prof",)))
    if not pl or not pr:
        return []
    diffs = [b - a for a, b in zip(pl, pr)]
    return [
        "| launch | " + " | ".join(str(i + 1) for i in range(len(pl))) + " | median |",
        "|---|" + "---|" * (len(pl) + 1),
        "| uninstrumented launch, ns | " + " | ".join(str(x) for x in pl) +
        " | %.0f |" % statistics.median(pl),
        "| preloaded launch (RP_PERIOD=0), ns | " + " | ".join(str(x) for x in pr) +
        " | %.0f |" % statistics.median(pr),
        "| difference of the pair, ns | " + " | ".join(str(x) for x in diffs) +
        " | %.0f |" % statistics.median(diffs),
    ]


def generate(out):
    cfgs = [l.rstrip("\n").split("|") for l in open(os.path.join(out, "configs.txt"))]
    pp = [c for c in cfgs if c[0] == "pingpong"]
    co = [c for c in cfgs if c[0] == "collective"]
    L = len(launches(out, "pp-" + pp[0][1])) if pp else 0
    o = []
    o.append("## Machine (generated by `make bench`)")
    o.append("")
    o += machine(out)
    o.append("")
    o.append("## Commands (launch 1 of %d of each configuration)" % L)
    o.append("")
    o.append("```")
    for stem in sorted(glob.glob(os.path.join(out, "*.1.cmd"))):
        o.append(open(stem).read().strip().replace(out + "/", "$OUT/"))
    o.append("```")
    o.append("")
    o.append("`$OUT` is the results directory; `pingpong`/`collective` are `bench/*.c` built with "
             "`mpicc -O2 -g`.  Each launch runs every variant interleaved (rotated order per "
             "repetition); a cell is the median over %d launches of the per-launch median, "
             "[min–max over launches].  *plain* is the uninstrumented time per message; "
             "*floor added* and *rpprof added* are the extra time per message over plain in the "
             "same launch; *ratio* = rpprof added / floor added (per launch, then the median); "
             "target ≤ %.1f.  A launch counts as \"fast\" when plain < 250 ns." % (L, TARGET))
    o.append("")
    rb, ri, wire = pingpong_rows(out, pp)
    hdr = ("| config | transport | RP_PERIOD µs | k | payload B | path-set B/msg | plain ns | "
           "floor added ns | rpprof added ns | ratio | ≤ 1.5×? |")
    sep = "|---|---|---|---|---|---|---|---|---|---|---|"
    o.append("### Point-to-point, blocking ping-pong (one-way time per message)")
    o.append("")
    o += [hdr, sep] + rb
    o.append("")
    o.append("### Point-to-point, Irecv/Isend/Waitall exchange (time per exchange)")
    o.append("")
    o += [hdr, sep] + ri
    o.append("")
    o.append("### Collectives (time per operation, slowest rank)")
    o.append("")
    o.append("Floor: the collective + (Allreduce, Barrier) a dissemination of ceil(log2 n) "
             "`Sendrecv` rounds of S B on a dup + a `Bcast` of S B; (Bcast) a `Bcast` "
             "of S B, S = 12 + 9k + 8(k - 1), a full path-set without intervals (wire version 5).  *floor512*: the same with the broadcast at 512 B, the runtime's "
             "fixed first chunk.  4 ranks are oversubscribed on 2 cores.")
    o.append("")
    o.append("| op | ranks | RP_PERIOD µs | plain ns | floor added ns | floor512 added ns | "
             "rpprof added ns | ratio vs floor | ratio vs floor512 | ≤ 1.5× floor? |")
    o.append("|---|---|---|---|---|---|---|---|---|---|")
    o += coll_rows(out, co)
    o.append("")
    o.append("### Path-set bytes on the wire (point-to-point, from the rank files' counters)")
    o.append("")
    o.append("Encoding (wire version 5, doc/formats.md): 12 B header + per path 9 B (a mask, "
             "the cost's difference to the path before, the weight; +4 B past 2^32 ns, +2-4 B "
             "for each nonzero sample counter) + 8 B per summary interval (after 0-3 B of "
             "padding) + 8 B per sketch point (k - 1 once a set has been through a full join); "
             "without intervals 12 + 9k + 8(k - 1) = 89 B at k=5, 140 B at k=8 (version 4: "
             "204 and 324 B); at most 12 + 29k + 12(k - 1) + 3 + 8k·RP_SUMMARY = 1 488 B at "
             "k=5, 2 379 B at k=8 with RP_SUMMARY=32.")
    o.append("")
    o.append("| config | RP_PERIOD µs | k | floor's side message B | measured B/msg |")
    o.append("|---|---|---|---|---|")
    for name, period, k, side, bpm in wire:
        o.append("| %s | %s | %s | %s | %s |" % (name, period, k, side, bpm))
    o.append("")
    pc = os.path.join(out, "pathset_cost.out")
    if os.path.exists(pc):
        o.append("### CPU cost of the path-set work per message (`bench/pathset_cost.c`, no MPI)")
        o.append("")
        o.append("Minimum over 7 repetitions of 100 000 calls; *per message* = sender's "
                 "encode + receiver's join straight from the bytes (`pathset_join_wire`, "
                 "what the runtime does) + two task-end cost updates, in a "
                 "steady-state ping-pong of two sets of k paths with `iv` intervals each.  "
                 "*decode* and *join* are the older two-step receive (decode into a "
                 "scratch set, then join it), for comparison with *join from bytes*.  "
                 "*cold L1i*: the join from bytes after 40 KB of straight-line code "
                 "evicted its code from the instruction cache, as the MPI library's "
                 "code does between two joins in a job.  `RP_SELECT` `repr` is the "
                 "default, `paper` the unweighted rule, for comparison.  These are lower "
                 "bounds: *join* and *join from bytes* repeat one input, which the branch "
                 "predictor learns, and inside MPI the weighted join costs more again; "
                 "the ping-pong tables above measure it (\"Per message\").")
        o.append("")
        o.append("| RP_SELECT | k | intervals/path | wire B | encode ns | decode ns | join ns "
                 "| join from bytes ns | join from bytes, cold L1i ns | per message ns |")
        o.append("|---|---|---|---|---|---|---|---|---|---|")
        for line in open(pc):
            kv = dict(x.split("=", 1) for x in line.split()[1:])
            o.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                kv.get("sel", "repr"), kv["k"], kv["iv"], kv["wire_bytes"], kv["encode_ns"],
                kv["decode_ns"], kv["join_ns"], kv.get("joinwire_ns", "-"),
                kv.get("joincold_ns", "-"), kv["per_msg_ns"]))
        o.append("")
    busy = []
    for f in sorted(glob.glob(os.path.join(out, "*.busy"))):
        v = open(f).read().strip()
        if v and int(v) >= 15:
            busy.append("%s (%s %%)" % (os.path.basename(f)[:-5], v))
    o.append("Launches that started while other work kept the CPUs ≥ 15 %% busy "
             "(after waiting up to BENCH_QUIET_WAIT s): %s." % (", ".join(busy) or "none"))
    o.append("")
    s = separate(out)
    if s:
        o.append("### Separate launches (8 B shm ping-pong through MPI_Send/Recv, alternating)")
        o.append("")
        o.append("One-way ns, median of 5 repetitions per launch.  The launch-to-launch spread "
                 "is why the tables above pair variants inside each launch.")
        o.append("")
        o += s
        o.append("")
    return "\n".join(o) + "\n"


def splice(doc, section_file, begin=BEGIN, end=END):
    section = open(section_file).read()
    text = open(doc).read() if os.path.exists(doc) else ""
    if begin in text and end in text:
        a = text.index(begin) + len(begin)
        b = text.index(end)
        text = text[:a] + "\n" + section + text[b:]
    else:
        text = (("" if text else "# Performance\n\n") + text + ("\n" if text else "") +
                begin + "\n" + section + end + "\n")
    with open(doc, "w") as f:
        f.write(text)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--splice":
        splice(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "--splice-apps":
        splice(sys.argv[2], sys.argv[3], "<!-- BEGIN GENERATED APPS -->",
               "<!-- END GENERATED APPS -->")
    elif len(sys.argv) == 2:
        sys.stdout.write(generate(sys.argv[1]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
