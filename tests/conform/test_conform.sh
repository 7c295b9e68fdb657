#!/bin/bash
# Conformance suite, C (doc/conformance.md): tests/conform/conform_c.c (the wrapped
# functions no other C semantic program calls: Init_thread, persistent
# buffered/ready sends, every communicator constructor, every non-blocking
# collective) at 1, 2, 3, 4 and 8 ranks over shared memory and TCP; then
# the configurations of that grid which the existing C semantic programs'
# own scripts (test_p2p/coll/comm/corner/nbc.sh) do not run.  Output must be
# byte-identical with and without librpprof.so, and the profiled run must
# give a valid report.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

B=$RP_TESTS_BIN
rp_semantic "$B/conform_c" shm:1 shm:2 shm:3 shm:4 shm:8 tcp:1 tcp:2 tcp:3 tcp:4 tcp:8
for p in mpi_p2p mpi_coll mpi_comm; do
    rp_semantic "$B/$p" tcp:1 tcp:4 tcp:8
done
for p in mpi_corner mpi_nbc; do
    rp_semantic "$B/$p" shm:4 shm:8 tcp:1 tcp:2 tcp:3 tcp:8
done
rp_finish
