#!/bin/bash
# The course assignment's Fig. 1 program (tests/mpi_assignment) at 4 ranks:
# rp-report --format critpath must print exactly the assignment's Fig. 2,
#   - from RP_MODE=path with RP_K=1 (the online critical path), over shared
#     memory and over TCP;
#   - from RP_MODE=trace (the critical path computed offline from the task
#     graph), where rp-report --check must also pass and --format dot must
#     render with the critical path in red.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/../mpi/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_assignment
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"

FIG2=$RP_TMP/fig2.txt
printf '%s\n' 'MPI_Init -1' 1 'MPI_Send 0' 4 'MPI_Recv 1' 1 'MPI_Send 1' 4 'MPI_Recv 2' 1 \
    'MPI_Send 2' 4 'MPI_Recv 3' 1 'MPI_Barrier -1' 2 'MPI_Send 0' 4 'MPI_Recv 1' 0 \
    'MPI_Finalize -1' >"$FIG2"

for cfg in path:shm path:tcp trace:shm; do
    mode=${cfg%%:*}
    net=${cfg#*:}
    what="assignment np=4 $net RP_MODE=$mode"
    k=1
    [ "$mode" = trace ] && k=2
    rp_prof 4 "$net" RP_MODE="$mode" RP_K=$k RP_PERIOD=0 -- "$PROG"
    rp_expect_report "$what" || continue
    crit=$RP_RUNDIR/critPath.out
    if ! "$RP_BINDIR/rp-report" --format critpath "$RP_DIR" >"$crit" 2>"$crit.err"; then
        rp_fail "$what: rp-report --format critpath failed"
        rp_show stderr "$crit.err"
        continue
    fi
    if ! diff -u "$FIG2" "$crit" >"$RP_RUNDIR/diff"; then
        rp_fail "$what: critPath.out differs from Fig. 2 (- expected, + got)"
        rp_show diff "$RP_RUNDIR/diff"
        continue
    fi
    rp_pass "$what: critPath.out = Fig. 2"
    if ! "$RP_BINDIR/rp-report" --check "$RP_DIR" >"$RP_RUNDIR/check" 2>&1; then
        rp_fail "$what: rp-report --check"
        rp_show check "$RP_RUNDIR/check"
        continue
    fi
    rp_pass "$what: --check ($(tail -1 "$RP_RUNDIR/check"))"
    if [ "$mode" = trace ]; then
        gv=$RP_RUNDIR/dotOutput.gv
        if ! "$RP_BINDIR/rp-report" --format dot "$RP_DIR" >"$gv" 2>"$gv.err"; then
            rp_fail "$what: --format dot failed"
            rp_show stderr "$gv.err"
            continue
        fi
        nred=$(grep -c 'color=red' "$gv")
        if [ "$nred" != 10 ]; then
            rp_fail "$what: $nred red edges in the DOT graph, expected 10 (6 tasks, 4 messages)"
            rp_show dot "$gv"
        elif command -v dot >/dev/null 2>&1 && ! dot -Tsvg "$gv" -o "$gv.svg" 2>"$gv.doterr"; then
            rp_fail "$what: dot -Tsvg rejects the graph"
            rp_show "dot errors" "$gv.doterr"
        else
            rp_pass "$what: DOT task graph, critical path red"
        fi
    fi
done
rp_finish
