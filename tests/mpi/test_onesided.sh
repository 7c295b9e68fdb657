#!/bin/bash
# One-sided communication, neighbourhood collectives, intercommunicators,
# MPI-IO and MPI_Comm_spawn (doc/design.md; programs tests/mpi/mpi_rma.c,
# mpi_neighbor.c, mpi_inter.c, mpi_io.c and the Fortran twins mpi_rma_f.f90 (`use
# mpi`) and mpi_rma_f08.f90 (`use mpi_f08`)):
#   - semantics: identical output with and without the profiler at 1 to 8
#     ranks over shm and tcp, valid reports, clean path-set counters;
#   - paths (analytic, nanosleep work of T ms):
#       Win_fence joins all: three epochs, in epoch j rank j%P works 5T,
#         the others T: 100 % = 15T (without the join at most 11T);
#       a neighbourhood allgather joins the in-neighbours only: directed
#         ring, slow ranks 0, 1, 3 in three steps: 100 % = 11T (all-join
#         15T, no join 7T), blocking and non-blocking;
#       an intercommunicator barrier joins both groups (merged shadow):
#         as for the fence, 15T;
#       MPI-IO's collective operations join all (mpi_io.c): five epochs
#         ended by open, write_at_all, iread_at_all + Wait, a split
#         write_at_all_begin/_end and close, slow rank j % P in epoch j:
#         100 % = 25T (one join missing: at most 21T).
# MPI_Comm_accept/connect: likewise where ports work (not MPICH 4.0.2/ucx).
# MPI_Comm_spawn: run where the MPI can spawn (Open MPI here; MPICH 4.0.2's
# hydra refuses it on this machine even without the profiler: SKIP with
# the reason, see doc/design.md "Spawn").
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

B=$RP_TESTS_BIN
# Open MPI: the test transports turn off vader's single-copy mechanism (CMA,
# often forbidden in containers), and without it the default one-sided
# component (osc rdma) cannot create windows over vader or tcp.  osc pt2pt
# runs RMA over the pml (so shm/tcp stay what they say), osc sm serves
# Win_allocate_shared.  Plain and profiled runs get the same setting.
export OMPI_MCA_osc=sm,pt2pt
# counters_ok WHAT MIN_MSGS [rma|none]: the last profiled run joined
# everything it should (no call passed through as unsupported) and received
# at least MIN_MSGS point-to-point path-sets; rma / none: it did / did not
# count one-sided synchronisations it cannot follow
counters_ok() {
    local out
    if out=$("$PYTHON" -c '
import json, sys
c = json.load(open(sys.argv[1])).get("counters", {})
bad = []
if c.get("unsupported_calls", 0):
    bad.append("unsupported_calls = %r" % c["unsupported_calls"])
if c.get("pathset_msgs_received", 0) < int(sys.argv[2]):
    bad.append("pathset_msgs_received = %r" % c.get("pathset_msgs_received", 0))
if not c.get("collective_joins", 0):
    bad.append("no collective joins")
# lock/unlock and post/start/complete/wait are not followed: counted (a
# loss counter, warned), and only where the program calls them
rma = c.get("rma_sync_unfollowed", 0)
if len(sys.argv) > 3 and (rma > 0) != (sys.argv[3] == "rma"):
    bad.append("rma_sync_unfollowed = %r" % rma)
print("; ".join(bad) or "joins %d, path-set messages %d" %
      (c["collective_joins"], c.get("pathset_msgs_received", 0)))
sys.exit(1 if bad else 0)' "$RP_JSON" "$2" "${3:-}" 2>&1); then
        rp_pass "$1: counters ($out)"
    else
        rp_fail "$1: counters: $out"
    fi
}
rp_semantic "$B/mpi_rma" shm:1 shm:2 tcp:3 shm:4 tcp:8
counters_ok "mpi_rma np=8" 0 rma
rp_semantic "$B/mpi_neighbor" shm:1 tcp:2 shm:3 tcp:4 shm:8
counters_ok "mpi_neighbor np=8" 0 none
rp_semantic "$B/mpi_inter" shm:1 shm:2 tcp:3 shm:4 tcp:8
counters_ok "mpi_inter np=8 (path-sets across the intercommunicator)" 8
# every wrapped MPI-IO call; one file a rank opened, counted once
rp_semantic "$B/mpi_io" shm:1 tcp:2 shm:3 tcp:4
counters_ok "mpi_io np=4" 0 none
if "$PYTHON" -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["counters"].get("mpiio_files_opened") != 4)' "$RP_JSON"; then
    rp_pass "mpi_io np=4: mpiio_files_opened = 4"
