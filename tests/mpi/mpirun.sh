# shellcheck shell=bash
# tests/mpi/mpirun.sh - common driver for the MPI tests (sourced, bash).
#
#   . "$(dirname "$0")/mpirun.sh"
#   rp_run   NP NET [VAR=VAL ...] -- PROG [ARGS]   # plain mpirun
#   rp_prof  NP NET [VAR=VAL ...] -- PROG [ARGS]   # under LD_PRELOAD=$RP_LIB
#   rp_prun  NP NET [VAR=VAL ...] -- PROG [ARGS]   # under $RP_BINDIR/rp-run
#   rp_report [DIR]                                # rp-report --format json
#   rp_check_report ARGS...                        # tests/mpi/check_report.py on it
#   rp_pass MSG / rp_fail MSG / rp_finish
#
# NET is shm (Open MPI: self,vader), tcp (self,tcp over loopback) or any (MPI's choice);
# see rp_mpirun_args for what they are with MPICH.  VAR=VAL pairs are exported
# to the ranks (mpirun -x, mpiexec -genv; rp_mpirun_env).  RP_MPI_FLAVOR is
# openmpi, mpich or other.  Every run gets a fresh
# directory $RP_RUNDIR; profiled runs write into RP_OUTPUT=$RP_DIR (a fresh,
# not yet existing path inside it).  After a run: $RP_RC (exit status; 124 =
# watchdog), $RP_OUTF / $RP_ERRF (stdout / stderr files), $RP_CMD (the command
# line, for logs).  rp_fail prints the command, its output and the report so
# that a CI log alone explains a failure.  Tests exit 0 (pass) or 1 (fail).
#
# Runs made while RP_TIMING=1 (timing tests) hold an exclusive lock, all
# other runs a shared one, so that `make -j2 check` never overlaps a timed
# job with another MPI job on a small machine.

if [ -z "${BASH_VERSION:-}" ]; then
    echo "mpirun.sh: needs bash" >&2
    exit 1
fi

# ---- environment (set by AM_TESTS_ENVIRONMENT; defaults for manual runs) ----
: "${RP_TOP_SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${RP_TOP_BUILDDIR:=$PWD}"
: "${RP_LIB:=$RP_TOP_BUILDDIR/lib/.libs/librpprof.so}"
: "${RP_BINDIR:=$RP_TOP_BUILDDIR/tools}"
: "${MPIRUN:=mpirun}"
if [ -z "${PYTHON:-}" ] || [ "$PYTHON" = none ] || [ "$PYTHON" = : ]; then
    PYTHON=python3
fi
RP_TESTS_SRC=$RP_TOP_SRCDIR/tests
RP_TESTS_BIN=$RP_TOP_BUILDDIR/tests
: "${RP_WATCHDOG:=120}"
export RP_TOP_SRCDIR RP_TOP_BUILDDIR RP_LIB RP_BINDIR MPIRUN PYTHON

# The profiler's settings must come from the test alone.
unset RP_K RP_SELECT RP_SUMMARY RP_MODE RP_PERIOD RP_OUTPUT RP_CLOCK RP_TSC RP_THREADS RP_MULTIPLE LD_PRELOAD
export LC_ALL=C

# Open MPI refuses root without these; CI containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# more ranks than cores is the normal case here
export OMPI_MCA_rmaps_base_oversubscribe=1
# no "unused component" chatter from e.g. openib in containers
export OMPI_MCA_btl_base_warn_component_unused=0

# The MPI flavour decides the launcher's options: openmpi (mpirun/orterun),
# mpich (hydra's mpiexec), other.  configure's RP_MPI_FLAVOR (from mpicc)
# comes through AM_TESTS_ENVIRONMENT; the launcher itself is asked when it
# is unset (manual runs) and must agree when it is set: a build against
# MPICH run by Open MPI's mpirun (or the reverse) is a set-up error that
# would otherwise show up as every rank believing it is rank 0.
rp_launcher_flavor() {
    local v
    v=$("$MPIRUN" --version 2>&1 </dev/null) || true
    case $v in
    *'Open MPI'* | *OpenRTE*) echo openmpi ;;
    *HYDRA* | *hydra*) echo mpich ;;
    *) echo other ;;
    esac
}
case ${RP_MPI_FLAVOR:-} in
openmpi | mpich)
    if [ "$(rp_launcher_flavor)" != "$RP_MPI_FLAVOR" ]; then
        echo "FAIL: built against $RP_MPI_FLAVOR, but MPIRUN=$MPIRUN is $(rp_launcher_flavor) (configure MPICC=... picks both)"
        exit 1
    fi
    ;;
