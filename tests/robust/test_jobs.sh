#!/bin/bash
# One job per report (doc/robustness.md "Job identity"): two jobs run one
# after the other into the same measurement directory, the second one dying
# early (tests/robust/mpi_fault.c), so that the directory holds rank files of
# both.  rp-report must report the newest job only, name every file it left
# out in every view (text, json, html) and count the left-out ranks as
# missing ("ranks 1 of 2"); rp-merge must refuse the mix, naming the files,
# unless given --newest-job.  When the second job dies before writing any
# file, the report must say that its files are an older job's.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_fault
NP=2
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report" "$RP_BINDIR/rp-merge"

# first_job MEAS: a 2-rank job of 3 phases that ends normally, into MEAS
first_job() {
    rp_prof "$NP" shm RP_OUTPUT="$1" RP_QUIET=1 -- "$PROG" none 0 3 40
    RP_DIR=$1
    if [ "$RP_RC" != 0 ] || [ ! -e "$1/rank-00000.rpp" ] || [ ! -e "$1/rank-00001.rpp" ]; then
        rp_fail "first job into $1: exit $RP_RC or rank files missing"
        return 1
    fi
    # a profile.rpm of the first job, as a user would have merged it
    "$RP_BINDIR/rp-merge" -q "$1" >/dev/null 2>&1
}

# check_mixed WHAT MEAS LEFT PHASES: the directory holds the newest job's
# rank 0 and an older job's rank 1 (the file LEFT, e.g. rank-00001.rpp)
check_mixed() {
    local what=$1 meas=$2 left=$3 phases=$4 out
    RP_DIR=$meas
    # rp-merge refuses, naming the file, and writes nothing
    rm -f "$meas/profile.rpm.new"
    if "$RP_BINDIR/rp-merge" -o "$meas/profile.rpm.new" "$meas" >"$RP_RUNDIR/merge.out" \
        2>"$RP_RUNDIR/merge.err"; then
        rp_fail "$what: rp-merge merged rank files of two jobs: $(cat "$RP_RUNDIR/merge.err")"
        return
    fi
    if ! grep -q "$meas/$left: another job" "$RP_RUNDIR/merge.err" ||
        ! grep -q "2 jobs" "$RP_RUNDIR/merge.err" || [ -e "$meas/profile.rpm.new" ]; then
        rp_fail "$what: rp-merge's refusal does not name $left: $(cat "$RP_RUNDIR/merge.err")"
        return
    fi
    # ... unless asked to take the newest job
    if ! "$RP_BINDIR/rp-merge" --newest-job -o "$meas/profile.rpm.new" "$meas" \
        >/dev/null 2>"$RP_RUNDIR/merge2.err" || ! grep -q "1 of 2 ranks" "$RP_RUNDIR/merge2.err"; then
        rp_fail "$what: rp-merge --newest-job: $(cat "$RP_RUNDIR/merge2.err")"
        return
    fi
    rm -f "$meas/profile.rpm.new"
    # rp-report, json: the newest job's rank 0 only; rank 1 missing and its file named
    if ! rp_report "$meas"; then
        rp_fail "$what: rp-report failed (exit $RP_REPORT_RC)"
        return
    fi
    if ! out=$("$PYTHON" - "$RP_JSON" "$left" "$phases" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
left, phases = sys.argv[2], sys.argv[3]
err = []
if (j["ranks"], j["ranks_expected"], j["ranks_missing"]) != (1, 2, [1]):
    err.append("ranks %r of %r, missing %r; expected 1 of 2, missing [1]"
               % (j["ranks"], j["ranks_expected"], j["ranks_missing"]))
lo = j.get("left_out_files", [])
if len(lo) != 1 or ("/" + left + ": job ") not in lo[0]:
    err.append("left_out_files %r, expected %s" % (lo, left))
if not any(w["counter"] is None and left in w["message"] and "left out" in w["message"]
           for w in j["warnings"]):
    err.append("no warning names %s: %r" % (left, j["warnings"]))
if phases.startswith("min:"):
    if j["phases"] < int(phases[4:]):
        err.append("%d phases: not the newest job's (at least %s)" % (j["phases"], phases[4:]))
elif j["phases"] != int(phases):
    err.append("%d phases: not the newest job's %s" % (j["phases"], phases))
print("ranks %d of %d, missing %r, %d phases, left out %r" % (j["ranks"], j["ranks_expected"],
      j["ranks_missing"], j["phases"], lo))
if err:
    print("CHECK FAILED " + "; ".join(err))
    sys.exit(1)
PY
    ); then
        rp_fail "$what: $out"
        return
    fi
    # text and html say it too
    local text
    text=$("$RP_BINDIR/rp-report" "$meas" 2>/dev/null)
    if ! grep -q "ranks 1 of 2" <<<"$text" || ! grep -q "left out, of another job" <<<"$text" ||
        ! grep -q "$meas/$left: job " <<<"$text"; then
        rp_fail "$what: the text report does not say 'ranks 1 of 2' and name $left:
$(head -20 <<<"$text")"
        return
    fi
    if ! "$RP_BINDIR/rp-report" -f html "$meas" 2>/dev/null | grep -q "$left: job "; then
        rp_fail "$what: the html report does not name $left"
        return
    fi
    echo "  $out"
    rp_pass "$what"
}

