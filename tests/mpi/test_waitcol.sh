#!/bin/bash
# A rank waiting long inside MPI (tests/mpi/mpi_waitcol.c; issue 16,
# doc/sampling.md "Waiting ranks"): the sampler slows its timer for the
# rest of a sampled wait (mpi_backoffs > 0, far fewer MPI samples than
# periods waited) and still charges the whole wait: MPI_Recv's time in the
# report's MPI profile is within 10 % of the wait rank 0 measured itself;
# rank 0's own work after each wait is sampled at the full rate again.
# nanosleep work: runs oversubscribed too.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"
P=$RP_TESTS_BIN/mpi_waitcol
rp_require "$P" "$RP_LIB" "$RP_BINDIR/rp-report"
what="waitcol np=2 RP_PERIOD=2000"
rp_prof 2 shm RP_PERIOD=2000 -- "$P" 5 200
if rp_expect_report "$what"; then
    truth=$(awk '$1 == "wait_s" { print $2 }' "$RP_OUTF")
    if out=$("$PYTHON" - "$RP_JSON" "$truth" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
truth = float(sys.argv[2])
mpi = {e["function"]: e["seconds"] for e in d.get("mpi_hotspots", [])}
c = d.get("counters", {})
got = mpi.get("MPI_Recv", 0.0)
backoffs, smpi = c.get("mpi_backoffs", 0), c.get("samples_mpi", 0)
print("MPI_Recv %.4f s, measured wait %.4f s, mpi_backoffs %d, samples_mpi %d"
      % (got, truth, backoffs, smpi))
if backoffs < 1:
    sys.exit("no backoff: the timer kept waking the waiting rank")
# 1 s waited at 2 ms: 500 samples without the backoff, ~70 with it
if smpi > 0.5 * truth / 0.002:
    sys.exit("too many samples inside MPI for a slowed timer")
if abs(got - truth) > 0.1 * truth:
    sys.exit("MPI_Recv time is not the measured wait (within 10 %)")
# rank 0's task time after each wait (sleeps of half the wait) must be
# sampled at the full rate again: 1 sample per 2 ms, not 1 per 16 ms
r0 = [r for r in d.get("per_rank", []) if r["rank"] == 0]
if not r0:
    sys.exit("no per_rank entry for rank 0")
task, n0 = r0[0]["task_seconds"], r0[0]["samples"]
print("rank 0: %.3f s of task time, %d samples (task + MPI)" % (task, n0))
if n0 < 0.6 * task / 0.002:
    sys.exit("rank 0's task time was sampled below the configured rate: "
             "the period was not restored after a wait")
PY
    ); then
        echo "  $out"
        rp_pass "$what"
    else
        rp_fail "$what: $out"
    fi
fi
rp_finish