*) RP_MPI_FLAVOR=$(rp_launcher_flavor) ;;
esac
export RP_MPI_FLAVOR

RP_FAILS=0
RP_NRUN=0
RP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/rptest.XXXXXX") || {
    echo "cannot create a temporary directory" >&2
    exit 1
}
rp_cleanup() {
    if [ "${RP_KEEP:-0}" = 1 ]; then
        echo "(kept $RP_TMP)"
    else
        rm -rf "$RP_TMP"
    fi
}
trap rp_cleanup EXIT
# Open MPI: this script's mpiruns keep their session directories under its
# own temporary directory.  The shared /tmp/ompi.HOST.UID is created and
# removed by every mpirun, and two starting at once (make check -j2) can
# race: "mkdir /tmp/ompi.vm.0: File exists ... orte_init failed", seen in CI.
if [ "$RP_MPI_FLAVOR" = openmpi ] && mkdir -p "$RP_TMP/ompi"; then
    export OMPI_MCA_orte_tmpdir_base=$RP_TMP/ompi
fi

# RP_TIMING is read at each run: a test may time only some of its runs.
RP_LOCK=$RP_TOP_BUILDDIR/tests/.mpi-test.lock
if command -v flock >/dev/null 2>&1 && mkdir -p "$RP_TOP_BUILDDIR/tests" 2>/dev/null &&
    : >>"$RP_LOCK" 2>/dev/null; then
    RP_HAVE_LOCK=1
else
    RP_HAVE_LOCK=0
fi

rp_note() { printf '%s\n' "$*"; }

# print a file (bounded) with a heading, for logs
rp_show() {
    local title=$1 f=$2
    echo "---- $title ($f) ----"
    if [ -s "$f" ]; then
        head -c 20000 "$f"
        [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || echo
    else
        echo "(empty)"
    fi
}

# the mpirun options for NP ranks over NET
#
# MPICH (hydra, ch4): ranks may outnumber cores by default; environment goes
# with -genv; processes are not bound unless -bind-to is given.  Debian's
# MPICH 4 is ch4:ucx: ranks on one node talk through ch4's own POSIX
# shared-memory module (shm), or through the UCX network module for every
# peer when MPIR_CVAR_NOLOCAL=1 (our "tcp": the second, independent
# transport stack with its own eager/rendezvous protocols; UCX then picks
# its sysv/cma shared memory on one node).  Real TCP (UCX_TLS=tcp,self)
# hangs in MPI_Finalize with MPICH 4.0.2 + UCX 1.13.1 even without the
# profiler (doc/mpich.md), so it is not used.
rp_mpirun_args() {
    local np=$1 net=$2
    RP_MPIARGS=(-np "$np")
    if [ "$RP_MPI_FLAVOR" = mpich ]; then
        case $net in
        shm | any | '') ;;
        tcp) RP_MPIARGS+=(-genv MPIR_CVAR_NOLOCAL 1) ;;
        *) echo "rp_mpirun_args: unknown transport '$net'" >&2; return 1 ;;
        esac
    elif [ "$RP_MPI_FLAVOR" = openmpi ]; then
        # --oversubscribe: more ranks than cores; --bind-to none: let the
        # kernel spread sleeping/spinning ranks; pml ob1 so that the btl
        # choice is honoured (UCX would bypass it); no single-copy (CMA), which
        # containers often forbid; waiting ranks yield the CPU.
        RP_MPIARGS+=(--oversubscribe --bind-to none --mca pml ob1
            --mca btl_vader_single_copy_mechanism none --mca mpi_yield_when_idle 1)
        case $net in
        shm) RP_MPIARGS+=(--mca btl self,vader) ;;
        tcp) RP_MPIARGS+=(--mca btl self,tcp --mca btl_tcp_if_include lo) ;;
        any | '') ;;
        *) echo "rp_mpirun_args: unknown transport '$net'" >&2; return 1 ;;
        esac
    fi
}

