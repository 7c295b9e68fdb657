#!/bin/bash
# bench/pop_vs_oracle.sh - rpprof's POP factors against those the trace-mode
# oracle implies, where no peer tool gives factors (the Fortran NAS codes:
# OTF-CPT prints nothing for them).  Each round runs every case twice, in
# turn: with RP_MODE=trace, whose rank files hold every task and message,
# and in the default mode (prof).  Of the trace-mode run it takes
#   - rpprof's factors (rp-report --format json, "pop": online);
#   - the oracle's (rp-report --check --format json, "pop": each rank's
#     computation summed from its recorded tasks, the critical path as the
#     offline longest paths summed over phases, the same runtime);
# and of the prof-mode run rpprof's factors.  Prints per case the medians
# over ROUNDS of each factor: trace mode online, oracle-implied, their
# largest difference within one run, prof mode, and prof mode - oracle;
# doc/report.md ("Fortran NAS against the trace-mode oracle") keeps the table.
#
#   bench/pop_vs_oracle.sh BUILD_DIR [RESULTDIR]
#
# BUILD_DIR: rpprof's build tree (lib/.libs/librpprof.so, tools/rp-report).
# Knobs: ROUNDS (3), NPB (NPB's BINDIR, holding lu.W.x, cg.W.x, mg.W.x; for the
# default cases), KEEP (set: keep the rank files in RESULTDIR/NAME-rR/MODE),
# TABLE_ONLY (set: run nothing, tabulate the runs already in RESULTDIR),
# CASES (one "name|ranks|program args[|VAR=VALUE ...]" a line; the optional
# fourth field is environment for the ranks in both modes, mpirun -x).
set -u
b=${1:?usage: pop_vs_oracle.sh BUILD_DIR [RESULTDIR]}
res=$(realpath -m "${2:-$(mktemp -d)}")
b=$(realpath "$b")
ROUNDS=${ROUNDS:-3}
if [ -z "${CASES:-}" ] && [ -z "${TABLE_ONLY:-}" ]; then
    npb=${NPB:?pop_vs_oracle: set NPB (the NAS binaries directory) or CASES}
    CASES="lu-2|2|$npb/lu.W.x
lu-4|4|$npb/lu.W.x
cg-2|2|$npb/cg.W.x
cg-4|4|$npb/cg.W.x
mg-2|2|$npb/mg.W.x
mg-4|4|$npb/mg.W.x"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mkdir -p "$res"
rplib=$b/lib/.libs/librpprof.so
rpr=$b/tools/rp-report
for f in "$rplib" "$rpr"; do
    [ -e "$f" ] || { echo "pop_vs_oracle: missing $f" >&2; exit 2; }
