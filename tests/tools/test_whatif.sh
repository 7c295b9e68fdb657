#!/bin/sh
# test_whatif.sh - rp-report --what-if end to end on synthetic rank files
# whose per-path function times and per-phase path costs are known
# (mkrankfiles prints them): prof mode gives the documented range, trace mode
# (per-phase path summaries) the per-phase estimate; a function and its
# file:line give the same answer; an unknown name, bad syntax and a clash
# with --format are refused.  The arithmetic on a hand-built profile where a
# path becomes critical is in tests/test_whatif.  Exit 0 pass, 1 fail.
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
for f in "$bindir/rp-report" "$mkrank"; do
    [ -x "$f" ] || { echo "test_whatif.sh: $f not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-whatif-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$mkrank" "$work/p" 4 >"$work/p.want" || exit 1
"$mkrank" "$work/t" 4 --trace 1 >"$work/t.want" || exit 1
line=$(grep -n '@line:rp_test_compute' "$top_src/tests/tools/mkrankfiles.c" | head -1 | cut -d: -f1)
[ -n "$line" ] || { echo "test_whatif.sh: no @line:rp_test_compute marker"; exit 1; }

for pc in 50 100; do
    "$bindir/rp-report" --what-if "rp_test_compute=$pc" "$work/p" >"$work/p$pc.out" 2>"$work/err" ||
        fail "prof: rp-report --what-if exit $?: $(cat "$work/err")"
    "$bindir/rp-report" --what-if "rp_test_compute=$pc%" "$work/t" >"$work/t$pc.out" 2>"$work/err" ||
        fail "trace: rp-report --what-if exit $?: $(cat "$work/err")"
    "$bindir/rp-report" --what-if "mkrankfiles.c:$line=$pc" "$work/t" >"$work/l$pc.out" 2>"$work/err" ||
        fail "trace: --what-if mkrankfiles.c:$line exit $?: $(cat "$work/err")"
    python3 - "$work" "$pc" <<'PY' || fails=$((fails + 1))
import json, re, sys
w, pc = sys.argv[1], float(sys.argv[2])
s = pc / 100
bad = 0
def check(ok, what):
    global bad
    print(("ok: " if ok else "FAIL: ") + what)
    bad += not ok
for mode in ("p", "t"):
    want = json.load(open(f"{w}/{mode}.want"))
    k = want["k"]
    fn = want["functions"]["rp_test_compute"]
    cost = want["path_cost_ns"]
    # share of path j: its time in the function over max(cost, column total)
    f = [fn[2 + j] / max(cost[j], want["col_ns"][2 + j]) for j in range(k)]
    out = open(f"{w}/{mode}{pc:g}.out").read()
    check("matched: rp_test_compute" in out, f"{mode} {pc:g}%: the function matched")
    check(out.count("Limits of this estimate") == 1 and "cannot become critical" in out and
          "<unknown>" in out, f"{mode} {pc:g}%: the limits are stated")
    check(re.search(r"critical path now: 0\.060000 s \(sum over 3 phases", out) is not None,
          f"{mode} {pc:g}%: today's critical path")
    if mode == "p":
        lo = max(cost[j] * (1 - s * f[j]) for j in range(k)) / 1e9
        hi = cost[0] * (1 - s * min(f)) / 1e9
        m = re.search(r"estimate: +([0-9.]+) s \(.*phases are alike.*\nat most: +([0-9.]+) s", out)
        check(m is not None and abs(float(m.group(1)) - lo) < 2e-6 and
              abs(float(m.group(2)) - hi) < 2e-6,
              f"prof {pc:g}%: range {m and m.groups()} = [{lo:.6f}, {hi:.6f}]")
    else:
        est = sum(max(c[j] * (1 - s * f[j]) for j in range(k)) for c in want["phase_cost_ns"]) / 1e9
        m = re.search(r"estimate: +([0-9.]+) s \(", out)
        check(m is not None and abs(float(m.group(1)) - est) < 2e-6,
              f"trace {pc:g}%: per-phase estimate {m and m.group(1)} = {est:.6f}")
        lo = open(f"{w}/l{pc:g}.out").read()
        m2 = re.search(r"estimate: +([0-9.]+) s \(", lo)
        check(m2 is not None and m is not None and m2.group(1) == m.group(1) and
              re.search(r"matched: rp_test_compute \(mkrankfiles\.c:\d+\)", lo) is not None,
              f"trace {pc:g}%: file:line gives the same estimate")
sys.exit(1 if bad else 0)
PY
done

"$bindir/rp-report" --what-if no_such_function=50 "$work/t" >/dev/null 2>"$work/err"
rc=$?
[ $rc -eq 1 ] && grep -q "no time located in 'no_such_function'.*rp_test_compute" "$work/err" &&
    echo "ok: an unknown name exits 1 and lists the critical path's functions" ||
    fail "unknown name: exit $rc: $(cat "$work/err")"
for bad in "rp_test_compute" "rp_test_compute=0" "rp_test_compute=150" "=5"; do
    "$bindir/rp-report" --what-if "$bad" "$work/t" >/dev/null 2>"$work/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "what-if" "$work/err" && echo "ok: --what-if '$bad' refused" ||
        fail "--what-if '$bad': exit $rc"
done
"$bindir/rp-report" --format json --what-if rp_test_compute=5 "$work/t" >/dev/null 2>&1
[ $? -eq 2 ] && echo "ok: --what-if with --format json refused" || fail "--what-if with --format json"
[ $fails -eq 0 ]
