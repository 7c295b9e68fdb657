#!/bin/bash
# bench/pop_vs_otfcpt.sh - rpprof's POP factors (rp-report --format json,
# "pop") beside OTF-CPT's on the same programs, the two tools in alternating
# runs (a PMPI tool each: they cannot share one run).  Prints per program
# the median over ROUNDS runs of each factor for each tool and their
# difference (rpprof - OTF-CPT); doc/report.md keeps the table.
#
#   bench/pop_vs_otfcpt.sh BUILD_DIR OTFCPT_LIB [RESULTDIR]
#
# BUILD_DIR: rpprof's build tree (lib/.libs/librpprof.so, tools/rp-report,
# tests/mpi_*, examples/imbalance); OTFCPT_LIB: libOTFCPT.so.  Knobs: ROUNDS
# (3), NP (4), KEEP (set: keep rpprof's rank files in RESULTDIR/NAME-rR/rp),
# CASES (one "name|program args[|VAR=VALUE ...]" a line; the optional third
# field is environment for the ranks of both tools, mpirun -x; default
# below).  Each run's working directory is RESULTDIR/NAME-rR (HPCG writes
# its reports there); relative program paths are made absolute.
# bench/otfcpt-per-rank.patch makes OTF-CPT print each rank's computation
# (OTFCPT_PER_RANK=1 in the ranks' environment), as rpprof's per-rank table.
set -u
b=${1:?usage: pop_vs_otfcpt.sh BUILD_DIR OTFCPT_LIB [RESULTDIR]}
otf=${2:?usage: pop_vs_otfcpt.sh BUILD_DIR OTFCPT_LIB [RESULTDIR]}
res=$(realpath -m "${3:-$(mktemp -d)}")
b=$(realpath "$b")
otf=$(realpath "$otf")
ROUNDS=${ROUNDS:-3}
NP=${NP:-4}
CASES=${CASES:-"bsp|$b/tests/mpi_bsp 8 20
wavefront|$b/tests/mpi_wavefront 4 10 2000
cgp2p|$b/tests/mpi_cgp2p 200 500
imbalance|$b/examples/imbalance 30 2000000 3"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mkdir -p "$res"
rplib=$b/lib/.libs/librpprof.so
for f in "$rplib" "$otf" "$b/tools/rp-report"; do
    [ -e "$f" ] || { echo "pop_vs_otfcpt: missing $f" >&2; exit 2; }
done
while IFS='|' read -r name cmd envs; do
    [ -n "$name" ] || continue
    read -r -a prog <<<"$cmd"
    [[ ${prog[0]} == */* ]] && prog[0]=$(realpath "${prog[0]}")
    xenv=()
    for e in ${envs:-}; do xenv+=(-x "$e"); done
    for ((r = 0; r < ROUNDS; r++)); do
        d=$res/$name-r$r
        rm -rf "$d"
        mkdir -p "$d"
        mpirun -np "$NP" --oversubscribe --wdir "$d" "${xenv[@]}" -x LD_PRELOAD="$rplib" \
            -x RP_OUTPUT="$d/rp" "${prog[@]}" </dev/null >"$d/rp.out" 2>&1 || echo "pop_vs_otfcpt: rpprof run failed: $d" >&2
        "$b/tools/rp-report" -f json "$d/rp" >"$d/rp.json" 2>/dev/null
        [ -n "${KEEP:-}" ] || rm -rf "$d/rp"
        mpirun -np "$NP" --oversubscribe --wdir "$d" "${xenv[@]}" -x LD_PRELOAD="$otf" \
            "${prog[@]}" </dev/null >"$d/otf.out" 2>&1 ||
            echo "pop_vs_otfcpt: OTF-CPT run failed: $d" >&2
    done
    echo "$name|$cmd|${envs:-}" >>"$res/cases"
done <<<"$CASES"
python3 - "$res" "$ROUNDS" "$NP" <<'PY'
import json, os, re, statistics, sys
res, rounds, np_ = sys.argv[1], int(sys.argv[2]), sys.argv[3]
keys = [("parallel_efficiency", "Parallel Efficiency"), ("load_balance", "Load Balance"),
        ("communication_efficiency", "Communication Efficiency"),
        ("serialisation_efficiency", "Serialisation Efficiency"),
        ("transfer_efficiency", "Transfer Efficiency")]
short = {"parallel_efficiency": "PE", "load_balance": "LB", "communication_efficiency": "CommE",
         "serialisation_efficiency": "SerE", "transfer_efficiency": "TE"}
print(f"| program ({np_} ranks, median of {rounds}) | tool | PE | LB | CommE | SerE | TE |")
print("|---|---|---|---|---|---|---|")
for line in open(os.path.join(res, "cases")):
    name, cmd, envs = (line.rstrip("\n").split("|") + [""])[:3]
    rp, ot = {k: [] for k, _ in keys}, {k: [] for k, _ in keys}
    for r in range(rounds):
        d = os.path.join(res, f"{name}-r{r}")
        try:
            pop = json.load(open(os.path.join(d, "rp.json")))["pop"]
            for k, _ in keys:
                rp[k].append(pop[k])
        except Exception:
            pass
        txt = open(os.path.join(d, "otf.out"), errors="replace").read()
        for k, label in keys:
            m = re.search(r"^\s*" + label + r":\s+(-?[0-9.e+]+)", txt, re.M)
            if m:
                ot[k].append(float(m.group(1)))
    med = lambda v: statistics.median(v) if v else float("nan")
    a = {k: med(rp[k]) for k, _ in keys}
    o = {k: med(ot[k]) for k, _ in keys}
    cell = lambda x: "%.3f" % x
    envp = envs + " " if envs.strip() else ""
    print(f"| {name}: `{envp}{os.path.basename(cmd.split()[0])} {' '.join(cmd.split()[1:])}` | rpprof | " +
          " | ".join(cell(a[k]) for k, _ in keys) + " |")
    print("| | OTF-CPT | " + " | ".join(cell(o[k]) for k, _ in keys) + " |")
    print("| | difference | " + " | ".join("%+.3f" % (a[k] - o[k]) for k, _ in keys) + " |")
PY
