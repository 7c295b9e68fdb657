#!/bin/bash
# test_paths.sh - rp-report's full-path views on synthetic rank files
# (tests/mkpathfiles, no MPI): --format critpath must print the course
# assignment's Fig. 2 exactly, from path mode and (offline) from trace mode;
# --format dot must render with Graphviz and mark the critical path red;
# --check must pass on consistent data and fail (exit 1) on an online cost
# that disagrees with the graph, or on a graph with a rank missing.
# Exit 0 pass, 1 fail (a missing prerequisite is a failure, not a skip).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mk=${MKPATHFILES:-$top_build/tests/mkpathfiles}
report=$bindir/rp-report
for f in "$report" "$bindir/rp-merge" "$mk"; do
    if [ ! -x "$f" ]; then
        echo "FAIL: $f not built"
        exit 1
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/rp-paths-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

fig2=$work/fig2.txt
printf '%s\n' 'MPI_Init -1' 1 'MPI_Send 0' 4 'MPI_Recv 1' 1 'MPI_Send 1' 4 'MPI_Recv 2' 1 \
    'MPI_Send 2' 4 'MPI_Recv 3' 1 'MPI_Barrier -1' 2 'MPI_Send 0' 4 'MPI_Recv 1' 0 \
    'MPI_Finalize -1' >"$fig2"

have_dot=1
command -v dot >/dev/null 2>&1 || have_dot=0

for s in assign-path assign-trace assign-bad mixed-trace mixed-path overflow-path overflow-bad; do
    mkdir -p "$work/$s"
    if ! "$mk" "$s" "$work/$s"; then
        fail "mkpathfiles $s"
    fi
done

# ---- critPath.out -----------------------------------------------------------------
for s in assign-path assign-trace; do
    out=$work/$s.crit
    if ! "$report" --format critpath "$work/$s" >"$out" 2>"$out.err"; then
        fail "$s: rp-report --format critpath exit $?"; cat "$out.err"
    elif ! diff -u "$fig2" "$out"; then
        fail "$s: critPath.out differs from the assignment's Fig. 2 (- expected, + got)"
    elif [ -s "$out.err" ]; then
        fail "$s: unexpected messages:"; cat "$out.err"
    else
        ok "$s: critpath = Fig. 2 exactly"
    fi
done
# --output FILE
if "$report" --format critpath --output "$work/critPath.out" "$work/assign-path" &&
    cmp -s "$fig2" "$work/critPath.out"; then
    ok "--output critPath.out"
else
    fail "--output critPath.out"
fi
# mixed: the longest path 3.0 + 0.3 + 0.2 (rank 1), Reduce, 0.2 (rank 0)
expect_mixed=$(printf '%s\n' 'MPI_Init -1' 3 'MPI_Bcast -1' 0 'MPI_Scan -1' 0 'MPI_Reduce -1' 0 \
    'MPI_Finalize -1')
for s in mixed-trace mixed-path; do
    got=$("$report" --format critpath "$work/$s" 2>"$work/crit.err")
    if [ "$got" = "$expect_mixed" ]; then
        ok "$s: critpath through Bcast/Scan/Reduce"
    else
        fail "$s: critpath"; echo "$got"
    fi
done

# ---- --check ------------------------------------------------------------------
for s in assign-trace mixed-trace assign-path mixed-path; do
    if "$report" --check "$work/$s" >"$work/$s.check" 2>&1; then
        ok "$s: --check passes"
    else
        fail "$s: --check exit $? on consistent data"; cat "$work/$s.check"
    fi
done
grep -E '^ +0 +2400\.000 +2400\.000 +0\.000 +600\.002 +600\.002 +0\.000 +ok' \
    "$work/assign-trace.check" >/dev/null || { fail "assign-trace: check table"; cat "$work/assign-trace.check"; }
grep -E '^ +0 +3700\.000 +3700\.000 +0\.000 +500\.000 +500\.000 +0\.000 +ok' \
    "$work/mixed-trace.check" >/dev/null || { fail "mixed-trace: check table"; cat "$work/mixed-trace.check"; }
