#!/bin/bash
# tests/robust/fuzz/run.sh [SECONDS] [TARGET...] - build the libFuzzer harnesses
# with clang (-fsanitize=fuzzer,address,undefined) and run each target for
# SECONDS (default 60) on a copy of its seed corpus.
#
#   targets: rpfile  (rank-file reader, lib/format/rpfile.c)
#            rpjob   (job-file index and entries, lib/format/rpjob.c)
#            profile (merged-profile reader, tools/common/profile.c)
#            pathset (path-set wire decoder, lib/core/wire.c)
#            chain   (path mode's phase-end walk records, lib/core/chain.c)
#
# Environment: FUZZ_BUILD (build and work directory, default
# ${TMPDIR:-/tmp}/rpfuzz), CC (default clang), FUZZ_JOBS (parallel fuzzing
# processes per target, default 1), FUZZ_ARGS (extra libFuzzer options).
# Crashes are saved as FUZZ_BUILD/crash-<target>-*; the script prints one
# summary line per target ("TARGET: N execs, ... crashes") and exits 1 if
# any target crashed, leaked or broke the memory limit, 0 otherwise.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
case ${1:-} in
-h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
SECS=${1:-60}
# libFuzzer reads a bad -max_total_time as 0, which means no limit
case $SECS in
''|*[!0-9]*) echo "run.sh: SECONDS must be a whole number, not '$SECS' (--help)" >&2; exit 2 ;;
esac
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(rpfile rpjob profile pathset chain)
B=${FUZZ_BUILD:-${TMPDIR:-/tmp}/rpfuzz}
CC=${CC:-clang}
mkdir -p "$B"

CORE="$(ls $TOP/lib/core/*.c $TOP/lib/format/*.c)"
CFLAGS="-g -O1 -std=gnu11 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
        -fno-sanitize-recover=undefined -I$TOP/lib -I$TOP/tools -I$HERE"

build() { # TARGET EXTRA_SOURCES
    local t=$1 extra=$2
    # shellcheck disable=SC2086
    if ! $CC $CFLAGS -o "$B/fuzz_$t" "$HERE/fuzz_$t.c" $extra $CORE -lm 2>"$B/build-$t.log"; then
        echo "$t: build failed:"
        cat "$B/build-$t.log"
        return 1
    fi
}

status=0
for t in "${TARGETS[@]}"; do
    case $t in
    rpfile | rpjob | pathset | chain) build "$t" "" || { status=1; continue; } ;;
    profile) build "$t" "$TOP/tools/common/profile.c" || { status=1; continue; } ;;
    *) echo "unknown target $t"; status=1; continue ;;
    esac
    work=$B/corpus-$t
    mkdir -p "$work"
    log=$B/fuzz-$t.log
    # -malloc_limit_mb: a hostile file may cost memory in proportion to its
    # size only; inputs are at most 64 KB, so anything near 256 MB is a bug.
    run=$B/run-$t
    rm -rf "$run"
    mkdir -p "$run"
    jobs=()
    [ "${FUZZ_JOBS:-1}" -gt 1 ] && jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
    # shellcheck disable=SC2086
    (cd "$run" && "$B/fuzz_$t" -max_total_time="$SECS" -max_len=65536 \
        -malloc_limit_mb=256 -rss_limit_mb=1024 -timeout=10 "${jobs[@]}" \
        -artifact_prefix="$B/crash-$t-" -print_final_stats=1 ${FUZZ_ARGS:-} \
        "$work" "$HERE/corpus/$t") >"$log" 2>&1
    rc=$?
    cat "$run"/fuzz-*.log >>"$log" 2>/dev/null
    execs=$(grep -h '^stat::number_of_executed_units' "$log" | awk '{ s += $2 } END { print s + 0 }')
    cov=$(grep -h -o "cov: [0-9]*" "$log" | awk '{ if ($2 > m) m = $2 } END { print m + 0 }')
    ncorp=$(ls "$work" | wc -l)
    ncrash=$(ls "$B"/crash-"$t"-* 2>/dev/null | wc -l)
    echo "$t: $execs execs in ${SECS}s, coverage ${cov:-?} edges, corpus $ncorp, $ncrash crash file(s), exit $rc (log $log)"
    if [ "$rc" != 0 ] || [ "$ncrash" != 0 ]; then
        grep -h -m5 -e 'ERROR:' -e 'SUMMARY:' -e 'runtime error' -e 'abort' "$log"
        status=1
    fi
done
exit $status
