#!/bin/bash
# bench/peers_p2p.sh - what a point-to-point message costs under rpprof and
# its peers, side by side: IMB-MPI1 PingPong and Exchange at 2 ranks over
# shared memory, 8 B and 1 KiB, in interleaved rounds (the tools' order
# rotates every round).  The issue-34 targets (doc/performance.md, "The
# mailbox") are read from its table.
#
#   bench/peers_p2p.sh PEERS_WORKDIR RPPROF_LIB [RESULTDIR]
#
# PEERS_WORKDIR is what ../shared/peers/build.sh built (IMB-MPI1, OTF-CPT,
# mpiP under PEERS_WORKDIR/inst); RPPROF_LIB the librpprof.so to preload.
# Tools: plain, rpprof (defaults: k = 5, repr, 200 Hz), rpprof0
# (RP_PERIOD=0), rpprof_msg (RP_MAILBOX=0: the paper's second message),
# otfcpt, mpip.  Knobs: ROUNDS (5), TOOLS, LENS ("8 1024"), REPS (10: each
# launch measures every size REPS times, each sample ITERS calls), ITERS
# (2000), MPIRUN (mpirun), MPIRUN_OPTS ("--bind-to core").
# A launch's figure is the median of its REPS samples; a tool's added time
# in a round is its figure minus plain's of the same round; the table gives
# the median [min-max] over rounds, in us:
#   PingPong: added time per message (IMB's t = half a round trip);
#   Exchange: added time per iteration (each rank sends 2 and receives 2
#   messages an iteration: to and from each neighbour), and per message
#   (half of that).
set -u
w=${1:?usage: peers_p2p.sh PEERS_WORKDIR RPPROF_LIB [RESULTDIR]}
rplib=${2:?usage: peers_p2p.sh PEERS_WORKDIR RPPROF_LIB [RESULTDIR]}
res=${3:-$(mktemp -d)}
mkdir -p "$res"
ROUNDS=${ROUNDS:-5}
TOOLS=${TOOLS:-plain rpprof rpprof0 rpprof_msg otfcpt mpip}
LENS=${LENS:-8 1024}
REPS=${REPS:-10}
ITERS=${ITERS:-2000}
MPIRUN=${MPIRUN:-mpirun}
read -r -a MOPTS <<<"${MPIRUN_OPTS:---bind-to core}"
imb=$w/inst/apps/bin/IMB-MPI1
otf=$w/inst/otfcpt/lib/libOTFCPT.so
mpip=$w/inst/mpip/lib/libmpiP.so
for f in "$imb" "$rplib"; do
    [ -e "$f" ] || { echo "peers_p2p: missing $f" >&2; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for ((i = 0; i < REPS; i++)); do printf '%s\n' $LENS; done >"$res/lens"

tool_env() { # TOOL DIR
    case $1 in
    plain) TENV=() ;;
    rpprof) TENV=(-x LD_PRELOAD="$rplib" -x RP_QUIET=1 -x RP_OUTPUT="$2/rp") ;;
    rpprof0) TENV=(-x LD_PRELOAD="$rplib" -x RP_QUIET=1 -x RP_PERIOD=0 -x RP_OUTPUT="$2/rp") ;;
    rpprof_msg) TENV=(-x LD_PRELOAD="$rplib" -x RP_QUIET=1 -x RP_MAILBOX=0 -x RP_OUTPUT="$2/rp") ;;
    otfcpt) TENV=(-x LD_PRELOAD="$otf" -x OTFCPT_OPTIONS="data_path=$2/otfcpt") ;;
    mpip) TENV=(-x LD_PRELOAD="$mpip" -x MPIP="-f $2") ;;
    *) echo "peers_p2p: unknown tool $1" >&2; exit 2 ;;
    esac
}

read -r -a tools <<<"$TOOLS"
nt=${#tools[@]}
echo "ROUNDS=$ROUNDS TOOLS=\"$TOOLS\" LENS=\"$LENS\" REPS=$REPS ITERS=$ITERS" >"$res/config"
for ((r = 0; r < ROUNDS; r++)); do
    for ((s = 0; s < nt; s++)); do
        t=${tools[$(((s + r) % nt))]}
        d=$res/r$r-$t
        rm -rf "$d"
        mkdir -p "$d"
        tool_env "$t" "$d"
        cmd=("$MPIRUN" -np 2 "${MOPTS[@]}" "${TENV[@]}" "$imb" -msglen "$res/lens" -iter "$ITERS"
             -iter_policy off -time 600 -npmin 2 PingPong Exchange)
        echo "${cmd[*]}" >"$d/cmd"
        if ! "${cmd[@]}" </dev/null >"$d/out" 2>"$d/err"; then
            echo "peers_p2p: FAILED: round $r $t (see $d/err)" >&2
        fi
        rm -rf "$d/rp" "$d/otfcpt"* "$d"/*.mpiP
        echo "round $r: $t"
    done
done
python3 - "$res" "$nt" <<'EOF'
import os, re, statistics, sys
res = sys.argv[1]
cfg = open(os.path.join(res, "config")).read()
tools = re.search(r'TOOLS="([^"]*)"', cfg).group(1).split()
rounds = int(re.search(r"ROUNDS=(\d+)", cfg).group(1))

def parse(path):
    """{(bench, bytes): median t} of one IMB output (PingPong t, Exchange t_avg)."""
    out, bench = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"# Benchmarking (\S+)", line)
        if m:
            bench = m.group(1)
            continue
        f = line.split()
        if bench and len(f) >= 4 and f[0].isdigit():
            t = float(f[2]) if bench == "PingPong" else float(f[4])
            out.setdefault((bench, int(f[0])), []).append(t)
    return {k: statistics.median(v) for k, v in out.items()}

fig = {}
for r in range(rounds):
    for t in tools:
        p = os.path.join(res, "r%d-%s" % (r, t), "out")
        if os.path.exists(p):
            fig[(r, t)] = parse(p)
keys = sorted({k for v in fig.values() for k in v})
def mm(v):
    return "%.2f [%.2f-%.2f]" % (statistics.median(v), min(v), max(v)) if v else "-"
lines = ["| benchmark | plain (us) | " + " | ".join(t for t in tools if t != "plain") + " |",
         "|---|---|" + "---|" * (len(tools) - 1)]
for k in keys:
    plain = [fig[(r, "plain")][k] for r in range(rounds) if k in fig.get((r, "plain"), {})]
    row = ["%s %d B%s" % (k[0], k[1], " (a message)" if k[0] == "PingPong" else " (an iteration)"),
           mm(plain)]
    for t in tools:
        if t == "plain":
            continue
        add = [fig[(r, t)][k] - fig[(r, "plain")][k] for r in range(rounds)
               if k in fig.get((r, t), {}) and k in fig.get((r, "plain"), {})]
        row.append(mm(add))
    lines.append("| " + " | ".join(row) + " |")
open(os.path.join(res, "table.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
print("(added us over plain in the same round: median [min-max] over %d rounds; %s)" % (rounds, res))
EOF
