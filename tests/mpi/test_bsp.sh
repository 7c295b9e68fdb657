#!/bin/bash
# BSP loop (tests/mpi/mpi_bsp.c): I iterations of "rank r works base*(1+r), then
# MPI_Allreduce".  Each allreduce ends a phase, MPI_Finalize the last one:
# phases = I + 1; 100 % = I*base*P; 0 % = I*base; middle percentiles in
# between and non-increasing.  1..8 ranks, shared memory and TCP, plus other
# k and the topk selection.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

ITERS=4
BASE_MS=15
PROG=$RP_TESTS_BIN/mpi_bsp
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"

bsp_case() { # NP NET K [extra check options] -- [VAR=VAL ...]
    local np=$1 net=$2 k=$3
    shift 3
    local opts=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
    [ "${1:-}" = -- ] && shift
    local what="bsp np=$np $net${*:+ $*}"
    local p100=$(awk -v i=$ITERS -v b=$BASE_MS -v n="$np" 'BEGIN { printf "%.4f", i * b * n / 1000 }')
    local p0=$(awk -v i=$ITERS -v b=$BASE_MS 'BEGIN { printf "%.4f", i * b / 1000 }')
    rp_prof "$np" "$net" "$@" -- "$PROG" "$ITERS" "$BASE_MS"
    rp_expect_report "$what" || return
    if ! grep -q "^bsp np=$np iterations=$ITERS " "$RP_OUTF"; then
        rp_fail "$what: wrong program output"
        return
    fi
    local mode=prof a
    for a in "$@"; do case $a in RP_MODE=*) mode=${a#RP_MODE=} ;; esac; done
    rp_check_report "$what" --ranks "$np" --phases $((ITERS + 1)) --k "$k" --mode "$mode" \
        --p100 "$p100" --p0 "$p0" --rel 0.05 --abs 0.020 "${opts[@]}"
}

for net in shm tcp; do
    for np in 1 2 3 4 8; do
        rp_timed bsp_case "$np" "$net" 5
    done
done
rp_timed bsp_case 4 shm 3 -- RP_K=3
rp_timed bsp_case 5 shm 9 -- RP_K=9
rp_timed bsp_case 4 tcp 4 --any-percentiles -- RP_SELECT=topk RP_K=4
rp_timed bsp_case 4 shm 5 -- RP_SELECT=repr RP_SUMMARY=4
rp_timed bsp_case 3 shm 5 -- RP_MODE=path
rp_timed bsp_case 8 tcp 5 -- RP_MODE=trace
rp_finish