else
    rp_fail "mpi_io np=4: mpiio_files_opened is not 4"
fi
# MPI-IO calls that fail on every member (a file's errors return): the
# failed collective ones are joined alike on all members, nothing waits
IOERR=$RP_TMP/mpi_io_errors
printf '#!/bin/sh\nexec "%s" errors\n' "$B/mpi_io" >"$IOERR"
chmod +x "$IOERR"
rp_semantic "$IOERR" shm:1 tcp:3 shm:4
# files per process over MPI_COMM_SELF, 1100 open at once (fewer where
# the open-file limit is lower): no shadow each, or MPICH runs out of
# communicator ids and aborts the job
nself=1100
lim=$(ulimit -n)
if [ "$lim" != unlimited ] && [ "$lim" -lt $((nself + 200)) ]; then
    nself=$((lim - 200))
    echo "note: open-file limit $lim: mpi_io self with $nself files"
fi
IOSELF=$RP_TMP/mpi_io_self
printf '#!/bin/sh\nexec "%s" self %d\n' "$B/mpi_io" "$nself" >"$IOSELF"
chmod +x "$IOSELF"
rp_semantic "$IOSELF" shm:2
# The Fortran twins (same calls; f08 with ierror omitted): between them
# every rank count and both transports, without doubling the test time.
if [ -x "$B/mpi_rma_f" ]; then
    rp_semantic "$B/mpi_rma_f" shm:1 tcp:2 shm:3 tcp:4 shm:8
    rp_semantic "$B/mpi_rma_f08" tcp:1 shm:2 tcp:8
else
    echo "SKIP: mpi_rma_f, mpi_rma_f08 (no MPI Fortran compiler)"
fi

# spawn: does this MPI spawn at all (without the profiler)?  rp_semantic
# runs a program without arguments: a wrapper that execs `mpi_inter spawn`
# (the children are started from /proc/self/exe, i.e. mpi_inter itself).
SPAWN=$RP_TMP/mpi_inter_spawn
printf '#!/bin/sh\nexec "%s" spawn\n' "$B/mpi_inter" >"$SPAWN"
chmod +x "$SPAWN"
# Over tcp only: Open MPI 4.1.4's shared-memory BTL (vader) does not reach
# a spawned job ("unable to reach each other", even without the profiler).
rp_run 1 tcp -- "$SPAWN"
if [ "$RP_RC" = 0 ]; then
    rp_semantic "$SPAWN" tcp:1 tcp:2 tcp:3
    # Under rp-run only the processes mpirun starts are profiled: the
    # children run without the profiler, and nothing may wait for them
    # (the communicators reaching into their job are not shadowed).
    rp_run 2 tcp -- "$SPAWN"
    rp_stdout_filtered "$RP_OUTF" >"$RP_TMP/spawn.ref"
    rp_prun 2 tcp -- "$SPAWN"
    if rp_expect_report "spawn under rp-run (unprofiled children) np=2 tcp"; then
        if diff -u "$RP_TMP/spawn.ref" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
            rp_pass "spawn under rp-run (unprofiled children) np=2 tcp: identical output, report"
        else
            rp_fail "spawn under rp-run: output differs with the profiler"
            rp_show diff "$RP_RUNDIR/diff"
        fi
    fi
else
    echo "SKIP: MPI_Comm_spawn fails here without the profiler ($RP_MPI_FLAVOR, exit $RP_RC): $(grep -m1 -o 'Error in spawn call' "$RP_ERRF" || tail -1 "$RP_ERRF")"
