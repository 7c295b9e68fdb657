# tests/tools/browser_env.sh - sourced by the tests that drive headless
# chromium (test_html.sh, test_speedscope.sh): where the build is, the
# tools they need, and the lock that keeps the browser away from timing tests.
# Sets top_src, top_build, bindir, mkrank, mkpath, browser; exits 1 when a
# tool is not built (a missing prerequisite is a failure, never a skip).
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
# Chromium keeps both cores busy for seconds: run under the MPI tests' shared
# lock, so the timing tests, which hold it exclusively (tests/mpi/mpirun.sh),
# never run beside it (their slept work overran by 30-50 % when they did).
lock=$top_build/tests/.mpi-test.lock
if [ -z "${RP_BROWSER_LOCKED:-}" ] && command -v flock >/dev/null 2>&1 &&
    mkdir -p "$top_build/tests" 2>/dev/null && : >>"$lock" 2>/dev/null; then
    export RP_BROWSER_LOCKED=1
    exec flock -s "$lock" bash "$0" "$@"
fi
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
mkpath=${MKPATHFILES:-$top_build/tests/mkpathfiles}
browser=${CHROMIUM:-chromium}
for f in "$bindir/rp-report" "$mkrank" "$mkpath"; do
    [ -x "$f" ] || { echo "$(basename "$0"): $f not built" >&2; exit 1; }
done
