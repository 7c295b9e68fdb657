#!/bin/bash
# A hostile application and environment (tests/robust/mpi_hostile.c):
#  - the program installs its own SIGPROF handler after MPI_Init (sigaction,
#    signal) and profiles itself with ITIMER_PROF: it gets its signals and
#    only its signals, rank 0 warns once, the rank files say so;
#  - fork, exit in the child, system(), popen(): children write nothing;
#  - MPI_Initialized / MPI_Finalized before MPI_Init and after MPI_Finalize;
#  - LD_PRELOAD reaching mpirun itself and bash: they do nothing, print nothing;
#  - two jobs writing into the same RP_OUTPUT at the same time;
#  - a symbolic link planted where the measurement directory should be, a
#    world-writable directory of another user, the user's umask.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_hostile
FPROG=$RP_TESTS_BIN/mpi_fault
NP=2
rp_require "$PROG" "$FPROG" "$RP_LIB" "$RP_BINDIR/rp-report"

# only rank files (and our lock) in a measurement directory
only_rank_files() { # DIR NP
    local extra
    extra=$(cd "$1" && ls -A | grep -v -x -E 'rank-[0-9]{5}\.rpp|\.rpprof\.lock|profile\.rpm')
    [ -z "$extra" ] || { echo "unexpected files in $1: $extra"; return 1; }
    [ "$(ls "$1" | grep -c -E '^rank-[0-9]{5}\.rpp$')" = "$2" ] ||
        { echo "expected $2 rank files in $1: $(ls "$1" | tr '\n' ' ')"; return 1; }
}

# same output as without the profiler, report valid, N warning lines /PAT/
hostile_case() { # MODE NWARN PAT [VAR=VAL...]
    local mode=$1 nwarn=$2 pat=$3 what="hostile $1" ref n msg
    shift 3
    rp_run "$NP" shm -- "$PROG" "$mode"
    rp_expect_rc0 "$what (without profiler)" || return
    ref=$RP_RUNDIR/stdout.ref
    rp_stdout_filtered "$RP_OUTF" >"$ref"
    rp_prof "$NP" shm "$@" -- "$PROG" "$mode"
    rp_expect_report "$what" || return
    if ! diff -u "$ref" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: output differs with the profiler"
        rp_show diff "$RP_RUNDIR/diff"
        return
    fi
    n=$(grep -c -E -e "$pat" "$RP_ERRF")
    if [ "$n" != "$nwarn" ]; then
        rp_fail "$what: $n stderr lines match /$pat/, expected $nwarn"
        return
    fi
    if ! msg=$(only_rank_files "$RP_DIR" "$NP"); then
        rp_fail "$what: $msg"
        return
    fi
    rp_check_report "$what" --ranks "$NP" --any-percentiles
}

hostile_case sigaction 1 SIGPROF RP_PERIOD=1000
if [ "$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["counters"].get("sampling_lost_app_sigprof"))' "$RP_JSON")" != "$NP" ]; then
    rp_fail "SIGPROF taken by the program: counter sampling_lost_app_sigprof is not $NP"
fi
hostile_case signal 1 SIGPROF RP_PERIOD=1000
hostile_case fork 0 . RP_PERIOD=1000 RP_QUIET=1
hostile_case initialized 0 . RP_PERIOD=1000 RP_QUIET=1

# ---- LD_PRELOAD in mpirun's own environment (and so in every rank's) ------
preload_mpirun() {
    local what="LD_PRELOAD=librpprof.so mpirun ..." wd=$RP_TMP/pre-cwd ref
    rp_run "$NP" shm -- "$FPROG" none 0 3 20
    ref=$RP_RUNDIR/stdout.ref
    rp_stdout_filtered "$RP_OUTF" >"$ref"
    mkdir -p "$wd"
    rp_mpirun_args "$NP" shm
    RP_NRUN=$((RP_NRUN + 1))
    RP_RUNDIR=$RP_TMP/run-$RP_NRUN
    mkdir -p "$RP_RUNDIR"
    RP_OUTF=$RP_RUNDIR/stdout RP_ERRF=$RP_RUNDIR/stderr RP_DIR=$RP_RUNDIR/meas
    RP_CMD="cd $wd && LD_PRELOAD=$RP_LIB RP_OUTPUT=$RP_DIR $MPIRUN ${RP_MPIARGS[*]} $FPROG none 0 3 20"
    (cd "$wd" && LD_PRELOAD=$RP_LIB RP_OUTPUT=$RP_DIR timeout -k 5 "$RP_WATCHDOG" \
        "$MPIRUN" "${RP_MPIARGS[@]}" "$FPROG" none 0 3 20) >"$RP_OUTF" 2>"$RP_ERRF" </dev/null
    RP_RC=$?
    rp_expect_report "$what" || return
    if ! diff -u "$ref" <(rp_stdout_filtered "$RP_OUTF") >/dev/null; then
        rp_fail "$what: output differs"
        return
    fi
    # the one line rank 0 prints; nothing from mpirun
    if [ "$(grep -c . "$RP_ERRF")" != 1 ] || ! grep -q '^rpprof\[0\]: profile written to' "$RP_ERRF"; then
        rp_fail "$what: stderr is not exactly the one 'profile written' line"
        return
    fi
    if [ -n "$(ls -A "$wd")" ]; then
        rp_fail "$what: files left in the working directory: $(ls -A "$wd")"
        return
    fi
    local msg
    if ! msg=$(only_rank_files "$RP_DIR" "$NP"); then
        rp_fail "$what: $msg"
        return
    fi
    rp_pass "$what"
}
preload_mpirun

