#!/bin/bash
# Every RP_* variable with empty, negative, overflowing, non-numeric and
# otherwise malformed values: the job's output is unchanged, rank 0 prints
# exactly one stderr line naming each malformed variable, and the report is
# produced.  Several variables are malformed in one launch (one reader reads
# each on its own), which keeps the launches few.
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

# bad VAR=VALUE...: one launch with every listed variable malformed.  Each
# is read by the one settings reader on its own, so a launch checks several:
# each must be named by exactly one stderr line (grep -w: RP_MAILBOX must not
# count RP_MAILBOX_BYTES's line) and there must be no other line.
bad() {
    local what="$*" kv var n envs=() vars=()
    for kv in "$@"; do
        envs+=("$kv")
        vars+=("${kv%%=*}")
    done
    if [ "${vars[0]}" = RP_OUTPUT ]; then
        # the default directory is made in the working directory
        rm -rf "${WD:?}"/*
        pushd "$WD" >/dev/null || return
        rp_prof "$NP" shm "${envs[@]}" -- "$PROG" "${ARGS[@]}"
        popd >/dev/null || return
        RP_DIR=$(ls -d "$WD"/rpprof-* 2>/dev/null | head -1)
    else
        rp_prof "$NP" shm "${envs[@]}" -- "$PROG" "${ARGS[@]}"
    fi
    rp_expect_rc0 "$what" || return
    if ! diff -u "$REF" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: program output changed"
        return
    fi
    for var in "${vars[@]}"; do
        n=$(grep -c -w -F -e "$var" "$RP_ERRF")
        if [ "$n" != 1 ]; then
            rp_fail "$what: $n stderr lines name $var, expected exactly 1"
            return
        fi
    done
    n=$(grep -c -v -e '^rpprof\[0\]: profile written' "$RP_ERRF")
    if [ "$n" != "${#vars[@]}" ]; then
        rp_fail "$what: $n warnings on stderr, expected ${#vars[@]} (one a variable)"
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
    grep -v -e '^rpprof\[0\]: profile written' "$RP_ERRF" | sed 's/^/  /'
    rp_pass "$what"
}

BIG=99999999999999999999999
for val in "" -1 "$BIG" 4294967297 abc " 5" 5x +5 0x10 1e3; do
    bad RP_K="$val" RP_SUMMARY="$val" RP_BUFFER="$val" RP_EAGER_LIMIT="$val" \
        RP_CHECKPOINT="$val" RP_CCT_NODES="$val" RP_JOBFILE="$val"
done
# zero and just out of range (RP_CCT_NODES 1: below the minimum of 2;
# 300000000: above 2^28)
bad RP_K=0 RP_SUMMARY=0 RP_BUFFER=255 RP_EAGER_LIMIT=255 RP_CCT_NODES=0 \
    RP_CHECKPOINT=31536001 RP_CHAIN=-1
bad RP_K=65 RP_SUMMARY=1025 RP_BUFFER=65537 RP_CCT_NODES=1 RP_CHAIN=268435457
bad RP_CCT_NODES=300000000
THREADS=("" -1 2 abc " 1" 1x)
MAILBOX=("" 2 abc)
MBYTES=(-1 16777217 5x)
PERIOD=("" -1 "$BIG" soon 10000001 0.5)
for i in 0 1 2 3 4 5; do
    set -- RP_THREADS="${THREADS[$i]}" RP_PERIOD="${PERIOD[$i]}"
    if [ "$i" -lt 3 ]; then
        set -- "$@" RP_MAILBOX="${MAILBOX[$i]}" RP_MAILBOX_BYTES="${MBYTES[$i]}" \
            RP_MAILBOX_NODE="${MBYTES[$i]}"
    fi
    bad "$@"
done
for val in "" -1 "$BIG" bogus " repr" "wall " PROF; do
    bad RP_SELECT="$val" RP_CLOCK="$val" RP_MODE="$val" RP_TSC="$val" \
        RP_MULTIPLE="$val" RP_MAILBOX_REFS="$val" RP_JOBFILE_IO="$val"
done
bad RP_OUTPUT=
rp_finish
