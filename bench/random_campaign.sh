#!/bin/bash
# bench/random_campaign.sh - many seeds of the random MPI program under the
# profiler, for what a handful of fixed seeds in `make check` cannot find
# (two defects and a fault of the test program were found this way;
# doc/robustness.md "6b").
#
#   bench/random_campaign.sh BUILD_DIR [SEEDS [FIRST_SEED [full]]]
#
# BUILD_DIR is a configured and built tree (`make` and `make check` built
# tests/mpi_random and bench/accuracy/replay; Open MPI or MPICH, read from
# its Makefile).  Seed s runs tests/mpi_random s 40 [full] at 1..8 ranks
# (s mod 8), k = 3, 5 or 9, over shared memory or, every third block of 24
# seeds, the second transport (tests/mpi/mpirun.sh's "tcp": Open MPI's TCP,
# MPICH's MPIR_CVAR_NOLOCAL=1):
#   - RP_MODE=trace: rp-report --check must pass, and bench/accuracy/replay
#     must give every middle level of every phase the run's cost;
#   - RP_MODE=path: rp-report --check must pass (exit 0, not 3).
# Prints one line per failure and "N runs, M failed"; keeps the failed runs'
# directories, output and --check text under $CAMPAIGN_DIR (default a new
# temporary directory, named at the end).  Exit 1 if any failed.
set -u
b=${1:?usage: random_campaign.sh BUILD_DIR [SEEDS [FIRST_SEED [full]]]}
b=$(cd "$b" && pwd)
n=${2:-100}
s0=${3:-1000}
full=${4:-}
out=${CAMPAIGN_DIR:-$(mktemp -d)}
mkdir -p "$out"
mpirun=$(sed -n 's/^MPIRUN = //p' "$b/Makefile")
flavor=$(sed -n 's/^RP_MPI_FLAVOR = //p' "$b/Makefile")
lib=$b/lib/.libs/librpprof.so
for f in "$mpirun" "$lib" "$b/tests/mpi_random" "$b/bench/accuracy/replay" "$b/tools/rp-report"; do
    [ -x "$f" ] || [ -f "$f" ] || { echo "random_campaign: $f missing (build and make check first)" >&2; exit 2; }
done
# the tests' launcher options (transport, oversubscription, binding, env)
RP_TOP_BUILDDIR=$b MPIRUN=$mpirun RP_MPI_FLAVOR=$flavor
. "$(dirname "$0")/../tests/mpi/mpirun.sh"

# replay = run: every middle level's cost, from --check's JSON and the replay
replay_agrees() { # DIR K
    "$b/tools/rp-report" --check --format json "$1" > "$1.json" 2>/dev/null || return 1
    "$b/bench/accuracy/replay" "$1" "$2" 2>&1 |
        python3 "$(dirname "$0")/accuracy/replay_agrees.py" "$1.json"
}

ks=(3 5 9)
runs=0 failed=0
for ((s = s0; s < s0 + n; s++)); do
    np=$((s % 8 + 1)) k=${ks[$(((s / 8) % 3))]} net=shm
    [ $(((s / 24) % 3)) = 2 ] && net=tcp
    for mode in trace path; do
        d=$out/r.$s.$mode what="seed $s np $np k $k $net $mode${full:+ full}"
        rm -rf "$d"
        rp_mpirun_args "$np" "$net"
        rp_mpirun_env LD_PRELOAD="$lib" RP_MODE=$mode RP_K=$k RP_PERIOD=0 RP_OUTPUT="$d"
        runs=$((runs + 1))
        timeout 300 "$mpirun" "${RP_MPIARGS[@]}" "$b/tests/mpi_random" "$s" 40 $full > "$d.out" 2>&1
        rc=$?
        if [ $rc != 0 ]; then
            echo "$what: the run failed (exit $rc)"
            failed=$((failed + 1))
            continue
        fi
        timeout 600 "$b/tools/rp-report" --check "$d" > "$d.check" 2>&1
        rc=$?
        if [ $rc != 0 ]; then
            echo "$what: rp-report --check exit $rc"
            failed=$((failed + 1))
            continue
        fi
        if [ "$mode" = trace ] && ! agree=$(replay_agrees "$d" "$k"); then
            echo "$what: the replay differs from the run (levels equal, of all: ${agree:-none})"
            failed=$((failed + 1))
            continue
        fi
        rm -rf "$d" "$d.out" "$d.check" "$d.json"
    done
done
echo "$runs runs, $failed failed ($flavor; kept in $out)"
[ "$failed" = 0 ]
