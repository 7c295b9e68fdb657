#!/bin/bash
# Every RP_* variable with empty, negative, overflowing, non-numeric and
# otherwise malformed values: the job's output is unchanged, rank 0 prints
# exactly one stderr line naming the variable, and the report is produced.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_fault
NP=2
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"
ARGS=(none 0 2 10)

rp_run "$NP" shm -- "$PROG" "${ARGS[@]}"
rp_expect_rc0 "reference run without the profiler" || rp_finish
REF=$RP_TMP/ref.out
rp_stdout_filtered "$RP_OUTF" >"$REF"

WD=$RP_TMP/wd
mkdir -p "$WD"

bad() { # VAR VALUE
    local var=$1 val=$2 what n
    what="$var='$val'"
    if [ "$var" = RP_OUTPUT ]; then
        # the default directory is made in the working directory
        rm -rf "${WD:?}"/*
        pushd "$WD" >/dev/null || return
        rp_prof "$NP" shm "$var=$val" -- "$PROG" "${ARGS[@]}"
        popd >/dev/null || return
        RP_DIR=$(ls -d "$WD"/rpprof-* 2>/dev/null | head -1)
    else
        rp_prof "$NP" shm "$var=$val" -- "$PROG" "${ARGS[@]}"
    fi
    rp_expect_rc0 "$what" || return
    if ! diff -u "$REF" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: program output changed"
        return
    fi
    n=$(grep -c -F -e "$var" "$RP_ERRF")
    if [ "$n" != 1 ]; then
        rp_fail "$what: $n stderr lines name $var, expected exactly 1"
        return
    fi
    if [ "$(grep -c -v -e '^rpprof\[0\]: profile written' "$RP_ERRF")" != 1 ]; then
        rp_fail "$what: more than the one warning on stderr"
        return
    fi
    if [ -z "$RP_DIR" ] || ! rp_report; then
        rp_fail "$what: no report (exit ${RP_REPORT_RC:-?})"
        return
    fi
    if ! "$PYTHON" "$RP_TESTS_SRC/mpi/check_report.py" "$RP_JSON" --ranks "$NP" --any-percentiles >/dev/null 2>&1; then
        rp_fail "$what: report check failed"
        return
    fi
    echo "  $(grep -F -e "$var" "$RP_ERRF")"
    rp_pass "$what"
}

BIG=99999999999999999999999
for v in RP_K RP_SUMMARY RP_BUFFER RP_EAGER_LIMIT RP_CHECKPOINT RP_CCT_NODES; do
    for val in "" -1 "$BIG" 4294967297 abc " 5" 5x +5 0x10 1e3; do
        bad "$v" "$val"
    done
done
# zero and just out of range
bad RP_K 0
bad RP_K 65
bad RP_SUMMARY 0
bad RP_SUMMARY 1025
bad RP_BUFFER 255
bad RP_BUFFER 65537
bad RP_EAGER_LIMIT 255
bad RP_CCT_NODES 0
bad RP_CCT_NODES 1            # issue 15: below the minimum of 2
bad RP_CCT_NODES 300000000    # issue 15: above 2^28
bad RP_CHECKPOINT 31536001
bad RP_CHAIN 268435457
bad RP_CHAIN -1
for val in "" -1 2 abc " 1" 1x; do
    bad RP_THREADS "$val"
done
for val in "" 2 abc; do
    bad RP_MAILBOX "$val"
done
for val in -1 16777217 5x; do
    bad RP_MAILBOX_BYTES "$val"
    bad RP_MAILBOX_NODE "$val"
done
for val in "" -1 "$BIG" soon 10000001 0.5; do
    bad RP_PERIOD "$val"
done
for v in RP_SELECT RP_CLOCK RP_MODE RP_TSC RP_MULTIPLE RP_MAILBOX_REFS; do
    for val in "" -1 "$BIG" bogus " repr" "wall " PROF; do
        bad "$v" "$val"
    done
done
bad RP_OUTPUT ""
rp_finish