fi

# Ports (MPI_Comm_accept/connect within our world: shadowed, so path-sets
# cross and collectives join; the counters say so): where the MPI can open
# ports (MPICH 4.0.2's ucx netmod cannot, even without the profiler).
PORTS=$RP_TMP/mpi_inter_ports
printf '#!/bin/sh\nexec "%s" ports\n' "$B/mpi_inter" >"$PORTS"
chmod +x "$PORTS"
rp_run 2 shm -- "$PORTS"
if [ "$RP_RC" = 0 ]; then
    rp_semantic "$PORTS" shm:2 tcp:3 shm:4
    counters_ok "ports np=4 (path-sets across accept/connect)" 2
    if [ -x "$B/mpi_ports_f" ]; then
        rp_semantic "$B/mpi_ports_f" shm:1 tcp:2 shm:3
        counters_ok "Fortran ports np=3" 1
    fi
else
    echo "SKIP: MPI_Open_port fails here without the profiler ($RP_MPI_FLAVOR, exit $RP_RC): $(grep -m1 -o 'not supported with [a-z]* netmod' "$RP_ERRF" || tail -1 "$RP_ERRF")"
fi

# path_case WHAT P100_T NP NET -- PROG ARGS: the 100 % path is P100_T * T
T_MS=20
path_case() {
    local what=$1 mult=$2 np=$3 net=$4
    shift 5
    local p100
    p100=$(awk -v m="$mult" -v t="$T_MS" 'BEGIN { printf "%.4f", m * t / 1000 }')
    rp_prof "$np" "$net" -- "$@"
    rp_expect_report "$what np=$np $net" || return
    rp_check_report "$what np=$np $net: 100 % path = ${mult}T" --ranks "$np" --phases 1 --k 5 \
        --mode prof --p100 "$p100" --rel 0.05 --abs 0.015 --clean-counters
}
# only these runs are timed: they alone hold the exclusive lock
# (mpirun.sh), the others run beside other tests' runs under make -j
RP_TIMING=1
rp_timed path_case "Win_fence joins all" 15 3 shm -- "$B/mpi_rma" path "$T_MS"
rp_timed path_case "Win_fence joins all" 15 4 tcp -- "$B/mpi_rma" path "$T_MS"
rp_timed path_case "Neighbor_allgather joins in-neighbours" 11 4 shm -- "$B/mpi_neighbor" path "$T_MS" 1
rp_timed path_case "Ineighbor_allgather joins in-neighbours" 11 4 tcp -- "$B/mpi_neighbor" path "$T_MS" 0
rp_timed path_case "intercomm Barrier joins both groups" 15 4 shm -- "$B/mpi_inter" path "$T_MS"
rp_timed path_case "MPI-IO collectives join all" 25 3 shm -- "$B/mpi_io" path "$T_MS"
rp_timed path_case "MPI-IO collectives join all" 25 4 tcp -- "$B/mpi_io" path "$T_MS"
RP_TIMING=0

# Trace mode: window fences are collective edges of the trace (their shadow
# has a uid like any communicator); neighbourhood and intercommunicator
# collectives are not joined there.  Either way the offline longest/shortest
# paths must equal the online 100 % / 0 % paths.
trace_check() { # WHAT NP NET -- PROG ARGS
    local what=$1 np=$2 net=$3
    shift 4
    rp_prof "$np" "$net" RP_MODE=trace -- "$@"
    rp_expect_report "$what trace np=$np $net" || return
    rp_expect_check "$what trace np=$np $net"
}
trace_check "Win_fence" 4 shm -- "$B/mpi_rma" path "$T_MS"
trace_check "rma semantic" 3 tcp -- "$B/mpi_rma"
trace_check "intercomm" 4 shm -- "$B/mpi_inter"
trace_check "neighbor" 3 tcp -- "$B/mpi_neighbor"
trace_check "MPI-IO" 4 shm -- "$B/mpi_io" path "$T_MS"
trace_check "MPI-IO semantic" 3 tcp -- "$B/mpi_io"
rp_finish
