#!/bin/bash
# Non-blocking collectives (tests/mpi/mpi_nbc.c): results identical with and
# without the profiler, and the paths joined at completion are the analytic
# ones: 100 % = 3*(10*P + 5) ms, 0 % = 3*10 ms; one phase (Finalize), since
# non-blocking collectives never end a phase.  The trace of such a run
# passes the offline check, and so does one where a phase's shortest path
# runs from a member's call straight to its own completion (acc nbc).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_nbc
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"
rp_semantic "$PROG" shm:1 shm:2 shm:3 tcp:4 shm:4:RP_MODE=trace

nbc_case() { # NP NET [VAR=VAL ...]
    local np=$1 net=$2
    shift 2
    local what="nbc paths np=$np $net${*:+ $*}" mode=prof a
    for a in "$@"; do case $a in RP_MODE=*) mode=${a#RP_MODE=} ;; esac; done
    local p100=$(awk -v n="$np" 'BEGIN { printf "%.4f", 3 * (0.010 * n + 0.005) }')
    local p0=0.0300 rel=0.05
    [ "$np" = 1 ] && p0=$p100
    # MPICH's progress polls without yielding: with more ranks than cores the
    # ranks spinning in the Test loop preempt the others, and time a rank is
    # preempted outside MPI is task time (wall clock), so the paths grow past
    # the analytic ones (+17-19 % at 4 ranks over UCX on a 2-core VM, CI
    # 2026-11-26).  A missing or doubled join is still 2-4x off.
    if [ "$RP_MPI_FLAVOR" = mpich ] && [ "$np" -gt "$(nproc 2>/dev/null || echo 1)" ]; then
        rel=0.30
        rp_note "  ($what: MPICH oversubscribed, tolerance 30 %)"
    fi
    rp_prof "$np" "$net" "$@" -- "$PROG"
    rp_expect_report "$what" || return
    rp_check_report "$what" --ranks "$np" --phases 1 --k 5 --mode "$mode" \
        --p100 "$p100" --p0 "$p0" --rel "$rel" --abs 0.015 --clean-counters
}
rp_timed nbc_case 2 shm
rp_timed nbc_case 3 shm
rp_timed nbc_case 4 tcp
rp_timed nbc_case 4 shm RP_MODE=trace
# the trace of the same run: the offline longest/shortest paths (call =
# contribution, completion = join) must equal the online 100 % / 0 % paths
rp_expect_check "nbc trace"
# A member's own call joins its own completion too (lib/mpi/wrap_coll.c
# rp_nbc_complete), as the trace's graph has it: that path skips the
# member's work between the call and the completion, so a phase's shortest
# path can take it.  acc nbc (MPI_Iallreduce, then MPI_Ireduce and MPI_Iscan,
# on the even and the odd ranks' communicators, each completed after a
# task), 5 ranks: --check's shortest paths must equal the online 0 % paths
# (before the fix 12 of 13 phases were 0.005-0.12 ms apart).
ACC=$RP_TESTS_BIN/mpi_acc
rp_require "$ACC"
rp_prof 5 shm RP_MODE=trace RP_PERIOD=0 -- "$ACC" nbc 12 6 300 5
if rp_expect_rc0 "nbc acc trace"; then
    if "$RP_BINDIR/rp-report" --check "$RP_DIR" >"$RP_RUNDIR/check2" 2>&1; then
        rp_pass "nbc own-call path: rp-report --check ($(grep '^check' "$RP_RUNDIR/check2"))"
    else
        rp_fail "nbc own-call path: rp-report --check failed"
        rp_show check "$RP_RUNDIR/check2"
    fi
fi
# path mode: a path that moves between ranks where a wait completes a
# non-blocking collective moved through that collective; with complete
# summaries nothing is a gap (tools/common/paths.c set_via; before: 18 gaps at 3
# ranks, IMB-NBC in path mode alike)
if rp_prof 3 shm RP_MODE=path -- "$PROG" && rp_expect_report "nbc path mode"; then
    "$RP_BINDIR/rp-report" "$RP_DIR" >"$RP_RUNDIR/paths.txt" 2>&1
    gaps=$(grep -c "gap: tasks missing" "$RP_RUNDIR/paths.txt")
    colls=$(grep -c "<- collective from" "$RP_RUNDIR/paths.txt")
    if [ "$gaps" = 0 ] && [ "$colls" -gt 0 ]; then
        rp_pass "nbc path mode: $colls moves through collectives, no gap"
    else
        rp_fail "nbc path mode: $gaps gap(s), $colls collective move(s)"
        rp_show paths "$RP_RUNDIR/paths.txt"
    fi
fi
rp_finish
