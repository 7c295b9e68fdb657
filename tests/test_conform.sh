#!/bin/bash
# Conformance suite, C (doc/coverage.md, "Conformance suite"):
# tests/conform_c.c (the wrapped functions no other C semantic program
# calls: Init_thread, persistent buffered/ready sends, every communicator
# constructor, every non-blocking collective) at 1, 2, 3, 4 and 8 ranks over
# shared memory and TCP.  Output must be byte-identical with and without
# librpprof.so, and the profiled run must give a valid report.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

rp_semantic "$RP_TESTS_BIN/conform_c" shm:1 shm:2 shm:3 shm:4 shm:8 tcp:1 tcp:2 tcp:3 tcp:4 tcp:8
rp_finish
