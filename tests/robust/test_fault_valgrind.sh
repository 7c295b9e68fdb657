#!/bin/bash
# Small MPI jobs (2 ranks) with librpprof.so preloaded into programs run
# under valgrind memcheck: no error may remain after tests/robust/valgrind.supp
# (PMIx / Open MPI padding, libunwind's address probes) and Open MPI's own
# suppressions.  Sampling on (RP_PERIOD=1000), point-to-point and
# collectives, MPI-IO, prof and trace modes, a checkpoint, and worker threads.
# (The tools and the core run under ASan/UBSan in `quickstart.sh test`;
# the preloaded runtime cannot: ASan must be the first library loaded.)
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

rp_require "$RP_LIB" "$RP_TESTS_BIN/mpi_ring" "$RP_TESTS_BIN/mpi_coll" "$RP_TESTS_BIN/mpi_fault"
rp_valgrind_setup

vg_case() { # WHAT [VAR=VAL...] -- PROG ARGS
    local what=$1 f n bad=0
    shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    # the run's number before rp_prof counts it: the logs must be read back
    # under the name they were written with
    local run=$((RP_NRUN + 1)) nlogs=0
    rp_prof 2 shm RP_PERIOD=1000 "${envs[@]}" -- valgrind -q --error-exitcode=97 \
        "${RP_VG_SUPP[@]}" --num-callers=40 --log-file="$RP_TMP/vg.$run.%p.log" "$@"
    for f in "$RP_TMP"/vg."$run".*.log; do
        [ -f "$f" ] || continue
        nlogs=$((nlogs + 1))
        # an error report starts a line "==PID== Invalid read ..."; valgrind's
        # own notes ("WARNING: valgrind ignores shmget(shmflg) SHM_HUGETLB"
        # under MPICH) are not errors
        if grep -E '^==[0-9]+== [A-Z]' "$f" | grep -q -v -E '^==[0-9]+== (WARNING|Warning):'; then
            bad=1
            rp_show "valgrind log" "$f"
        fi
    done
    if [ "$nlogs" -lt 2 ]; then
        rp_fail "$what under valgrind: $nlogs valgrind log(s) for 2 ranks ($RP_TMP/vg.$run.*.log)"
        return
    fi
    if [ "$RP_RC" != 0 ] || [ $bad = 1 ]; then
        rp_fail "$what under valgrind: exit $RP_RC (97 = memcheck errors, logs above)"
        return
    fi
    rp_report || { rp_fail "$what under valgrind: no report"; return; }
    rp_check_report "$what under valgrind: no memcheck errors" --ranks 2 --any-percentiles
}
vg_case "ring (p2p)" -- "$RP_TESTS_BIN/mpi_ring" 5
vg_case "collectives" -- "$RP_TESTS_BIN/mpi_coll"
vg_case "trace mode, checkpoints" RP_MODE=trace RP_CHECKPOINT=1 -- "$RP_TESTS_BIN/mpi_fault" none 0 12 100
# MPI-IO: files' shadows, collective and non-blocking collective file joins
vg_case "MPI-IO" -- "$RP_TESTS_BIN/mpi_io"
# worker threads (doc/sampling.md "Threads"): rings, timers, slot reuse
vg_case "threads (MULTIPLE, worker sampling)" -- "$RP_TESTS_BIN/mpi_threads" 5 2 0
if [ -x "$RP_TESTS_BIN/mpi_omp" ]; then
    vg_case "OpenMP workers sampled" OMP_NUM_THREADS=2 -- "$RP_TESTS_BIN/mpi_omp" 3 20000 2
fi
rp_finish
