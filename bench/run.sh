#!/bin/sh
# bench/run.sh - rpprof's benchmark suite (`make bench`; never part of `make check`).
#
#   bench/run.sh [RESULTS-DIR]
#
# Builds bench/pingpong.c and bench/collective.c with $MPICC, runs every
# configuration in $BENCH_LAUNCHES separate mpirun launches (plain, floor and
# profiled variants interleaved inside each launch: see the programs'
# headers), then writes the measured tables into $BENCH_DOC between the
# markers "<!-- BEGIN GENERATED -->" and "<!-- END GENERATED -->" (the text
# around them is kept), and the same section to RESULTS-DIR/results.md.
#
# Environment:
#   RP_LIB          librpprof.so to preload (default: ../lib/.libs/librpprof.so
#                   next to this script, then ./lib/.libs/librpprof.so)
#   MPICC, MPIRUN   (default mpicc, mpirun)      PYTHON (default python3)
#   BENCH_DOC       file to update (default: doc/performance.md next to bench/;
#                   BENCH_DOC=none: only RESULTS-DIR/results.md)
#   BENCH_LAUNCHES  launches per configuration (default 5)
#   BENCH_QUICK=1   fewer repetitions and launches (a smoke test, ~1 minute)
# Takes about 4-6 minutes on a 2-core machine.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${1:-$PWD/bench-results}
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
PYTHON=${PYTHON:-python3}
[ "$PYTHON" = none ] && PYTHON=python3
BENCH_DOC=${BENCH_DOC:-$top/doc/performance.md}
L=${BENCH_LAUNCHES:-5}
QUICK=${BENCH_QUICK:-0}

if [ -z "${RP_LIB:-}" ]; then
    for c in "$top/lib/.libs/librpprof.so" "$PWD/lib/.libs/librpprof.so"; do
        [ -f "$c" ] && RP_LIB=$c && break
    done
fi
if [ -z "${RP_LIB:-}" ] || [ ! -f "$RP_LIB" ]; then
    echo "bench/run.sh: librpprof.so not found; build it first or set RP_LIB" >&2
    exit 1
fi

# Open MPI refuses root without these; harmless otherwise.
if [ "$(id -u)" = 0 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi

rm -rf "$out"
mkdir -p "$out"
echo "bench: results in $out, library $RP_LIB"

CFLAGS_B="-O2 -g -Wall"
"$MPICC" $CFLAGS_B -o "$out/pingpong" "$here/pingpong.c"
"$MPICC" $CFLAGS_B -o "$out/collective" "$here/collective.c"

if [ "$QUICK" = 1 ]; then
    L=2; PP_N=5000; PP_R=5; TCP_N=1000; C2_N=2000; C4_N=200; CR=5
else
    PP_N=20000; PP_R=11; TCP_N=2000; C2_N=5000; C4_N=500; CR=11
fi

# Busy share (percent) of all CPUs over 0.5 s, from /proc/stat.
cpu_busy() {
    [ -r /proc/stat ] || { echo 0; return; }
    a=$(head -1 /proc/stat); sleep 0.5; b=$(head -1 /proc/stat)
    echo "$a
$b" | awk '{ t = 0; for (i = 2; i <= NF; i++) t += $i; idle = $5 + $6
                 if (NR == 1) { t1 = t; i1 = idle } else { t2 = t; i2 = idle } }
               END { d = t2 - t1; printf "%d\n", (d > 0) ? 100 * (1 - (i2 - i1) / d) : 0 }'
}

# Other jobs on the machine distort every figure: before each launch wait
# (at most BENCH_QUIET_WAIT seconds in all, default 120) for the CPUs to be
# under 15 % busy, and record the share seen ($stem.busy; flagged in the tables).
echo "${BENCH_QUIET_WAIT:-120}" > "$out/quiet-left"   # shared by the loops' subshells
wait_quiet() {
    left=$(cat "$out/quiet-left")
    busy=$(cpu_busy)
    while [ "$busy" -ge 15 ] && [ "$left" -gt 0 ]; do
        sleep 2; left=$((left - 3)); busy=$(cpu_busy)
    done
    echo "$left" > "$out/quiet-left"
    echo "$busy"
}

# One launch.  $1 = file stem, $2 = number of ranks, $3 = "prof" (preload)
# or "none", $4 = extra mpirun options, $5.. = env assignments then -- then
# the program and its arguments.
BIND="--bind-to none"
launch() {
    stem=$1 np=$2 pre=$3 mopts=$4
    shift 4
    envs=""
    while [ "$1" != -- ]; do envs="$envs -x $1"; shift; done
    shift
    over=""
    [ "$np" -gt 2 ] && over="--oversubscribe"
    rm -rf "$out/$stem.rpdir"
    if [ "$pre" = prof ]; then
        envs="$envs -x LD_PRELOAD=$RP_LIB -x RP_QUIET=1 -x RP_OUTPUT=$out/$stem.rpdir"
    fi
    cmd="$MPIRUN -np $np $BIND $over $mopts$envs $*"
    echo "$cmd" > "$out/$stem.cmd"
    wait_quiet > "$out/$stem.busy"
    if ! $cmd < /dev/null > "$out/$stem.out" 2> "$out/$stem.err"; then
        echo "bench: FAILED: $cmd (see $out/$stem.err)" >&2
        exit 1
    fi
    if [ -d "$out/$stem.rpdir" ]; then
        "$PYTHON" "$here/rpcounters.py" "$out/$stem.rpdir" > "$out/$stem.cnt"
        rm -rf "$out/$stem.rpdir"
    fi
}

