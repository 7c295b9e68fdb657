#!/bin/bash
# Bad settings never break the job: each invalid RP_* value is reported in
# exactly one stderr line (by rank 0) naming the variable, the job runs to
# completion and prints its normal output.  RP_MODE=trace/path must either
# be rejected the same way (and the run profiled as prof) or be supported
# (no message, and the report says so).  An unwritable RP_OUTPUT gives one
# clear error and the job still completes.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_ring
NP=3
rp_require "$PROG" "$RP_LIB"

rp_run "$NP" shm -- "$PROG" 5
rp_expect_rc0 "reference run without the profiler" || rp_finish
REF=$RP_TMP/ref.out
rp_stdout_filtered "$RP_OUTF" >"$REF"

# bad_case SETTING PATTERN [MUST_ALSO_CONTAIN]
bad_case() {
    local setting=$1 pat=$2 also=${3:-} n what="$1"
    rp_prof "$NP" shm "$setting" -- "$PROG" 5
    rp_expect_rc0 "$what" || return
    if ! diff -u "$REF" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: program output changed"
        rp_show diff "$RP_RUNDIR/diff"
        return
    fi
    n=$(grep -c -E -e "$pat" "$RP_ERRF")
    if [ "$n" != 1 ]; then
        rp_fail "$what: expected exactly one stderr line matching /$pat/, got $n"
        return
    fi
    if [ -n "$also" ] && ! grep -E -e "$pat" "$RP_ERRF" | grep -q -F -e "$also"; then
        rp_fail "$what: the message does not mention '$also'"
        return
    fi
    echo "  message: $(grep -E -e "$pat" "$RP_ERRF")"
    rp_pass "$what"
}

bad_case RP_K=abc RP_K
bad_case RP_K=-1 RP_K
bad_case RP_K=100000 RP_K
bad_case RP_SELECT=bogus RP_SELECT
bad_case RP_PHASE_K=65 RP_PHASE_K 1..64

# RP_MODE=trace (and path): a runtime that does not support the mode must
# reject it like any bad value and profile as prof; one that supports it must
# run silently and say so in the report.  Anything in between fails.
mode_case() {
    local mode=$1 what="RP_MODE=$1" n want
    rp_prof "$NP" shm "RP_MODE=$mode" -- "$PROG" 5
    rp_expect_rc0 "$what" || return
    if ! diff -u "$REF" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: program output changed"
        rp_show diff "$RP_RUNDIR/diff"
        return
    fi
    n=$(grep -c -e RP_MODE "$RP_ERRF")
    case $n in
    0) want=$mode ;;
    1) want=prof
       if ! grep -e RP_MODE "$RP_ERRF" | grep -q -F -e "$mode"; then
           rp_fail "$what: the message does not name the value '$mode'"
           return
       fi ;;
    *) rp_fail "$what: $n stderr lines name RP_MODE, expected 0 (supported) or 1 (rejected)"
       return ;;
    esac
    if ! rp_report; then
        rp_fail "$what: rp-report failed (exit $RP_REPORT_RC)"
        return
    fi
    rp_check_report "$what ($([ "$want" = "$mode" ] && echo supported || echo rejected))" \
        --ranks "$NP" --mode "$want" --any-percentiles
}
mode_case trace
mode_case path
bad_case RP_MODE=nonsense RP_MODE
bad_case RP_SUMMARY=0 RP_SUMMARY
bad_case RP_PERIOD=soon RP_PERIOD
bad_case RP_OUTPUT=/proc/nope '/proc/nope|RP_OUTPUT'

# several bad settings at once: one line for each, the job still completes
rp_prof "$NP" tcp RP_K=abc RP_SELECT=bogus RP_SUMMARY=0 -- "$PROG" 5
if rp_expect_rc0 "three bad settings"; then
    ok=1
    for v in RP_K RP_SELECT RP_SUMMARY; do
        n=$(grep -c -e "$v" "$RP_ERRF")
        if [ "$n" != 1 ]; then
            rp_fail "three bad settings: $n stderr lines name $v, expected 1"
            ok=0
        fi
    done
    if [ $ok = 1 ] && ! diff -u "$REF" <(rp_stdout_filtered "$RP_OUTF") >/dev/null; then
        rp_fail "three bad settings: program output changed"
        ok=0
    fi
    [ $ok = 1 ] && rp_pass "three bad settings"
fi
rp_finish