# 1. The second job's rank 0 calls MPI_Abort after one phase, with no
#    checkpoints: it writes its file, rank 1 is killed and leaves none, so
#    rank-00001.rpp is still the first job's.
M1=$RP_TMP/jobs-abort
if first_job "$M1"; then
    rp_prof "$NP" shm RP_OUTPUT="$M1" RP_QUIET=1 RP_CHECKPOINT=0 -- "$PROG" abort 0 1 40
    check_mixed "second job: rank 0 calls MPI_Abort after 1 phase" "$M1" rank-00001.rpp 1
fi

# 2. The second job's rank 1 dies of SIGSEGV (never checkpointing) while
#    rank 0 checkpoints (RP_CHECKPOINT=1 over 15 phases of ~60 ms): rank 0
#    is the second job's, rank 1 the first's.
M2=$RP_TMP/jobs-segv
if first_job "$M2"; then
    rp_prof "$NP" shm RP_OUTPUT="$M2" RP_QUIET=1 RP_CHECKPOINT=1 -- "$PROG" segv 1 15 80 1
    check_mixed "second job: rank 1 killed, rank 0 left a checkpoint" "$M2" rank-00001.rpp min:8
fi

# 3. The second job's rank 1 dies before its first phase ends and rank 0 is
#    killed before any checkpoint: the second job leaves no rank file at
#    all.  The files are the first job's: rp-report must say so, rp-merge
#    must refuse without --newest-job.
M3=$RP_TMP/jobs-nofile
if first_job "$M3"; then
    rp_prof "$NP" shm RP_OUTPUT="$M3" RP_QUIET=1 RP_CHECKPOINT=1 -- "$PROG" segv 1 0 40 1
    RP_DIR=$M3
    what="second job: rank 1 killed before its first phase ends, no file written"
    if "$RP_BINDIR/rp-merge" -o "$M3/p.rpm" "$M3" >/dev/null 2>"$RP_RUNDIR/merge.err" ||
        ! grep -q "left no rank file" "$RP_RUNDIR/merge.err"; then
        rp_fail "$what: rp-merge did not refuse: $(cat "$RP_RUNDIR/merge.err")"
    elif ! rp_report "$M3"; then
        rp_fail "$what: rp-report failed (exit $RP_REPORT_RC)"
    elif ! "$PYTHON" -c '
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if any("left no rank file" in w["message"] and "older job" in w["message"]
                  for w in j["warnings"]) else 1)' "$RP_JSON"; then
        rp_fail "$what: the json report does not say the files are an older job's"
    elif ! "$RP_BINDIR/rp-report" "$M3" 2>/dev/null | grep -q "this report is of an OLDER job"; then
        rp_fail "$what: the text report does not say the files are an older job's"
    else
        rp_pass "$what"
    fi
fi

# 4. One job into a fresh directory: no job warning, rp-merge content.
M4=$RP_TMP/jobs-one
if first_job "$M4"; then
    if ! "$RP_BINDIR/rp-merge" "$M4" >/dev/null 2>"$RP_RUNDIR/merge.err" ||
        grep -q -e "another job" -e "older job" -e "[0-9] jobs" "$RP_RUNDIR/merge.err"; then
        rp_fail "one job: rp-merge: $(cat "$RP_RUNDIR/merge.err")"
    elif ! rp_report "$M4" || grep -q "left_out_files\": \[\"" "$RP_JSON" ||
        grep -q -e "another job" -e "older job" -e "several jobs" -e "[0-9] jobs" "$RP_JSONERR" ||
        grep -q -e "another job" -e "older job" "$RP_JSON"; then
        rp_fail "one job: the report speaks of other jobs"
    else
        rp_pass "one job: no job warning"
    fi
fi
rp_finish
