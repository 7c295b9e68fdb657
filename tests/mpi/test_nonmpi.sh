#!/bin/bash
# librpprof.so preloaded into programs that never call MPI_Init does
# nothing: same exit status, same output, nothing on stderr, no files -
# even with RP_* variables set (they are only read by MPI_Init).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

rp_require "$RP_LIB"
WD=$RP_TMP/cwd
mkdir -p "$WD"

# nonmpi_case WHAT EXPECTED_STDOUT EXPECTED_RC [VAR=VAL ...] -- CMD...
nonmpi_case() {
    local what=$1 want=$2 wrc=$3
    shift 3
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    RP_NRUN=$((RP_NRUN + 1))
    RP_RUNDIR=$RP_TMP/run-$RP_NRUN
    mkdir -p "$RP_RUNDIR"
    RP_OUTF=$RP_RUNDIR/stdout RP_ERRF=$RP_RUNDIR/stderr RP_DIR=
    RP_CMD="cd $WD && env LD_PRELOAD=$RP_LIB ${envs[*]} $*"
    local t0=$(date +%s.%N)
    (cd "$WD" && env "LD_PRELOAD=$RP_LIB" "${envs[@]}" timeout -k 5 60 "$@") \
        >"$RP_OUTF" 2>"$RP_ERRF" </dev/null
    RP_RC=$?
    RP_ELAPSED=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    if [ "$RP_RC" != "$wrc" ]; then
        rp_fail "$what: exit status $RP_RC, expected $wrc"
    elif [ "$(cat "$RP_OUTF")" != "$want" ]; then
        rp_fail "$what: stdout differs (expected '$want')"
    elif [ -s "$RP_ERRF" ]; then
        rp_fail "$what: printed something on stderr"
    elif [ -n "$(ls -A "$WD")" ]; then
        rp_fail "$what: left files behind: $(ls -A "$WD" | tr '\n' ' ')"
        rm -rf "${WD:?}"/* "${WD:?}"/.[!.]* 2>/dev/null
    else
        rp_pass "$what"
    fi
}

nonmpi_case "/bin/true" "" 0 -- /bin/true
nonmpi_case "/bin/false" "" 1 -- /bin/false
nonmpi_case "sh -c 'echo hi'" "hi" 0 -- sh -c 'echo hi'
nonmpi_case "sh pipeline" "3" 0 -- sh -c 'printf "a\nb\nc\n" | wc -l | tr -d " "'
nonmpi_case "ls with RP_* set" "" 0 RP_K=abc RP_MODE=trace RP_PERIOD=100 RP_OUTPUT=/proc/nope -- ls
nonmpi_case "$PYTHON" "42" 0 RP_K=3 -- "$PYTHON" -c 'print(42)'
nonmpi_case "sleep under a sampling period" "" 0 RP_PERIOD=100 -- sleep 0.2
rp_finish
