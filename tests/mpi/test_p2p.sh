#!/bin/bash
# point-to-point semantics (tests/mpi/mpi_p2p.c): wildcards, tag order, the
# Wait/Test families, Sendrecv(_replace), self and MPI_PROC_NULL, persistent
# requests, all send modes, Probe/Iprobe, Cancel, rendezvous-size messages.
# Output must be byte-identical with and without librpprof.so, and the
# profiled run must give a valid report with the right number of ranks.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

rp_semantic "$RP_TESTS_BIN/mpi_p2p" shm:1 shm:2 shm:3 shm:4 shm:8 tcp:2 tcp:3 tcp:5 \
    shm:4:RP_MODE=path tcp:3:RP_MODE=trace shm:3:RP_SELECT=topk shm:4:RP_PERIOD=0

# Path mode with a 256-task buffer: a phase of mpi_p2p overflows the index
# space, and its later tasks are committed eagerly, before the buffer's
# lazily committed ones.  Every rank must still write its file (tasks in
# event order, as the format requires) and count the overflow.  (Under
# MPICH the default 65 536 overflowed in Test-polling phases, and ranks
# lost their files to "events not increasing".)
what="mpi_p2p np=3 shm RP_MODE=path RP_BUFFER=256"
rp_prof 3 shm RP_MODE=path RP_BUFFER=256 -- "$RP_TESTS_BIN/mpi_p2p"
if rp_expect_report "$what" &&
    rp_check_report "$what: every rank file written" --ranks 3 --k 5 --mode path --clean-counters; then
    eager=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["counters"].get("tasks_committed_eagerly", 0))' "$RP_JSON")
    if [ "${eager:-0}" -gt 0 ]; then
        rp_pass "$what: $eager tasks committed eagerly"
    else
        rp_fail "$what: no task was committed eagerly (the case tests nothing)"
    fi
fi
rp_finish