# ---- bash with the library preloaded (and the RP_* settings) --------------
out=$(cd "$RP_TMP" && LD_PRELOAD=$RP_LIB RP_K=abc RP_CHECKPOINT=x bash -c \
    'trap "echo trapped" TERM; kill -TERM $$; echo "$(echo sub)"; (exit 3); echo $?; ls / >/dev/null | wc -l' 2>&1)
if [ "$out" = "$(printf 'trapped\nsub\n3\n0')" ]; then
    rp_pass "bash under LD_PRELOAD: unchanged behaviour, nothing printed"
else
    RP_CMD="LD_PRELOAD=$RP_LIB bash -c ..."
    rp_fail "bash under LD_PRELOAD printed: $out"
fi

# ---- two jobs, one RP_OUTPUT, at the same time ----------------------------
two_jobs() {
    local what="two jobs in one RP_OUTPUT at once" shared=$RP_TMP/shared a b sub
    rp_mpirun_args "$NP" shm
    rp_mpirun_env "LD_PRELOAD=$RP_LIB" "RP_OUTPUT=$shared"
    local args=("${RP_MPIARGS[@]}")
    RP_CMD="2 x $MPIRUN ${args[*]} $FPROG none 0 12 100 (concurrently)"
    timeout -k 5 "$RP_WATCHDOG" "$MPIRUN" "${args[@]}" "$FPROG" none 0 12 100 \
        >"$RP_TMP/job1.out" 2>"$RP_TMP/job1.err" </dev/null &
    a=$!
    sleep 0.7
    timeout -k 5 "$RP_WATCHDOG" "$MPIRUN" "${args[@]}" "$FPROG" none 0 12 100 \
        >"$RP_TMP/job2.out" 2>"$RP_TMP/job2.err" </dev/null &
    b=$!
    wait $a; local ra=$?
    wait $b; local rb=$?
    RP_RC="$ra/$rb" RP_ERRF=$RP_TMP/job2.err RP_OUTF=$RP_TMP/job2.out RP_DIR=$shared
    if [ "$ra" != 0 ] || [ "$rb" != 0 ]; then
        rp_fail "$what: exit status $ra / $rb"
        return
    fi
    sub=$(ls -d "$shared"/job-* 2>/dev/null)
    if [ "$(echo "$sub" | grep -c .)" != 1 ]; then
        rp_fail "$what: expected one job-* subdirectory, found: $sub"
        return
    fi
    if [ "$(cat "$RP_TMP"/job1.err "$RP_TMP"/job2.err | grep -c 'in use by another running job')" != 1 ]; then
        rp_fail "$what: expected one 'in use' line"
        return
    fi
    local d msg
    for d in "$shared" "$sub"; do
        if ! "$RP_BINDIR/rp-report" --format json "$d" >"$RP_TMP/r.json" 2>"$RP_TMP/r.err" ||
            ! msg=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_report.py" "$RP_TMP/r.json" --ranks "$NP" --phases 13 --any-percentiles 2>&1); then
            rp_fail "$what: report of $d: $msg $(cat "$RP_TMP/r.err")"
            return
        fi
    done
    echo "  first job in $shared, second in $sub"
    rp_pass "$what"
}
two_jobs

# ---- the measurement directory in a hostile /tmp ---------------------------
dir_case() { # WHAT RP_OUTPUT PATTERN
    local what=$1 out=$2 pat=$3
    rp_prof "$NP" shm "RP_OUTPUT=$out" -- "$FPROG" none 0 3 20
    rp_expect_rc0 "$what" || return
    if [ "$(grep -c -E -e "$pat" "$RP_ERRF")" != 1 ]; then
        rp_fail "$what: expected one error line matching /$pat/"
        return
    fi
    if ! grep -q "fault none: $NP ranks" "$RP_OUTF"; then
        rp_fail "$what: the job's output is missing"
        return
    fi
    echo "  message: $(grep -E -e "$pat" "$RP_ERRF")"
    rp_pass "$what"
}
mkdir -p "$RP_TMP/victim"
ln -s "$RP_TMP/victim" "$RP_TMP/planted"
dir_case "RP_OUTPUT is a planted symbolic link to a directory" "$RP_TMP/planted" 'symbolic link'
if [ -n "$(ls -A "$RP_TMP/victim")" ]; then
    rp_fail "the symbolic link was followed: $(ls -A "$RP_TMP/victim")"
fi
ln -s "$RP_TMP/nowhere" "$RP_TMP/dangling"
dir_case "RP_OUTPUT is a dangling symbolic link" "$RP_TMP/dangling" 'symbolic link'
[ -e "$RP_TMP/nowhere" ] && rp_fail "the dangling link was followed: $RP_TMP/nowhere exists"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    mkdir -p "$RP_TMP/others"
    chown nobody "$RP_TMP/others" && chmod 0777 "$RP_TMP/others"
    dir_case "RP_OUTPUT is another user's world-writable directory" "$RP_TMP/others" 'belongs to uid'
fi

# umask 077: a private directory and private files
(umask 077 && rp_prof "$NP" shm -- "$FPROG" none 0 3 20 &&
    echo "$RP_DIR" >"$RP_TMP/umask.dir")
d=$(cat "$RP_TMP/umask.dir" 2>/dev/null)
modes=$(stat -c '%a' "$d" "$d"/rank-00000.rpp 2>/dev/null | tr '\n' ' ')
if [ "$modes" = "700 600 " ]; then
    rp_pass "umask 077: directory and files private ($modes)"
else
    rp_fail "umask 077: modes are '$modes', expected '700 600'"
fi
rp_finish
