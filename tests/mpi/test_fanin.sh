#!/bin/bash
# Fan-in with wildcard receives (tests/mpi/mpi_fanin.c), completed by MPI_Recv,
# MPI_Waitany and MPI_Testsome: the path-set joined at each receive must be
# the matched sender's.  100 % = (P-1)*B + S, 0 % = min((P-1)*S, B).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

B_MS=30
S_MS=5
PROG=$RP_TESTS_BIN/mpi_fanin
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"

fanin_case() { # MODE NP NET
    local mode=$1 np=$2 net=$3 p100 p0
    local what="fanin $mode np=$np $net"
    p100=$(awk -v b=$B_MS -v s=$S_MS -v n="$np" 'BEGIN { printf "%.4f", ((n - 1) * b + s) / 1000 }')
    p0=$(awk -v b=$B_MS -v s=$S_MS -v n="$np" \
        'BEGIN { x = (n - 1) * s; if (b < x) x = b; printf "%.4f", x / 1000 }')
    rp_prof "$np" "$net" -- "$PROG" "$mode" "$B_MS" "$S_MS"
    rp_expect_report "$what" || return
    if ! grep -qx "fanin $mode np=$np sum=$((np * (np - 1) / 2)) in-order=1" "$RP_OUTF"; then
        rp_fail "$what: wrong program output (messages must arrive in rank order)"
        return
    fi
    rp_check_report "$what" --ranks "$np" --phases 1 --k 5 --mode prof \
        --p100 "$p100" --p0 "$p0" --rel 0.05 --abs 0.020 --clean-counters
}

rp_timed fanin_case recv 2 shm
rp_timed fanin_case recv 4 shm
rp_timed fanin_case recv 8 tcp
rp_timed fanin_case waitany 4 shm
rp_timed fanin_case waitany 8 shm
rp_timed fanin_case waitany 3 tcp
rp_timed fanin_case testsome 4 shm
rp_timed fanin_case testsome 5 tcp
rp_finish
