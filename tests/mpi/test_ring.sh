#!/bin/bash
# Ring pipeline (tests/mpi/mpi_ring.c) under the profiler, 1..8 ranks, shared
# memory and TCP: one phase; 100 % path = P*T, 0 % path = T (every path from
# MPI_Init to MPI_Finalize contains at least one rank's T task); percentiles
# non-increasing.  Also with sampling off, at a short sampling period, with
# another k, and in the path and trace modes.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

T_MS=30
PROG=$RP_TESTS_BIN/mpi_ring
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"

ring_case() { # NP NET [VAR=VAL ...]
    local np=$1 net=$2
    shift 2
    local what="ring np=$np $net${*:+ $*}"
    local t=$(awk -v t=$T_MS 'BEGIN { printf "%.4f", t / 1000 }')
    local p100=$(awk -v t=$T_MS -v n="$np" 'BEGIN { printf "%.4f", n * t / 1000 }')
    local k=5 mode=prof a
    for a in "$@"; do
        case $a in RP_K=*) k=${a#RP_K=} ;; RP_MODE=*) mode=${a#RP_MODE=} ;; esac
    done
    rp_prof "$np" "$net" "$@" -- "$PROG" "$T_MS"
    rp_expect_report "$what" || return
    if ! grep -qx "ring np=$np token=$((1000 + np * (np - 1) / 2))" "$RP_OUTF"; then
        rp_fail "$what: wrong program output"
        return
    fi
    rp_check_report "$what" --ranks "$np" --phases 1 --k "$k" --mode "$mode" \
        --p100 "$p100" --p0 "$t" --rel 0.05 --abs 0.020
}

for net in shm tcp; do
    for np in 1 2 3 4 8; do
        rp_timed ring_case "$np" "$net"
    done
done
rp_timed ring_case 4 shm RP_PERIOD=0
rp_timed ring_case 4 shm RP_PERIOD=200
rp_timed ring_case 3 tcp RP_K=3
# the same paths when tasks are recorded instead of sampled
rp_timed ring_case 4 shm RP_MODE=path
rp_timed ring_case 3 tcp RP_MODE=trace
rp_finish
