#!/bin/bash
# Memory per handle (issue 33, item 2; doc/robustness.md "Memory per
# handle"): a program that creates and frees communicators (tests/mpi/
# mpi_churn.c: MPI_Comm_dup + a collective + MPI_Comm_free, splits, frees
# with operations still in flight), windows, files and requests must not
# grow under the profiler.  Each rank's VmRSS after a warm-up and at the
# end may differ by at most RP_CHURN_LIMIT_KB (1024); if it grows more, the
# same run without the profiler says how much of that is the MPI library's
# own, and only the profiler's part counts.  Then the communicator loop runs
# under valgrind memcheck: no memory error, and no definite leak that grows
# with the iterations (a loss record of at least iterations/32 blocks).
#
# Iterations: RP_CHURN_ITERS (1 000 000, the issue's) communicators, about
# 25-35 s with MPICH and 60-70 s with Open MPI at 2 ranks on 2 cores (the
# profiler makes three duplicates of each; several times that when other
# jobs load the cores); RP_CHURN_SMALL_ITERS (10 000) request and window
# loops, a tenth of that of files; RP_CHURN_VG_ITERS (1 000) communicators
# under valgrind (5-30 s; 10 000 take 3-4 minutes).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_churn
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"
# Open MPI's default one-sided component cannot make windows over vader or
# tcp (as in test_onesided.sh)
export OMPI_MCA_osc=sm,pt2pt
LIMIT_KB=${RP_CHURN_LIMIT_KB:-1024}
ITERS=${RP_CHURN_ITERS:-1000000}
SMALL=${RP_CHURN_SMALL_ITERS:-10000}
VG_ITERS=${RP_CHURN_VG_ITERS:-1000}

# the largest growth_kb of the last run's ranks, or empty (and the lines in
# $RP_RUNDIR/churn)
growth() {
    rp_stdout_filtered "$RP_OUTF" | grep '^churn ' >"$RP_RUNDIR/churn"
    [ "$(wc -l <"$RP_RUNDIR/churn")" = 2 ] || return 1
    sed -n 's/.* growth_kb=\(-\{0,1\}[0-9]*\) .*/\1/p' "$RP_RUNDIR/churn" | sort -n | tail -1
}

churn_case() { # KIND ITERS WARM
    local kind=$1 iters=$2 warm=$3 what g gp secs
    what="$kind x $iters (np=2)"
    RP_WATCHDOG=$((120 + iters / 500)) rp_prof 2 shm -- "$PROG" "$kind" "$iters" "$warm"
    rp_expect_rc0 "$what" || return
    if ! g=$(growth); then
        rp_fail "$what: not two 'churn' lines"
        return
    fi
    secs=$RP_ELAPSED
    if ! rp_report; then
        rp_fail "$what: rp-report failed (exit $RP_REPORT_RC)"
        return
    fi
    local detail
    detail=$(tr '\n' ';' <"$RP_RUNDIR/churn")
    if [ "$g" -le "$LIMIT_KB" ]; then
        RP_ELAPSED=$secs rp_pass "$what: resident memory after $warm iterations to the end grew by at most $g KB <= $LIMIT_KB KB ($detail)"
        return
    fi
    # more than the limit: how much is the MPI library's own?
    RP_WATCHDOG=$((120 + iters / 500)) rp_run 2 shm -- "$PROG" "$kind" "$iters" "$warm"
    if [ "$RP_RC" = 0 ] && gp=$(growth) && [ $((g - gp)) -le "$LIMIT_KB" ]; then
        rp_pass "$what: grew by $g KB, $gp KB of it without the profiler too ($detail)"
        return
    fi
    rp_fail "$what: resident memory grew by $g KB with the profiler (limit $LIMIT_KB KB; without it: ${gp:-?} KB): $detail"
}

churn_case comm "$ITERS" 10000
churn_case req "$SMALL" $((SMALL / 10))
churn_case win "$SMALL" $((SMALL / 10))
churn_case file $((SMALL / 10)) $((SMALL / 100))

# ---- valgrind memcheck ------------------------------------------------------
rp_valgrind_setup
what="comm x $VG_ITERS under valgrind (np=2)"
vgrun=$((RP_NRUN + 1))   # (rp_prof counts this run)
RP_WATCHDOG=$((300 + VG_ITERS / 10)) rp_prof 2 shm -- valgrind -q --error-exitcode=97 \
    --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=none \
    "${RP_VG_SUPP[@]}" --num-callers=40 --log-file="$RP_TMP/vg.$vgrun.%p.log" \
    "$PROG" comm "$VG_ITERS" $((VG_ITERS / 10))
# a leak that grows with the iterations: a loss record of many blocks
min_blocks=$((VG_ITERS / 32 > 20 ? VG_ITERS / 32 : 20))
bad=0
nlogs=0
for f in "$RP_TMP"/vg."$vgrun".*.log; do
    [ -f "$f" ] || continue
    nlogs=$((nlogs + 1))
    if awk -v min="$min_blocks" '
        / are definitely lost in loss record / {
            for (i = 1; i <= NF; i++) if ($i == "blocks") { n = $(i - 1); gsub(",", "", n) }
            if (n + 0 >= min) { show = 1; found = 1 } else show = 0
        }
        show { print }
        /^==[0-9]+== $/ { show = 0 }
        END { exit found ? 0 : 1 }' "$f" >"$f.growing"; then
        bad=1
        rp_show "definite leaks of >= $min_blocks blocks" "$f.growing"
    fi
done
if [ "$RP_RC" != 0 ] || [ "$nlogs" = 0 ] || [ $bad = 1 ]; then
    for f in "$RP_TMP"/vg."$vgrun".*.log; do
        [ "$RP_RC" = 97 ] && [ -f "$f" ] && rp_show "valgrind log" "$f"
    done
    rp_fail "$what: exit $RP_RC (97 = memcheck errors), $nlogs logs, growing leak: $bad"
elif ! rp_report; then
    rp_fail "$what: rp-report failed (exit $RP_REPORT_RC)"
else
    rp_pass "$what: no memcheck error, no definite leak of $min_blocks or more blocks"
fi
rp_finish
