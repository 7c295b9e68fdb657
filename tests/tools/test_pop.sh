#!/bin/sh
# test_pop.sh - the POP factors end to end: rp-report on mkrankfiles --pop
# files (4 ranks computing 1, 1, 1, 2 s, runtime 3 s, critical path 2.5 s)
# must print LB 0.625, CommE 0.667, SerE 0.800, TE 0.833, PE 0.417 as the
# text report's first table and in --format json ("pop"), in prof mode
# (critical path from the phase statistics), trace and path mode (from the
# path summaries); per phase in trace mode (from the tasks) and path mode
# (from the PCMP section): mkrankfiles' values by hand, the two modes'
# JSON identical, and a path-mode file without PCMP (an older writer)
# gives "per_phase": null and a "not available" line; a merged profile
# alone (no per-rank rows) says it cannot compute them and JSON has
# "pop": null; --what-if network / balance print the predicted runtimes
# (2.5 s, 2.25 s).  Exit 0 pass, 1 fail.
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
for f in "$bindir/rp-report" "$bindir/rp-merge" "$mkrank"; do
    [ -x "$f" ] || { echo "test_pop.sh: $f not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-pop-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for m in prof trace path; do
    t=0 p=0
    [ $m = trace ] && t=1
    [ $m = path ] && p=1
    "$mkrank" "$work/$m" 4 --pop 1 --trace $t --path $p >"$work/$m.want" || exit 1
    "$bindir/rp-report" "$work/$m" >"$work/$m.txt" 2>"$work/err" ||
        fail "$m: rp-report exit $?: $(cat "$work/err")"
    "$bindir/rp-report" -f json "$work/$m" >"$work/$m.json" 2>"$work/err" ||
        fail "$m: rp-report -f json exit $?: $(cat "$work/err")"
    python3 - "$work" "$m" <<'PY' || fails=$((fails + 1))
import json, re, sys
w, m = sys.argv[1], sys.argv[2]
bad = 0
def check(ok, what):
    global bad
    print(("ok: " if ok else "FAIL: ") + m + ": " + what)
    bad += not ok
want = json.load(open(f"{w}/{m}.want"))["pop"]
got = json.load(open(f"{w}/{m}.json"))["pop"]
# the numbers by hand (the issue's example), and mkrankfiles' own sums
hand = {"load_balance": 0.625, "communication_efficiency": 2 / 3,
        "serialisation_efficiency": 0.8, "transfer_efficiency": 2.5 / 3,
        "parallel_efficiency": 0.625 * 2 / 3}
for k, v in hand.items():
    check(got is not None and abs(got[k] - v) < 1e-6, f"json {k} = {got and got[k]} (want {v})")
    check(abs(want[k] - v) < 1e-6, f"mkrankfiles' expectation {k} = {want[k]}")
check(got["busiest_rank"] == 3, f"busiest rank {got['busiest_rank']}")
check(got["computation"] == "exact", "computation exact")
check(abs(got["runtime_seconds"] - 3) < 1e-9 and abs(got["critical_path_seconds"] - 2.5) < 1e-9
      and abs(got["mean_computation_seconds"] - 1.25) < 1e-9
      and abs(got["max_computation_seconds"] - 2) < 1e-9, "inputs")
l = got["loss_seconds"]
check(abs(l["load_balance"] - 0.75) < 1e-9 and abs(l["communication_efficiency"] - 1) < 1e-9
      and abs(l["serialisation_efficiency"] - 0.5) < 1e-9
      and abs(l["transfer_efficiency"] - 0.5) < 1e-9, f"losses {l}")
wi = got["what_if"]
check(abs(wi["perfect_network_runtime_seconds"] - 2.5) < 1e-9
      and abs(wi["perfect_balance_runtime_seconds"] - 2.25) < 1e-9, f"what if {wi}")
txt = open(f"{w}/{m}.txt").read()
check("a perfect network (TE = 1): runtime 2.500 s (-16.7%)" in txt
      and "runtime 2.250 s (-25.0%)" in txt, "text what-if line")
i, j = txt.find("POP efficiency factors"), txt.find("Path-length distribution")
check(0 <= i < j, "the factor table comes first")
rows = {"Parallel efficiency": "0.417", "Load balance": "0.625",
        "Communication efficiency": "0.667", "Serialisation efficiency": "0.800",
        "Transfer efficiency": "0.833"}
for name, v in rows.items():
    check(re.search(r"^\s+" + name + r"\s+" + re.escape(v) + r"\b", txt, re.M) is not None,
          f"text row {name} {v}")
check("computation = exact task time of 4 ranks" in txt, "text says what comp is")
# the code behind each loss (prof mode: the runtime samples there), from
# mkrankfiles' trees: rp_test_compute takes 1000 (r + 1) us on rank r, so
# rank 3 is 1500 us above the mean rank; the critical path holds libgone's
# 40 us of ranks 0 and 3 where rank 3 computes 40 us of it: 40 us more;
# MPI_Wait takes 500 + r us on each rank, all four on the critical path
lc = got["loss_code"]
if m == "prof":
    check(lc is not None, "loss_code present")
    lb, ser, te = lc["load_balance"], lc["serialisation_efficiency"], lc["transfer_efficiency"]
    check(lc["busiest_rank"] == 3, "loss lists compare with rank 3")
    check(lb and lb[0]["name"].startswith("rp_test_compute (mkrankfiles.c:")
          and abs(lb[0]["seconds"] - 0.0015) < 1e-9 and abs(lb[0]["a_seconds"] - 0.004) < 1e-9
          and abs(lb[0]["b_seconds"] - 0.0025) < 1e-9, f"load balance list {lb[:1]}")
    check(ser and ser[0]["name"] == "libgone.so [no symbols]"
          and abs(ser[0]["seconds"] - 40e-6) < 1e-9, f"serialisation list {ser[:1]}")
    check(all(r["seconds"] > 0 for r in lb + ser), "only positive differences listed")
    check(lc["critical_path_ranks"] == 4 and te and te[0]["name"].startswith("MPI_Wait at rp_test_caller")
          and abs(te[0]["seconds"] - 0.002006) < 1e-9, f"transfer list {te[:1]}")
    check("Load balance: lines the busiest rank (3)" in txt and "Transfer: MPI time by call site"
          in txt, "text lists under the table")
else:
    check(lc is None, m + " mode: no sampled lists")
# per phase: trace mode from the tasks, path mode from PCMP, prof mode none
pp = got["per_phase"]
if m == "prof":
    check(pp is None, "prof mode: per_phase null")
else:
    wp = want["per_phase"]
    pp = sorted(pp or [], key=lambda x: x["phase"])
    check(len(pp) == 3 and all(abs(a[key] - b[key]) < 1e-6 for a, b in zip(pp, wp)
                               for key in b), f"per_phase {pp} (want {wp})")
    check(abs(wp[0]["load_balance"] - 0.525 / 0.9) < 1e-9 and abs(wp[2]["load_balance"] - 0.7) < 1e-9
          and abs(wp[1]["serialisation_efficiency"] - 0.8) < 1e-9, "mkrankfiles' per-phase expectation by hand")
    check(("Per phase (" + m + " mode") in txt, "text per-phase table")
sys.exit(1 if bad else 0)
PY
done

# path mode's per-phase factors (from PCMP) are trace mode's (from the tasks)
python3 - "$work" <<'PY' || fails=$((fails + 1))
import json, sys
w = sys.argv[1]
t, p = (json.load(open(f"{w}/{m}.json"))["pop"]["per_phase"] for m in ("trace", "path"))
ok = t is not None and t == p
print(("ok" if ok else "FAIL") + ": path mode's per_phase equals trace mode's")
sys.exit(0 if ok else 1)
PY

# a path-mode run whose files lack PCMP (an older writer): whole-run factors
# only, and the text says why there are none per phase
cp -r "$work/path" "$work/old"
python3 - "$work/old" <<'PY' || fails=$((fails + 1))
import glob, struct, sys, zlib
for f in glob.glob(sys.argv[1] + "/rank-*.rpp"):   # drop PCMP, fix END's CRC
    b = open(f, "rb").read()
    out, at = bytearray(b[:16]), 16
    while at < len(b):
        tag, _, n = struct.unpack_from("<4sIQ", b, at)
        if tag == b"END ":
            out += b[at:at + 16]
            break
        if tag != b"PCMP":
            out += b[at:at + 16 + n]
        at += 16 + n
    open(f, "wb").write(out + struct.pack("<I", zlib.crc32(out)))
PY
"$bindir/rp-report" "$work/old" >"$work/old.txt" 2>"$work/err" || fail "old path files: exit $?: $(cat "$work/err")"
grep -q "Per phase: not available for this run" "$work/old.txt" || fail "old path files: no 'not available' line"
grep -q "Load balance *0.625" "$work/old.txt" || fail "old path files: no whole-run factors"
"$bindir/rp-report" -f json "$work/old" 2>/dev/null |
    python3 -c 'import json,sys; p=json.load(sys.stdin)["pop"]; sys.exit(0 if p and p["per_phase"] is None else 1)' ||
    fail "old path files: per_phase is not null"

# --what-if network / balance: the predictions, alone and after a code target
"$bindir/rp-report" --what-if network --what-if balance "$work/prof" >"$work/wi.txt" 2>"$work/err" ||
    fail "--what-if network/balance exit $?: $(cat "$work/err")"
grep -q "a perfect network: 2.500 s (-16.7%)" "$work/wi.txt" || fail "--what-if network: $(cat "$work/wi.txt")"
grep -q "perfect load balance: 2.250 s (-25.0%)" "$work/wi.txt" || fail "--what-if balance: $(cat "$work/wi.txt")"
"$bindir/rp-report" --what-if rp_test_compute=50 --what-if network "$work/prof" >"$work/wi2.txt" 2>/dev/null ||
    fail "--what-if FUNCTION with network exit $?"
grep -q "What if rp_test_compute took 50% less" "$work/wi2.txt" && grep -q "a perfect network: 2.500 s" "$work/wi2.txt" &&
    ! grep -q "perfect load balance" "$work/wi2.txt" || fail "--what-if code + network: $(cat "$work/wi2.txt")"
"$bindir/rp-report" --what-if network -f json "$work/prof" >/dev/null 2>&1 && fail "--what-if network with --format json accepted"

# a merged profile alone has no per-rank task time
"$bindir/rp-merge" "$work/prof" >/dev/null 2>&1 || fail "rp-merge exit $?"
"$bindir/rp-report" "$work/prof/profile.rpm" >"$work/m.txt" 2>/dev/null || fail "merged: exit $?"
grep -q "POP efficiency factors: not computed" "$work/m.txt" || fail "merged: no 'not computed' note"
"$bindir/rp-report" -f json "$work/prof/profile.rpm" 2>/dev/null |
    python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["pop"] is None else 1)' ||
    fail "merged: json pop is not null"
"$bindir/rp-report" --what-if network "$work/prof/profile.rpm" >"$work/wm.txt" 2>/dev/null &&
    fail "--what-if network on a merged profile alone exits 0"
grep -q "need the rank files" "$work/wm.txt" || fail "--what-if network on profile.rpm: $(cat "$work/wm.txt")"
[ $fails -eq 0 ] && echo "test_pop.sh: all passed"
[ $fails -eq 0 ]
