#!/bin/bash
# point-to-point semantics (tests/mpi_p2p.c): wildcards, tag order, the
# Wait/Test families, Sendrecv(_replace), self and MPI_PROC_NULL, persistent
# requests, all send modes, Probe/Iprobe, Cancel, rendezvous-size messages.
# Output must be byte-identical with and without librpprof.so, and the
# profiled run must give a valid report with the right number of ranks.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

rp_semantic "$RP_TESTS_BIN/mpi_p2p" shm:1 shm:2 shm:3 shm:4 shm:8 tcp:2 tcp:3 tcp:5 \
    shm:4:RP_MODE=path tcp:3:RP_MODE=trace shm:3:RP_SELECT=topk shm:4:RP_PERIOD=0
rp_finish
