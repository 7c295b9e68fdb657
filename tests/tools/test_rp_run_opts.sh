#!/bin/sh
# test_rp_run_opts.sh - rp-run checks its options before running anything,
# every tool prints the one version (configure's AC_INIT, as in rpprof.h),
# and a library built for one MPI meets a program of the other (Open MPI
# vs MPICH; both are test dependencies, quickstart.sh) with a clear message:
# rp-run refuses (exit 2); the preloaded library itself steps aside so the
# job still runs, in either direction (lib/mpi/shim.c; more programs in
# tests/mpi/test_wrong_mpi.sh), or, built with --disable-shim, where its
# wrappers cannot pass the handles on (MPICH build in an Open MPI program),
# stops the job cleanly with one message instead of a crash.  Exit 0 pass, 1 fail (a missing
# prerequisite is a failure, not a skip).
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
lib=${RP_LIB:-$top_build/lib/.libs/librpprof.so}
flavor=${RP_MPI_FLAVOR:-openmpi}
run="$bindir/rp-run"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "PASS: $*"; }
for f in "$run" "$bindir/rp-report" "$bindir/rp-merge" "$lib"; do
    [ -e "$f" ] || { echo "test_rp_run_opts.sh: $f not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-run-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# expect_usage WHAT PATTERN ARGS...: exit 2, PATTERN on stderr, nothing run
expect_usage() {
    what=$1 pat=$2; shift 2
    rm -f "$work/ran"
    sh "$run" "$@" >"$work/out" 2>"$work/err"
    rc=$?
    if [ $rc -ne 2 ]; then fail "$what: exit $rc, expected 2"; return; fi
    if ! grep -q -e "$pat" "$work/err"; then fail "$what: stderr lacks '$pat': $(cat "$work/err")"; return; fi
    if [ -e "$work/ran" ]; then fail "$what: the program ran"; return; fi
    pass "$what: $(head -n 1 "$work/err")"
}
touchprog="$work/touch.sh"
printf '#!/bin/sh\ntouch "%s/ran"\n' "$work" >"$touchprog" && chmod +x "$touchprog"
expect_usage "--mode foo" "option --mode: 'foo' is not valid (expected one of: prof path trace)" --mode foo "$touchprog"
expect_usage "--select x" "expected one of: repr paper topk" --select x "$touchprog"
expect_usage "--clock x" "expected one of: wall cpu" -c x "$touchprog"
expect_usage "--threads 2" "expected one of: 0 1" --threads 2 "$touchprog"
expect_usage "--multiple x" "expected one of: local main" --multiple x "$touchprog"
expect_usage "-k -3" "not a non-negative decimal integer" -k -3 "$touchprog"
expect_usage "--period 1e3" "not a non-negative decimal integer" --period 1e3 "$touchprog"
expect_usage "--summary ''" "needs a value" --summary "" "$touchprog"
expect_usage "--jobfile x" "option --jobfile: 'x' is not a non-negative decimal integer" --jobfile x "$touchprog"
expect_usage "--lib /missing" "--lib /nonexistent/librpprof.so: no such file" --lib /nonexistent/librpprof.so "$touchprog"
expect_usage "--lib DIR" "not a readable file" --lib "$work" "$touchprog"
expect_usage "no program" "no program given" -k 3
expect_usage "unknown option" "unknown option '--frobnicate'" --frobnicate "$touchprog"

# valid options run the program with the variables set
printf '#!/bin/sh\necho "$RP_MODE $RP_K $RP_SELECT $RP_JOBFILE $LD_PRELOAD" >"%s/env"\n' "$work" >"$work/env.sh"
chmod +x "$work/env.sh"
if sh "$run" -m trace -k 7 -s topk --jobfile 1 --lib "$lib" "$work/env.sh" &&
   [ "$(cat "$work/env")" = "trace 7 topk 1 $lib" ]; then
    pass "valid options reach the program"
else
    fail "valid options: got '$(cat "$work/env" 2>/dev/null)'"
fi

# --help: a synopsis pointing at the manual page (its sections:
# tests/tools/test_man.sh checks doc/man/rp-run.1)
sh "$run" --help >"$work/help" || fail "--help exit status"
head -n 1 "$work/help" | grep -q "^Usage: .*rp-run " || fail "--help has no Usage: line"
grep -q "rp-run(1)" "$work/help" || fail "--help does not point at rp-run(1)"
grep -q "@libdir@\|@PACKAGE_VERSION@" "$work/help" && fail "--help shows an unsubstituted @...@"

# one version everywhere: rpprof.h's RPPROF_VERSION
want=$(sed -n 's/^#define RPPROF_VERSION "\(.*\)"$/\1/p' "$top_build/include/rpprof.h")
[ -n "$want" ] || fail "no RPPROF_VERSION in $top_build/include/rpprof.h"
for t in rp-run rp-report rp-merge; do
    if [ "$t" = rp-run ]; then v=$(sh "$run" --version); else v=$("$bindir/$t" --version); fi
    [ "$v" = "$t (rpprof) $want" ] && pass "$t --version: $v" || fail "$t --version: '$v', expected '$t (rpprof) $want'"
done

# MPI mismatch: a program of the other MPI
case $flavor in
    mpich) occ=mpicc.openmpi orun="mpirun.openmpi --oversubscribe" ;;
    *)     occ=mpicc.mpich orun=mpiexec.mpich ;;
esac
command -v "$occ" >/dev/null 2>&1 || { fail "$occ not found (quickstart.sh installs both MPIs)"; exit 1; }
cat >"$work/t.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("ok %d\n", r);
    MPI_Finalize();
    return 0;
}
C
"$occ" "$work/t.c" -o "$work/other" || { fail "$occ t.c"; exit 1; }
sh "$run" --lib "$lib" "$work/other" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "is linked with .* but .* was built for" "$work/err"; then
    pass "rp-run refuses a program of the other MPI: $(head -n 1 "$work/err")"
else
    fail "rp-run on the other MPI: exit $rc, $(cat "$work/err")"
fi
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 RP_OUTPUT="$work/meas" \
    LD_PRELOAD="$lib" timeout 120 $orun -n 2 "$work/other" >"$work/out" 2>"$work/err"
rc=$?
n=$(grep -c "^rpprof: this librpprof.so was built for " "$work/err")
if grep -q "Invalid communicator" "$work/err" || [ $rc -ge 124 ]; then
    fail "preloaded into the other MPI: exit $rc (crash or MPI error), err: $(cat "$work/err")"
elif [ "$flavor" = mpich ] && [ -L "$lib" ]; then
    # configure --disable-shim: librpprof.so is librpprof-mpi.so, whose int
    # handles cannot carry Open MPI's pointers: a clean stop, one message
    if [ $rc -ne 0 ] && [ "$n" = 1 ] && grep -q "the job stops here" "$work/err"; then
        pass "preloaded into Open MPI: a clean stop with one message: $(grep '^rpprof:' "$work/err")"
    else
        fail "preloaded into Open MPI: exit $rc, $n messages, err: $(cat "$work/err")"
    fi
elif [ $rc -eq 0 ] && [ "$(sort "$work/out" | tr '\n' ' ')" = "ok 0 ok 1 " ] && [ "$n" = 1 ] &&
     grep -q "rpprof is disabled for this run" "$work/err"; then
    pass "preloaded into the other MPI: the job runs, one message: $(grep '^rpprof:' "$work/err")"
else
    fail "preloaded into the other MPI: exit $rc, $n messages, out: $(cat "$work/out"), err: $(cat "$work/err")"
fi
[ $fails -eq 0 ]
