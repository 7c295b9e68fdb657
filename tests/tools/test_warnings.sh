#!/bin/sh
# test_warnings.sh - every loss counter of lib/core/counters.def is warned
# about, with its meaning and remedy, by every report view: text, JSON
# ("warnings"), folded (stderr: folded lines carry stacks only), dot (DOT
# comments), critpath (stderr) and --diff (each run's, text and JSON).  The rank files carry every row of the
# table (mkrankfiles --all-counters, mkpathfiles losses-path) and the
# expected names come from the table itself, so a counter added to the table
# is covered without editing this test; info counters must stay silent.
# Exit 0 pass, 1 fail (a missing prerequisite is a failure, not a skip).
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
mkpath=${MKPATHFILES:-$top_build/tests/mkpathfiles}
for f in "$bindir/rp-report" "$mkrank" "$mkpath"; do
    [ -x "$f" ] || { echo "test_warnings.sh: $f not built" >&2; exit 1; }
done
command -v python3 >/dev/null 2>&1 || { echo "test_warnings.sh: python3 needed" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-warn-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

"$mkrank" "$work/m" 3 --all-counters 1 >"$work/expect.json" || exit 1
"$bindir/rp-report" "$work/m" >"$work/text" 2>/dev/null || exit 1
"$bindir/rp-report" --format json "$work/m" >"$work/json" 2>/dev/null || exit 1
"$bindir/rp-report" --format folded "$work/m" >"$work/folded" 2>"$work/folded.err" || exit 1
"$bindir/rp-report" --diff "$work/m" "$work/m" >"$work/difftext" 2>/dev/null || exit 1
"$bindir/rp-report" --diff --format json "$work/m" "$work/m" >"$work/diffjson" 2>/dev/null || exit 1
mkdir "$work/p" && "$mkpath" losses-path "$work/p" || exit 1
"$bindir/rp-report" --format dot "$work/p" >"$work/dot" 2>"$work/dot.err" || exit 1
"$bindir/rp-report" --format critpath "$work/p" >"$work/crit" 2>"$work/crit.err" || exit 1

python3 - "$work" "$top_src/lib/core/counters.def" <<'PY'
import json, re, sys
w, deffile = sys.argv[1], sys.argv[2]
def rd(n): return open(f"{w}/{n}").read()
exp = json.load(open(f"{w}/expect.json"))
loss, info = exp["loss_counters"], exp["info_counters"]
# the table as written in counters.def (meaning and remedy strings)
rows = {}
for m in re.finditer(r'RP_COUNTER\(\s*\w+,\s*"([^"]+)",\s*(RP_CK_\w+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)',
                     open(deffile).read()):
    joined = lambda s: "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', s))
    rows[m.group(1)] = (m.group(2), joined(m.group(3)), joined(m.group(4)))
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print("FAIL:", what); bad += 1
check(len(loss) > 0 and len(rows) == len(loss) + len(info), "table parsed: %d rows, %d+%d in the files" % (len(rows), len(loss), len(info)))
for n in loss: check(rows[n][0] == "RP_CK_LOSS", n + " is a loss row")
text, folded_err, dot, crit_err = rd("text"), rd("folded.err"), rd("dot"), rd("crit.err")
j = json.loads(rd("json"))
jw = {x["counter"]: x for x in j["warnings"] if x["counter"]}
for n, v in loss.items():
    kind, meaning, remedy = rows[n]
    line = "warning: %s = %d (summed over ranks): %s" % (n, v, meaning)
    check(line in text, "text warns " + n)
    if remedy:
        check((line + "; " + remedy) in text, "text gives the remedy of " + n)
    check(n in jw and jw[n]["value"] == v and jw[n]["message"] == meaning
          and jw[n]["remedy"] == remedy, "json warns " + n)
    check(line in folded_err, "folded (stderr) warns " + n)
    # the path-file scenario sets row i = i+1 on one rank only
    check(re.search(r"// warning: %s = \d+ \(summed over ranks\): " % re.escape(n), dot) is not None,
          "dot warns " + n)
    check("warning: %s = " % n in crit_err, "critpath (stderr) warns " + n)
# --diff: each run's warnings, in text ("before: warning: ...") and JSON
difftext, dj = rd("difftext"), json.loads(rd("diffjson"))
for side in ("before", "after"):
    dw = {x["counter"]: x for x in dj["warnings"][side]}
    for n, v in loss.items():
        line = "%s: warning: %s = %d (summed over ranks): %s" % (side, n, v, rows[n][1])
        check(line in difftext, "--diff text warns %s (%s)" % (n, side))
        check(n in dw and dw[n]["value"] == v and dw[n]["message"] == rows[n][1],
              "--diff json warns %s (%s)" % (n, side))
    check(not any(n in dw for n in info), "--diff: info counters stay silent (%s)" % side)
for n in info:
    check("warning: %s =" % n not in text and n not in jw and "warning: %s =" % n not in dot,
          "info counter %s stays silent" % n)
check(not any(l.startswith("rp-report") or "warning" in l for l in rd("folded").splitlines()),
      "folded output holds stacks only")
# the info counters feed the per-rank table: task_time_ns is each rank's
# whole wall time (mkrankfiles), so the table is exact with no MPI time,
# and main_thread_cpu_us (row i: i+1 us) is a few us against 2 s of task
# time: every rank was descheduled, and the text says so
pr = j["per_rank"]
check(len(pr) == 3 and all(r["times"] == "exact" and abs(r["task_seconds"] - r["wall_seconds"]) < 1e-6
                           and abs(r["mpi_seconds"]) < 1e-6 and r.get("descheduled") is True
                           and r["cpu_seconds"] < 1e-3 for r in pr),
      "per_rank: exact times from task_time_ns, CPU time read, ranks flagged as descheduled: %s" % pr)
check("Per rank (exact, MPI_Init to MPI_Finalize" in text, "text: the per-rank table says exact")
check("3 ranks had less CPU time than 80% of their task time" in text, "text flags the ranks")
sys.exit(1 if bad else 0)
PY
