#!/bin/bash
# bench/scale_tools.sh - how rpprof's output and post-processing scale
# (doc/performance.md).
#
#   bench/scale_tools.sh [BUILDDIR [RESULTDIR]]
#
# Part 1, profile bytes: bench/apps/stencil (nanosleep work, oversubscribed)
# under the profiler (default RP_PERIOD) for every ranks x iterations x k;
# reports the total bytes of the rank files, the merged profile.rpm written
# by rp-merge, and the contexts in it.
# Part 2, post-processing: synthetic rank files from tests/mkrankfiles
# (BUILDDIR/tests/mkrankfiles; `make tests/mkrankfiles`), for each file count
# x tree size: wall time and peak resident memory (/usr/bin/time -v) of
# rp-merge DIR, then of rp-report --format json DIR (reads the profile.rpm),
# and MB/s of rank files merged.  The files are read from the page cache.
#
# Knobs (environment):
#   SCALE_RANKS   (default "2 4 8 16")     SCALE_K      (default "1 5 8")
#   SCALE_ITERS   (default "250 2500": 1x and 10x)
#   SCALE_WORK_US (default 200: nanosleep between events)
#   SCALE_FILES   (default "1024 4096")    SCALE_EXTRA  (default "300 2000":
#                 mkrankfiles --extra, i.e. about that many CCT nodes a rank)
#   SCALE_QUICK=1 (a smoke test: 2 4 ranks, k 5, 64 256 files)
#   SCALE_PART    (default "1 2")          MPICC, MPIRUN, PYTHON
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$PWD}" && pwd)
results=${2:-$build/bench-apps}
lib=$build/lib/.libs/librpprof.so
merge=$build/tools/rp-merge
report=$build/tools/rp-report
mkrank=$build/tests/mkrankfiles
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
PYTHON=${PYTHON:-python3}
ranks=${SCALE_RANKS:-2 4 8 16}
ks=${SCALE_K:-1 5 8}
iters=${SCALE_ITERS:-250 2500}
work_us=${SCALE_WORK_US:-200}
files=${SCALE_FILES:-1024 4096}
extras=${SCALE_EXTRA:-300 2000}
parts=${SCALE_PART:-1 2}
if [ "${SCALE_QUICK:-0}" = 1 ]; then ranks="2 4" ks=5 files="64 256"; fi
for f in "$lib" "$merge" "$report"; do
    [ -x "$f" ] || [ -f "$f" ] || { echo "scale_tools.sh: $f not built" >&2; exit 1; }
done
mkdir -p "$results" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-scale.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LC_ALL=C
unset RP_K RP_PERIOD RP_SUMMARY RP_SELECT RP_MODE RP_OUTPUT RP_CLOCK LD_PRELOAD
out=$results/scale.md
: >"$out"
say() { printf '%s\n' "$*" | tee -a "$out"; }

if [[ " $parts " == *" 1 "* ]]; then
    "$MPICC" -O2 -g -fno-omit-frame-pointer -o "$work/stencil" "$src/bench/apps/stencil.c" || exit 1
    say "### Profile bytes: stencil, nanosleep work of ${work_us} µs between events, default RP_PERIOD"
    say ""
    say "| ranks | iterations | k | seconds | rank files, bytes | bytes/rank | profile.rpm, bytes | contexts | phases |"
    say "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for np in $ranks; do
        for it in $iters; do
            for k in $ks; do
                m=$work/m-$np-$it-$k
                t0=$(date +%s.%N)
                if ! timeout -k 5 600 "$MPIRUN" -np "$np" --oversubscribe --bind-to none --mca pml ob1 \
                    --mca btl self,vader --mca btl_vader_single_copy_mechanism none \
                    --mca mpi_yield_when_idle 1 -x LD_PRELOAD="$lib" -x RP_OUTPUT="$m" -x RP_K="$k" \
                    "$work/stencil" --iters "$it" --work-us "$work_us" --sleep >"$m.log" 2>&1; then
                    say "| $np | $it | $k | run failed: $(tail -1 "$m.log") | | | | | |"
                    continue
                fi
                t1=$(date +%s.%N)
                total=$(cat "$m"/rank-*.rpp | wc -c)
                "$merge" -q "$m" >"$m.merge" 2>&1 || { say "| $np | $it | $k | rp-merge failed: $(tail -1 "$m.merge") | | | | | |"; continue; }
                rpm=$(wc -c <"$m/profile.rpm")
                ctx=$(sed -n 's/.*ranks, \([0-9]*\) contexts.*/\1/p' "$m.merge" | tail -1)
                phases=$("$report" --format json "$m" 2>/dev/null |
                    "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["phases"])' 2>/dev/null)
                say "$(printf '| %s | %s | %s | %.1f | %s | %s | %s | %s | %s |' "$np" "$it" "$k" \
                    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$total" \
                    "$((total / np))" "$rpm" "${ctx:-?}" "${phases:-?}")"
                rm -rf "$m"
            done
        done
    done
    say ""
