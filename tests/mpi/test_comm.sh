#!/bin/bash
# communicator management (tests/mpi/mpi_comm.c): Comm_split/dup/create/
# free with point-to-point and collectives on them.
# Output must be byte-identical with and without librpprof.so, and the
# profiled run must give a valid report with the right number of ranks.
# Every communicator is followed: no call passes through unsupported (a
# communicator whose creation was not seen counts one), and the path-sets
# of its messages arrive.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

followed() { # WHAT: the last profiled run's counters
    local out
    if out=$("$PYTHON" -c 'import json, sys
c = json.load(open(sys.argv[1])).get("counters", {})
bad = ["%s = %r" % (k, c.get(k, 0)) for k in ("unsupported_calls", "pathset_unmatched")
       if c.get(k, 0)]
if not c.get("pathset_msgs_received", 0):
    bad.append("no path-set received")
print("; ".join(bad) or "path-sets %d, collective joins %d" %
      (c["pathset_msgs_received"], c.get("collective_joins", 0)))
sys.exit(1 if bad else 0)' "$RP_JSON" 2>&1); then
        rp_pass "$1: every communicator followed ($out)"
    else
        rp_fail "$1: $out"
    fi
}

rp_semantic "$RP_TESTS_BIN/mpi_comm" shm:1 shm:2 shm:3 shm:4 shm:8 tcp:2 tcp:3 tcp:5
followed "mpi_comm np=5 tcp"
rp_semantic "$RP_TESTS_BIN/mpi_comm" shm:4:RP_MODE=path tcp:3:RP_MODE=trace \
    shm:3:RP_SELECT=topk shm:4:RP_PERIOD=0
followed "mpi_comm np=4 RP_PERIOD=0"
rp_finish
