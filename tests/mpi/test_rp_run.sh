#!/bin/bash
# `mpirun -np N rp-run ./prog` works like LD_PRELOAD: the same program
# output and a report with the right ranks and path costs (ring pipeline,
# 100 % = P*T, 0 % = T).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_ring
rp_require "$PROG" "$RP_BINDIR/rp-run" "$RP_BINDIR/rp-report"

for cfg in shm:2 tcp:3; do
    net=${cfg%%:*} np=${cfg#*:}
    what="rp-run ring np=$np $net"
    rp_prun "$np" "$net" -- "$PROG" 30
    rp_expect_report "$what" || continue
    if ! grep -qx "ring np=$np token=$((1000 + np * (np - 1) / 2))" "$RP_OUTF"; then
        rp_fail "$what: wrong program output"
        continue
    fi
    rp_check_report "$what" --ranks "$np" --phases 1 --k 5 --mode prof \
        --p100 "$(awk -v n="$np" 'BEGIN { printf "%.3f", 0.03 * n }')" --p0 0.030
done
# settings pass through rp-run as environment
rp_prun 2 shm RP_K=3 -- "$PROG" 30
if rp_expect_report "rp-run RP_K=3"; then
    rp_check_report "rp-run RP_K=3" --ranks 2 --k 3 --p100 0.060 --p0 0.030
fi
# and as rp-run options
rp_prun 2 tcp -- -k 2 --select repr "$PROG" 30
if rp_expect_report "rp-run -k 2"; then
    rp_check_report "rp-run -k 2" --ranks 2 --k 2 --p100 0.060 --p0 0.030
fi
rp_finish
