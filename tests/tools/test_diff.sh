#!/bin/sh
# test_diff.sh - rp-report --diff on mkrankfiles' synthetic runs (no MPI):
# two identical runs differ nowhere (every level's change 0, no context or
# call site beyond noise, no note); runs that differ in ranks, k, mode or
# executable say so in a note (text and JSON) and compare only what is
# comparable (per-rank rows omitted with the reason, levels matched by
# percentile, no contexts without samples); a merged profile has no
# per-rank rows or POP factors; the JSON field names are the documented
# ones (doc/report.md, "--diff"); bad command lines and unreadable runs
# are refused with a message.  Exit 0 pass, 1 fail.
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
for f in "$bindir/rp-report" "$bindir/rp-merge" "$mkrank"; do
    [ -x "$f" ] || { echo "test_diff.sh: $f not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-diff-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# the runs: s1 and s1b alike; s2 fewer ranks; s3 another k; s4 trace mode;
# s5 the same code from another executable (a copy of mkrankfiles)
"$mkrank" "$work/s1" 4 >/dev/null && "$mkrank" "$work/s1b" 4 >/dev/null &&
    "$mkrank" "$work/s2" 2 >/dev/null && "$mkrank" "$work/s3" 4 --k 3 >/dev/null &&
    "$mkrank" "$work/s4" 4 --trace 1 >/dev/null || exit 1
cp "$mkrank" "$work/mkother" && "$work/mkother" "$work/s5" 4 >/dev/null || exit 1
mkdir "$work/m" && cp "$work"/s1/rank-*.rpp "$work/m/" &&
    "$bindir/rp-merge" -o "$work/m.rpm" "$work/m" >/dev/null 2>&1 || exit 1

for b in s1b s2 s3 s4 s5 m.rpm; do
    "$bindir/rp-report" --diff "$work/s1" "$work/$b" >"$work/$b.txt" 2>"$work/err" ||
        fail "--diff s1 $b: exit $?: $(cat "$work/err")"
    "$bindir/rp-report" --diff --format json --top 100 "$work/s1" "$work/$b" >"$work/$b.json" \
        2>"$work/err" || fail "--diff -f json s1 $b: exit $?: $(cat "$work/err")"
done

python3 - "$work" <<'PY' || fails=$((fails + 1))
import json, sys
w = sys.argv[1]
bad = 0
def check(cond, what):
    global bad
    print(("ok: " if cond else "FAIL: ") + what)
    bad += not cond
def load(b):
    return json.load(open(f"{w}/{b}.json")), open(f"{w}/{b}.txt").read()

# the documented field names (doc/report.md, "--diff")
d, t = load("s1b")
check(set(d) == {"before", "after", "notes", "warnings", "levels", "spread", "pop", "critical_path",
                 "whole_program", "per_rank", "per_rank_omitted", "mpi_call_sites"},
      f"top-level keys {sorted(d)}")
check(set(d["before"]) == {"source", "program", "ranks", "k", "mode", "select", "wall_seconds"},
      f"run keys {sorted(d['before'])}")
check(set(d["levels"][0]) == {"percentile", "exact", "cost_before_seconds", "cost_after_seconds",
                              "cost_change_seconds", "change_percent"},
      f"level keys {sorted(d['levels'][0])}")
check(set(d["spread"]) == {"spread_before_seconds", "spread_after_seconds",
                           "spread_change_seconds", "change_percent"}, "spread keys")
cp = d["critical_path"]
check(set(cp) == {"cost_change_seconds", "contexts_total", "contexts_beyond_noise", "contexts",
                  "functions"}, f"critical_path keys {sorted(cp)}")
check(set(d["whole_program"]) == set(cp) - {"cost_change_seconds"}, "whole_program keys")
check(cp["contexts"] and set(cp["contexts"][0]) == {
    "context", "leaf", "before_seconds", "after_seconds", "change_seconds",
    "inclusive_before_seconds", "inclusive_after_seconds", "samples_before", "samples_after",
    "within_noise"}, "context keys")
check(cp["functions"] and set(cp["functions"][0]) == {
    "function", "before_seconds", "after_seconds", "change_seconds", "samples_before",
    "samples_after", "within_noise", "on_every_context"}, "function keys")
check(any(f["function"] == "rp_test_caller" and f["on_every_context"] for f in cp["functions"])
      and any(f["function"] == "rp_test_compute" and not f["on_every_context"]
              for f in cp["functions"]), "functions: the one on every context is marked")
check(d["per_rank"] and set(d["per_rank"][0]) == {
    "rank", "task_before_seconds", "task_after_seconds", "task_change_seconds",
    "mpi_before_seconds", "mpi_after_seconds", "mpi_change_seconds", "times"}, "per-rank keys")
check(d["mpi_call_sites"] and set(d["mpi_call_sites"][0]) == {
    "site", "mpi_before_seconds", "mpi_after_seconds", "mpi_change_seconds", "samples_before",
    "samples_after", "within_noise"}, "call-site keys")
check(set(d["pop"]) == {"before", "after"} and d["pop"]["before"]
      and "parallel_efficiency" in d["pop"]["before"], "pop before/after")

# identical runs: nothing changed
check(d["notes"] == [], f"identical: no notes ({d['notes']})")
check(len(d["levels"]) == 4 and all(l["cost_change_seconds"] == 0 for l in d["levels"]),
      "identical: 4 levels, each unchanged")
for key in ("critical_path", "whole_program"):
    s = d[key]
    check(s["contexts_total"] > 0 and s["contexts_beyond_noise"] == 0
          and all(c["change_seconds"] == 0 and c["within_noise"] for c in s["contexts"]),
          f"identical: {key}: {s['contexts_total']} contexts, none changed")
check(len(d["per_rank"]) == 4 and all(r["task_change_seconds"] == 0 for r in d["per_rank"]),
      "identical: 4 per-rank rows, unchanged")
check(all(s["mpi_change_seconds"] == 0 for s in d["mpi_call_sites"]), "identical: call sites")
check("note:" not in t and "Contexts whose time changed most" in t
      and "by function" in t and "MPI time by call site" in t, "identical: text sections")

def kinds(d):
    return [n["kind"] for n in d["notes"]]

d, t = load("s2")
check(kinds(d) == ["ranks"], f"ranks differ: notes {kinds(d)}")
check(d["per_rank"] is None and "different numbers of ranks" in d["per_rank_omitted"],
      "ranks differ: per-rank rows omitted with the reason")
check("note: different numbers of ranks (4, 2)" in t
      and "Per rank: not compared (the runs have different numbers of ranks)" in t,
      "ranks differ: text says so")
check(d["critical_path"] is not None and len(d["levels"]) == 4, "ranks differ: paths compared")

d, t = load("s3")
check(kinds(d) == ["k"], f"k differs: notes {kinds(d)}")
check([l["percentile"] for l in d["levels"]] == [100, 0],
      f"k differs: only 100 % and 0 % paired ({[l['percentile'] for l in d['levels']]})")
check("note: different k (4, 3): levels are matched by percentile" in t, "k differs: text")

d, t = load("s4")
check(kinds(d) == ["mode", "samples"], f"mode differs: notes {kinds(d)}")
check(d["critical_path"] is None and d["whole_program"] is None
      and d["mpi_call_sites"] is None, "mode differs: no contexts without samples")
check("Contexts whose time changed most" not in t and "note: a run without samples" in t,
      "mode differs: text")

d, t = load("s5")
check(kinds(d) == ["executable"], f"executable differs: notes {kinds(d)}")
check(d["critical_path"]["contexts_total"] > 0
      and d["critical_path"]["contexts_beyond_noise"] == 0
      and all(c["change_seconds"] == 0 for c in d["critical_path"]["contexts"]),
      "executable differs: the same code matches by name and line, unchanged")
check("note: different executables" in t, "executable differs: text")

d, t = load("m.rpm")
check(d["per_rank"] is None and "merged profiles" in d["per_rank_omitted"]
      and d["pop"]["after"] is None and d["pop"]["before"] is not None,
      "merged profile: no per-rank rows, no POP factors for it")
check("POP efficiency factors: not compared (after has no per-rank task time" in t,
      "merged profile: text says why the POP factors are missing")
sys.exit(1 if bad else 0)
PY

# refused command lines and unreadable runs: a message, no crash
R="$bindir/rp-report"
expect() {   # want-exit what command...
    want=$1 what=$2
    shift 2
    "$@" >/dev/null 2>"$work/err"
    rc=$?
    if [ "$rc" -eq "$want" ] && [ -s "$work/err" ]; then
        ok "$what: exit $rc, $(head -1 "$work/err")"
    else
        fail "$what: exit $rc (want $want) stderr: $(cat "$work/err")"
    fi
}
expect 2 "--diff with one run" "$R" --diff "$work/s1"
expect 2 "--diff with three runs" "$R" --diff "$work/s1" "$work/s1b" "$work/s2"
expect 2 "two runs without --diff" "$R" "$work/s1" "$work/s1b"
expect 2 "--diff --format folded" "$R" --diff -f folded "$work/s1" "$work/s1b"
expect 2 "--diff --check" "$R" --diff --check "$work/s1" "$work/s1b"
expect 1 "--diff with a missing run" "$R" --diff "$work/s1" "$work/nonexistent"
printf 'RPMERGE\ngarbage' >"$work/bad.rpm"
expect 1 "--diff with a corrupt profile" "$R" --diff "$work/bad.rpm" "$work/s1"

[ "$fails" -eq 0 ] && echo "test_diff.sh: PASS" && exit 0
echo "test_diff.sh: $fails failure(s)"
exit 1