# the oracle-implied POP factors (doc/report.md): computation from the
# recorded tasks (rank 0: 0.6 s + 10 us + 1.6 s + 20 us, the busiest; mean
# 1.10003425 s), critical path 2.4 + 2.0 s offline, runtime 5 s
grep -q '^oracle-implied POP factors (.* offline longest paths, 4\.400000 s; runtime 5\.000000 s):' \
    "$work/assign-trace.check" &&
    grep -qE '^  PE 0\.220  LB 0\.500  CommE 0\.440  SerE 0\.500  TE 0\.880  \(max computation 2\.200030 s on rank 0, mean 1\.100034 s\)' \
        "$work/assign-trace.check" ||
    { fail "assign-trace: oracle-implied POP factors"; cat "$work/assign-trace.check"; }
"$report" --check "$work/assign-bad" >"$work/bad.check" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q 'check FAILED' "$work/bad.check" &&
    grep -qE '^ +1 .*FAIL' "$work/bad.check"; then
    ok "assign-bad: --check fails (exit 1) on phase 1"
else
    fail "assign-bad: --check exit $rc"; cat "$work/bad.check"
fi
# path mode, summary overflow (issue 13): the prefix is checked against the
# cost at the overflow (PCOV), the tail named: PARTIAL, exit 3, 200 ms
# unchecked; a prefix that disagrees fails (exit 1)
"$report" --check "$work/overflow-path" >"$work/ovf.check" 2>&1
rc=$?
if [ "$rc" = 3 ] && grep -qE '^ +0 +0 +3500\.000 +3500\.000 +0\.000 +3 +0 +200\.000  PARTIAL' \
    "$work/ovf.check" && grep -qE '^ +0 +1 .* ok$' "$work/ovf.check" &&
    grep -q "^check PARTIAL: .*1 path(s) checked in full; 1 path(s) overflowed.* 200\.000 ms of those paths' 3700\.000 ms" "$work/ovf.check" &&
    "$report" "$work/overflow-path" 2>/dev/null | grep -q 'tail not rebuilt: 0.200000 s'; then
    ok "overflow-path: --check PARTIAL (exit 3), prefix checked, 200 ms tail named"
else
    fail "overflow-path: --check exit $rc"; cat "$work/ovf.check"
