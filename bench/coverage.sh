#!/bin/bash
# bench/coverage.sh - attribution coverage on the one-phase proxies (issue 13).
# For each proxy, rank count and RP_PERIOD, one profiled run, and from
# rp-report's JSON:
#   loc100   the critical (100 %) path's located time (sampled_seconds) / cost
#   unk: ns/bf/so  its <unknown> time by cause / cost: not sampled (tail after
#            the last sample, tasks shorter than the period), sample buffer
#            full, summary overflow
#   sum100   (located + unknown) / cost of the critical path
#   minsum   the smallest (located + unknown) / cost over all k paths
#   maxloc   the largest located time of any path / the critical path's cost
#   pathsetB mean path-set message (pathset_bytes_sent / pathset_msgs_sent)
#   split    share of the critical path's located time in the first of the
#            proxy's work functions (folded output): lower_block of
#            lower+upper_block (+rhs) for the wavefronts (the path runs
#            through NB+P-1 lower and NB+P-1 upper blocks a sweep, 1 : 1.5 in
#            work: ~40 %), matvec of matvec+axpy for cgp2p.  The reservoir
#            estimates this split; its spread over runs is its error.
# Accuracy and byte counts, not timings: valid on a loaded machine.
#
#   bench/coverage.sh INSTALL_PREFIX PROXY_DIR [NPS] [PERIODS] [PROXIES]
#     NPS      rank counts, default "2 3 4" (more ranks than cores:
#              --oversubscribe; the proxies' work is nanosleep)
#     PERIODS  default "200 1000 5000"
#     PROXIES  default "wavefront cgp2p wavefront_f" (mpi_<name> in PROXY_DIR;
#              a missing one, e.g. no Fortran compiler, is reported and skipped)
# PROXY_DIR holds mpi_wavefront and mpi_cgp2p (tests/mpi/) and mpi_wavefront_f
# (tests/fortran/), i.e. the build's tests/ directory.
set -u
inst=$1 bin=$2 nps=${3:-2 3 4} pers=${4:-200 1000 5000} proxies=${5:-wavefront cgp2p wavefront_f}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args_of() {
    case $1 in
    wavefront) echo "20 100 200" ;;
    cgp2p) echo "1500 400" ;;
    wavefront_f) echo "20 50 200" ;;
    esac
}
printf '%-12s %3s %6s %8s %6s %6s %6s %8s %8s %8s %9s %6s\n' proxy np period loc100 unk:ns bf so \
    sum100 minsum maxloc pathsetB split
for name in $proxies; do
    prog=$bin/mpi_$name
    if [ ! -x "$prog" ]; then
        echo "$name: $prog not built, skipped"
        continue
    fi
    for np in $nps; do
        for per in $pers; do
            rm -rf "$tmp/o"
            # shellcheck disable=SC2046
            mpirun -np "$np" --oversubscribe -x LD_PRELOAD="$inst/lib/librpprof.so" \
                -x RP_PERIOD="$per" -x RP_OUTPUT="$tmp/o" "$prog" $(args_of "$name") \
                >"$tmp/out" 2>&1 || { echo "$name np=$np: run failed"; tail -3 "$tmp/out"; continue; }
            "$inst/bin/rp-report" --format json "$tmp/o" >"$tmp/j" 2>/dev/null
            "$inst/bin/rp-report" --format folded --path 0 "$tmp/o" >"$tmp/f" 2>/dev/null
            python3 - "$tmp/j" "$name" "$np" "$per" "$tmp/f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
P = d["paths"]; c = d["counters"]
crit = P[0]["cost_seconds"]
def pct(x, c):
    return 100.0 * x / c if c > 0 else 0.0
u = P[0].get("unknown", {})
summ = [pct(p["sampled_seconds"] + p["unknown_seconds"], p["cost_seconds"]) for p in P
        if p["cost_seconds"] > 0]
mx = max(pct(p["sampled_seconds"], crit) for p in P)
msgs = c.get("pathset_msgs_sent", 0)
b = c.get("pathset_bytes_sent", 0) / msgs if msgs else 0
work = {"cgp2p": ("matvec", "axpy")}.get(sys.argv[2], ("lower_block", "upper_block", "rhs"))
tot = [0.0] * len(work)
for line in open(sys.argv[5]):
    stack, _, v = line.rstrip().rpartition(" ")
    frames = stack.split(";")
    for i, w in enumerate(work):
        if w in frames:
            tot[i] += float(v)
            break
split = 100.0 * tot[0] / sum(tot) if sum(tot) > 0 else 0.0
print("%-12s %3s %6s %7.1f%% %5.1f%% %5.1f%% %5.1f%% %7.1f%% %7.1f%% %7.1f%% %9.0f %5.1f%%" % (
    sys.argv[2], sys.argv[3], sys.argv[4], pct(P[0]["sampled_seconds"], crit),
    pct(u.get("not_sampled", 0), crit), pct(u.get("buffer_full", 0), crit),
    pct(u.get("summary_overflow", 0), crit), summ[0] if summ else 0,
    min(summ) if summ else 0, mx, b, split))
PY
        done
    done
done
