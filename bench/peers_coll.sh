#!/bin/bash
# bench/peers_coll.sh - what a collective costs under rpprof and OTF-CPT,
# side by side, in interleaved rounds (the tools' order rotates every round):
#  * IMB-MPI1 Barrier, Bcast and Allreduce (8 B and 1 KiB) at NP ranks: IMB's
#    figure (it calls MPI_Barrier before every timed call, so what a
#    profiler does after a barrier lands in the next call's figure);
#  * bench/coll_after_barrier.c: the same pattern, with each iteration's
#    whole time (barrier + operation), what a program pays.
# The issue-37 target (doc/performance.md, "Collectives") is read from it.
#
#   bench/peers_coll.sh PEERS_WORKDIR RPPROF_LIB [RESULTDIR]
#
# PEERS_WORKDIR is what ../shared/peers/build.sh built (IMB-MPI1, OTF-CPT).
# Tools: plain, rpprof (defaults), otfcpt, and rpbase when RPPROF_BASE names
# another librpprof.so (a build to compare with).  Knobs: ROUNDS (5), NP (4),
# ITERS (3000), MPIRUN (mpirun), MPIRUN_OPTS (--oversubscribe).  A figure
# is the median over rounds of (tool - plain of the same round), in us, with
# [min-max].
set -u
w=${1:?usage: peers_coll.sh PEERS_WORKDIR RPPROF_LIB [RESULTDIR]}
rplib=${2:?usage: peers_coll.sh PEERS_WORKDIR RPPROF_LIB [RESULTDIR]}
res=${3:-$(mktemp -d)}
mkdir -p "$res"
ROUNDS=${ROUNDS:-5} NP=${NP:-4} ITERS=${ITERS:-3000} MPIRUN=${MPIRUN:-mpirun}
read -r -a MOPTS <<<"${MPIRUN_OPTS:---oversubscribe}"
imb=$w/inst/apps/bin/IMB-MPI1
otf=$w/inst/otfcpt/lib/libOTFCPT.so
here=$(cd "$(dirname "$0")" && pwd)
for f in "$imb" "$rplib" "$otf"; do
    [ -e "$f" ] || { echo "peers_coll: missing $f" >&2; exit 2; }
done
mpicc -O2 -o "$res/cab" "$here/coll_after_barrier.c" || exit 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
printf '8\n1024\n' >"$res/lens"
TOOLS="plain rpprof otfcpt${RPPROF_BASE:+ rpbase}"
tool_env() { # TOOL DIR
    case $1 in
    plain) TENV=() ;;
    rpprof) TENV=(-x LD_PRELOAD="$rplib" -x RP_QUIET=1 -x RP_OUTPUT="$2/rp") ;;
    rpbase) TENV=(-x LD_PRELOAD="$RPPROF_BASE" -x RP_QUIET=1 -x RP_OUTPUT="$2/rp") ;;
    otfcpt) TENV=(-x LD_PRELOAD="$otf" -x OTFCPT_OPTIONS="data_path=$2/otfcpt") ;;
    esac
}
read -r -a tools <<<"$TOOLS"
nt=${#tools[@]}
for ((r = 0; r < ROUNDS; r++)); do
    for ((s = 0; s < nt; s++)); do
        t=${tools[$(((s + r) % nt))]}
        d=$res/r$r-$t
        rm -rf "$d" && mkdir -p "$d"
        tool_env "$t" "$d"
        "$MPIRUN" -np "$NP" "${MOPTS[@]}" "${TENV[@]}" "$imb" -msglen "$res/lens" -iter "$ITERS" \
            -iter_policy off -npmin "$NP" Barrier Bcast Allreduce </dev/null >"$d/imb" 2>"$d/err" ||
            echo "peers_coll: FAILED: round $r $t IMB (see $d/err)" >&2
        for op in 0 1 2; do
            "$MPIRUN" -np "$NP" "${MOPTS[@]}" "${TENV[@]}" "$res/cab" "$ITERS" "$op" </dev/null \
                >"$d/cab$op" 2>>"$d/err" || echo "peers_coll: FAILED: round $r $t op $op" >&2
        done
        rm -rf "$d/rp" "$d/otfcpt"*
    done
    echo "round $r done"
done
python3 - "$res" "$ROUNDS" "$TOOLS" <<'PY'
import os, re, statistics, sys
res, rounds, tools = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
def imb(path):
    out, bench = {}, None
    for line in open(path):
        m = re.match(r"# Benchmarking (\w+)", line)
        if m:
            bench = m.group(1)
            continue
        f = line.split()
        if bench and f and f[0].isdigit() and len(f) >= 5:
            out[(bench, int(f[0]))] = float(f[-1])
        elif bench == "Barrier" and len(f) == 4 and f[0].isdigit():
            out[(bench, 0)] = float(f[-1])
    return out
def cab(path):
    m = re.search(r"op ([\d.]+) loop ([\d.]+)", open(path).read())
    return (float(m.group(1)), float(m.group(2))) if m else None
data = {}
for r in range(rounds):
    for t in tools:
        d = os.path.join(res, "r%d-%s" % (r, t))
        v = {}
        try:
            for k, x in imb(os.path.join(d, "imb")).items():
                v[("IMB",) + k] = x
        except OSError:
            pass
        names = ["Bcast 8 B", "Allreduce 8 B", "Barrier"]
        for op in range(3):
            try:
                c = cab(os.path.join(d, "cab%d" % op))
            except OSError:
                c = None
            if c:
                v[("loop", names[op], "op")] = c[0]
                v[("loop", names[op], "loop")] = c[1]
        data[(r, t)] = v
keys = sorted({k for v in data.values() for k in v})
def fmt(xs):
    if not xs:
        return "-"
    return "%+.2f [%+.2f..%+.2f]" % (statistics.median(xs), min(xs), max(xs))
others = [t for t in tools if t != "plain"]
print("| what | plain us | " + " | ".join(others) + " |")
print("|---|---|" + "---|" * len(others))
for k in keys:
    plain = [data[(r, "plain")].get(k) for r in range(rounds)]
    row = ["%s %s" % (k[0], " ".join(str(x) for x in k[1:])),
           "%.2f" % statistics.median([p for p in plain if p is not None]) if any(p is not None for p in plain) else "-"]
    for t in others:
        xs = [data[(r, t)][k] - plain[r] for r in range(rounds)
              if plain[r] is not None and k in data[(r, t)]]
        row.append(fmt(xs))
    print("| " + " | ".join(row) + " |")
PY