# Mean path-set bytes per point-to-point message of a profiled run identical
# to the measured ones (with sampling, summaries grow with the run's length).
calibrate() {   # $1 = stem, $2 = mpirun options, $3 = RP_PERIOD, $4 = RP_K, $5 = bytes, $6 = N
    launch "$1" 2 prof "$2" RP_PERIOD="$3" RP_K="$4" -- \
        "$out/pingpong" -m plain,floor,prof,iplain,ifloor,iprof -b "$5" -n "$6" -r "$PP_R"
    awk '$1 == "pathset_bytes_per_msg" { printf "%d\n", $2 + 0.5 }' "$out/$1.cnt"
}

# name | transport options | RP_PERIOD | RP_K | payload bytes | iterations
PPCONF="shm-k5-p0||0|5|8|$PP_N
shm-k5-p5000||5000|5|8|$PP_N
shm-k8-p0||0|8|8|$PP_N
shm-k8-p5000||5000|8|8|$PP_N
shm-k5-p0-1KB||0|5|1024|$PP_N
tcp-k5-p0|--mca btl tcp,self|0|5|8|$TCP_N
tcp-k5-p5000|--mca btl tcp,self|5000|5|8|$TCP_N"

: > "$out/configs.txt"
echo "$PPCONF" | while IFS='|' read -r name mopts period k bytes n; do
    echo "bench: pingpong $name"
    if [ "$period" = 0 ]; then
        side=$((12 + 9 * k + 8 * (k - 1)))   # wire v5, no intervals, full sketch, costs < 2^32 ns
    else
        side=$(calibrate "pp-$name.cal" "$mopts" "$period" "$k" "$bytes" "$n")
    fi
    echo "pingpong|$name|$mopts|$period|$k|$bytes|$side|$n" >> "$out/configs.txt"
    i=1
    while [ $i -le "$L" ]; do
        launch "pp-$name.$i" 2 prof "$mopts" RP_PERIOD="$period" RP_K="$k" -- \
            "$out/pingpong" -m plain,floor,prof,iplain,ifloor,iprof \
            -b "$bytes" -s "$side" -n "$n" -r "$PP_R"
        i=$((i + 1))
    done
done

# Separate launches, alternating: uninstrumented vs preloaded (RP_PERIOD=0),
# to show the launch-to-launch ("fast"/"slow") spread the in-process pairing avoids.
echo "bench: pingpong separate launches"
i=1
while [ $i -le "$L" ]; do
    launch "sep-plain.$i" 2 none "" RP_PERIOD=0 -- "$out/pingpong" -m prof -n "$PP_N" -r 5
    launch "sep-prof.$i" 2 prof "" RP_PERIOD=0 -- "$out/pingpong" -m prof -n "$PP_N" -r 5
    i=$((i + 1))
done

# name | ranks | RP_PERIOD | RP_K | iterations
CCONF="2r-p0|2|0|5|$C2_N
4r-p0|4|0|5|$C4_N
2r-p5000|2|5000|5|$C2_N
4r-p5000|4|5000|5|$C4_N"
echo "$CCONF" | while IFS='|' read -r name np period k n; do
    echo "bench: collective $name"
    side=$((12 + 9 * k + 8 * (k - 1)))   # wire v5, no intervals, full sketch, costs < 2^32 ns
    echo "collective|$name|$np|$period|$k|$side|$n" >> "$out/configs.txt"
    i=1
    while [ $i -le "$L" ]; do
        launch "coll-$name.$i" "$np" prof "" RP_PERIOD="$period" RP_K="$k" -- \
            "$out/collective" -m plain,floor,floor512,prof -s "$side" -c "$side" \
            -n "$n" -r "$CR" -w $((n / 10))
        i=$((i + 1))
    done
done

# CPU cost of the path-set work per message (no MPI; lib/ core only).
echo "bench: path-set CPU cost"
if ${CC:-cc} -std=gnu11 -O2 -I"$top/lib" -o "$out/pathset_cost" "$here/pathset_cost.c" \
        "$top/lib/core/pathset.c" "$top/lib/core/wire.c" "$top/lib/core/select.c" "$top/lib/core/summary.c" -lm 2> "$out/pathset_cost.err"; then
    for sel in repr paper; do
        for k in 5 8; do
            for iv in 0 4 16 32; do
                "$out/pathset_cost" "$k" "$iv" 100000 "$sel" >> "$out/pathset_cost.out"
            done
        done
    done
else
    echo "bench: pathset_cost did not build (see $out/pathset_cost.err); skipped" >&2
fi

"$PYTHON" "$here/analyze.py" "$out" > "$out/results.md"
if [ "$BENCH_DOC" != none ]; then
    "$PYTHON" "$here/analyze.py" --splice "$BENCH_DOC" "$out/results.md"
    echo "bench: updated $BENCH_DOC"
fi
echo "bench: done; tables in $out/results.md"
