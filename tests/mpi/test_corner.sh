#!/bin/bash
# Corner cases (tests/mpi/mpi_corner.c): zero-count messages, an attached Bsend
# buffer, MPI_IN_PLACE with MPI_DATATYPE_NULL, error classes returned through
# the wrappers under MPI_ERRORS_RETURN, a cancelled receive.  Output must be
# identical with and without the profiler; the report must be clean.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"
rp_semantic "$RP_TESTS_BIN/mpi_corner" shm:1 shm:2 shm:3 tcp:4 shm:2:RP_MODE=trace
rp_finish
