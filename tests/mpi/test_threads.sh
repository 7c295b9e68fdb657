#!/bin/bash
# MPI_THREAD_MULTIPLE (tests/mpi/mpi_threads.c): two pthreads per rank run rings
# and allreduces on their own communicators while the main thread runs its
# own loop on MPI_COMM_WORLD.  At 1, 2 and 3 ranks over shm and tcp: no hang
# (the watchdog of tests/mpi/mpirun.sh), output identical with and without the
# profiler, a valid report, mpi_thread_level = 3 per rank and the other
# threads' MPI calls counted (2 threads x 40 iterations x 2 calls per rank).
# The program also starts a thread before MPI_Init that outlives
# MPI_Finalize, short-lived threads (return and pthread_exit, also after
# Finalize) and 300 threads at once: every rank must count the slot-table
# overflow and still exit cleanly.  Under the default RP_MULTIPLE=local every
# rank must report ranks_paths_local_only; with RP_MULTIPLE=main (the full
# exchange) none.  The cross runs pair a worker's send with the peer's main
# thread and a barrier of main and worker threads: no hang under the default;
# the barrier ends a phase only on the ranks whose main thread called it, so
# every rank must report ranks_phases_misaligned there (and then the report's
# paths are one rank's timeline: the critical path no longer than the run).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

P=$RP_TESTS_BIN/mpi_threads
rp_require "$P" "$RP_LIB" "$RP_BINDIR/rp-report"
MULTIPLE=3
ITERS=40
NT=2

mt_case() { # NP NET [SETTING [CROSS]]
    local np=$1 net=$2 setting=${3:-} cross=${4:-0} ref out local_min=$1 mis=0
    local what="mpi_threads np=$np $net${setting:+ $setting}"
    [ "$cross" = 1 ] && what="$what cross" && mis=$1
    [ "$setting" = RP_MULTIPLE=main ] && local_min=0
    rp_run "$np" "$net" -- "$P" $ITERS $NT 1 "$cross"
    rp_expect_rc0 "$what (without profiler)" || return
    if grep -q "not provided" "$RP_OUTF"; then
        echo "SKIP: $what: $(head -1 "$RP_OUTF")"
        RP_SKIPPED=$((RP_SKIPPED + 1))
        return
    fi
    ref=$RP_RUNDIR/stdout.ref
    rp_stdout_filtered "$RP_OUTF" >"$ref"
    # shellcheck disable=SC2086
    rp_prof "$np" "$net" RP_PERIOD=1000 $setting -- "$P" $ITERS $NT 1 "$cross"
    rp_expect_report "$what" || return
    if ! diff -u "$ref" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: output differs with the profiler (- without, + with)"
        rp_show diff "$RP_RUNDIR/diff"
        return
    fi
    rp_check_report "$what: report" --ranks "$np" --k 5 --clean-counters || return
    if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_threads.py" "$RP_JSON" --ranks "$np" \
        --level $MULTIPLE --overflow --other-calls-min $((np * NT * ITERS * 2)) \
        --local-only "$local_min" --misaligned "$mis" 2>&1); then
        echo "$out" | sed 's/^/  /'
        rp_pass "$what: no hang, identical output, other-thread calls counted"
    else
        rp_fail "$what: $out"
    fi
}

RP_SKIPPED=0
for cfg in shm:1 shm:2 shm:3 tcp:1 tcp:2 tcp:3; do
    mt_case "${cfg#*:}" "${cfg%%:*}"
done
# RP_MULTIPLE=main: the full exchange (each thread pairs with its own kind here)
mt_case 2 shm RP_MULTIPLE=main
mt_case 3 tcp RP_MULTIPLE=main
# a worker's send to a peer's main thread, a barrier of main and worker:
# must not hang under the default RP_MULTIPLE=local
for cfg in shm:2 shm:3 tcp:2 tcp:4; do
    mt_case "${cfg#*:}" "${cfg%%:*}" "" 1
done
if [ "$RP_SKIPPED" = 12 ] && [ "$RP_FAILS" = 0 ]; then
    echo "SKIP: this MPI does not provide MPI_THREAD_MULTIPLE"
    exit 77
fi
rp_finish