fi

if [[ " $parts " == *" 2 "* ]]; then
    [ -x "$mkrank" ] || { echo "scale_tools.sh: $mkrank not built (make tests/mkrankfiles)" >&2; exit 1; }
    # peak RSS (KB) and wall seconds of a command, from /usr/bin/time -v
    timed() { # logfile cmd...
        local log=$1
        shift
        local t0 t1
        t0=$(date +%s.%N)
        /usr/bin/time -v "$@" >"$log.out" 2>"$log" || { echo "FAILED: $* (see below)" >&2; tail -5 "$log" >&2; return 1; }
        t1=$(date +%s.%N)
        T_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    }
    rss_of() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }
    say "### Post-processing: synthetic rank files (tests/mkrankfiles --k 5), page cache warm"
    say ""
    say "| rank files | CCT nodes/rank | KB/rank | input MB | merged contexts | profile.rpm KB | rp-merge s | rp-merge MB/s | rp-merge peak RSS MB | rp-report json s | rp-report peak RSS MB |"
    say "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for ex in $extras; do
        for n in $files; do
            d=$work/syn-$n-$ex
            "$mkrank" "$d" "$n" --k 5 --extra "$ex" >/dev/null || { echo "mkrankfiles failed" >&2; exit 1; }
            # (find, not a glob: 100 000 names pass the argument limit)
            bytes=$(find "$d" -name 'rank-*.rpp' -exec cat {} + | wc -c)
            find "$d" -name 'rank-*.rpp' -exec cat {} + >/dev/null # warm the page cache for both tools alike
            timed "$work/merge.log" "$merge" -q "$d" || continue
            ms=$T_WALL mr=$(rss_of "$work/merge.log")
            ctx=$(sed -n 's/.*ranks, \([0-9]*\) contexts.*/\1/p' "$work/merge.log" | tail -1)
            rpm=$(wc -c <"$d/profile.rpm")
            timed "$work/report.log" "$report" --format json "$d" || continue
            rs=$T_WALL rr=$(rss_of "$work/report.log")
            nodes="~$((ex + 20))" # --extra nodes plus mkrankfiles' fixed tree
            say "$(awk -v n="$n" -v nodes="$nodes" -v b="$bytes" -v ctx="${ctx:-?}" -v rpm="$rpm" \
                -v ms="$ms" -v mr="$mr" -v rs="$rs" -v rr="$rr" 'BEGIN {
                printf "| %d | %s | %.1f | %.1f | %s | %.0f | %.2f | %.0f | %.0f | %.2f | %.0f |", n, nodes,
                    b / n / 1024, b / 1e6, ctx, rpm / 1024, ms, (ms > 0 ? b / 1e6 / ms : 0), mr / 1024, rs, rr / 1024 }')"
            rm -rf "$d"
        done
    done
    say ""
fi
echo "(written to $out)" >&2