# rp_mpirun_env VAR=VAL ...: add the launcher options that set VAR=VAL in
# every rank to RP_MPIARGS (mpirun -x / mpiexec -genv)
rp_mpirun_env() {
    local a
    for a in "$@"; do
        if [ "$RP_MPI_FLAVOR" = openmpi ]; then
            RP_MPIARGS+=(-x "$a")
        else
            RP_MPIARGS+=(-genv "${a%%=*}" "${a#*=}")
        fi
    done
}

# rp_exec KIND NP NET [VAR=VAL ...] -- PROG [ARGS]
rp_exec() {
    local kind=$1 np=$2 net=$3
    shift 3
    local envs=() a
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        envs+=("$1")
        shift
    done
    [ "${1:-}" = -- ] && shift
    RP_NRUN=$((RP_NRUN + 1))
    RP_RUNDIR=$RP_TMP/run-$RP_NRUN
    mkdir -p "$RP_RUNDIR"
    RP_OUTF=$RP_RUNDIR/stdout
    RP_ERRF=$RP_RUNDIR/stderr
    RP_JSON=$RP_RUNDIR/report.json
    RP_JSONERR=$RP_RUNDIR/report.stderr
    rm -f "$RP_JSON" "$RP_JSONERR"
    RP_DIR=
    rp_mpirun_args "$np" "$net" || return 1
    # a test may name its own RP_OUTPUT (e.g. an unwritable one)
    local outdir=$RP_RUNDIR/meas
    for a in "${envs[@]}"; do
        case $a in RP_OUTPUT=*) outdir= ;; esac
    done
    case $kind in
    prof)
        RP_DIR=${outdir:-}
        envs=("LD_PRELOAD=$RP_LIB" ${outdir:+"RP_OUTPUT=$outdir"} "${envs[@]}")
        ;;
    prun)
        RP_DIR=${outdir:-}
        envs=(${outdir:+"RP_OUTPUT=$outdir"} "RP_LIB=$RP_LIB" "${envs[@]}")
        set -- "$RP_BINDIR/rp-run" "$@"
        ;;
    plain) ;;
    esac
    for a in "${envs[@]}"; do
        rp_mpirun_env "$a"
    done
    RP_LOCKCMD=()
    if [ "$RP_HAVE_LOCK" = 1 ]; then
        if [ "${RP_TIMING:-0}" = 1 ]; then RP_LOCKCMD=(flock -x "$RP_LOCK"); else RP_LOCKCMD=(flock -s "$RP_LOCK"); fi
    fi
    RP_CMD="${RP_LOCKCMD[*]} timeout -k 5 $RP_WATCHDOG $MPIRUN ${RP_MPIARGS[*]} $*"
    local t0 t1 pid watch
    t0=$(date +%s.%N)
    "${RP_LOCKCMD[@]}" timeout -k 5 "$RP_WATCHDOG" "$MPIRUN" "${RP_MPIARGS[@]}" "$@" \
        >"$RP_OUTF" 2>"$RP_ERRF" </dev/null &
    pid=$!
    rp_stack_watch "$pid" "$RP_RUNDIR/stacks" </dev/null >/dev/null 2>&1 &
    watch=$!
    wait "$pid"
    RP_RC=$?
    t1=$(date +%s.%N)
    RP_ELAPSED=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    if [ "$RP_RC" = 124 ] || [ "$RP_RC" = 137 ]; then
        echo "WATCHDOG: killed after ${RP_WATCHDOG}s: $RP_CMD" >>"$RP_ERRF"
        wait "$watch"   # the stack watcher: it has written, or finds the run gone
    fi
    return 0
}

