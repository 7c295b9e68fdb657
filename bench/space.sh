#!/bin/bash
# bench/space.sh - permanent space (rank-file bytes) of RP_MODE=trace, path
# and prof, for bench/space_stencil.c at several rank counts and two run
# lengths.  Prints a Markdown table (doc/performance.md).
#
#   bench/space.sh [BUILDDIR]        # BUILDDIR holds lib/.libs/librpprof.so
#
# Knobs (environment): SPACE_RANKS (default "2 4 8 16"), SPACE_ITERS
# (default "50 500": 1x and 10x), SPACE_MODES (default "trace path prof"),
# MPICC, MPIRUN.  Every run uses the profiler's defaults (RP_K=5, sampling
# at the default period); ranks are oversubscribed on whatever cores there
# are (the work is nanosleep).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$PWD}
lib=$build/lib/.libs/librpprof.so
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
ranks=${SPACE_RANKS:-2 4 8 16}
iters=${SPACE_ITERS:-50 500}
modes=${SPACE_MODES:-trace path prof}
[ -f "$lib" ] || { echo "space.sh: $lib not built" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-space.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
"$MPICC" -O1 -o "$work/space_stencil" "$src/bench/space_stencil.c" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset RP_K RP_PERIOD RP_SUMMARY RP_SELECT RP_MODE RP_OUTPUT

echo "| ranks | iterations | mode | phases | total bytes | bytes/rank | vs trace | seconds |"
echo "|---:|---:|---|---:|---:|---:|---:|---:|"
for np in $ranks; do
    for it in $iters; do
        trace_total=
        for mode in $modes; do
            out=$work/m-$np-$it-$mode
            t0=$(date +%s.%N)
            if ! timeout 300 "$MPIRUN" -np "$np" --oversubscribe --bind-to none --mca pml ob1 \
                --mca btl self,vader --mca btl_vader_single_copy_mechanism none \
                --mca mpi_yield_when_idle 1 \
                -x LD_PRELOAD="$lib" -x RP_MODE="$mode" -x RP_OUTPUT="$out" \
                "$work/space_stencil" "$it" >"$out.log" 2>&1; then
                echo "| $np | $it | $mode | run failed (see below) | | | | |"
                tail -5 "$out.log" >&2
                continue
            fi
            t1=$(date +%s.%N)
            total=$(cat "$out"/rank-*.rpp | wc -c)
            phases=$("$build/tools/rp-report" --format json "$out" 2>/dev/null |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["phases"])' 2>/dev/null)
            [ "$mode" = trace ] && trace_total=$total
            rel=
            [ -n "$trace_total" ] && rel=$(awk -v a="$total" -v b="$trace_total" \
                'BEGIN { printf "%.1f %%", 100 * a / b }')
            printf '| %s | %s | %s | %s | %s | %s | %s | %.1f |\n' "$np" "$it" "$mode" \
                "${phases:-?}" "$total" "$((total / np))" "$rel" \
                "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
        done
    done
done
