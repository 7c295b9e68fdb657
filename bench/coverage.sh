#!/bin/bash
# bench/coverage.sh - attribution coverage on the one-phase proxies (issue 13):
# for each proxy and RP_PERIOD, the 100 %/50 %/0 % paths' sampled seconds over
# their cost, the `<unknown>` share, and the mean path-set message size
# (pathset_bytes_sent / pathset_msgs_sent).  Accuracy and byte counts, not
# timings: valid on a loaded machine.
#
#   bench/coverage.sh INSTALL_PREFIX PROXY_DIR [NP]     (prints a table)
#
# PROXY_DIR holds mpi_wavefront and mpi_cgp2p (tests/mpi/, built with -g).
set -u
inst=$1 bin=$2 np=${3:-4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
printf '%-10s %6s %8s %8s %8s %8s %8s %9s\n' proxy period cov100 cov50 cov0 unk100 pathsetB maxpct
for prog in "mpi_wavefront 20 100 200" "mpi_cgp2p 1500 400"; do
    for per in 200 1000 5000; do
        rm -rf "$tmp/o"
        mpirun -np "$np" --oversubscribe -x LD_PRELOAD="$inst/lib/librpprof.so" -x RP_PERIOD=$per \
            -x RP_OUTPUT="$tmp/o" $bin/$prog >/dev/null 2>&1
        "$inst/bin/rp-report" --format json "$tmp/o" > "$tmp/j" 2>/dev/null
        python3 - "$tmp/j" "${prog%% *}" "$per" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
P = d["paths"]; c = d["counters"]
def cov(p):
    return 100.0 * p.get("sampled_seconds", 0) / p["cost_seconds"] if p["cost_seconds"] > 0 else 0
def unk(p):
    return 100.0 * p.get("unknown_seconds", 0) / p["cost_seconds"] if p["cost_seconds"] > 0 else 0
crit = P[0]["cost_seconds"]
mx = max(100.0 * p.get("sampled_seconds", 0) / crit for p in P)
msgs = c.get("pathset_msgs_sent", 0)
b = c.get("pathset_bytes_sent", 0) / msgs if msgs else 0
print("%-10s %6s %7.1f%% %7.1f%% %7.1f%% %7.1f%% %8.0f %8.1f%%" % (
    sys.argv[2][4:], sys.argv[3], cov(P[0]), cov(P[len(P)//2]), cov(P[-1]), unk(P[0]), b, mx))
PY
    done
done
rm -rf "$tmp"
