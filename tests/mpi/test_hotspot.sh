#!/bin/bash
# A known hotspot (tests/mpi/mpi_hotspot.c and its C++ and Fortran twins):
# heavy() only on rank 0, light() everywhere, an allreduce per iteration.
# The 100 % path must be dominated by heavy() with its source file and a line
# of its loop; the 0 % path must not contain it; the whole-program MPI profile
# must show the allreduce waits; names demangle (C++ kernels::heavy(double),
# Fortran hot_kernels::heavy).  A stripped binary degrades visibly: one
# warning and module+offset names, never a failure.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

hot_case() { # PROG SOURCE NP NET
    local prog=$1 src=$2 np=$3 net=$4 out
    local what="hotspot $(basename "$prog") np=$np $net"
    rp_prof "$np" "$net" RP_PERIOD=2000 -- "$prog" 20 0.03 0.003
    rp_expect_report "$what" || return
    if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_hotspot.py" "$RP_JSON" "$src" heavy light 2>&1); then
        echo "$out" | sed 's/^/  /'
        rp_pass "$what"
    else
        rp_fail "$what: $out"
    fi
}

C=$RP_TESTS_BIN/mpi_hotspot
rp_require "$C" "$RP_LIB" "$RP_BINDIR/rp-report"
rp_timed hot_case "$C" "$RP_TESTS_SRC/mpi/mpi_hotspot.c" 2 shm
rp_timed hot_case "$C" "$RP_TESTS_SRC/mpi/mpi_hotspot.c" 3 tcp
if [ -x "$RP_TESTS_BIN/mpi_hotspot_cxx" ]; then
    rp_timed hot_case "$RP_TESTS_BIN/mpi_hotspot_cxx" "$RP_TESTS_SRC/mpi/mpi_hotspot_cxx.cc" 2 shm
else
    rp_fail "mpi_hotspot_cxx was not built"
fi
if [ -n "${MPIFC:-}" ]; then
    if [ -x "$RP_TESTS_BIN/mpi_hotspot_f90" ]; then
        rp_timed hot_case "$RP_TESTS_BIN/mpi_hotspot_f90" "$RP_TESTS_SRC/mpi/mpi_hotspot_f90.f90" 2 shm
    else
        rp_fail "mpi_hotspot_f90 was not built"
    fi
fi

# Stripped: still a report, heavy's time on the critical path under the
# binary's one "[no symbols]" row (tools/common/frames.c groups a module's
# unsymbolised addresses), and exactly one warning naming the binary.
S=$RP_TMP/mpi_hotspot_stripped
if strip -o "$S" "$C" 2>/dev/null; then
    what="hotspot stripped np=2"
    rp_prof 2 shm -- "$S" 10 0.03 0.003
    if rp_expect_report "$what"; then
        n=$(grep -c "mpi_hotspot_stripped: no debug information" "$RP_JSONERR")
        f=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["paths"][0]["top"][0]["function"])' "$RP_JSON")
        if [ "$n" != 1 ]; then
            rp_fail "$what: expected one warning about the stripped binary, got $n"
        elif [[ "$f" != "mpi_hotspot_stripped [no symbols]" ]]; then
            rp_fail "$what: top function '$f' is not the module's [no symbols] row"
        else
            rp_pass "$what (top: $f)"
        fi
    fi
else
    rp_fail "strip failed"
fi
rp_finish
