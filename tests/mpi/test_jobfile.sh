#!/bin/bash
# One file per job (RP_JOBFILE, doc/environment.md; job.rpj, doc/formats.md
# "Job file"): tests/mpi/mpi_ring at 1..4 ranks with RP_JOBFILE=1 writes
# exactly one job.rpj and no rank file, and rp-report --format json of it
# equals the report of its entries split into rank files by
# tests/tools/jobfile.py (the same run, so the comparison is exact); also in
# path mode (the full-path reader).  The threshold: RP_JOBFILE=3 at 2 ranks
# and RP_JOBFILE=0 write rank files.  A job file that cannot be written (a
# directory in the way of job.rpj.tmp) falls back to rank files on every
# rank, with one warning and the counter jobfile_fallback.  Checkpoints
# written during the run (tests/robust/mpi_fault, RP_CHECKPOINT=1) are gone
# once the job file holds the final data.  RP_JOBFILE_IO=gather (rank 0
# writes the file, taking each rank's part over MPI) gives the same
# checks, its fallback included (rank 0 cannot create the file).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_ring
JOBPY=$RP_TESTS_SRC/tools/jobfile.py
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"

count() { # DIR GLOB: how many entries of DIR match
    local n=0 f
    for f in "$1"/$2; do [ -e "$f" ] && n=$((n + 1)); done
    echo "$n"
}

job_case() { # NP [VAR=VAL ...]
    local np=$1
    shift
    local what="job file np=$np${*:+ $*}"
    rp_prof "$np" shm RP_JOBFILE=1 "$@" -- "$PROG" 10
    rp_expect_rc0 "$what" || return
    local nj nr
    nj=$(count "$RP_DIR" job.rpj) nr=$(count "$RP_DIR" 'rank-*.rpp')
    if [ "$nj" != 1 ] || [ "$nr" != 0 ] || [ -e "$RP_DIR/job.rpj.tmp" ]; then
        rp_fail "$what: $nj job files and $nr rank files (expected 1 and 0, no job.rpj.tmp)"
        return
    fi
    local how="MPI-IO"
    case " $* " in *" RP_JOBFILE_IO=gather "*) how="gathered by rank 0" ;; esac
    if ! grep -q "profile written to .*/job.rpj ($how; " "$RP_ERRF"; then
        rp_fail "$what: rank 0 does not say it wrote job.rpj ($how)"
        return
    fi
    rp_report || { rp_fail "$what: rp-report of the job file failed"; return; }
    local split=$RP_RUNDIR/split
    if ! "$PYTHON" "$JOBPY" split "$RP_DIR/job.rpj" "$split" 2>"$RP_RUNDIR/split.err"; then
        rp_fail "$what: jobfile.py split: $(cat "$RP_RUNDIR/split.err")"
        return
    fi
    if [ "$(count "$split" 'rank-*.rpp')" != "$np" ]; then
        rp_fail "$what: the job file holds $(count "$split" 'rank-*.rpp') entries, not $np"
        return
    fi
    "$RP_BINDIR/rp-report" --format json "$split" >"$RP_RUNDIR/split.json" 2>&1
    if ! cmp -s "$RP_JSON" "$RP_RUNDIR/split.json"; then
        rp_fail "$what: report of the job file differs from that of its entries as rank files"
        diff "$RP_JSON" "$RP_RUNDIR/split.json" | head -20
        return
    fi
    rp_check_report "$what" --ranks "$np" --phases 1
}

rank_case() { # NP [VAR=VAL ...]: rank files, no job file
    local np=$1
    shift
    local what="rank files np=$np $*"
    rp_prof "$np" shm "$@" -- "$PROG" 10
    rp_expect_rc0 "$what" || return
    if [ "$(count "$RP_DIR" job.rpj)" != 0 ] || [ "$(count "$RP_DIR" 'rank-*.rpp')" != "$np" ]; then
        rp_fail "$what: expected $np rank files and no job file"
        return
    fi
    rp_expect_report "$what" || return
    rp_check_report "$what" --ranks "$np" --phases 1
}

fallback_case() { # NP [VAR=VAL ...]: the job file cannot be created
    local np=$1 dir=$RP_TMP/fallback-$1${2:+-${2#*=}}
    shift
    local what="job file np=$np${*:+ $*} blocked: rank files instead"
    mkdir -p "$dir/job.rpj.tmp/x"
    rp_prof "$np" shm RP_JOBFILE=1 RP_OUTPUT="$dir" "$@" -- "$PROG" 10
    RP_DIR=$dir
    rp_expect_rc0 "$what" || return
    if [ "$(count "$dir" job.rpj)" != 0 ] || [ "$(count "$dir" 'rank-*.rpp')" != "$np" ]; then
        rp_fail "$what: expected $np rank files and no job.rpj"
        return
    fi
    local n
    n=$(grep -c "could not write the job file .*jobfile_fallback" "$RP_ERRF")
    if [ "$n" != 1 ]; then
        rp_fail "$what: $n fallback warnings, expected 1"
        return
    fi
    rp_expect_report "$what" || return
    if ! "$PYTHON" - "$RP_JSON" "$np" <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        if "jobfile_fallback" in o:
            return o["jobfile_fallback"]
        for v in o.values():
            x = find(v)
            if x is not None:
                return x
    if isinstance(o, list):
        for v in o:
            x = find(v)
            if x is not None:
                return x
    return None
v = find(r)
if v is None or (v.get("total", v) if isinstance(v, dict) else v) != int(sys.argv[2]):
    sys.exit("jobfile_fallback: %r, expected %s (summed over ranks)" % (v, sys.argv[2]))
PY
        rp_fail "$what: counter jobfile_fallback not in the report as expected"
        return
    fi
    rp_pass "$what"
}

ckpt_case() { # checkpoints during the run, superseded by the job file
    local what="job file np=3 with RP_CHECKPOINT=1: checkpoints removed"
    local prog=$RP_TESTS_BIN/mpi_fault
    if [ ! -x "$prog" ]; then
        rp_fail "$what: $prog not built"
        return
    fi
    # 25 phases of 80 ms: a checkpoint at least every second
    rp_prof 3 shm RP_JOBFILE=1 RP_CHECKPOINT=1 -- "$prog" none 0 25 80
    rp_expect_rc0 "$what" || return
    if [ "$(count "$RP_DIR" job.rpj)" != 1 ] || [ "$(count "$RP_DIR" 'rank-*.rpp')" != 0 ]; then
        rp_fail "$what: expected job.rpj alone"
        return
    fi
    rp_expect_report "$what" || return
    # the checkpoints were written (and then removed)
    if ! "$PYTHON" -c '
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
v = c["checkpoints"]
v = v.get("total", v) if isinstance(v, dict) else v
sys.exit(0 if v >= 3 else "checkpoints %r" % v)' "$RP_JSON"; then
        rp_fail "$what: no checkpoint was written"
        return
    fi
    # MPI_Finalize ends one more phase
    rp_check_report "$what" --ranks 3 --phases 26
}

for np in 1 2 3 4; do
    job_case "$np"
done
job_case 3 RP_MODE=path
job_case 1 RP_JOBFILE_IO=gather
job_case 4 RP_JOBFILE_IO=gather
job_case 3 RP_JOBFILE_IO=gather RP_MODE=path
rank_case 2 RP_JOBFILE=3
rank_case 3 RP_JOBFILE=0
fallback_case 3
fallback_case 3 RP_JOBFILE_IO=gather
ckpt_case
rp_finish