fi
# the same verdicts as one JSON object (--format json), exit codes unchanged
for c in "assign-trace passed 0" "assign-bad failed 1" "overflow-path partial 3" \
         "assign-path passed 0"; do
    set -- $c
    "$report" --check --format json "$work/$1" >"$work/$1.json" 2>/dev/null
    rc=$?
    if [ "$rc" = "$3" ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["check"] == sys.argv[2], d["check"]
if d["mode"] == "trace":
    ph = d["phases"][0]
    assert ph["status"] == "ok" and abs(ph["longest_seconds"] - ph["online_longest_seconds"]) < 1e-6
    assert sys.argv[2] != "failed" or d["phases"][1]["status"].startswith("FAIL")
    # oracle-implied factors: the offline critical path (assign-bad: not
    # the online 4.405 s)
    p = d["pop"]
    assert abs(p["critical_path_seconds"] - 4.4) < 1e-9, p
    assert abs(p["max_computation_seconds"] - 2.20003) < 1e-9 and p["busiest_rank"] == 0, p
    assert abs(p["mean_computation_seconds"] - 1.10003425) < 1e-9, p
    assert abs(p["runtime_seconds"] - 5) < 1e-9 and p["ranks"] == 4, p
    assert abs(p["serialisation_efficiency"] - 2.20003 / 4.4) < 1e-5, p
    assert abs(p["transfer_efficiency"] - 0.88) < 1e-5, p
    assert abs(p["parallel_efficiency"] - p["load_balance"] * p["communication_efficiency"]) < 1e-5, p
else:
    assert all(p["status"] == "ok" or p["status"].startswith("PARTIAL") for p in d["paths"])
    assert sys.argv[2] != "partial" or abs(d["unchecked_seconds"] - 0.2) < 1e-6
' "$work/$1.json" "$2"; then
        ok "$1: --check --format json says $2 (exit $3)"
    else
        fail "$1: --check --format json: exit $rc"; head -c 600 "$work/$1.json"
    fi
done
"$report" --check "$work/overflow-bad" >"$work/ovfbad.check" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q 'FAIL (prefix before the summary overflow)' "$work/ovfbad.check"; then
    ok "overflow-bad: --check fails (exit 1) on a prefix that disagrees"
else
    fail "overflow-bad: --check exit $rc"; cat "$work/ovfbad.check"
fi
# a rank missing: the graph cannot be completed
cp -r "$work/mixed-trace" "$work/mixed-missing"
rm "$work/mixed-missing/rank-00002.rpp"
"$report" --check "$work/mixed-missing" >"$work/missing.check" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q 'incomplete' "$work/missing.check"; then
    ok "rank missing: --check fails, naming what is incomplete"
else
    fail "rank missing: --check exit $rc"; cat "$work/missing.check"
fi

# ---- DOT -------------------------------------------------------------------------
for s in assign-trace assign-path mixed-trace mixed-path; do
    out=$work/$s.gv
    if ! "$report" --format dot "$work/$s" >"$out" 2>"$out.err"; then
        fail "$s: --format dot exit $?"; cat "$out.err"; continue
    fi
    nred=$(grep -c 'color=red' "$out")
    case $s in
    assign-*) want=10 ;;   # 4 tasks + 3 messages in phase 0, 2 + 1 in phase 1
    mixed-*) want=4 ;;     # 4 tasks, through three collectives
    esac
    case $s in
    assign-*) label=0.600 ;;
    mixed-*) label=3.000 ;;
    esac
    if [ "$nred" != "$want" ]; then
        fail "$s: $nred red edges, expected $want"; cat "$out"
    elif ! grep -q "label=\"$label\"" "$out" || ! grep -q 'cluster_rank' "$out"; then
        fail "$s: DOT lacks task labels or rank lanes"; cat "$out"
    elif [ $have_dot = 1 ] && ! dot -Tsvg "$out" -o "$out.svg" 2>"$out.doterr"; then
        fail "$s: dot -Tsvg rejects the output"; cat "$out.doterr"
    else
        ok "$s: DOT ($nred red edges${have_dot:+, renders with dot -Tsvg})"
    fi
done
if grep -q 'label="(4)"' "$work/assign-trace.gv" && grep -q 'MPI_Barrier -1' "$work/assign-trace.gv"; then
    ok "assign-trace: message bytes and the shared collective vertex"
else
    fail "assign-trace: DOT lacks message bytes or the collective vertex"
fi
[ $have_dot = 1 ] || fail "graphviz 'dot' not installed: rendering not checked"

# ---- JSON and text for path/trace runs ----------------------------------------------------
for s in assign-path assign-trace; do
    j=$("$report" --format json "$work/$s" 2>"$work/$s.jerr")
    if ! printf '%s' "$j" | python3 -c '
import json, sys
d = json.load(sys.stdin)
mode = sys.argv[1]
assert d["mode"] == mode, d["mode"]
assert d["phases"] == 2, d["phases"]
p = d["paths"]
assert abs(p[0]["cost_seconds"] - 4.4) < 1e-9, p[0]
if mode == "trace":
    assert abs(p[-1]["cost_seconds"] - 0.600032) < 1e-9, p[-1]
assert all(x["top"] == [] for x in p)
' "${s#assign-}"; then
        fail "$s: JSON"; echo "$j"; cat "$work/$s.jerr"
    else
        ok "$s: JSON mode, phases, path costs from the path summaries"
    fi
done
if "$report" "$work/assign-path" >"$work/text" 2>&1 &&
    grep -q 'phase 1, path 0 of 1: 2.000000 s, 2 tasks' "$work/text" &&
    grep -qE '1:5 +0.400000 s +MPI_Recv .. MPI_Finalize +<- msg 4 B from 0' "$work/text"; then
    ok "text report lists the paths' tasks"
