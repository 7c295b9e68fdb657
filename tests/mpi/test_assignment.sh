#!/bin/bash
# The example of Fig. 1 of the course assignment (seeds/004), 4 ranks:
# phase 1 (to the barrier) is a 0 -> 1 -> 2 -> 3 pipeline of 0.6 s tasks,
# phase 2 (to MPI_Finalize) is rank 0's 1.6 s task followed by rank 1's 0.4 s
# task.  100 % path = 4 * 0.6 + 1.6 + 0.4 = 4.4 s (Fig. 2 shows the 0.4 s
# edge rounded to 0), 0 % path = 0.6 s + ~0, 2 phases.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_assignment
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"

assignment_case() { # NET
    local net=$1 what="assignment np=4 $1"
    rp_prof 4 "$net" -- "$PROG"
    rp_expect_report "$what" || return
    if ! grep -qx "assignment y=42" "$RP_OUTF"; then
        rp_fail "$what: wrong program output"
        return
    fi
    rp_check_report "$what" --ranks 4 --phases 2 --k 5 --mode prof \
        --p100 4.4 --p0 0.6 --rel 0.03 --abs 0.030
}
for net in shm tcp; do
    rp_timed assignment_case "$net"
done
rp_finish
