#!/bin/bash
# rp-report --diff on real runs of examples/imbalance (2 ranks, ~0.6 s each;
# "sleep": its sweeps wait instead of computing, so the runs keep their
# timing when other tests share the cores, as in make -j check):
#
# 1. heavy() halved (heavy-factor 6, then 3): the critical path's cost falls,
#    and the function list of the critical path attributes at least 80 % of
#    that change to heavy(), beyond the noise marker;
# 2. the same program twice (heavy-factor 3 both times): contexts and
#    functions marked as changed beyond noise stay within what the 2-sigma
#    test lets through by chance (5 % each): at most the 99th percentile of
#    Binomial(n, 0.05) of the n listed (e.g. 1 of 3, 2 of 8, 4 of 18).
#
# The sampled time on a path is its cost within sampling error (SPEC §4),
# so a function's sampled change stands for its share of the exact change.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

P=$RP_TOP_BUILDDIR/examples/imbalance
rp_require "$P" "$RP_LIB" "$RP_BINDIR/rp-report"

# run imbalance with heavy-factor $1 into directory $2 (under RP_TMP)
run_one() {
    rp_prof 2 any RP_PERIOD=1000 -- "$P" 20 4000000 "$1" sleep
    rp_expect_rc0 "imbalance factor $1" || return 1
    rm -rf "$2" && mv "$RP_DIR" "$2"
}

diff_json() {   # before after out
    "$RP_BINDIR/rp-report" --diff --format json --top 1000 "$1" "$2" >"$3" 2>"$3.err" ||
        { rp_fail "rp-report --diff $1 $2: exit $?: $(cat "$3.err")"; return 1; }
}

halved_case() {
    local a=$RP_TMP/heavy6 b=$RP_TMP/heavy3 out
    run_one 6 "$a" && run_one 3 "$b" || return
    diff_json "$a" "$b" "$RP_TMP/halved.json" || return
    if out=$("$PYTHON" - "$RP_TMP/halved.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cp = d["critical_path"]
total = cp["cost_change_seconds"]
h = [f for f in cp["functions"] if f["function"] == "heavy"]
if not h:
    sys.exit("heavy() not among the critical path's functions")
h = h[0]
share = h["change_seconds"] / total if total else 0
print(f"critical path {total:+.3f} s (exact); heavy() {h['change_seconds']:+.3f} s sampled "
      f"({h['samples_before']:.0f} -> {h['samples_after']:.0f} samples), {100 * share:.0f} % "
      f"of the change")
if total >= 0:
    sys.exit("the critical path did not get shorter")
if share < 0.8:
    sys.exit(f"heavy() explains {100 * share:.0f} % of the change (want >= 80 %)")
if h["within_noise"]:
    sys.exit("heavy()'s change is marked as noise")
PY
    ); then
        rp_pass "diff, heavy() halved: $out"
    else
        rp_fail "diff, heavy() halved: $out"
    fi
}

same_case() {
    local a=$RP_TMP/same1 b=$RP_TMP/same2 out
    run_one 3 "$a" && run_one 3 "$b" || return
    diff_json "$a" "$b" "$RP_TMP/same.json" || return
    if out=$("$PYTHON" - "$RP_TMP/same.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))

def allowed(n, p=0.05):
    # the 99th percentile of Binomial(n, p): what 2-sigma flags by chance
    c = 0.0
    for m in range(n + 1):
        c += math.comb(n, m) * p ** m * (1 - p) ** (n - m)
        if c >= 0.99:
            return m
    return n

msgs, bad = [], []
for key in ("critical_path", "whole_program"):
    s = d[key]
    for what, rows in (("contexts", s["contexts"]), ("functions", s["functions"])):
        n, k = len(rows), sum(not r["within_noise"] for r in rows)
        msgs.append(f"{key} {what}: {k} of {n} beyond noise (allowed {allowed(n)})")
        if k > allowed(n):
            bad += [f"{r.get('context', r.get('function'))[-70:]} {r['change_seconds']:+.4f} s "
                    f"({r['samples_before']:.0f} -> {r['samples_after']:.0f})"
                    for r in rows if not r["within_noise"]]
print("; ".join(msgs))
if d["notes"]:
    bad.append(f"notes on identical runs: {d['notes']}")
if bad:
    sys.exit("\n".join(bad))
PY
    ); then
        rp_pass "diff, the same program twice: $out"
    else
        rp_fail "diff, the same program twice: $out"
    fi
}

rp_timed halved_case
rp_timed same_case
rp_finish