# rp_descendants PID: the processes below PID (children first found by
# their parent in /proc/*/stat), one a line
rp_descendants() {
    local f st rest ppid pid
    for f in /proc/[0-9]*/stat; do
        { read -r st <"$f"; } 2>/dev/null || continue
        rest=${st##*) }          # after "pid (comm) ": state ppid ...
        ppid=${rest#* }
        ppid=${ppid%% *}
        pid=${st%% *}
        [ "$ppid" = "$1" ] && { echo "$pid"; rp_descendants "$pid"; }
    done
}

# rp_stack_watch PID FILE: a hang explains itself.  Until PID exits, wait;
# 15 s before the watchdog kills the run, write the stacks of every thread
# of every process under PID that is not a launcher (eu-stack from
# elfutils, else gdb) into FILE, which rp_fail shows.  Polls once a
# second, so it ends within a second of the run.  Not with a watchdog under
# 30 s: those are tests that kill their own runs on purpose.
rp_stack_watch() {
    local pid=$1 out=$2 i p comm at=$((RP_WATCHDOG - 15))
    [ "$RP_WATCHDOG" -ge 30 ] || return 0   # short ones are the tests' own kills
    for ((i = 0; i < at; i++)); do
        sleep 1
        kill -0 "$pid" 2>/dev/null || return 0
    done
    {
        echo "(taken $at s into the run)"
        for p in $(rp_descendants "$pid"); do
            comm=$(cat "/proc/$p/comm" 2>/dev/null) || continue
            case $comm in
            flock | timeout | mpirun | orterun | mpiexec* | orted | prte* | hydra_* | sleep) continue ;;
            esac
            echo "== pid $p ($comm)"
            if command -v eu-stack >/dev/null; then
                timeout 10 eu-stack -n 24 -p "$p" 2>&1 | head -80
            elif command -v gdb >/dev/null; then
                timeout 20 gdb -p "$p" -batch -ex 'thread apply all bt' 2>/dev/null |
                    grep -E '^(#|Thread)' | head -80
            else
                echo "(neither eu-stack nor gdb installed: no stacks)"
            fi
        done
    } >"$out" 2>&1
}

rp_run() { rp_exec plain "$@"; }
rp_prof() { rp_exec prof "$@"; }
rp_prun() { rp_exec prun "$@"; }

# rp_report [DIR]: rp-report --format json of DIR (default: the last run's)
rp_report() {
    local dir=${1:-$RP_DIR}
    "$RP_BINDIR/rp-report" --format json "$dir" >"$RP_JSON" 2>"$RP_JSONERR"
    RP_REPORT_RC=$?
    return $RP_REPORT_RC
}

# rp_fail MSG: record a failure and dump everything about the last run
rp_fail() {
    RP_FAILS=$((RP_FAILS + 1))
    echo "FAIL: $*"
    echo "  command: $RP_CMD"
    echo "  exit status: ${RP_RC:-?}, ${RP_ELAPSED:-?} s"
    rp_show stdout "$RP_OUTF"
    rp_show stderr "$RP_ERRF"
    [ -s "${RP_RUNDIR:-}/stacks" ] && rp_show "stacks before the watchdog" "$RP_RUNDIR/stacks"
    if [ -n "${RP_DIR:-}" ]; then
        echo "---- measurement directory $RP_DIR ----"
        ls -la "$RP_DIR" 2>&1 | head -40
    fi
    if [ -e "$RP_JSON" ] || [ -e "$RP_JSONERR" ]; then
        echo "---- $RP_BINDIR/rp-report --format json $RP_DIR (exit ${RP_REPORT_RC:-?}) ----"
        [ -e "$RP_JSON" ] && head -c 20000 "$RP_JSON" && echo
        [ -s "$RP_JSONERR" ] && rp_show "rp-report stderr" "$RP_JSONERR"
    fi
    echo "---- end of FAIL ----"
}

rp_pass() { echo "ok: $* (${RP_ELAPSED:-?} s)"; }

# the last run must have exited 0 (and not by the watchdog)
rp_expect_rc0() {
    if [ "$RP_RC" != 0 ]; then
        rp_fail "$1: exit status $RP_RC"
        return 1
    fi
}

# the last profiled run must have succeeded and rp-report must accept it
rp_expect_report() {
    rp_expect_rc0 "$1" || return 1
    if ! rp_report; then
        rp_fail "$1: rp-report failed (exit $RP_REPORT_RC)"
        return 1
    fi
}

# rp_check_report WHAT [check_report.py options]: check the last report
rp_check_report() {
    local what=$1 out
    shift
    if out=$("$PYTHON" "$RP_TESTS_SRC/mpi/check_report.py" "$RP_JSON" "$@" 2>&1); then
        echo "$out" | sed 's/^/  /'
        rp_pass "$what"
        return 0
    fi
    rp_fail "$what: $(echo "$out" | grep -m1 -e '^CHECK FAILED' -e 'Error' || echo "$out" | tail -1)"
    echo "$out" | sed 's/^/  check_report: /'
    return 1
}

# rp_expect_check WHAT: rp-report --check of the last run must pass (exit 0);
# the pass line quotes its last line, a failure shows all of it
rp_expect_check() {
    if "$RP_BINDIR/rp-report" --check "$RP_DIR" >"$RP_RUNDIR/check" 2>&1; then
        rp_pass "$1: rp-report --check ($(tail -1 "$RP_RUNDIR/check"))"
        return 0
    fi
    rp_fail "$1: rp-report --check failed"
    rp_show check "$RP_RUNDIR/check"
    return 1
}

# rp_valgrind_setup: valgrind must be installed (its absence fails the test,
# never skips it); RP_VG_SUPP gets the suppression options (ours, and Open
# MPI's where installed)
rp_valgrind_setup() {
    if ! command -v valgrind >/dev/null 2>&1; then
        echo "FAIL: valgrind is not installed (apt-get install valgrind; quickstart.sh does)"
        exit 1
    fi
    RP_VG_SUPP=()
    local s
    for s in "$RP_TESTS_SRC/robust/valgrind.supp" /usr/share/openmpi/openmpi-valgrind.supp; do
        [ -f "$s" ] && RP_VG_SUPP+=("--suppressions=$s")
    done
}

# the program's own stdout, without lines the MPI library may add
rp_stdout_filtered() { grep -v -e '^\[[^]]*\] ' "$1" || true; }

# rp_timed CASE-FUNCTION ARGS...: run a wall-clock case; if it fails, run it
# once more.  Timing assertions compare sleeps and spins with their analytic
# paths; on a 2-core machine another process can delay one wake-up by tens
# of ms.  A real bug fails both times; the retry is printed, never hidden.
rp_timed() {
    local before=$RP_FAILS
    "$@"
    if [ "$RP_FAILS" -gt "$before" ]; then
        echo "RETRY (timing, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) load): $*"
        RP_FAILS=$before
        "$@"
    fi
}

rp_finish() {
    if [ "$RP_FAILS" -gt 0 ]; then
        echo "$RP_FAILS check(s) failed"
        exit 1
    fi
    echo "all checks passed"
    exit 0
}

# programs and tools must exist; a missing one is a failure, never a skip
rp_require() {
    local f
    for f in "$@"; do
        if [ ! -x "$f" ] && [ ! -f "$f" ]; then
            echo "FAIL: missing $f (did 'make check' build it?)"
            exit 1
        fi
    done
}

# rp_semantic PROG NET:NP[:VAR=VAL] ... : run PROG with the profiler in
# each configuration (VAR=VAL: one setting for the profiled run) and without
# it; stdout must be byte-identical, both runs must exit 0, and the profiled
# run must give a valid report for the right number of ranks and the mode
# asked.  The run without the profiler is made once per PROG, NP and NET in
# a test: a second configuration there (another profiler setting) compares
# with the first one's reference.  The transport stays in the key: MPICH's
# "tcp" (MPIR_CVAR_NOLOCAL=1) puts every rank on a node of its own for
# MPI_Comm_split_type, which the conformance programs print.
rp_semantic() {
    local prog=$1 cfg np net ref what setting mode
    shift
    rp_require "$prog" "$RP_LIB" "$RP_BINDIR/rp-report"
    for cfg in "$@"; do
        net=${cfg%%:*}
        np=${cfg#*:}
        setting=
        case $np in *:*) setting=${np#*:} np=${np%%:*} ;; esac
        mode=prof
        case $setting in RP_MODE=*) mode=${setting#RP_MODE=} ;; esac
        what="$(basename "$prog") np=$np $net${setting:+ $setting}"
        ref=$RP_TMP/ref.$(printf '%s' "$prog" | tr -c 'A-Za-z0-9_' _).np$np.$net
        if [ ! -s "$ref" ]; then
            rp_run "$np" "$net" -- "$prog"
            rp_expect_rc0 "$what (without profiler)" || continue
            rp_stdout_filtered "$RP_OUTF" >"$ref.new"
            if [ ! -s "$ref.new" ]; then
                rp_fail "$what (without profiler): no output"
                continue
            fi
            mv "$ref.new" "$ref"
        fi
        rp_prof "$np" "$net" $setting -- "$prog"
        rp_expect_rc0 "$what (profiled)" || continue
        if ! diff -u "$ref" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
            rp_fail "$what: output differs with the profiler (- without, + with)"
            rp_show diff "$RP_RUNDIR/diff"
            continue
        fi
        if ! rp_report; then
            rp_fail "$what: rp-report failed (exit $RP_REPORT_RC)"
            continue
        fi
        rp_check_report "$what: identical output ($(wc -l <"$ref") lines), report" \
            --ranks "$np" --k 5 --mode "$mode" --clean-counters
    done
}
