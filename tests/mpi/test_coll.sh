#!/bin/bash
# collective semantics (tests/mpi/mpi_coll.c): every blocking collective with
# and without MPI_IN_PLACE, on world, a duplicate, split and created sub-
# communicators, plus non-blocking collectives.
# Output must be byte-identical with and without librpprof.so, and the
# profiled run must give a valid report with the right number of ranks.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

rp_semantic "$RP_TESTS_BIN/mpi_coll" shm:1 shm:2 shm:3 shm:4 shm:8 tcp:2 tcp:3 tcp:5 \
    shm:4:RP_MODE=path tcp:3:RP_MODE=trace shm:3:RP_SELECT=topk shm:4:RP_PERIOD=0
rp_finish