else
    fail "text report"; cat "$work/text"
fi
# rp-merge still works on path/trace directories
for s in assign-path mixed-trace; do
    if "$bindir/rp-merge" "$work/$s" >/dev/null 2>"$work/merge.err"; then
        ok "$s: rp-merge"
    else
        fail "$s: rp-merge"; cat "$work/merge.err"
    fi
done
# a prof-mode directory has no full paths: a clear error, exit 1
if "$report" --format critpath "$work/nonexistent" >/dev/null 2>&1; then
    fail "critpath of a missing directory succeeded"
fi

# critpath --digits: the same vertices, task seconds with 6 decimals that
# round to the format's integers and add up to the online critical path
# (the assignment: 2.4 s + 2.0 s over its two phases)
for s in assign-path assign-trace; do
    if "$report" --format critpath --digits 6 "$work/$s" >"$work/d6" 2>/dev/null &&
       python3 - "$fig2" "$work/d6" <<'PY'
import sys, re
a = open(sys.argv[1]).read().split("\n"); b = open(sys.argv[2]).read().split("\n")
assert len(a) == len(b), (len(a), len(b))
total = 0.0
for i, (x, y) in enumerate(zip(a, b)):
    if i % 2 == 0 or "." not in y:
        assert x == y, (x, y)                     # vertices and message bytes unchanged
    else:                                         # task edges
        assert re.fullmatch(r"\d+\.\d{6}", y), y
        assert int(float(y) + 0.5) == int(x), (x, y)
        total += float(y)
assert abs(total - 4.4) < 1e-6, total
PY
    then ok "$s: critpath --digits 6 (sum 4.4 s)"; else fail "$s: critpath --digits 6"; fi
done
if "$report" --format critpath --digits 10 "$work/assign-path" >/dev/null 2>&1; then
    fail "critpath --digits 10 accepted"
fi
# dot --phase: one phase only (assign-trace has two: 2.4 s then 2.0 s)
if "$report" --format dot --phase 1 "$work/assign-trace" >"$work/p1.dot" 2>/dev/null &&
   grep -q 'of phase 1 of 2' "$work/p1.dot" &&
   [ "$(sed -n 's/.*-> .*label="\([0-9.]*\)".*/\1/p' "$work/p1.dot" | awk '{s+=$1} END {printf "%.3f", s}')" = 2.000 ] &&
   ! grep -q '^  init ' "$work/p1.dot"; then
    ok "dot --phase 1 (trace): that phase's critical path, 2.000 s"
else
    fail "dot --phase 1 (trace)"; cat "$work/p1.dot"
fi
if [ $have_dot = 1 ] && ! dot -Tsvg "$work/p1.dot" >/dev/null 2>&1; then
    fail "dot --phase 1 does not render"
fi
for s in assign-path assign-trace; do
    if "$report" --format dot --phase 2 "$work/$s" >/dev/null 2>"$work/p2.err" ||
       ! grep -q "phase 2 out of range" "$work/p2.err"; then
        fail "$s: dot --phase 2 (out of range) not refused"
    fi
done
# per-phase view: phases by spread, from the path summaries (the --check
# table above: phase 0 2.4 s / 0.600002 s, phase 1 2.0 s / 0.00003 s)
if "$report" --format json "$work/assign-trace" 2>/dev/null | python3 -c '
import json, sys
v = json.load(sys.stdin)["phases_by_spread"]
assert [x["phase"] for x in v] == [1, 0], v
assert abs(v[0]["spread_seconds"] - 1.99997) < 1e-9 and abs(v[1]["spread_seconds"] - 1.799998) < 1e-9, v
assert v[0]["start_seconds"] == 2.4 and v[1]["start_seconds"] == 0, v
' && "$report" "$work/assign-trace" 2>/dev/null | grep -q "Phases with the largest spread"; then
    ok "phases by spread (json and text)"
else
    fail "phases by spread"
fi
if "$report" --format text --phase 0 "$work/assign-path" >/dev/null 2>&1; then
    fail "--phase accepted for text"
fi

if [ $fails -gt 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
exit 0
