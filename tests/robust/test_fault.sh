#!/bin/bash
# Faults in the job (tests/robust/mpi_fault.c): a rank segfaults, calls MPI_Abort or
# dies of SIGTERM after some phases, or the whole job is stopped by a
# timeout's SIGTERM.  Every rank that could write leaves its file up to its
# last completed phase (RP_CHECKPOINT=1: checkpoints every second), every
# file that exists is whole (rp-merge reads it; no temporary file is left),
# files written before MPI_Finalize say so (counter tail_lost = 1), and
# rp-report names exactly the ranks that left nothing.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_fault
NP=4
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report" "$RP_BINDIR/rp-merge"

# counter NAME of one rank file (0 if absent): the counter table stores a
# length byte, the name and a little-endian u64 (doc/formats.md, CNTR)
rank_counter() { # FILE NAME
    "$PYTHON" - "$1" "$2" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
key = bytes([len(sys.argv[2])]) + sys.argv[2].encode()
i = data.find(key)
print(struct.unpack_from("<Q", data, i + len(key))[0] if i >= 0 else 0)
PY
}

# fault_case WHAT MODE VICTIM NPHASES NOCKPT WANT_MISSING WANT_PHASES [ENV...]
#   WANT_MISSING: ranks rp-report must name as missing ("" = none, "[1]")
#   WANT_PHASES: exact number of phases in the report, or "min:N"
fault_case() {
    local what=$1 mode=$2 victim=$3 nph=$4 nockpt=$5 missing=$6 phases=$7
    shift 7
    rp_prof "$NP" shm RP_CHECKPOINT=1 RP_QUIET=1 "$@" -- "$PROG" "$mode" "$victim" "$nph" 80 "$nockpt"
    if [ "$RP_RC" = 0 ] && [ "$mode" != none ]; then
        rp_fail "$what: the job should have failed (exit 0)"
        return
    fi
    local f tmp n=0 bad=0
    tmp=$(find "$RP_DIR" -name '*.tmp.*' 2>/dev/null | head -3)
    if [ -n "$tmp" ]; then
        rp_fail "$what: temporary files left: $tmp"
        return
    fi
    for f in "$RP_DIR"/rank-*.rpp; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        if [ "$mode" != none ] && [ "$(rank_counter "$f" tail_lost)" != 1 ]; then
            rp_fail "$what: $(basename "$f") does not say it was written before MPI_Finalize"
            bad=1
        fi
    done
    [ $bad = 1 ] && return
    if [ $n = 0 ]; then
        rp_fail "$what: no rank file at all"
        return
    fi
    if ! "$RP_BINDIR/rp-merge" "$RP_DIR" >"$RP_RUNDIR/merge.out" 2>"$RP_RUNDIR/merge.err"; then
        rp_fail "$what: rp-merge failed: $(cat "$RP_RUNDIR/merge.err")"
        return
    fi
    # expected: missing ranks, checkpoints of different ages, the summary
    if grep -v -E -e ': missing$' -e 'ranks missing or unreadable; merged the other' \
        -e 'phase statistics differ on' -e 'profile\.rpm: [0-9]+ of [0-9]+ ranks' \
        "$RP_RUNDIR/merge.err" | grep -q .; then
        rp_fail "$what: rp-merge complained about a file: $(cat "$RP_RUNDIR/merge.err")"
        return
    fi
    if ! rp_report; then
        rp_fail "$what: rp-report failed (exit $RP_REPORT_RC)"
        return
    fi
    local out
    if ! out=$("$PYTHON" - "$RP_JSON" "$NP" "$missing" "$phases" "$n" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
np_, missing, phases, nfiles = int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
want_missing = json.loads(missing) if missing else []
err = []
if j.get("ranks_expected", j["ranks"]) != np_:
    err.append("ranks_expected %r, expected %d" % (j.get("ranks_expected"), np_))
if sorted(j.get("ranks_missing", [])) != want_missing:
    err.append("ranks_missing %r, expected %r" % (j.get("ranks_missing"), want_missing))
if j["ranks"] != nfiles:
    err.append("%d ranks merged but %d files" % (j["ranks"], nfiles))
if phases.startswith("min:"):
    if j["phases"] < int(phases[4:]):
        err.append("%d phases, expected at least %s" % (j["phases"], phases[4:]))
elif j["phases"] != int(phases):
    err.append("%d phases, expected %s" % (j["phases"], phases))
c = [p["cost_seconds"] for p in j["paths"]]
if any(a < b for a, b in zip(c, c[1:])) or c[0] <= 0:
    err.append("path costs %r" % c)
print("ranks %d of %d, missing %r, phases %d, tail_lost %s" % (j["ranks"], np_,
      j.get("ranks_missing"), j["phases"], j["counters"].get("tail_lost")))
if err:
    print("CHECK FAILED " + "; ".join(err))
    sys.exit(1)
PY
    ); then
        rp_fail "$what: $out"
        return
    fi
    echo "  $out"
    rp_pass "$what"
}

# 30 phases of ~80 ms: checkpoints at about 1 s and 2 s on every rank.
# The victim never checkpoints (NOCKPT=1): it is the one rank missing.
fault_case "rank 1 segfaults after 30 phases" segv 1 30 1 "[1]" min:10
fault_case "rank 2 dies of SIGTERM after 30 phases" term 2 30 1 "[2]" min:10
# MPI_Abort: the aborting rank writes all its 30 phases itself; mpirun then
# kills the others, which leave their last checkpoints.
fault_case "rank 3 calls MPI_Abort after 30 phases" abort 3 30 1 "" 30
fault_case "rank 0 calls MPI_Abort after 5 phases, no checkpoints at all" abort 0 5 1 "[1, 2, 3]" 5 RP_CHECKPOINT=0
# (trace mode: rp-report rebuilds the paths from the phases every rank has)
fault_case "MPI_Abort in trace mode" abort 1 30 1 "" min:10 RP_MODE=trace
# the whole job is stopped by a timeout (SIGTERM to mpirun, forwarded)
RP_WATCHDOG=4 fault_case "job killed by a timeout's SIGTERM" hang 0 0 0 "" min:10
# and a job that ends normally carries no tail_lost mark
rp_prof "$NP" shm RP_CHECKPOINT=1 -- "$PROG" none 0 30 80
if rp_expect_report "normal end with checkpoints"; then
    lost=$("$PYTHON" -c 'import json,sys; c=json.load(open(sys.argv[1]))["counters"]; print(c.get("tail_lost"), c.get("checkpoints"))' "$RP_JSON")
    if [ "${lost%% *}" != 0 ] || [ "${lost##* }" = 0 ] || [ "${lost##* }" = None ]; then
        rp_fail "normal end with checkpoints: tail_lost/checkpoints = $lost, expected 0 and > 0"
    else
        rp_pass "normal end with checkpoints (tail_lost 0, checkpoints $lost)"
    fi
fi
rp_finish
