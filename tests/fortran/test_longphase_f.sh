#!/bin/bash
# Issue 13 in Fortran: tests/fortran/mpi_wavefront_f.f90, a pipelined 2-D
# wavefront like NAS LU (blocking MPI_Send/MPI_Recv between grid
# neighbours, no world collective during the solve: one long phase), built
# with `use mpi`.
#   - the output (checksum) is identical with and without the profiler;
#   - prof mode, 2 and 4 ranks (4 = a 2x2 grid): on every path located +
#     <unknown> is within 15 % of the cost and never above it, and the
#     critical path locates >= 75 % of its cost (tests/mpi/check_coverage.py,
#     the same bar as tests/mpi/test_longphase.sh; doc/design.md
#     "Attribution");
#   - trace mode, 3 ranks: rp-report --check (online 100 %/0 % = offline);
#   - path mode, 4 ranks: rp-report --check exits 0, or 3 with its PARTIAL
#     line (summary overflow: prefix checked, tail named; doc/paths.md).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/../mpi/mpirun.sh"

F=$RP_TESTS_BIN/mpi_wavefront_f
rp_require "$F" "$RP_LIB" "$RP_BINDIR/rp-report"
ARGS=(20 50 200)

same_output() { # NP
    local np=$1 what="wavefront_f np=$1: output unchanged by the profiler" a
    rp_run "$np" shm -- "$F" "${ARGS[@]}"
    rp_expect_rc0 "$what (without profiler)" || return
    a=$(rp_stdout_filtered "$RP_OUTF" | grep '^wavefront_f')
    rp_prof "$np" shm RP_PERIOD=1000 -- "$F" "${ARGS[@]}"
    rp_expect_report "$what (profiled)" || return
    if [ -n "$a" ] && [ "$a" = "$(rp_stdout_filtered "$RP_OUTF" | grep '^wavefront_f')" ]; then
        rp_pass "$what"
    else
        rp_fail "$what: '$a' vs '$(rp_stdout_filtered "$RP_OUTF" | grep '^wavefront_f')'"
        return
    fi
    # the same profiled run: attribution of the one long phase
    local out
    if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_coverage.py" "$RP_JSON" 0.75 2>&1); then
        echo "$out" | sed 's/^/  /'
        rp_pass "wavefront_f np=$np RP_PERIOD=1000: coverage"
    else
        rp_fail "wavefront_f np=$np coverage: $(echo "$out" | grep -m1 '^CHECK FAILED')"
        echo "$out" | sed 's/^/  check_coverage: /'
    fi
}

trace_check() { # NP
    local what="wavefront_f trace --check np=$1" out
    rp_prof "$1" shm RP_MODE=trace -- "$F" 5 20 100
    rp_expect_rc0 "$what" || return
    if out=$("$RP_BINDIR/rp-report" --check "$RP_DIR" 2>&1); then
        rp_pass "$what"
    else
        rp_fail "$what: $(echo "$out" | tail -3)"
    fi
}

path_check() { # NP
    local what="wavefront_f path --check np=$1" out rc
    rp_prof "$1" shm RP_MODE=path -- "$F" 10 50 100
    rp_expect_rc0 "$what" || return
    out=$("$RP_BINDIR/rp-report" --check "$RP_DIR" 2>&1)
    rc=$?
    if { [ "$rc" = 0 ] && echo "$out" | grep -q '^check passed'; } ||
        { [ "$rc" = 3 ] && ! echo "$out" | grep -q FAIL &&
          echo "$out" | grep -q '^check PARTIAL: .* could not be rebuilt or checked$'; }; then
        rp_pass "$what: exit $rc, $(echo "$out" | tail -1 | cut -c1-100)"
    else
        rp_fail "$what: exit $rc"
        echo "$out" | grep -v ' ok$' | head -20
    fi
}

same_output 2
same_output 4
trace_check 3
path_check 4
rp_finish