done
[ -n "${TABLE_ONLY:-}" ] || : >"$res/cases"
for ((r = 0; r < ROUNDS; r++)); do
    [ -n "${TABLE_ONLY:-}" ] && break
    while IFS='|' read -r name np cmd envs; do
        [ -n "$name" ] || continue
        read -r -a prog <<<"$cmd"
        [[ ${prog[0]} == */* ]] && prog[0]=$(realpath "${prog[0]}")
        xenv=()
        for e in ${envs:-}; do xenv+=(-x "$e"); done
        d=$res/$name-r$r
        rm -rf "$d"
        mkdir -p "$d"
        for mode in trace prof; do
            menv=()
            [ $mode = trace ] && menv=(-x RP_MODE=trace)
            mpirun -np "$np" --oversubscribe --wdir "$d" "${xenv[@]}" "${menv[@]}" \
                -x LD_PRELOAD="$rplib" -x RP_OUTPUT="$d/$mode" "${prog[@]}" </dev/null \
                >"$d/$mode.out" 2>&1 || echo "pop_vs_oracle: $mode run failed: $d" >&2
            "$rpr" -f json "$d/$mode" >"$d/$mode.json" 2>/dev/null
            [ $mode = trace ] && "$rpr" --check -f json "$d/$mode" >"$d/check.json" 2>/dev/null
            [ -n "${KEEP:-}" ] || rm -rf "${d:?}/$mode"
        done
        [ "$r" = 0 ] && echo "$name|$np|$cmd|${envs:-}" >>"$res/cases"
    done <<<"$CASES"
done
python3 - "$res" "$ROUNDS" <<'PY'
import json, os, statistics, sys
res, rounds = sys.argv[1], int(sys.argv[2])
keys = ["parallel_efficiency", "load_balance", "communication_efficiency",
        "serialisation_efficiency", "transfer_efficiency"]
secs = ["runtime_seconds", "max_computation_seconds", "critical_path_seconds"]
def pop(path):
    try:
        return json.load(open(path))["pop"]
    except Exception:
        return None
med = lambda v: statistics.median(v) if v else float("nan")
cell = lambda x: "%.3f" % x
sgn = lambda x: ("%+.3f" % x).replace("-", "\u2212")
worst = 0.0
print(f"| program (median of {rounds}) | factors from | PE | LB | CommE | SerE | TE "
      "| runtime [s] | max comp [s] | crit. path [s] |")
print("|---|---|---|---|---|---|---|---|---|---|")
checks = []
spread = []
for line in open(os.path.join(res, "cases")):
    name, np_, cmd, envs = (line.rstrip("\n").split("|") + [""])[:4]
    on, orc, pr, dif = [], [], [], []
    for r in range(rounds):
        d = os.path.join(res, f"{name}-r{r}")
        a, o, p = pop(f"{d}/trace.json"), pop(f"{d}/check.json"), pop(f"{d}/prof.json")
        try:
            checks.append(f"{name}-r{r}: " + json.load(open(f"{d}/check.json"))["check"])
        except Exception:
            checks.append(f"{name}-r{r}: no check")
        if a and o:
            on.append(a)
            orc.append(o)
            dif.append({k: a[k] - o[k] for k in keys + secs})
            worst = max([worst] + [abs(a[k] - o[k]) for k in keys])
        if p:
            pr.append(p)
    m = lambda rows, k: med([x[k] for x in rows if x.get(k) is not None])
    big = lambda k: max((x[k] for x in dif), key=abs) if dif else float("nan")
    envp = envs + " " if envs.strip() else ""
    prog = f"{envp}{os.path.basename(cmd.split()[0])} {' '.join(cmd.split()[1:])}".strip()
    rows = [(f"`{prog}`, {np_} ranks", "trace mode, rpprof online", lambda k: cell(m(on, k))),
            ("", "trace mode, oracle-implied", lambda k: cell(m(orc, k))),
            ("", "difference (largest in a run)", lambda k: sgn(big(k))),
            ("", "prof mode, rpprof", lambda k: cell(m(pr, k))),
            ("", "prof mode − oracle-implied", lambda k: sgn(m(pr, k) - m(orc, k)))]
    for c0, c1, f in rows:
        print(f"| {c0} | {c1} | " + " | ".join(f(k) for k in keys + secs) + " |")
    rng = lambda rows, k: "%.3f..%.3f" % (min(x[k] for x in rows), max(x[k] for x in rows)) \
        if rows else "-"
    spread.append((f"`{prog}`, {np_} ranks", "trace mode (oracle-implied)",
                   [rng(orc, k) for k in keys + secs]))
    spread.append(("", "prof mode", [rng(pr, k) for k in keys + secs]))
print(f"\n| program (range over {rounds} runs) | factors from | PE | LB | CommE | SerE | TE "
      "| runtime [s] | max comp [s] | crit. path [s] |")
print("|---|---|---|---|---|---|---|---|---|---|")
for c0, c1, v in spread:
    print(f"| {c0} | {c1} | " + " | ".join(v) + " |")
print("\nlargest |online - oracle-implied| of a factor in any trace-mode run: %.3g" % worst)
print("--check: " + ", ".join(checks))
PY
