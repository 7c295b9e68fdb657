#!/bin/bash
# Conformance suite, Fortran (doc/conformance.md):
# tests/conform/conform_f.F90 calls every function of lib/mpi/mpi_functions.def but
# MPI_Abort through the Fortran bindings; it is built with `use mpi`
# (conform_f90), `include 'mpif.h'` (conform_fh) and `use mpi_f08`
# (conform_f08, ierror mostly omitted).  Output must be byte-identical with
# and without librpprof.so, and the profiled run must give a valid report.
# conform_f90 runs at 1, 2, 3, 4 and 8 ranks over shared memory and TCP;
# the other two bindings reach the same code in the profiler through other
# entry points (mpif.h: the same mpi_x_ symbols by another compile path;
# f08: mpi_x_f08_) and run at 1, 3 and 4 ranks over one transport each
# (3 ranks in path / trace mode), to keep the suite's time down: 8 ranks
# (conform_f90's, over both) take three times as long as 4 under MPICH on
# two cores, and the rank count reaches the profiler's core, which all
# three bindings share, not the binding.  MPI_Abort (conform_abort.F90,
# use mpi and use mpi_f08) must end the job with a non-zero status, not hang.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

B=$RP_TESTS_BIN

# The three bindings make the same calls, so the profiler must count the
# same path-set traffic for each (a call counted twice or missed by one
# binding's entry points - or, under MPICH, by the C wrappers that its
# mpi_f08 reaches - changes these counters).
counters() { # the last report's deterministic counters, one line
    "$PYTHON" -c 'import json, sys
c = json.load(open(sys.argv[1]))["counters"]
print(" ".join("%s=%s" % (k, c.get(k)) for k in ("pathset_msgs_sent",
      "pathset_msgs_received", "collective_joins", "unsupported_calls",
      "receives_cancelled", "pathset_decode_errors", "pathset_unmatched",
      "mpiio_files_opened")))' "$RP_JSON"
}
# same_counters PROG: the last run's report, PROG's at 4 ranks over shm
ref=
same_counters() {
    local prog=$1 got
    if [ ! -s "$RP_JSON" ]; then
        rp_fail "$prog np=4 (counters): no report"
        return
    fi
    got=$(counters)
    if [ -z "$ref" ]; then
        ref=$got
        # one MPI_File_open a rank (io()): counted once, not per entry point
        case " $got " in
        *" mpiio_files_opened=4 "*) rp_pass "$prog np=4: $got" ;;
        *) rp_fail "$prog np=4: want mpiio_files_opened=4: $got" ;;
        esac
    elif [ "$got" = "$ref" ]; then
        rp_pass "$prog np=4: same counters as conform_f90"
    else
        rp_fail "$prog np=4: counters $got, conform_f90 has $ref"
    fi
}
# shm:4 last: its report gives the counters
rp_semantic "$B/conform_f90" shm:1 shm:2 shm:3 shm:8 tcp:1 tcp:2 tcp:3 tcp:4 tcp:8 shm:4
same_counters conform_f90
rp_semantic "$B/conform_fh" shm:1 tcp:3:RP_MODE=path shm:4
same_counters conform_fh
rp_semantic "$B/conform_f08" tcp:1 shm:3:RP_MODE=trace tcp:4
rp_prof 4 shm -- "$B/conform_f08"
rp_expect_report "conform_f08 np=4 (counters)" && same_counters conform_f08

for prog in conform_abort_f90 conform_abort_f08; do
    rp_require "$B/$prog" "$RP_LIB"
    for kind in run prof; do
        "rp_$kind" 2 shm -- "$B/$prog"
        what="$prog np=2 ($kind)"
        if [ "$RP_RC" = 0 ] || [ "$RP_RC" = 124 ] || [ "$RP_RC" = 137 ]; then
            rp_fail "$what: exit status $RP_RC, expected the abort's non-zero status"
        else
            rp_pass "$what: aborted, exit status $RP_RC"
        fi
    done
done
rp_finish
