#!/bin/bash
# OpenMP under MPI_THREAD_FUNNELED (tests/mpi/mpi_omp.c): worker threads are
# sampled and their samples charged to the MPI thread's task, so the 100 %
# path's profile shows rp_omp_worker_kernel, a function only OpenMP worker
# threads run.  At 1, 2 and 3 ranks over shm and tcp: the program's output
# is identical with and without the profiler, the report is valid, the
# counters say which thread level was provided and that worker samples were
# charged.  Under MPI_THREAD_SERIALIZED, collectives made by a worker thread
# on some ranks and by the main thread on others still match.  RP_THREADS=0
# and RP_PERIOD=0 sample no worker thread.  SKIP when
# configure found no -fopenmp for the MPI C compiler.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

if [ "${RP_OPENMP:-yes}" != yes ]; then
    echo "SKIP: ${MPICC:-mpicc} does not accept -fopenmp (configure), tests/mpi_omp not built"
    exit 77
fi
P=$RP_TESTS_BIN/mpi_omp
rp_require "$P" "$RP_LIB" "$RP_BINDIR/rp-report"
# two cores: two threads per rank; waiting threads sleep instead of spinning
export OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive

FUNNELED=1
omp_case() { # NP NET
    local np=$1 net=$2 ref out
    local what="mpi_omp np=$np $net"
    rp_run "$np" "$net" -- "$P"
    rp_expect_rc0 "$what (without profiler)" || return
    ref=$RP_RUNDIR/stdout.ref
    rp_stdout_filtered "$RP_OUTF" >"$ref"
    rp_prof "$np" "$net" RP_PERIOD=2000 -- "$P"
    rp_expect_report "$what" || return
    if ! diff -u "$ref" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: output differs with the profiler (- without, + with)"
        rp_show diff "$RP_RUNDIR/diff"
        return
    fi
    rp_check_report "$what: report" --ranks "$np" --k 5 --clean-counters || return
    if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_threads.py" "$RP_JSON" --ranks "$np" \
        --level $FUNNELED --worker-fn rp_omp_worker_kernel --main-fn rp_omp_master_kernel \
        --other-calls-min 0 2>&1); then
        echo "$out" | sed 's/^/  /'
    else
        rp_fail "$what: $out"
        return
    fi
    # the thread counters are informational: never a warning in the text report
    if "$RP_BINDIR/rp-report" "$RP_DIR" 2>&1 | grep -E 'warning: (mpi_thread_level|mpi_calls_other_threads|threads_sampled|thread_samples( |_charged|_rank_only))'; then
        rp_fail "$what: an informational thread counter is shown as a warning"
        return
    fi
    rp_pass "$what: worker samples on the 100% path, identical output"
}

for cfg in shm:1 shm:2 shm:3 tcp:1 tcp:2 tcp:3; do
    rp_timed omp_case "${cfg#*:}" "${cfg%%:*}"
done

# MPI_THREAD_SERIALIZED: one OpenMP thread per rank makes a collective,
# the main thread on even ranks and a worker on odd ones.  Serialized calls
# from any thread are events, so the collectives still match: no hang (a
# short watchdog), identical output, and the odd ranks' calls counted.
SERIALIZED=2
ser_case() { # NP NET
    local np=$1 net=$2 ref out
    local what="mpi_omp serialized np=$np $net"
    rp_run "$np" "$net" -- "$P" 12 50000 4 serialized
    rp_expect_rc0 "$what (without profiler)" || return
    ref=$RP_RUNDIR/stdout.ref
    rp_stdout_filtered "$RP_OUTF" >"$ref"
    RP_WATCHDOG=60 rp_prof "$np" "$net" RP_PERIOD=2000 -- "$P" 12 50000 4 serialized
    rp_expect_report "$what" || return
    if ! diff -u "$ref" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: output differs with the profiler (- without, + with)"
        rp_show diff "$RP_RUNDIR/diff"
        return
    fi
    rp_check_report "$what: report" --ranks "$np" --k 5 --clean-counters || return
    if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_threads.py" "$RP_JSON" --ranks "$np" \
        --level $SERIALIZED --worker-fn rp_omp_worker_kernel \
        --other-calls-min $((np / 2 * 12)) 2>&1); then
        echo "$out" | sed 's/^/  /'
        rp_pass "$what: no hang, identical output, worker-thread collectives profiled"
    else
        rp_fail "$what: $out"
    fi
}
for cfg in shm:2 shm:3 tcp:2 tcp:3; do
    rp_timed ser_case "${cfg#*:}" "${cfg%%:*}"
done

# switched off: no worker timers at all
for setting in RP_THREADS=0 RP_PERIOD=0; do
    what="mpi_omp np=2 shm $setting"
    rp_prof 2 shm "$setting" -- "$P" 4
    if rp_expect_report "$what"; then
        if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_threads.py" "$RP_JSON" --ranks 2 \
            --level $FUNNELED --no-threads 2>&1); then
            rp_pass "$what: $out"
        else
            rp_fail "$what: $out"
        fi
    fi
done
# the same through rp-run's option
what="mpi_omp np=2 shm rp-run --threads 0"
rp_prun 2 shm -- --threads 0 "$P" 4
if rp_expect_report "$what"; then
    if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_threads.py" "$RP_JSON" --ranks 2 \
        --level $FUNNELED --no-threads 2>&1); then
        rp_pass "$what: $out"
    else
        rp_fail "$what: $out"
    fi
fi
rp_finish
