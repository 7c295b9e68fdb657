#!/bin/sh
# tests/unit/run_unit.sh PROGRAM - how make check runs the C test programs
# (LOG_COMPILER).  unit_sampling measures sample weights against CPU and
# wall time, so it holds the MPI tests' lock exclusively, as the timing MPI
# tests do (tests/mpi/mpirun.sh): no MPI job busy-polls both cores beside it
# (MPICH's do; its thread-sampling check then saw 43 of 150 ms).  Everything
# else runs as it is.
case $1 in
*unit_sampling*)
    lock=${RP_TOP_BUILDDIR:-.}/tests/.mpi-test.lock
    if command -v flock >/dev/null 2>&1 && mkdir -p "${RP_TOP_BUILDDIR:-.}/tests" 2>/dev/null &&
        : >>"$lock" 2>/dev/null; then
        exec flock -x "$lock" "$@"
    fi
    ;;
esac
exec "$@"
