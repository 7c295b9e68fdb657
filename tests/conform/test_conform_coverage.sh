#!/bin/sh
# Every row of lib/mpi/mpi_functions.def (read now, so new rows count at once)
# must be called by at least one C program and at least one Fortran program
# that a tests/test_*.sh script runs (tests/conform/conform_coverage.py says how
# programs and call sites are found).  On failure it names the functions;
# the full map (function -> programs, Fortran bindings) follows.
top=${RP_TOP_SRCDIR:-$(dirname "$0")/../..}
case ${PYTHON:-} in '' | none | :) PYTHON=python3 ;; esac
if $PYTHON "$top/tests/conform/conform_coverage.py" "$top"; then
    exit 0
fi
$PYTHON "$top/tests/conform/conform_coverage.py" "$top" --list
exit 1
